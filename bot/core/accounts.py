"""Each chat user's upstream session: login, logout, and calls made with a fresh token."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import TypeVar

from sqlmodel import Session

from bot.api import LoginInvalid, LoginRejected, TokenPair, TokenRejected
from bot.core.clock import Clock
from bot.core.errors import LoginThrottled, NotLoggedIn, SessionExpired
from bot.core.operations import Operations
from bot.core.upstream import Upstream
from storage import Database, TokenCipher, bookkeeping, upstream_sessions
from storage.upstream_sessions import StoredSession, Tokens

__all__ = ["Accounts", "LoginLimits", "SignedIn", "masked_email"]

T = TypeVar("T")
log = logging.getLogger(__name__)

# The service documents 30 days but sends no expiry for the refresh token.
REFRESH_TOKEN_LIFETIME = timedelta(days=30)


@dataclass(frozen=True, slots=True)
class LoginLimits:
    """Failed logins allowed per window, kept below the upstream's per-IP block.

    A login under way counts as failed until its outcome is known, or for ``reservation``
    at most (longer than any login call). ``per_email`` and ``per_bot`` hold for every
    user, one with a clean record too: a workspace of fresh users is no way round them.
    """

    per_user: int = 5
    per_email: int = 10
    per_bot: int = 30
    window: timedelta = timedelta(minutes=15)
    reservation: timedelta = timedelta(minutes=1)


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A user's stored session as dialogs see it: whose account, never its tokens."""

    # The masked e-mail; None for a session stored before it was kept.
    account: str | None


def masked_email(email: str) -> str:
    """The e-mail with its local part hidden but its first letter: ``d***@example.com``."""
    local, _, domain = email.strip().rpartition("@")
    return f"{local[:1]}***@{domain}"


class Accounts:
    """Logs chat users in and out and runs upstream calls with their tokens."""

    def __init__(
        self,
        *,
        db: Database,
        api: Upstream,
        cipher: TokenCipher,
        clock: Clock,
        refresh_margin: timedelta = timedelta(minutes=5),
        limits: LoginLimits | None = None,
        operations: Operations | None = None,
    ) -> None:
        self._db = db
        self._api = api
        self._cipher = cipher
        self._clock = clock
        self._refresh_margin = refresh_margin
        self._limits = limits or LoginLimits()
        self._operations = operations or Operations(clock=clock)
        # A user's lock lives while someone holds or awaits it, so the map does not grow.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    @property
    def upstream_url(self) -> str:
        """The service the sessions belong to; a session is only valid there."""
        return self._api.base_url

    async def login(self, user_id: int, email: str, password: str) -> None:
        """Log in at the upstream and store the tokens (never the password)."""
        email_hash = self._cipher.fingerprint(email.strip().casefold())
        attempt = await self._reserve_attempt(user_id, email_hash)
        try:
            pair = await self._api.login(email, password)
        except (LoginRejected, LoginInvalid):
            self._operations.login_refused("failed")
            await self._settle(attempt, failed=True)
            raise
        except BaseException:
            # Not a refused password (the service down, a cancelled task): not a failure.
            await self._settle(attempt, failed=False)
            raise
        await self._settle(attempt, failed=False)
        tokens = self._tokens(pair)
        # Failures are not forgiven by a success: they age out of the window instead.
        await self._db.run(
            lambda s: upstream_sessions.save_session(
                s,
                cipher=self._cipher,
                user_id=user_id,
                upstream_url=self.upstream_url,
                tokens=tokens,
                account=masked_email(email),
            )
        )

    async def _settle(self, attempt: int, *, failed: bool) -> None:
        await asyncio.shield(
            self._db.run(lambda s: bookkeeping.settle_login(s, attempt_id=attempt, failed=failed))
        )

    async def logout(self, user_id: int) -> bool:
        """Forget the user's tokens; False when there were none."""
        return await self._db.run(
            lambda s: upstream_sessions.delete_session(
                s, user_id=user_id, upstream_url=self.upstream_url
            )
        )

    async def is_logged_in(self, user_id: int) -> bool:
        """Whether the user has a stored session at this upstream."""
        return await self.signed_in(user_id) is not None

    async def signed_in(self, user_id: int) -> SignedIn | None:
        """The user's session at this upstream, without its tokens; None when logged out."""
        stored = await self._load(user_id)
        return None if stored is None else SignedIn(stored.account)

    async def require(self, user_id: int) -> None:
        """Fail with ``NotLoggedIn`` unless the user has a session."""
        if not await self.is_logged_in(user_id):
            raise NotLoggedIn

    async def call(self, user_id: int, operation: Callable[[str], Awaitable[T]]) -> T:
        """Run an upstream call with a fresh access token; a 401 gets one refresh and one retry."""
        token = await self._access_token(user_id)
        try:
            return await operation(token)
        except TokenRejected:
            token = await self._access_token(user_id, rejected=token)
            return await operation(token)

    async def _reserve_attempt(self, user_id: int, email_hash: str) -> int:
        """Check the limits and count this attempt as failed, in one step; its reservation.

        The check and the reservation share one transaction, serialised across replicas, so
        concurrent logins cannot all pass one count. Nothing is held over the login call.
        """
        limits = self._limits
        now = self._clock()
        since = now - limits.window

        def reserve(session: Session) -> tuple[int | None, int]:
            bookkeeping.lock_logins(session)
            by_user = bookkeeping.failed_logins_by_user_since(session, since=since, now=now)
            at_email = bookkeeping.failed_logins_since(
                session, since=since, now=now, email_hash=email_hash
            )
            # A user past their own limit counts only up to it towards the bot-wide limit.
            everyone = sum(min(failures, limits.per_user) for failures in by_user.values())
            mine = by_user.get(user_id, 0)
            if (
                mine >= limits.per_user
                or at_email >= limits.per_email
                or everyone >= limits.per_bot
            ):
                return None, everyone
            attempt = bookkeeping.reserve_login(
                session,
                user_id=user_id,
                at=now,
                email_hash=email_hash,
                until=now + limits.reservation,
            )
            return attempt, everyone

        attempt, everyone = await self._db.run(reserve)
        await self._operations.login_guard(everyone >= limits.per_bot, everyone)
        if attempt is None:
            self._operations.login_refused("throttled")
            raise LoginThrottled
        return attempt

    async def _load(self, user_id: int) -> StoredSession | None:
        return await self._db.read(
            lambda s: upstream_sessions.load_session(
                s, cipher=self._cipher, user_id=user_id, upstream_url=self.upstream_url
            )
        )

    def _fresh(self, stored: StoredSession, rejected: str | None) -> bool:
        tokens = stored.tokens
        if rejected is not None and tokens.access_token == rejected:
            return False
        return tokens.access_expires_at - self._refresh_margin > self._clock()

    async def _access_token(self, user_id: int, *, rejected: str | None = None) -> str:
        stored = await self._load(user_id)
        if stored is None:
            raise NotLoggedIn
        if self._fresh(stored, rejected):
            return stored.tokens.access_token
        lock = self._locks.get(user_id)
        if lock is None:
            lock = self._locks[user_id] = asyncio.Lock()
        async with lock:
            return await self._refresh(user_id, rejected)

    async def _refresh(self, user_id: int, rejected: str | None) -> str:
        if self._db.is_sqlite:
            # One process per SQLite file, so the asyncio lock serialises the refresh already;
            # a write transaction held over the call would stall every query of the process.
            return await self._refresh_optimistically(user_id, rejected)
        # Replicas share PostgreSQL: the session's row stays locked from reading the refresh
        # token to storing its successor, so a second replica waits, then finds fresh tokens
        # instead of being refused for a token rotated a moment ago.
        loop = asyncio.get_running_loop()
        token = await self._db.run(lambda s: self._refresh_locked(s, loop, user_id, rejected))
        if token is None:
            log.info("the upstream refused the refresh token of chat user %s", user_id)
            raise SessionExpired
        return token

    def _refresh_locked(
        self,
        session: Session,
        loop: asyncio.AbstractEventLoop,
        user_id: int,
        rejected: str | None,
    ) -> str | None:
        """The refreshed access token, the row locked meanwhile; None when refused (deleted)."""
        url = self.upstream_url
        stored = upstream_sessions.load_session(
            session, cipher=self._cipher, user_id=user_id, upstream_url=url, for_update=True
        )
        if stored is None:
            raise NotLoggedIn
        if self._fresh(stored, rejected):
            return stored.tokens.access_token
        call = self._api.refresh(stored.tokens.refresh_token)
        try:
            pair = asyncio.run_coroutine_threadsafe(call, loop).result()
        except TokenRejected:
            upstream_sessions.delete_session(session, user_id=user_id, upstream_url=url)
            return None
        upstream_sessions.swap_tokens(
            session,
            cipher=self._cipher,
            user_id=user_id,
            upstream_url=url,
            expected_version=stored.version,
            tokens=self._tokens(pair),
        )
        log.info("refreshed the upstream session of chat user %s", user_id)
        return pair.access_token

    async def _refresh_optimistically(self, user_id: int, rejected: str | None) -> str:
        # Another task may have refreshed while this one waited for the lock.
        stored = await self._load(user_id)
        if stored is None:
            raise NotLoggedIn
        if self._fresh(stored, rejected):
            return stored.tokens.access_token
        try:
            pair = await self._api.refresh(stored.tokens.refresh_token)
        except TokenRejected:
            return await self._refresh_refused(user_id, stored)
        tokens = self._tokens(pair)
        swapped = await self._db.run(
            lambda s: upstream_sessions.swap_tokens(
                s,
                cipher=self._cipher,
                user_id=user_id,
                upstream_url=self.upstream_url,
                expected_version=stored.version,
                tokens=tokens,
            )
        )
        if swapped is None:
            # A replica swapped first; its tokens are as good as ours.
            latest = await self._load(user_id)
            if latest is None:
                raise NotLoggedIn
            return latest.tokens.access_token
        log.info("refreshed the upstream session of chat user %s", user_id)
        return pair.access_token

    async def _refresh_refused(self, user_id: int, stored: StoredSession) -> str:
        # Only the session we read is deleted: if a replica stored newer tokens since, our
        # refresh token was rotated away by its refresh, not revoked.
        deleted = await self._db.run(
            lambda s: upstream_sessions.delete_session(
                s, user_id=user_id, upstream_url=self.upstream_url, expected_version=stored.version
            )
        )
        if not deleted:
            latest = await self._load(user_id)
            if latest is None:
                raise NotLoggedIn
            return latest.tokens.access_token
        log.info("the upstream refused the refresh token of chat user %s", user_id)
        raise SessionExpired

    def _tokens(self, pair: TokenPair) -> Tokens:
        return Tokens(
            access_token=pair.access_token,
            access_expires_at=pair.access_expires_at,
            refresh_token=pair.refresh_token,
            refresh_expires_at=self._clock() + REFRESH_TOKEN_LIFETIME,
        )
