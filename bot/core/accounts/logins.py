"""Login throttling: each attempt is reserved (counted as failed) before the login call and
settled once its outcome is known, so concurrent logins, on any replica, cannot all pass
one count, and nothing is held over the call."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import timedelta

from sqlmodel import Session

from bot.core.clock import Clock
from bot.core.errors import LoginThrottled
from bot.core.operations.operations import Operations
from storage import Database, bookkeeping

__all__ = ["LoginGuard", "LoginLimits"]


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


class LoginGuard:
    """Reserves login attempts within the limits, and settles them."""

    def __init__(
        self, *, db: Database, clock: Clock, limits: LoginLimits, operations: Operations
    ) -> None:
        self._db = db
        self._clock = clock
        self._limits = limits
        self._operations = operations

    async def reserve(self, user_id: int, email_hash: str) -> int:
        """Check the limits and count this attempt as failed, in one step; its reservation.

        The check and the reservation share one transaction, serialised across replicas.
        Raises ``LoginThrottled`` past a limit.
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

    async def settle(self, attempt: int, *, failed: bool) -> None:
        """Record how a reserved attempt went; done even when the caller is cancelled."""
        await asyncio.shield(
            self._db.run(lambda s: bookkeeping.settle_login(s, attempt_id=attempt, failed=failed))
        )
