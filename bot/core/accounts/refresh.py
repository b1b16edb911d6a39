"""Fresh access tokens: refreshed some minutes before expiry, or once after a 401, one
refresh at a time per session.

A user's tasks in one process queue on one lock. Across processes the session's row is
claimed for the refresh (one conditional UPDATE, for longer than a refresh call can take):
a replica that finds it claimed waits for the new tokens rather than refresh with a token
being rotated, and takes over once a dead claimer's claim runs out. No transaction is held
over the call, so the call is made on the event loop like any other, on SQLite and
PostgreSQL alike.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from datetime import datetime, timedelta

from bot.api import TokenPair, TokenRejected
from bot.core.accounts.sessions import SessionStore
from bot.core.clock import Clock
from bot.core.errors import NotLoggedIn, SessionExpired
from bot.core.upstream import Upstream
from storage.upstream_sessions import AccessToken, StoredSession, Tokens

__all__ = ["CLAIM", "TokenRefresher", "tokens_of"]

log = logging.getLogger(__name__)

# The service documents 30 days but sends no expiry for the refresh token.
REFRESH_TOKEN_LIFETIME = timedelta(days=30)
# Longer than any refresh call takes, its retries included.
CLAIM = timedelta(minutes=1)
# How often a process waiting for another's refresh looks whether its tokens are stored.
_WAIT_SECONDS = 0.1


def tokens_of(pair: TokenPair, now: datetime) -> Tokens:
    """The tokens to store for a pair the service just gave."""
    return Tokens(
        access_token=pair.access_token,
        access_expires_at=pair.access_expires_at,
        refresh_token=pair.refresh_token,
        refresh_expires_at=now + REFRESH_TOKEN_LIFETIME,
    )


class TokenRefresher:
    """Hands out a user's access token, refreshed first where it is due."""

    def __init__(
        self, *, sessions: SessionStore, api: Upstream, clock: Clock, margin: timedelta
    ) -> None:
        self._sessions = sessions
        self._api = api
        self._clock = clock
        self._margin = margin
        # A user's lock lives while someone holds or awaits it, so the map does not grow.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    async def access_token(
        self, user_id: int, *, rejected: str | None = None, known: AccessToken | None = None
    ) -> str:
        """A token fresh for a while yet, and not ``rejected`` (one the service refused);
        ``known`` is the access token as just read, which spares reading it again."""
        if known is None:
            stored = await self._sessions.load(user_id)
            if stored is None:
                raise NotLoggedIn
            known = stored.access
        if self._fresh(known, rejected):
            return known.token
        lock = self._locks.get(user_id)
        if lock is None:
            lock = self._locks[user_id] = asyncio.Lock()
        async with lock:
            return await self._refresh(user_id, rejected)

    def _fresh(self, access: AccessToken, rejected: str | None) -> bool:
        if rejected is not None and access.token == rejected:
            return False
        return access.expires_at - self._margin > self._clock()

    async def _refresh(self, user_id: int, rejected: str | None) -> str:
        while True:
            # Another task, or another process, may have refreshed meanwhile.
            stored = await self._sessions.load(user_id)
            if stored is None:
                raise NotLoggedIn
            if self._fresh(stored.access, rejected):
                return stored.tokens.access_token
            now = self._clock()
            if await self._sessions.claim_refresh(
                user_id, version=stored.version, now=now, until=now + CLAIM
            ):
                return await self._refreshed(user_id, stored)
            # Claimed elsewhere: its new tokens are stored in a moment.
            await asyncio.sleep(_WAIT_SECONDS)

    async def _refreshed(self, user_id: int, stored: StoredSession) -> str:
        """Refresh the claimed session's tokens and store them."""
        try:
            pair = await self._api.refresh(stored.tokens.refresh_token)
        except TokenRejected:
            return await self._refused(user_id, stored)
        except BaseException:
            # Not refused (the service down, a cancelled task): another may try at once.
            await asyncio.shield(self._sessions.release_refresh(user_id, version=stored.version))
            raise
        tokens = tokens_of(pair, self._clock())
        if await self._sessions.swap(user_id, version=stored.version, tokens=tokens) is None:
            # Stored anew meanwhile (a login, or a claim that ran out); those are as good.
            return await self._latest(user_id)
        log.info("refreshed the upstream session of chat user %s", user_id)
        return pair.access_token

    async def _refused(self, user_id: int, stored: StoredSession) -> str:
        # Only the session we read is deleted: if newer tokens were stored since, our refresh
        # token was rotated away by their refresh, not revoked.
        if not await self._sessions.delete(user_id, version=stored.version):
            return await self._latest(user_id)
        log.info("the upstream refused the refresh token of chat user %s", user_id)
        raise SessionExpired

    async def _latest(self, user_id: int) -> str:
        latest = await self._sessions.load(user_id)
        if latest is None:
            raise NotLoggedIn
        return latest.tokens.access_token
