"""Forgetting what is no longer needed: old replay ids and old failed logins."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import Session

from bot.core.clock import Clock
from storage import Database, bookkeeping

__all__ = ["KEEP_FAILED_LOGINS", "KEEP_UPDATE_IDS", "prune"]

# Platforms retry a delivery for minutes, never for days.
KEEP_UPDATE_IDS = timedelta(days=2)
# Far longer than any throttling window looks back.
KEEP_FAILED_LOGINS = timedelta(days=1)


async def prune(db: Database, clock: Clock) -> tuple[int, int]:
    """Delete expired replay ids and failed logins; returns how many of each."""
    now = clock()

    def work(session: Session) -> tuple[int, int]:
        updates = bookkeeping.prune_processed(session, before=now - KEEP_UPDATE_IDS)
        logins = bookkeeping.prune_failed_logins(session, before=now - KEEP_FAILED_LOGINS)
        return updates, logins

    return await db.run(work)
