"""Jobs: idempotent creation, listing, and leases for pollers on several replicas."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text, update
from sqlmodel import Session, col

from storage import ChatUser, Database, Job, JobStatus, jobs

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
LEASE = timedelta(minutes=2)
# Seconds a test waits on another thread of its own: a busy machine's worst.
WAIT = 30.0


def _user_id(chat_user: ChatUser) -> int:
    assert chat_user.id is not None
    return chat_user.id


def _add(database: Database, user_id: int, request_id: str, **fields: object) -> Job:
    values: dict[str, object] = {
        "platform": "telegram",
        "chat_id": "chat-1",
        "title": f"Başlık {request_id}",
        "tone": 1,
        "size": 2,
        "next_poll_at": NOW,
    }
    job = Job.model_validate(
        {**values, **fields, "request_id": request_id, "chat_user_id": user_id}
    )
    return database.run_sync(lambda session: jobs.add_job(session, job=job))


def _claim(database: Database, owner: str, now: datetime = NOW) -> list[Job]:
    return database.run_sync(
        lambda session: jobs.claim_jobs(
            session,
            owner=owner,
            now=now,
            lease_for=LEASE,
            statuses=(JobStatus.PENDING, JobStatus.FINISHED),
            platforms=("telegram",),
            limit=100,
        )
    )


def test_add_job_is_idempotent_on_the_request_id(database: Database, chat_user: ChatUser) -> None:
    user_id = _user_id(chat_user)
    first = _add(database, user_id, "req-1")
    again = _add(database, user_id, "req-1", title="another title")

    assert first.id is not None
    assert again.id == first.id
    assert again.title == first.title
    found = database.run_sync(lambda session: jobs.job_by_request_id(session, request_id="req-1"))
    assert found is not None
    assert found.id == first.id


def test_save_job_stores_changes(database: Database, chat_user: ChatUser) -> None:
    job = _add(database, _user_id(chat_user), "req-1")
    job.status, job.content, job.finished_at = JobStatus.FINISHED, "# Makale", NOW
    database.run_sync(lambda session: jobs.save_job(session, job=job))

    assert job.id is not None
    job_id = job.id
    stored = database.run_sync(lambda session: jobs.get_job(session, job_id=job_id))
    assert stored is not None
    assert (stored.status, stored.content, stored.finished_at) == (
        JobStatus.FINISHED,
        "# Makale",
        NOW,
    )


def test_jobs_of_user_lists_newest_first_and_filters(
    database: Database, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    for minute, (request_id, status) in enumerate(
        [("old", JobStatus.DELIVERED), ("mid", JobStatus.PENDING), ("new", JobStatus.FAILED)]
    ):
        created_at = NOW + timedelta(minutes=minute)
        _add(database, user_id, request_id, status=status, created_at=created_at)

    every = database.run_sync(lambda session: jobs.jobs_of_user(session, user_id=user_id))
    some = database.run_sync(
        lambda session: jobs.jobs_of_user(
            session, user_id=user_id, statuses={JobStatus.PENDING, JobStatus.DELIVERED}
        )
    )
    page = database.run_sync(
        lambda session: jobs.jobs_of_user(session, user_id=user_id, limit=1, offset=1)
    )

    assert [job.request_id for job in every] == ["new", "mid", "old"]
    assert [job.request_id for job in some] == ["mid", "old"]
    assert [job.request_id for job in page] == ["mid"]


def test_claim_leases_due_jobs_to_one_owner_until_the_lease_runs_out(
    database: Database, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    _add(database, user_id, "pending")
    _add(database, user_id, "finished", status=JobStatus.FINISHED)
    _add(database, user_id, "later", next_poll_at=NOW + timedelta(hours=1))
    _add(database, user_id, "delivered", status=JobStatus.DELIVERED)

    claimed = _claim(database, "replica-a")

    assert sorted(job.request_id for job in claimed) == ["finished", "pending"]
    assert {(job.lease_owner, job.lease_until) for job in claimed} == {("replica-a", NOW + LEASE)}
    assert _claim(database, "replica-b", NOW + LEASE - timedelta(seconds=1)) == []
    after_expiry = _claim(database, "replica-b", NOW + LEASE + timedelta(seconds=1))
    assert {job.lease_owner for job in after_expiry} == {"replica-b"}
    assert len(after_expiry) == 2


def test_released_jobs_can_be_claimed_at_once_and_only_the_owner_releases(
    database: Database, chat_user: ChatUser
) -> None:
    job = _add(database, _user_id(chat_user), "req-1")
    assert job.id is not None
    job_id = job.id
    assert len(_claim(database, "replica-a")) == 1

    database.run_sync(
        lambda session: jobs.release_jobs(session, job_ids=[job_id], owner="replica-b")
    )
    assert _claim(database, "replica-b") == []

    database.run_sync(
        lambda session: jobs.release_jobs(session, job_ids=[job_id], owner="replica-a")
    )
    assert [claimed.lease_owner for claimed in _claim(database, "replica-b")] == ["replica-b"]


def test_concurrent_claims_never_lease_a_job_twice(database: Database, chat_user: ChatUser) -> None:
    user_id = _user_id(chat_user)
    for number in range(20):
        _add(database, user_id, f"req-{number}")
    racers = 4
    start = threading.Barrier(racers, timeout=10)

    def claim(owner: int) -> list[str]:
        start.wait()
        return [job.request_id for job in _claim(database, f"replica-{owner}")]

    with ThreadPoolExecutor(racers) as pool:
        claimed = [request_id for batch in pool.map(claim, range(racers)) for request_id in batch]

    assert sorted(claimed) == sorted(f"req-{number}" for number in range(20))


def test_a_progress_line_about_the_longest_title_fits(
    database: Database, chat_user: ChatUser
) -> None:
    job = _add(database, _user_id(chat_user), "req-1", title="Ş" * 255)
    # The progress line quotes the title in a sentence of its own.
    job.progress_text = f"⏳ {job.title} yazılıyor… %50 " + "·" * 80
    database.run_sync(lambda session: jobs.save_job(session, job=job))

    stored = database.run_sync(lambda session: jobs.job_by_request_id(session, request_id="req-1"))
    assert stored is not None
    assert stored.progress_text == job.progress_text


def test_a_progress_message_is_set_only_while_the_job_has_none(
    database: Database, chat_user: ChatUser
) -> None:
    job = _add(database, _user_id(chat_user), "req-1")
    assert job.id is not None
    job_id = job.id

    def set_message(message_id: str) -> bool:
        return database.run_sync(
            lambda session: jobs.set_progress_message(
                session, job_id=job_id, message_id=message_id, text=f"text {message_id}"
            )
        )

    assert set_message("first") is True
    assert set_message("second") is False
    stored = database.run_sync(lambda session: jobs.get_job(session, job_id=job_id))
    assert stored is not None
    assert (stored.progress_message_id, stored.progress_text) == ("first", "text first")


def test_claims_keep_to_the_statuses_platforms_and_work_not_in_hand(
    database: Database, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    in_hand = _add(database, user_id, "in-hand", status=JobStatus.FINISHED)
    _add(database, user_id, "finished", status=JobStatus.FINISHED)
    _add(database, user_id, "pending")
    _add(database, user_id, "slack", status=JobStatus.FINISHED, platform="slack")
    assert in_hand.id is not None
    skip = [in_hand.id]

    claimed = database.run_sync(
        lambda s: jobs.claim_jobs(
            s,
            owner="sender",
            now=NOW,
            lease_for=LEASE,
            statuses=(JobStatus.FINISHED,),
            platforms=("telegram",),
            limit=10,
            skip=skip,
        )
    )

    assert [job.request_id for job in claimed] == ["finished"]


def test_recording_a_part_is_fenced_on_the_owner_and_the_part_number(
    database: Database, chat_user: ChatUser
) -> None:
    job = _add(database, _user_id(chat_user), "req-1", status=JobStatus.FINISHED)
    assert job.id is not None
    job_id = job.id
    (claimed,) = _claim(database, "replica-a")
    later = NOW + 2 * LEASE

    def record(owner: str, sent: int) -> bool:
        return database.run_sync(
            lambda s: jobs.record_part(s, job_id=job_id, owner=owner, parts_sent=sent, until=later)
        )

    assert record("replica-b", 0) is False, "not the lease's owner"
    assert record("replica-a", 1) is False, "part 1 is not the next one"
    assert record("replica-a", 0) is True
    assert record("replica-a", 0) is False, "a part is counted once"
    stored = database.run_sync(lambda s: jobs.get_job(s, job_id=job_id))
    assert stored is not None
    assert (stored.parts_sent, stored.lease_until) == (1, later)
    file_recorded = database.run_sync(
        lambda s: jobs.record_file(s, job_id=job_id, owner="replica-a", until=later)
    )
    assert file_recorded is True
    assert claimed.lease_owner == "replica-a"


def test_renewing_keeps_only_the_leases_still_held(database: Database, chat_user: ChatUser) -> None:
    user_id = _user_id(chat_user)
    mine = _add(database, user_id, "mine")
    taken = _add(database, user_id, "taken")
    _claim(database, "replica-a")
    assert mine.id is not None
    assert taken.id is not None
    taken_id = taken.id
    database.run_sync(lambda s: jobs.release_jobs(s, job_ids=[taken_id], owner="replica-a"))
    ids = [mine.id, taken.id]

    kept = database.run_sync(
        lambda s: jobs.renew_leases(s, owner="replica-a", job_ids=ids, until=NOW + 2 * LEASE)
    )

    assert kept == {mine.id}


def test_settling_a_job_writes_its_state_alone_and_only_for_its_owner(
    database: Database, chat_user: ChatUser
) -> None:
    job = _add(database, _user_id(chat_user), "req-1", status=JobStatus.FINISHED)
    assert job.id is not None
    job_id = job.id
    _claim(database, "replica-a")

    def settle(owner: str) -> bool:
        return database.run_sync(
            lambda s: jobs.settle_job(
                s,
                job_id=job_id,
                owner=owner,
                status=JobStatus.UNSENDABLE,
                failures=5,
                next_poll_at=NOW,
            )
        )

    assert settle("replica-b") is False
    assert settle("replica-a") is True
    stored = database.run_sync(lambda s: jobs.get_job(s, job_id=job_id))
    assert stored is not None
    assert (stored.status, stored.failures, stored.lease_owner) == (
        JobStatus.UNSENDABLE,
        5,
        None,
    )


def test_hurrying_makes_only_the_users_finished_jobs_due_now(
    database: Database, chat_user: ChatUser
) -> None:
    user_id = _user_id(chat_user)
    later = NOW + timedelta(minutes=5)
    waiting = _add(database, user_id, "req-1", status=JobStatus.FINISHED, next_poll_at=later)
    pending = _add(database, user_id, "req-2", status=JobStatus.PENDING, next_poll_at=later)
    hurried = database.run_sync(lambda s: jobs.hurry_finished_jobs(s, user_id=user_id, now=NOW))
    due = {job.request_id for job in _claim(database, "replica-a")}
    assert hurried == 1
    assert due == {waiting.request_id}
    assert pending.request_id not in due


def _waiting_for_a_job(session: Session) -> bool:
    """Whether a transaction on the server waits for a job's row lock now."""
    waiting = session.exec(
        text(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            " AND query LIKE '%FROM job%FOR UPDATE%'"
        )
    ).one()
    return bool(waiting[0])


def test_a_rounds_save_and_a_lease_renewal_take_their_rows_in_one_order(
    database: Database, chat_user: ChatUser
) -> None:
    if database.is_sqlite:
        pytest.skip("SQLite writes one transaction at a time: no row locks to cross")
    user_id = _user_id(chat_user)
    first, second = _add(database, user_id, "req-1"), _add(database, user_id, "req-2")
    held = sorted(_claim(database, "replica-a"), key=lambda job: job.id or 0)
    first_id, second_id = first.id, second.id
    renewal_took_the_first = threading.Event()
    round_waits = threading.Event()

    def renewing(session: Session) -> set[int]:
        # A renewal under way, in the order of the ids: the first row is locked.
        session.exec(update(Job).where(col(Job.id) == first_id).values(lease_until=NOW + 2 * LEASE))
        renewal_took_the_first.set()
        assert round_waits.wait(WAIT)
        return jobs.renew_leases(
            session, owner="replica-a", job_ids=[first_id, second_id], until=NOW + 2 * LEASE
        )

    with ThreadPoolExecutor(max_workers=2) as pool:
        renewal = pool.submit(database.run_sync, renewing)
        assert renewal_took_the_first.wait(WAIT)
        # A poll round saves the jobs it holds, in whatever order its users came.
        saved = pool.submit(
            database.run_sync,
            lambda s: jobs.save_leased_jobs(s, jobs=held[::-1], owner="replica-a"),
        )
        deadline = time.monotonic() + WAIT
        while not database.run_sync(_waiting_for_a_job):
            assert time.monotonic() < deadline, "the round never waited for the renewal"
        round_waits.set()

        assert renewal.result(WAIT) == {first_id, second_id}
        assert saved.result(WAIT) == []
