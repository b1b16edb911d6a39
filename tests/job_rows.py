"""Jobs written straight into the database, as the sender holds them."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlmodel import Session

from storage import ChatUser, Job, JobStatus, jobs

__all__ = ["leased_whatsapp_job"]


def leased_whatsapp_job(session: Session, user: ChatUser, *, owner: str, now: datetime) -> int:
    """A finished WhatsApp article whose lease ``owner`` holds (for a month), for sending; its
    id."""
    assert user.id is not None
    job = Job(
        request_id="req-1",
        chat_user_id=user.id,
        platform="whatsapp",
        chat_id="905551112233",
        title="Bahçe bakımı",
        tone=1,
        size=2,
        status=JobStatus.FINISHED,
        next_poll_at=now,
        lease_owner=owner,
        lease_until=now + timedelta(days=30),
    )
    stored = jobs.add_job(session, job=job)
    assert stored.id is not None
    return stored.id
