"""One-time login links in storage, on SQLite and PostgreSQL: one claim, expiry, pruning."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.core.operations.housekeeping import KEEP_LOGIN_LINKS, prune
from storage import ChatUser, Database, login_links

NOW = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)
LATER = NOW + timedelta(minutes=10)


def _add(database: Database, user: ChatUser, token_hash: str = "a" * 64) -> str:
    assert user.id is not None
    user_id = user.id
    database.run_sync(
        lambda s: login_links.add_link(
            s, token_hash=token_hash, user_id=user_id, chat_id="1001", expires_at=LATER
        )
    )
    return token_hash


async def _claim(database: Database, token_hash: str, now: datetime) -> bool:
    return await database.run(lambda s: login_links.claim_link(s, token_hash=token_hash, now=now))


async def test_a_link_is_claimed_once_even_by_claims_at_the_same_time(
    database: Database, chat_user: ChatUser
) -> None:
    token_hash = _add(database, chat_user)

    claims = await asyncio.gather(*(_claim(database, token_hash, NOW) for _ in range(4)))

    assert sorted(claims) == [False, False, False, True]
    link = database.run_sync(lambda s: login_links.find_link(s, token_hash=token_hash))
    assert link is not None
    assert link.used_at == NOW


async def test_a_released_link_is_claimed_again_but_only_by_its_own_claim(
    database: Database, chat_user: ChatUser
) -> None:
    token_hash = _add(database, chat_user)
    assert await _claim(database, token_hash, NOW)

    # Another claim's time: that claim is not this release's to undo.
    database.run_sync(
        lambda s: login_links.release_link(
            s, token_hash=token_hash, claimed_at=NOW + timedelta(seconds=1)
        )
    )
    assert not await _claim(database, token_hash, NOW)
    database.run_sync(lambda s: login_links.release_link(s, token_hash=token_hash, claimed_at=NOW))

    assert await _claim(database, token_hash, NOW + timedelta(seconds=2))


async def test_an_expired_link_cannot_be_claimed(database: Database, chat_user: ChatUser) -> None:
    token_hash = _add(database, chat_user)

    assert not await _claim(database, token_hash, LATER)
    assert await _claim(database, token_hash, LATER - timedelta(microseconds=1))


async def test_a_new_link_replaces_the_users_earlier_one(
    database: Database, chat_user: ChatUser
) -> None:
    first = _add(database, chat_user, "a" * 64)
    second = _add(database, chat_user, "b" * 64)

    assert database.run_sync(lambda s: login_links.find_link(s, token_hash=first)) is None
    assert database.run_sync(lambda s: login_links.find_link(s, token_hash=second)) is not None


async def test_housekeeping_forgets_links_a_day_after_they_expired(
    database: Database, chat_user: ChatUser
) -> None:
    token_hash = _add(database, chat_user)

    assert (await prune(database, lambda: LATER + KEEP_LOGIN_LINKS)).links == 0
    assert (
        await prune(database, lambda: LATER + KEEP_LOGIN_LINKS + timedelta(seconds=1))
    ).links == 1
    assert database.run_sync(lambda s: login_links.find_link(s, token_hash=token_hash)) is None
