"""Spending: what each recorded job charged the user, for the spending view and its CSV."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from sqlmodel import Session, col, select

from storage.models import Job

__all__ = ["charges_of_user", "orders_of_user"]


def charges_of_user(session: Session, *, user_id: int) -> list[tuple[Decimal, int, datetime]]:
    """The cost, size and creation time of every job the user was charged for."""
    query = select(col(Job.cost), col(Job.size), col(Job.created_at)).where(
        col(Job.chat_user_id) == user_id, col(Job.cost).is_not(None)
    )
    return [
        (cost, size, created) for cost, size, created in session.exec(query) if cost is not None
    ]


def orders_of_user(session: Session, *, user_id: int) -> list[Job]:
    """Every job the bot placed for the user, oldest first."""
    return list(
        session.exec(
            select(Job)
            .where(col(Job.chat_user_id) == user_id)
            .order_by(col(Job.created_at), col(Job.id))
        )
    )
