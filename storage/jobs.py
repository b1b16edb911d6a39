"""Jobs: created upstream jobs, from the create call's answer to delivery, and their leases."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta
from decimal import Decimal

from sqlalchemy import or_, update
from sqlmodel import Session, col, select

from storage.inserts import insert_if_absent
from storage.models import Draft, Job, JobStatus

__all__ = [
    "add_job",
    "claim_due_jobs",
    "draft_job",
    "get_job",
    "job_by_request_id",
    "jobs_of_draft",
    "jobs_of_user",
    "postpone_job",
    "release_job",
    "save_job",
    "set_progress_message",
]

# Finished jobs have their content stored but are not delivered yet.
_POLLED = (JobStatus.PENDING, JobStatus.FINISHED)


def draft_job(
    draft: Draft,
    *,
    platform: str,
    request_id: str,
    title: str,
    cost: Decimal | None,
    next_poll_at: datetime,
    created_at: datetime,
) -> Job:
    """The row of one upstream job placed for a draft: its chat, tone and size come along."""
    return Job(
        request_id=request_id,
        chat_user_id=draft.chat_user_id,
        draft_id=draft.id,
        platform=platform,
        chat_id=draft.chat_id,
        thread_id=draft.thread_id,
        title=title,
        tone=draft.tone or 0,
        size=draft.size or 0,
        cost=cost,
        next_poll_at=next_poll_at,
        created_at=created_at,
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
    """Record the job's progress message unless it has one already; whether it was recorded.

    Only these two columns change, so whatever the poller stored meanwhile stays.
    """
    result = session.exec(
        update(Job)
        .where(col(Job.id) == job_id, col(Job.progress_message_id).is_(None))
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


def claim_due_jobs(
    session: Session, *, owner: str, now: datetime, lease_for: timedelta, limit: int = 100
) -> list[Job]:
    """Lease up to ``limit`` jobs due for a poll or a delivery to ``owner``, soonest due first.

    A job leased by another owner is skipped until its lease runs out. On PostgreSQL the
    rows another replica is claiming right now are skipped, not waited for.
    """
    jobs = list(
        session.exec(
            select(Job)
            .where(
                col(Job.status).in_(_POLLED),
                col(Job.next_poll_at) <= now,
                or_(col(Job.lease_until).is_(None), col(Job.lease_until) < now),
            )
            .order_by(col(Job.next_poll_at), col(Job.id))
            .limit(limit)
            .with_for_update(skip_locked=True)
            .execution_options(populate_existing=True)
        )
    )
    for job in jobs:
        job.lease_owner = owner
        job.lease_until = now + lease_for
    return jobs


def release_job(session: Session, *, job_id: int, owner: str) -> None:
    """End ``owner``'s lease on the job, unless it ran out and another owner holds it now."""
    session.exec(
        update(Job)
        .where(col(Job.id) == job_id, col(Job.lease_owner) == owner)
        .values(lease_owner=None, lease_until=None)
    )
