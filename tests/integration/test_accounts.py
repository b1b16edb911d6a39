"""Accounts against the sandbox: token refreshes racing between replicas."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest
from sqlalchemy import Connection, Engine, event
from sqlalchemy.orm import ORMExecuteState, Session

from bot.api import ServiceUnavailable, TokenPair
from bot.core.accounts import Accounts
from bot.core.accounts.refresh import CLAIM
from bot.core.errors import SessionExpired
from bot.sandbox import DEMO_EMAIL, DEMO_PASSWORD
from storage import Database, StoredSession, TokenCipher, Tokens, upstream_sessions
from tests.fakes import DeliveryRig, delivery_rig, wait_until

# Past the access token's lifetime, well within the refresh token's.
TOKEN_EXPIRED = 2 * 3600.0


@pytest.fixture
async def rig(sqlite_database: Database) -> AsyncIterator[DeliveryRig]:
    async with delivery_rig(sqlite_database) as rig:
        yield rig


@pytest.fixture
async def accounts(rig: DeliveryRig, cipher: TokenCipher) -> Accounts:
    """Accounts of one replica, with the rig's user logged in through it."""
    accounts = Accounts(db=rig.db, api=rig.api, cipher=cipher, clock=rig.clock)
    await accounts.login(rig.user_id, DEMO_EMAIL, DEMO_PASSWORD)
    return accounts


async def echo(token: str) -> str:
    return token


async def stored(rig: DeliveryRig, cipher: TokenCipher) -> StoredSession:
    found = await rig.db.run(
        lambda s: upstream_sessions.load_session(
            s, cipher=cipher, user_id=rig.user_id, upstream_url=rig.api.base_url
        )
    )
    assert found is not None
    return found


@pytest.fixture
def replica_swaps_before_a_delete(
    rig: DeliveryRig, cipher: TokenCipher
) -> Iterator[list[tuple[int, TokenPair]]]:
    """Another replica stores its refreshed tokens just before this one deletes the session.

    The test puts the version the replica read and its new token pair into the list; the
    swap is made once.
    """
    pairs: list[tuple[int, TokenPair]] = []

    def swap_first(state: ORMExecuteState) -> None:
        if not state.is_delete or not pairs:
            return
        version, pair = pairs.pop()
        tokens = Tokens(pair.access_token, pair.access_expires_at, pair.refresh_token, rig.clock())
        swapped = upstream_sessions.swap_tokens(
            state.session,  # type: ignore[arg-type]
            cipher=cipher,
            user_id=rig.user_id,
            upstream_url=rig.api.base_url,
            expected_version=version,
            tokens=tokens,
        )
        assert swapped is not None

    event.listen(Session, "do_orm_execute", swap_first)
    try:
        yield pairs
    finally:
        event.remove(Session, "do_orm_execute", swap_first)


async def test_a_refresh_refused_because_a_replica_rotated_the_token_keeps_its_session(
    rig: DeliveryRig,
    cipher: TokenCipher,
    accounts: Accounts,
    replica_swaps_before_a_delete: list[tuple[int, TokenPair]],
) -> None:
    rig.advance(TOKEN_EXPIRED)
    # The other replica's refresh went through upstream, so ours will be refused.
    before = await stored(rig, cipher)
    replicas = await rig.api.refresh(before.tokens.refresh_token)
    replica_swaps_before_a_delete.append((before.version, replicas))

    token = await accounts.call(rig.user_id, echo)

    assert token == replicas.access_token
    after = await stored(rig, cipher)
    assert (after.version, after.tokens.refresh_token) == (
        before.version + 1,
        replicas.refresh_token,
    )


async def test_a_users_refresh_lock_is_dropped_once_nobody_waits_on_it(
    rig: DeliveryRig, accounts: Accounts
) -> None:
    rig.advance(TOKEN_EXPIRED)

    await accounts.call(rig.user_id, echo)

    assert dict(accounts._refresher._locks) == {}


def refreshes(rig: DeliveryRig) -> int:
    return sum(path.endswith("/auth/refresh") for _, path in rig.sandbox.state.request_log)


async def test_a_revoked_refresh_token_ends_the_session(database: Database) -> None:
    async with delivery_rig(database) as rig:
        rig.advance(TOKEN_EXPIRED)
        # Rotated behind the bot's back: the stored refresh token is no longer valid.
        await rig.api.refresh((await stored(rig, rig.accounts._cipher)).tokens.refresh_token)

        with pytest.raises(SessionExpired):
            await rig.accounts.call(rig.user_id, echo)

        assert not await rig.accounts.is_logged_in(rig.user_id)


async def test_a_refresh_under_way_on_another_replica_is_waited_for_not_repeated(
    database: Database, database_url: str, cipher: TokenCipher
) -> None:
    # Two replicas: each its own locks and its own connections, one database between them.
    replica_b = Database.connect(database_url)
    try:
        async with delivery_rig(database) as rig:
            a = Accounts(db=database, api=rig.api, cipher=cipher, clock=rig.clock)
            b = Accounts(db=replica_b, api=rig.api, cipher=cipher, clock=rig.clock)
            await a.login(rig.user_id, DEMO_EMAIL, DEMO_PASSWORD)
            rig.advance(TOKEN_EXPIRED)
            # A's refresh rotates the token upstream, but its answer is slow to come back;
            # B's refresh, refused for the rotated token, would be answered at once.
            rig.sandbox.state.faults.latency = 1.0
            first = asyncio.create_task(a.call(rig.user_id, echo))
            await wait_until(lambda: refreshes(rig) == 1)
            rig.sandbox.state.faults.latency = 0.0

            second = await b.call(rig.user_id, echo)

            assert second == await first
            assert refreshes(rig) == 1
            assert await b.is_logged_in(rig.user_id)
    finally:
        replica_b.dispose()


async def test_a_refresh_claimed_by_a_process_that_died_is_taken_over_when_the_claim_ends(
    rig: DeliveryRig, cipher: TokenCipher, accounts: Accounts
) -> None:
    rig.advance(TOKEN_EXPIRED)
    before = await stored(rig, cipher)
    now = rig.clock()
    assert await rig.db.run(
        lambda s: upstream_sessions.claim_refresh(
            s,
            user_id=rig.user_id,
            upstream_url=rig.api.base_url,
            version=before.version,
            now=now,
            until=now + CLAIM,
        )
    )
    claims: list[str] = []

    def on_statement(connection: Connection, cursor: object, statement: str, *_: object) -> None:
        if statement.startswith("UPDATE upstream_session SET refreshing_until"):
            claims.append(statement)

    event.listen(Engine, "before_cursor_execute", on_statement)
    try:
        waiting = asyncio.create_task(accounts.call(rig.user_id, echo))
        await wait_until(lambda: len(claims) >= 2)
    finally:
        event.remove(Engine, "before_cursor_execute", on_statement)
    # A claim in force is waited for.
    assert refreshes(rig) == 0
    assert not waiting.done()

    rig.advance(CLAIM.total_seconds())
    token = await waiting

    assert refreshes(rig) == 1
    assert token == (await stored(rig, cipher)).tokens.access_token != before.tokens.access_token


async def test_a_refresh_the_service_did_not_answer_leaves_the_next_call_free_to_refresh(
    rig: DeliveryRig, cipher: TokenCipher, accounts: Accounts
) -> None:
    rig.advance(TOKEN_EXPIRED)
    rig.sandbox.state.faults.fail_next(1)

    with pytest.raises(ServiceUnavailable):
        await accounts.call(rig.user_id, echo)
    token = await accounts.call(rig.user_id, echo)

    assert refreshes(rig) == 2
    assert token == (await stored(rig, cipher)).tokens.access_token
