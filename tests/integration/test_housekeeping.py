"""Old replay ids and failed logins are pruned; recent ones stay."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlmodel import Session, func, select

from bot.core.housekeeping import KEEP_FAILED_LOGINS, KEEP_UPDATE_IDS, prune
from storage import Database, LoginAttempt, ProcessedUpdate, bookkeeping

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)


def _count(session: Session, table: type[ProcessedUpdate] | type[LoginAttempt]) -> int:
    return session.exec(select(func.count()).select_from(table)).one()


async def test_prune_keeps_what_is_recent(database: Database) -> None:
    def seed(session: Session) -> None:
        for age, update_id in (
            (KEEP_UPDATE_IDS + timedelta(minutes=1), "old"),
            (timedelta(0), "new"),
        ):
            session.add(
                ProcessedUpdate(source="telegram", update_id=update_id, processed_at=NOW - age)
            )
        for age in (KEEP_FAILED_LOGINS + timedelta(minutes=1), timedelta(minutes=1)):
            bookkeeping.record_failed_login(session, user_id=None, at=NOW - age)

    database.run_sync(seed)
    assert await prune(database, lambda: NOW) == (1, 1)
    assert database.run_sync(lambda s: (_count(s, ProcessedUpdate), _count(s, LoginAttempt))) == (
        1,
        1,
    )
    assert not database.run_sync(
        lambda s: bookkeeping.mark_processed(s, source="telegram", update_id="new")
    ), "a recent update id is still remembered"
