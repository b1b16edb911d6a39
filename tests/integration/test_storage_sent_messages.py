"""An article's messages, and a failure of one told after it was accepted (WhatsApp's window)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from storage import ChatUser, Database, Job, JobStatus, jobs, sent_messages
from tests.job_rows import leased_whatsapp_job

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
LATER = NOW + timedelta(days=1)
OWNER = "replica-a"


def _record(database: Database, job_id: int, part: int, message_id: str) -> bool:
    return database.run_sync(
        lambda s: sent_messages.record_sent_part(
            s,
            job_id=job_id,
            owner=OWNER,
            parts_sent=part,
            until=NOW,
            platform="whatsapp",
            message_id=message_id,
            later=LATER,
            at=NOW,
        )
    )


def _failed(database: Database, message_id: str) -> str | None:
    return database.run_sync(
        lambda s: sent_messages.take_back(
            s, platform="whatsapp", message_id=message_id, until=LATER, at=NOW
        )
    )


def _job(database: Database, job_id: int) -> Job:
    job = database.run_sync(lambda s: jobs.get_job(s, job_id=job_id))
    assert job is not None
    return job


def test_a_failure_told_later_takes_a_delivered_article_back_to_its_part_only_backwards(
    database: Database, chat_user: ChatUser
) -> None:
    job_id = database.run_sync(lambda s: leased_whatsapp_job(s, chat_user, owner=OWNER, now=NOW))
    for part in range(3):
        assert _record(database, job_id, part, f"wamid.{part}")
    job = _job(database, job_id)
    job.status, job.file_sent, job.lease_owner = JobStatus.DELIVERED, True, None
    database.run_sync(lambda s: jobs.save_job(s, job=job))

    assert _failed(database, "wamid.1") == "Bahçe bakımı"
    back = _job(database, job_id)
    assert (back.status, back.parts_sent, back.file_sent) == (JobStatus.FINISHED, 1, False)
    assert (back.next_poll_at, back.delivered_at, back.lease_owner) == (LATER, None, None)
    assert _failed(database, "wamid.2") is None, "behind it already: nothing moves"
    assert _job(database, job_id).parts_sent == 1
    assert _failed(database, "wamid.0") == "Bahçe bakımı"
    assert _job(database, job_id).parts_sent == 0
    assert _failed(database, "wamid.other") is None, "no article's message"


def test_a_failure_told_before_the_part_was_recorded_is_found_by_the_sender(
    database: Database, chat_user: ChatUser
) -> None:
    job_id = database.run_sync(lambda s: leased_whatsapp_job(s, chat_user, owner=OWNER, now=NOW))
    assert _record(database, job_id, 0, "wamid.0")

    assert _failed(database, "wamid.1") is None, "not recorded yet"
    assert _record(database, job_id, 1, "wamid.1") is False, "the sender stops as for a lost lease"
    job = _job(database, job_id)
    assert (job.parts_sent, job.lease_owner, job.next_poll_at) == (1, None, LATER)
