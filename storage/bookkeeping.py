"""Bookkeeping: platform updates already handled, and failed logins for throttling."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, func
from sqlmodel import Session, col, select

from storage.inserts import insert_if_absent
from storage.models import LoginAttempt, ProcessedUpdate

__all__ = [
    "failed_logins_by_user_since",
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


def record_failed_login(
    session: Session, *, user_id: int | None, at: datetime, email_hash: str | None = None
) -> None:
    """Count a failed login of the user (``None``: not tied to a user) at a hashed e-mail."""
    session.add(LoginAttempt(chat_user_id=user_id, attempted_at=at, email_hash=email_hash))


def failed_logins_since(
    session: Session,
    *,
    since: datetime,
    user_id: int | None = None,
    email_hash: str | None = None,
) -> int:
    """Failed logins since ``since``: of one user, at one hashed e-mail, or (neither) in all."""
    query = select(func.count()).where(col(LoginAttempt.attempted_at) >= since)
    if user_id is not None:
        query = query.where(col(LoginAttempt.chat_user_id) == user_id)
    if email_hash is not None:
        query = query.where(col(LoginAttempt.email_hash) == email_hash)
    return session.exec(query).one()


def failed_logins_by_user_since(session: Session, *, since: datetime) -> dict[int | None, int]:
    """Failed logins since ``since``, counted per chat user (``None``: not tied to a user)."""
    query = (
        select(LoginAttempt.chat_user_id, func.count())
        .where(col(LoginAttempt.attempted_at) >= since)
        .group_by(col(LoginAttempt.chat_user_id))
    )
    return dict(session.exec(query).all())


def prune_failed_logins(session: Session, *, before: datetime) -> int:
    """Forget failed logins older than ``before``; returns how many went."""
    result = session.exec(delete(LoginAttempt).where(col(LoginAttempt.attempted_at) < before))
    return result.rowcount
