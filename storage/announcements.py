"""Announcements of a waiting article to a chat that only a template reaches: one a period."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete
from sqlmodel import Session, col

from storage.inserts import dialect_insert
from storage.models import Announcement

__all__ = ["announce_once", "prune_announcements"]


def announce_once(
    session: Session, *, platform: str, chat_id: str, at: datetime, every: timedelta
) -> bool:
    """Whether to announce to the chat now (``at``): not if it was announced to within
    ``every``. One statement, so of two replicas asking at once, one is told yes."""
    row = {"platform": platform, "chat_id": chat_id, "announced_at": at}
    statement = (
        dialect_insert(session, Announcement)
        .values(row)
        .on_conflict_do_update(
            index_elements=["platform", "chat_id"],
            set_={"announced_at": at},
            where=col(Announcement.announced_at) <= at - every,
        )
        .returning(col(Announcement.chat_id))
    )
    return session.exec(statement).first() is not None


def prune_announcements(session: Session, *, before: datetime) -> int:
    """Forget the announcements made before ``before``; how many were forgotten."""
    result = session.exec(delete(Announcement).where(col(Announcement.announced_at) < before))
    return result.rowcount
