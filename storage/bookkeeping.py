"""Bookkeeping: platform updates already handled, and failed logins for throttling."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, func
from sqlmodel import Session, col, select

from storage.inserts import insert_if_absent
from storage.models import LoginAttempt, ProcessedUpdate

__all__ = [
    "clear_failed_logins",
    "failed_logins_since",
    "mark_processed",
    "prune_failed_logins",
    "prune_processed",
    "record_failed_login",
]


def mark_processed(session: Session, *, source: str, update_id: str) -> bool:
    """Record an incoming update; ``False`` when it was recorded before (a redelivery)."""
    row = ProcessedUpdate(source=source, update_id=update_id)
    return insert_if_absent(session, row, key=("source", "update_id"))


def prune_processed(session: Session, *, before: datetime) -> int:
    """Forget updates processed before ``before``; how many were forgotten."""
    result = session.exec(delete(ProcessedUpdate).where(col(ProcessedUpdate.processed_at) < before))
    return result.rowcount


def record_failed_login(session: Session, *, user_id: int | None, at: datetime) -> None:
    """Count a failed login of the user (``None``: not tied to a user)."""
    session.add(LoginAttempt(chat_user_id=user_id, attempted_at=at))


def failed_logins_since(session: Session, *, since: datetime, user_id: int | None = None) -> int:
    """Failed logins since ``since``, of one user or (``None``) of the whole bot."""
    query = select(func.count()).where(col(LoginAttempt.attempted_at) >= since)
    if user_id is not None:
        query = query.where(col(LoginAttempt.chat_user_id) == user_id)
    return session.exec(query).one()


def prune_failed_logins(session: Session, *, before: datetime) -> int:
    """Forget failed logins older than ``before``; returns how many went."""
    result = session.exec(delete(LoginAttempt).where(col(LoginAttempt.attempted_at) < before))
    return result.rowcount


def clear_failed_logins(session: Session, *, user_id: int) -> None:
    """Forget the user's failed logins, after one succeeded."""
    session.exec(delete(LoginAttempt).where(col(LoginAttempt.chat_user_id) == user_id))
