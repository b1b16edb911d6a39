"""The one door to each chat user's upstream session: login, logout, and calls made with a
fresh token. Throttling, storing and refreshing are each a part of their own."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TypeVar

from bot.api import LoginInvalid, LoginRejected, TokenRejected
from bot.core.accounts.logins import LoginGuard, LoginLimits
from bot.core.accounts.refresh import TokenRefresher, tokens_of
from bot.core.accounts.sessions import SessionStore, SignedIn, masked_email
from bot.core.clock import Clock
from bot.core.conversation.events import UserKey
from bot.core.errors import NotLoggedIn
from bot.core.operations.operations import Operations
from bot.core.upstream import Upstream
from storage import Database, TokenCipher, Transaction
from storage.models import ChatUser
from storage.upstream_sessions import AccessToken

__all__ = ["Accounts"]

T = TypeVar("T")


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
        self._api = api
        self._cipher = cipher
        self._clock = clock
        self._operations = operations or Operations(clock=clock)
        self._guard = LoginGuard(
            db=db, clock=clock, limits=limits or LoginLimits(), operations=self._operations
        )
        self._sessions = SessionStore(db=db, cipher=cipher, upstream_url=api.base_url)
        self._refresher = TokenRefresher(
            sessions=self._sessions, api=api, clock=clock, margin=refresh_margin
        )

    @property
    def upstream_url(self) -> str:
        """The service the sessions belong to; a session is only valid there."""
        return self._sessions.upstream_url

    async def login(self, user_id: int, email: str, password: str) -> None:
        """Log in at the upstream and store the tokens (never the password)."""
        email_hash = self._cipher.fingerprint(email.strip().casefold())
        attempt = await self._guard.reserve(user_id, email_hash)
        try:
            pair = await self._api.login(email, password)
        except (LoginRejected, LoginInvalid):
            self._operations.login_refused("failed")
            await self._guard.settle(attempt, failed=True)
            raise
        except BaseException:
            # Not a refused password (the service down, a cancelled task): not a failure.
            await self._guard.settle(attempt, failed=False)
            raise
        await self._guard.settle(attempt, failed=False)
        # Failures are not forgiven by a success: they age out of the window instead.
        tokens = tokens_of(pair, self._clock())
        await self._sessions.save(user_id, tokens, account=masked_email(email))

    async def logout(self, user_id: int) -> bool:
        """Forget the user's tokens; False when there were none."""
        return await self._sessions.delete(user_id)

    async def is_logged_in(self, user_id: int) -> bool:
        """Whether the user has a stored session at this upstream."""
        return await self.signed_in(user_id) is not None

    def with_user_in(
        self, transaction: Transaction, user: UserKey
    ) -> tuple[ChatUser, AccessToken | None] | None:
        """The chat user and their access token at this upstream, read at once in a
        transaction under way; None for a user not seen before."""
        return self._sessions.with_user_in(transaction, user)

    async def signed_in(self, user_id: int) -> SignedIn | None:
        """The user's session at this upstream, without its tokens; None when logged out."""
        stored = await self._sessions.load(user_id)
        return None if stored is None else SignedIn(stored.account)

    async def require(self, user_id: int) -> None:
        """Fail with ``NotLoggedIn`` unless the user has a session."""
        if not await self.is_logged_in(user_id):
            raise NotLoggedIn

    async def call(
        self,
        user_id: int,
        operation: Callable[[str], Awaitable[T]],
        *,
        known: AccessToken | None = None,
    ) -> T:
        """Run an upstream call with a fresh access token; a 401 gets one refresh and one retry.

        ``known`` is the user's access token as read a moment ago, in the update's first
        transaction.
        """
        token = await self._refresher.access_token(user_id, known=known)
        try:
            return await operation(token)
        except TokenRejected:
            token = await self._refresher.access_token(user_id, rejected=token)
            return await operation(token)
