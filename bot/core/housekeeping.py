"""Forgetting what is no longer needed: old replay ids, failed logins, drafts, e-mails and
login links."""

from __future__ import annotations

from datetime import timedelta
from typing import NamedTuple

from sqlmodel import Session

from bot.core.clock import Clock
from storage import Database, bookkeeping, drafts, login_links, users

__all__ = [
    "KEEP_AWAITED_EMAIL",
    "KEEP_CLOSED_DRAFTS",
    "KEEP_FAILED_LOGINS",
    "KEEP_IDLE_DRAFTS",
    "KEEP_LOGIN_LINKS",
    "KEEP_UPDATE_IDS",
    "Pruned",
    "prune",
]

# Platforms retry a delivery for minutes, never for days.
KEEP_UPDATE_IDS = timedelta(days=2)
# Far longer than any throttling window looks back.
KEEP_FAILED_LOGINS = timedelta(days=1)
# A press on a finished order's buttons is still told it is finished for a while.
KEEP_CLOSED_DRAFTS = timedelta(hours=1)
# An order nobody finished in a day is abandoned.
KEEP_IDLE_DRAFTS = timedelta(days=1)
# The e-mail typed before the password is kept in plain text only this long.
KEEP_AWAITED_EMAIL = timedelta(minutes=10)
# An expired login link still says "expired" for a day, then "no longer valid".
KEEP_LOGIN_LINKS = timedelta(days=1)


class Pruned(NamedTuple):
    """How many of each were forgotten."""

    updates: int
    logins: int
    drafts: int
    emails: int
    links: int


async def prune(db: Database, clock: Clock) -> Pruned:
    """Delete expired replay ids, failed logins, drafts and login links, and erase stale
    e-mails."""
    now = clock()

    def work(session: Session) -> Pruned:
        return Pruned(
            updates=bookkeeping.prune_processed(session, before=now - KEEP_UPDATE_IDS),
            logins=bookkeeping.prune_failed_logins(session, before=now - KEEP_FAILED_LOGINS),
            drafts=drafts.prune_drafts(
                session,
                closed_before=now - KEEP_CLOSED_DRAFTS,
                idle_before=now - KEEP_IDLE_DRAFTS,
            ),
            emails=users.forget_awaited_passwords(session, before=now - KEEP_AWAITED_EMAIL),
            links=login_links.prune_links(session, before=now - KEEP_LOGIN_LINKS),
        )

    return await db.run(work)
