"""Plans written straight into the database, as saved: for tests that need many at once."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from storage.models import Plan, PlanStatus, Schedule

__all__ = ["saved_plan"]


def saved_plan(user_id: int, title: str, at: datetime, *, platform: str, chat_id: str) -> Plan:
    """An active one-time plan of one title (the first tone and size) at ``at``, in UTC."""
    return Plan(
        chat_user_id=user_id,
        status=PlanStatus.ACTIVE,
        schedule=Schedule.at(at, ZoneInfo("UTC")),
        titles=[title],
        tone=1,
        size=1,
        platform=platform,
        chat_id=chat_id,
        next_run_at=at,
    )
