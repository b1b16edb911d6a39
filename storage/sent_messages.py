"""The article messages a platform accepted, and a failure of one told later (a webhook)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, update
from sqlmodel import Session, col

from storage.inserts import insert_if_absent
from storage.jobs import record_part
from storage.models import Job, JobStatus, SentMessage

__all__ = ["prune_sent", "record_sent_part", "take_back"]

_KEY = ("platform", "message_id")


def record_sent_part(
    session: Session,
    *,
    job_id: int,
    owner: str,
    parts_sent: int,
    until: datetime,
    platform: str,
    message_id: str | None,
    later: datetime,
    at: datetime,
) -> bool:
    """``record_part``, keeping which message the part went as (accepted ``at``); where that
    message's failure was told already, the job goes back to the part (due at ``later``) and
    False, as for a lost lease: the sender stops."""
    if not record_part(session, job_id=job_id, owner=owner, parts_sent=parts_sent, until=until):
        return False
    if message_id is None:
        return True
    sent = SentMessage(
        platform=platform, message_id=message_id, job_id=job_id, part=parts_sent, sent_at=at
    )
    if insert_if_absent(session, sent, key=_KEY):
        return True
    _back_to(session, job_id=job_id, part=parts_sent, until=later)
    return False


def take_back(
    session: Session, *, platform: str, message_id: str, until: datetime, at: datetime
) -> str | None:
    """A message failed after it was accepted (told ``at``): where it was an article's part,
    delivery takes the article back from it, due at ``until``. The article's title where it
    went back; a message not recorded yet is marked, for its sender to find."""
    marker = SentMessage(platform=platform, message_id=message_id, sent_at=at)
    if insert_if_absent(session, marker, key=_KEY):
        return None
    found = session.get(SentMessage, (platform, message_id))
    if found is None or found.job_id is None or found.part is None:
        return None
    return _back_to(session, job_id=found.job_id, part=found.part, until=until)


def prune_sent(session: Session, *, before: datetime) -> int:
    """Forget the messages sent (or told failed) before ``before``; how many were forgotten."""
    result = session.exec(delete(SentMessage).where(col(SentMessage.sent_at) < before))
    return result.rowcount


def _back_to(session: Session, *, job_id: int, part: int, until: datetime) -> str | None:
    """Move the job's delivery back to ``part`` unless it is behind it already, taking its
    lease from any sender; its title where it moved."""
    moved = session.exec(
        update(Job)
        .where(
            col(Job.id) == job_id,
            col(Job.parts_sent) > part,
            col(Job.status).in_((JobStatus.FINISHED, JobStatus.DELIVERED)),
        )
        .values(
            status=JobStatus.FINISHED,
            parts_sent=part,
            file_sent=False,
            delivered_at=None,
            next_poll_at=until,
            lease_owner=None,
            lease_until=None,
        )
        .returning(col(Job.title))
    ).first()
    return None if moved is None else str(moved[0])
