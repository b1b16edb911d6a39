"""Old replay ids, failed logins, drafts, awaited e-mails, sent messages and chat paces are
pruned; recent ones stay."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlmodel import Session, func, select

from bot.core.operations.housekeeping import (
    KEEP_AWAITED_EMAIL,
    KEEP_CHAT_PACES,
    KEEP_CLOSED_DRAFTS,
    KEEP_FAILED_LOGINS,
    KEEP_IDLE_DRAFTS,
    KEEP_SENT_MESSAGES,
    KEEP_UPDATE_IDS,
    prune,
)
from storage import (
    Awaiting,
    ChatUser,
    Database,
    Draft,
    DraftStep,
    LoginAttempt,
    ProcessedUpdate,
    bookkeeping,
    sent_messages,
    users,
)
from storage.models import ChatPace, SentMessage
from tests.job_rows import leased_whatsapp_job

NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)


def _count(
    session: Session,
    table: type[ProcessedUpdate] | type[LoginAttempt] | type[SentMessage] | type[ChatPace],
) -> int:
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


async def test_sent_messages_are_forgotten_once_no_failure_told_later_can_come(
    database: Database, chat_user: ChatUser
) -> None:
    old = NOW - KEEP_SENT_MESSAGES - timedelta(minutes=1)
    job_id = database.run_sync(
        lambda s: leased_whatsapp_job(s, chat_user, owner="replica-a", now=NOW)
    )

    def seed(session: Session) -> None:
        for part, (message_id, at) in enumerate((("wamid.old", old), ("wamid.new", NOW))):
            assert sent_messages.record_sent_part(
                session,
                job_id=job_id,
                owner="replica-a",
                parts_sent=part,
                until=NOW + timedelta(days=30),
                platform="whatsapp",
                message_id=message_id,
                later=NOW,
                at=at,
            )
        # Failures told before their sender recorded the message, which it never did.
        for message_id, at in (("wamid.lost-old", old), ("wamid.lost-new", NOW)):
            assert (
                sent_messages.take_back(
                    session, platform="whatsapp", message_id=message_id, until=NOW, at=at
                )
                is None
            )

    database.run_sync(seed)
    assert (await prune(database, lambda: NOW)).sent == 2
    left = database.run_sync(
        lambda s: sorted(m.message_id for m in s.exec(select(SentMessage)).all())
    )
    assert left == ["wamid.lost-new", "wamid.new"]


async def test_a_chats_pace_is_forgotten_long_after_its_bucket_was_full_again(
    database: Database,
) -> None:
    def seed(session: Session) -> None:
        ages = {"old": KEEP_CHAT_PACES + timedelta(minutes=1), "recent": timedelta(minutes=1)}
        for key, age in ages.items():
            session.add(ChatPace(key=f"telegram:{key}", free_at=NOW - age))
        session.add(ChatPace(key="telegram:held", free_at=NOW + timedelta(minutes=5)))

    database.run_sync(seed)
    assert (await prune(database, lambda: NOW)).paces == 1
    assert database.run_sync(lambda s: sorted(p.key for p in s.exec(select(ChatPace)).all())) == [
        "telegram:held",
        "telegram:recent",
    ]
