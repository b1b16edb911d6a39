"""Delivery records: each place a job's article goes besides its chat, with its own progress,
failures, next try and lease, so one that is down holds back no other."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy import ColumnElement, or_, update
from sqlmodel import Session, col, select

from storage.inserts import insert_if_absent
from storage.models import DeliveryRecord, Job

__all__ = [
    "claim_due",
    "claim_one",
    "extend",
    "get_record",
    "release",
    "release_all",
    "settle",
]


def _free(now: datetime) -> ColumnElement[bool]:
    return or_(col(DeliveryRecord.lease_until).is_(None), col(DeliveryRecord.lease_until) <= now)


def claim_due(
    session: Session,
    *,
    kinds: Collection[str],
    owner: str,
    now: datetime,
    until: datetime,
    limit: int,
) -> list[tuple[DeliveryRecord, Job]]:
    """Lease up to ``limit`` records of ``kinds`` due now and not done, the soonest due
    first, each with its job; a record another owner holds is skipped until its lease ends.
    On PostgreSQL the rows another replica is claiming right now are skipped."""
    rows = list(
        session.exec(
            select(DeliveryRecord, Job)
            .join(Job, col(Job.id) == col(DeliveryRecord.job_id))
            .where(
                col(DeliveryRecord.kind).in_(list(kinds)),
                col(DeliveryRecord.done).is_(False),
                col(DeliveryRecord.next_try_at) <= now,
                _free(now),
            )
            .order_by(col(DeliveryRecord.next_try_at), col(DeliveryRecord.id))
            .limit(limit)
            .with_for_update(skip_locked=True, of=DeliveryRecord)
            .execution_options(populate_existing=True)
        )
    )
    for record, _ in rows:
        record.lease_owner, record.lease_until = owner, until
    return rows


def claim_one(
    session: Session,
    *,
    job_id: int,
    kind: str,
    target: str,
    owner: str,
    now: datetime,
    until: datetime,
) -> DeliveryRecord | None:
    """Lease the job's record for one destination, made (due only when asked) where it has
    none; None while another holds it."""
    insert_if_absent(
        session,
        DeliveryRecord(job_id=job_id, kind=kind, target=target),
        key=("job_id", "kind", "target"),
    )
    key = (
        col(DeliveryRecord.job_id) == job_id,
        col(DeliveryRecord.kind) == kind,
        col(DeliveryRecord.target) == target,
    )
    claimed = session.exec(
        update(DeliveryRecord).where(*key, _free(now)).values(lease_owner=owner, lease_until=until)
    )
    if claimed.rowcount != 1:
        return None
    return session.exec(
        select(DeliveryRecord).where(*key).execution_options(populate_existing=True)
    ).one()


def settle(
    session: Session,
    *,
    record_id: int,
    owner: str,
    progress: str | None,
    done: bool,
    failures: int,
    next_try_at: datetime | None,
) -> bool:
    """Keep how far the record got and when it is tried next, and hand its lease back,
    fenced on ``owner``'s lease: False (nothing written) where another took it."""
    result = session.exec(
        update(DeliveryRecord)
        .where(col(DeliveryRecord.id) == record_id, col(DeliveryRecord.lease_owner) == owner)
        .values(
            progress=progress,
            done=done,
            failures=failures,
            next_try_at=next_try_at,
            lease_owner=None,
            lease_until=None,
        )
    )
    return result.rowcount == 1


def release(session: Session, *, record_id: int, owner: str) -> None:
    """Hand the record's lease back, unchanged otherwise, where ``owner`` still holds it."""
    session.exec(
        update(DeliveryRecord)
        .where(col(DeliveryRecord.id) == record_id, col(DeliveryRecord.lease_owner) == owner)
        .values(lease_owner=None, lease_until=None)
    )


def release_all(session: Session, *, record_ids: Collection[int], owner: str) -> None:
    """Hand back the leases ``owner`` still holds on the records, unchanged otherwise."""
    session.exec(
        update(DeliveryRecord)
        .where(
            col(DeliveryRecord.id).in_(list(record_ids)), col(DeliveryRecord.lease_owner) == owner
        )
        .values(lease_owner=None, lease_until=None)
    )


def get_record(session: Session, *, job_id: int, kind: str, target: str) -> DeliveryRecord | None:
    """The job's record for one destination, if it has one."""
    return session.exec(
        select(DeliveryRecord).where(
            col(DeliveryRecord.job_id) == job_id,
            col(DeliveryRecord.kind) == kind,
            col(DeliveryRecord.target) == target,
        )
    ).first()


def extend(session: Session, *, record_id: int, owner: str, until: datetime) -> bool:
    """Extend ``owner``'s lease on the record to ``until``; whether it still held it."""
    result = session.exec(
        update(DeliveryRecord)
        .where(col(DeliveryRecord.id) == record_id, col(DeliveryRecord.lease_owner) == owner)
        .values(lease_until=until)
    )
    return result.rowcount == 1
