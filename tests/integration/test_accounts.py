"""Accounts against the sandbox: token refreshes racing between replicas."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from sqlalchemy import event
from sqlalchemy.orm import ORMExecuteState, Session

from bot.api import TokenPair
from bot.core.accounts import Accounts
from bot.sandbox import DEMO_EMAIL, DEMO_PASSWORD
from storage import Database, StoredSession, TokenCipher, Tokens, upstream_sessions
from tests.fakes import DeliveryRig, delivery_rig

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

    assert dict(accounts._locks) == {}
