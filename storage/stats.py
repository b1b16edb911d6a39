"""Counts for operators: the jobs still to be delivered and how old the oldest is."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func
from sqlmodel import Session, col, select

from storage.models import Job, JobStatus

__all__ = ["Backlog", "backlog", "delivered_since", "ping"]

# Ordered and not yet delivered nor reported: waiting upstream, or finished and still to send.
_WAITING = (JobStatus.PENDING, JobStatus.FINISHED)


@dataclass(frozen=True, slots=True)
class Backlog:
    """How many jobs wait for delivery, and when the oldest of them was ordered."""

    count: int
    oldest: datetime | None


def backlog(session: Session) -> Backlog:
    """The jobs waiting for delivery, of every platform."""
    count, oldest = session.exec(
        select(func.count(), func.min(col(Job.created_at))).where(col(Job.status).in_(_WAITING))
    ).one()
    return Backlog(int(count), oldest)


def delivered_since(session: Session, *, since: datetime) -> int:
    """How many articles were delivered since ``since``, by any process."""
    count = session.exec(select(func.count()).where(col(Job.delivered_at) >= since)).one()
    return int(count)


def ping(session: Session) -> bool:
    """Whether the database answers a query."""
    return bool(session.exec(select(1)).one())
