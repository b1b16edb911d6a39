"""Jobs: created upstream jobs, from the create call's answer to delivery, and their leases."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from decimal import Decimal

from sqlalchemy import ColumnElement, or_, update
from sqlmodel import Session, col, select

from storage.drafts import draft_items
from storage.inserts import insert_if_absent
from storage.models import Draft, Job, JobStatus

__all__ = [
    "add_job",
    "claim_jobs",
    "draft_job",
    "get_job",
    "job_by_request_id",
    "jobs_of_draft",
    "jobs_of_user",
    "postpone_job",
    "record_file",
    "record_part",
    "redirect_to_owner",
    "release_jobs",
    "release_owned",
    "renew_leases",
    "save_job",
    "save_leased_job",
    "save_leased_jobs",
    "set_progress_message",
    "settle_job",
]


def draft_job(
    draft: Draft,
    *,
    platform: str,
    request_id: str,
    title: str,
    cost: Decimal | None,
    next_poll_at: datetime,
    created_at: datetime,
    expected_at: datetime | None = None,
) -> Job:
    """The row of one upstream job placed for a draft: its chat, and its title's tone and size,
    come along."""
    tone, size = next(
        ((tone, size) for item, tone, size in draft_items(draft) if item == title),
        (draft.tone or 0, draft.size or 0),
    )
    return Job(
        request_id=request_id,
        chat_user_id=draft.chat_user_id,
        draft_id=draft.id,
        platform=platform,
        chat_id=draft.chat_id,
        thread_id=draft.thread_id,
        title=title,
        tone=tone,
        size=size,
        cost=cost,
        next_poll_at=next_poll_at,
        expected_at=expected_at,
        created_at=created_at,
        client_id=draft.client_id,
        owner_chat_id=draft.owner_chat_id,
    )


def add_job(session: Session, *, job: Job) -> Job:
    """Store a created job; the stored row when one with its request id exists already."""
    insert_if_absent(session, job, key=("request_id",))
    stored = job_by_request_id(session, request_id=job.request_id)
    assert stored is not None, "the row was just inserted or found"
    return stored


def get_job(session: Session, *, job_id: int) -> Job | None:
    """The job with this id, if any."""
    return session.get(Job, job_id)


def job_by_request_id(session: Session, *, request_id: str) -> Job | None:
    """The job with this upstream request id, if any."""
    return session.exec(
        select(Job)
        .where(col(Job.request_id) == request_id)
        .execution_options(populate_existing=True)
    ).first()


def save_job(session: Session, *, job: Job) -> Job:
    """Store the job's changes."""
    return session.merge(job)


def set_progress_message(session: Session, *, job_id: int, message_id: str, text: str) -> bool:
    """Record the job's progress message unless it has one or was delivered or ended meanwhile.

    Whether it was recorded. Only these two columns change, so whatever the poller or the
    sender stored meanwhile stays.
    """
    result = session.exec(
        update(Job)
        .where(
            col(Job.id) == job_id,
            col(Job.progress_message_id).is_(None),
            col(Job.status).in_((JobStatus.PENDING, JobStatus.FINISHED)),
        )
        .values(progress_message_id=message_id, progress_text=text)
    )
    return result.rowcount == 1


def postpone_job(session: Session, *, job_id: int, until: datetime) -> None:
    """Count one more failure of the job and poll it again at ``until``; nothing else changes."""
    session.exec(
        update(Job)
        .where(col(Job.id) == job_id)
        .values(failures=col(Job.failures) + 1, next_poll_at=until)
    )


def hurry_finished_jobs(session: Session, *, user_id: int, now: datetime) -> int:
    """Make the user's finished, undelivered jobs due now (their chat takes messages again);
    how many."""
    due = _updated_in_id_order(
        session,
        (
            col(Job.chat_user_id) == user_id,
            col(Job.status) == JobStatus.FINISHED,
            col(Job.next_poll_at) > now,
        ),
        next_poll_at=now,
    )
    return len(due)


def jobs_of_draft(session: Session, *, draft_id: str) -> list[Job]:
    """The jobs recorded for the draft, oldest first."""
    return list(
        session.exec(select(Job).where(col(Job.draft_id) == draft_id).order_by(col(Job.id)))
    )


def jobs_of_user(
    session: Session,
    *,
    user_id: int,
    statuses: Collection[JobStatus] | None = None,
    limit: int = 50,
    offset: int = 0,
) -> list[Job]:
    """The user's jobs, newest first, optionally only those in ``statuses``."""
    query = select(Job).where(col(Job.chat_user_id) == user_id)
    if statuses is not None:
        query = query.where(col(Job.status).in_(statuses))
    query = query.order_by(col(Job.created_at).desc(), col(Job.id).desc())
    return list(session.exec(query.limit(limit).offset(offset)))


def claim_jobs(
    session: Session,
    *,
    owner: str,
    now: datetime,
    lease_for: timedelta,
    statuses: Collection[JobStatus],
    platforms: Collection[str],
    limit: int,
    skip: Collection[int] = (),
    due_by: datetime | None = None,
) -> list[Job]:
    """Lease up to ``limit`` jobs due now (or by ``due_by``), in ``statuses`` and ``platforms``:
    those half sent first, then the soonest due.

    A job leased by another owner is skipped until its lease runs out, and so are the ids in
    ``skip`` (work this owner already has in hand). On PostgreSQL the rows another replica is
    claiming right now are skipped, not waited for.
    """
    query = select(Job).where(
        col(Job.status).in_(statuses),
        col(Job.platform).in_(platforms),
        col(Job.next_poll_at) <= (due_by or now),
        or_(col(Job.lease_until).is_(None), col(Job.lease_until) < now),
    )
    if skip:
        query = query.where(col(Job.id).not_in(skip))
    # An article half sent goes on first, then the rest by when each became due.
    begun_first = (col(Job.parts_sent) == 0, col(Job.next_poll_at), col(Job.id))
    jobs = list(
        session.exec(
            query.order_by(*begun_first)
            .limit(limit)
            .with_for_update(skip_locked=True)
            .execution_options(populate_existing=True)
        )
    )
    for job in jobs:
        job.lease_owner = owner
        job.lease_until = now + lease_for
    return jobs


def _updated_in_id_order(
    session: Session, conditions: Sequence[ColumnElement[bool]], **values: object
) -> set[int]:
    """Set ``values`` on the jobs that meet ``conditions``, locking them in the order of
    their ids first: the ids updated.

    Every write to several jobs takes their rows in this one order (a lease renewal, a poll
    round's save, a release), so two of them on PostgreSQL never each hold a row that the
    other waits for (a deadlock, which fails one of them). One statement: the locking
    subquery runs before the update."""
    in_order = select(Job.id).where(*conditions).order_by(col(Job.id)).with_for_update()
    updated = session.exec(
        update(Job)
        .where(col(Job.id).in_(in_order.scalar_subquery()))
        .values(**values)
        .returning(col(Job.id))
    )
    return {job_id for (job_id,) in updated}


def renew_leases(
    session: Session, *, owner: str, job_ids: Collection[int], until: datetime
) -> set[int]:
    """Extend ``owner``'s leases on these jobs to ``until``; the ids it still held."""
    if not job_ids:
        return set()
    held = (col(Job.id).in_(job_ids), col(Job.lease_owner) == owner)
    return _updated_in_id_order(session, held, lease_until=until)


def record_part(
    session: Session, *, job_id: int, owner: str, parts_sent: int, until: datetime
) -> bool:
    """Count one more part sent, fenced: only for the lease's owner, after part ``parts_sent``.

    False means the lease was lost (or the part was counted already): the caller stops.
    """
    result = session.exec(
        update(Job)
        .where(
            col(Job.id) == job_id,
            col(Job.lease_owner) == owner,
            col(Job.parts_sent) == parts_sent,
        )
        .values(parts_sent=parts_sent + 1, lease_until=until)
    )
    return result.rowcount == 1


def record_file(session: Session, *, job_id: int, owner: str, until: datetime) -> bool:
    """Mark the job's file sent, fenced like ``record_part``."""
    result = session.exec(
        update(Job)
        .where(col(Job.id) == job_id, col(Job.lease_owner) == owner, col(Job.file_sent).is_(False))
        .values(file_sent=True, lease_until=until)
    )
    return result.rowcount == 1


def save_leased_job(session: Session, *, job: Job, owner: str) -> Job | None:
    """Store the job's changes if ``owner`` still holds its lease: the stored row, else None.

    A progress message recorded meanwhile (the order's announcement) is kept, not forgotten
    because the caller's copy was read before it.
    """
    assert job.id is not None
    stored = session.exec(
        select(Job)
        .where(col(Job.id) == job.id, col(Job.lease_owner) == owner)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).first()
    if stored is None:
        return None
    if job.progress_message_id is None and stored.progress_message_id is not None:
        job.progress_message_id = stored.progress_message_id
        job.progress_text = stored.progress_text
    return session.merge(job)


def save_leased_jobs(session: Session, *, jobs: Sequence[Job], owner: str) -> list[int]:
    """Store each job's changes where ``owner`` still holds its lease (``save_leased_job``);
    the ids of those it no longer holds."""
    lost = []
    # In the order of their ids, as every write to several jobs locks them.
    for job in sorted(jobs, key=lambda job: job.id or 0):
        if save_leased_job(session, job=job, owner=owner) is None:
            assert job.id is not None
            lost.append(job.id)
    return lost


def settle_job(
    session: Session,
    *,
    job_id: int,
    owner: str,
    status: JobStatus,
    failures: int,
    next_poll_at: datetime,
) -> bool:
    """Set only the job's state and next attempt and end the lease, fenced on its owner.

    Nothing else is written, so a row that could not be stored whole can still be settled.
    """
    result = session.exec(
        update(Job)
        .where(col(Job.id) == job_id, col(Job.lease_owner) == owner)
        .values(
            status=status,
            failures=failures,
            next_poll_at=next_poll_at,
            lease_owner=None,
            lease_until=None,
        )
    )
    return result.rowcount == 1


def redirect_to_owner(session: Session, *, job_id: int, owner: str, now: datetime) -> bool:
    """Send a plan's article to its owner's private chat instead of the channel that no longer
    takes it, whole and at once; fenced on the lease."""
    result = session.exec(
        update(Job)
        .where(
            col(Job.id) == job_id,
            col(Job.lease_owner) == owner,
            col(Job.owner_chat_id).is_not(None),
        )
        .values(
            chat_id=col(Job.owner_chat_id),
            owner_chat_id=None,
            thread_id=None,
            parts_sent=0,
            file_sent=False,
            next_poll_at=now,
            lease_owner=None,
            lease_until=None,
        )
    )
    return result.rowcount == 1


def release_jobs(session: Session, *, job_ids: Collection[int], owner: str) -> None:
    """End ``owner``'s leases on the jobs, except where another owner holds one now."""
    held = (col(Job.id).in_(job_ids), col(Job.lease_owner) == owner)
    _updated_in_id_order(session, held, lease_owner=None, lease_until=None)


def release_owned(session: Session, *, owner: str) -> None:
    """End every lease ``owner`` holds: a clean stop hands back even what it never noted."""
    held = (col(Job.lease_owner) == owner,)
    _updated_in_id_order(session, held, lease_owner=None, lease_until=None)
