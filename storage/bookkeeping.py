"""Bookkeeping: platform updates already handled, and failed logins for throttling."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import cache

from sqlalchemy import ColumnElement, and_, bindparam, delete, func, or_, update
from sqlmodel import Session, col, select

from storage.inserts import dialect_insert_for, insert_values_if_absent
from storage.models import LoginAttempt, ProcessedUpdate, utcnow
from storage.prepared import Prepared, Transaction, on_driver

__all__ = [
    "claim_update",
    "failed_logins_by_user_since",
    "failed_logins_since",
    "finish_update",
    "lock_logins",
    "mark_processed",
    "prune_failed_logins",
    "prune_processed",
    "record_failed_login",
    "reserve_login",
    "settle_login",
]

_LOGIN_LOCK = "makale-bot:login-throttle"


def mark_processed(transaction: Transaction, *, source: str, update_id: str) -> bool:
    """Record an incoming update; ``False`` when it was recorded before (a redelivery)."""
    values = {"source": source, "update_id": update_id, "processed_at": utcnow()}
    return insert_values_if_absent(
        transaction, ProcessedUpdate, values, key=("source", "update_id")
    )


def claim_update(
    transaction: Transaction, *, source: str, update_id: str, seconds: float | None
) -> bool:
    """Record an incoming update as being handled for up to ``seconds`` (None: handled at
    once, as ``mark_processed``); ``False`` when it was handled before.

    For a platform that sends an update again only when the bot did not confirm it after
    handling it (Telegram's webhook): one whose handler died with its process is sent again
    while its claim lasts, and taken over. Its mark reads ``processed_at`` ahead of now until
    ``finish_update``; a claim never finished counts as handled once it is over.
    """
    if seconds is None:
        return mark_processed(transaction, source=source, update_id=update_id)
    now = utcnow()
    values = {
        "source": source,
        "update_id": update_id,
        "processed_at": now + timedelta(seconds=seconds),
        "now": now,
    }
    driver = on_driver(transaction)
    return _claim(driver.dialect.name).first(driver, values) is not None


@cache
def _claim(dialect: str) -> Prepared:
    insert = dialect_insert_for(dialect, ProcessedUpdate)
    return Prepared(
        insert.on_conflict_do_update(
            index_elements=["source", "update_id"],
            set_={"processed_at": insert.excluded.processed_at},
            where=col(ProcessedUpdate.processed_at) > bindparam("now"),
        ).returning(col(ProcessedUpdate.update_id))
    )


def finish_update(transaction: Transaction, *, source: str, update_id: str) -> None:
    """The claimed update is handled: a redelivery of it is a replay from now on."""
    values = {"source": source, "update_id": update_id, "processed_at": utcnow()}
    _FINISH.execute(transaction, values)


_FINISH = Prepared(
    update(ProcessedUpdate)
    .where(
        col(ProcessedUpdate.source) == bindparam("source"),
        col(ProcessedUpdate.update_id) == bindparam("update_id"),
    )
    .values(processed_at=bindparam("processed_at"))
)


def prune_processed(session: Session, *, before: datetime) -> int:
    """Forget updates processed before ``before``; how many were forgotten."""
    result = session.exec(delete(ProcessedUpdate).where(col(ProcessedUpdate.processed_at) < before))
    return result.rowcount


def lock_logins(session: Session) -> None:
    """Hold every other replica's login check until this transaction ends.

    SQLite needs nothing: every transaction begins IMMEDIATE, one writer at a time.
    """
    if session.get_bind().dialect.name == "postgresql":
        session.exec(select(func.pg_advisory_xact_lock(func.hashtext(_LOGIN_LOCK))))


def record_failed_login(
    session: Session, *, user_id: int | None, at: datetime, email_hash: str | None = None
) -> None:
    """Count a failed login of the user (``None``: not tied to a user) at a hashed e-mail."""
    session.add(LoginAttempt(chat_user_id=user_id, attempted_at=at, email_hash=email_hash))


def reserve_login(
    session: Session, *, user_id: int, at: datetime, email_hash: str, until: datetime
) -> int:
    """Count a login about to be tried as failed until ``until``; the reservation's id."""
    row = LoginAttempt(
        chat_user_id=user_id, attempted_at=at, email_hash=email_hash, pending_until=until
    )
    session.add(row)
    session.flush()
    assert row.id is not None
    return row.id


def settle_login(session: Session, *, attempt_id: int, failed: bool) -> None:
    """Record a reserved login's outcome: kept as a failure, or forgotten."""
    row = session.get(LoginAttempt, attempt_id)
    if row is None:
        return
    if failed:
        row.pending_until = None
        session.add(row)
    else:
        session.delete(row)


def _counted(*, since: datetime, now: datetime) -> ColumnElement[bool]:
    # A reservation whose login never settled (a killed process) stops counting at its expiry.
    return and_(
        col(LoginAttempt.attempted_at) >= since,
        or_(col(LoginAttempt.pending_until).is_(None), col(LoginAttempt.pending_until) > now),
    )


def failed_logins_since(
    session: Session,
    *,
    since: datetime,
    now: datetime,
    user_id: int | None = None,
    email_hash: str | None = None,
) -> int:
    """Failed and pending logins since ``since``: of one user, at one e-mail, or in all."""
    query = select(func.count()).where(_counted(since=since, now=now))
    if user_id is not None:
        query = query.where(col(LoginAttempt.chat_user_id) == user_id)
    if email_hash is not None:
        query = query.where(col(LoginAttempt.email_hash) == email_hash)
    return session.exec(query).one()


def failed_logins_by_user_since(
    session: Session, *, since: datetime, now: datetime
) -> dict[int | None, int]:
    """Failed and pending logins since ``since`` per chat user (``None``: not tied to one)."""
    query = (
        select(LoginAttempt.chat_user_id, func.count())
        .where(_counted(since=since, now=now))
        .group_by(col(LoginAttempt.chat_user_id))
    )
    return dict(session.exec(query).all())


def prune_failed_logins(session: Session, *, before: datetime) -> int:
    """Forget failed logins older than ``before``; returns how many went."""
    result = session.exec(delete(LoginAttempt).where(col(LoginAttempt.attempted_at) < before))
    return result.rowcount
