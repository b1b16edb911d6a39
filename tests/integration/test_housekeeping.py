"""Old replay ids, failed logins, drafts and awaited e-mails are pruned; recent ones stay."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlmodel import Session, func, select

from bot.core.housekeeping import (
    KEEP_AWAITED_EMAIL,
    KEEP_CLOSED_DRAFTS,
    KEEP_FAILED_LOGINS,
    KEEP_IDLE_DRAFTS,
    KEEP_UPDATE_IDS,
    prune,
)
from storage import (
    Awaiting,
    Database,
    Draft,
    DraftStep,
    LoginAttempt,
    ProcessedUpdate,
    bookkeeping,
    users,
)

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
    pruned = await prune(database, lambda: NOW)
    assert (pruned.updates, pruned.logins) == (1, 1)
    assert database.run_sync(lambda s: (_count(s, ProcessedUpdate), _count(s, LoginAttempt))) == (
        1,
        1,
    )
    assert not database.run_sync(
        lambda s: bookkeeping.mark_processed(s, source="telegram", update_id="new")
    ), "a recent update id is still remembered"


async def test_closed_and_idle_drafts_are_deleted_but_never_a_submitted_one(
    database: Database,
) -> None:
    user = database.run_sync(
        lambda s: users.get_or_create_user(s, platform="telegram", workspace="", external_id="1")
    )
    assert user.id is not None
    user_id = user.id
    ages = {
        DraftStep.DONE: KEEP_CLOSED_DRAFTS,
        DraftStep.CANCELLED: KEEP_CLOSED_DRAFTS,
        DraftStep.FAILED: KEEP_CLOSED_DRAFTS,
        DraftStep.TONE: KEEP_IDLE_DRAFTS,
        DraftStep.SUBMITTED: 10 * KEEP_IDLE_DRAFTS,
    }

    def seed(session: Session) -> None:
        for step, age in ages.items():
            for old in (True, False):
                made = NOW - age - timedelta(minutes=1) if old else NOW - timedelta(minutes=1)
                session.add(
                    Draft(
                        id=f"{step.value[:6]}-{old:d}",
                        chat_user_id=user_id,
                        chat_id="1",
                        step=step,
                        created_at=made,
                    )
                )

    database.run_sync(seed)

    assert (await prune(database, lambda: NOW)).drafts == 4
    left = database.run_sync(lambda s: sorted(d.id for d in s.exec(select(Draft)).all()))
    assert left == sorted(["cancel-0", "done-0", "failed-0", "submit-0", "submit-1", "tone-0"])


async def test_an_email_awaiting_its_password_is_erased_after_ten_minutes(
    database: Database,
) -> None:
    user = database.run_sync(
        lambda s: users.get_or_create_user(s, platform="telegram", workspace="", external_id="1")
    )
    assert user.id is not None
    user_id = user.id
    database.run_sync(
        lambda s: users.set_awaiting(
            s, user_id=user_id, awaiting=Awaiting.PASSWORD, context="ayse@example.com", at=NOW
        )
    )

    assert (await prune(database, lambda: NOW + KEEP_AWAITED_EMAIL)).emails == 0
    assert (
        await prune(database, lambda: NOW + KEEP_AWAITED_EMAIL + timedelta(seconds=1))
    ).emails == 1

    stored = database.run_sync(lambda s: users.get_user(s, user_id=user_id))
    assert stored is not None
    assert (stored.awaiting, stored.awaiting_context) == (None, None)
