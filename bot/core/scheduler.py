"""The scheduler's jobs: the delivery rounds, and hourly housekeeping."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.core.clock import Clock
from bot.core.delivery import Delivery
from bot.core.housekeeping import prune
from storage import Database

__all__ = ["DELIVERY_JOB_ID", "HOUSEKEEPING_JOB_ID", "schedule_housekeeping", "schedule_polling"]

DELIVERY_JOB_ID = "delivery"
HOUSEKEEPING_JOB_ID = "housekeeping"


def schedule_polling(scheduler: AsyncIOScheduler, delivery: Delivery, interval: timedelta) -> None:
    """Run a delivery round every ``interval``; the first at once, so start-up reconciles."""
    scheduler.add_job(
        delivery.scheduled_round,
        "interval",
        seconds=interval.total_seconds(),
        id=DELIVERY_JOB_ID,
        replace_existing=True,
        # One round at a time; rounds missed while one ran long collapse into one.
        max_instances=1,
        coalesce=True,
        # A late round is still worth running; APScheduler would skip one over a second late.
        misfire_grace_time=None,
        next_run_time=datetime.now(UTC),
    )


def schedule_housekeeping(scheduler: AsyncIOScheduler, db: Database, clock: Clock) -> None:
    """Prune old replay ids and failed logins every hour."""
    scheduler.add_job(
        prune,
        "interval",
        args=(db, clock),
        hours=1,
        id=HOUSEKEEPING_JOB_ID,
        replace_existing=True,
        max_instances=1,
        coalesce=True,
        misfire_grace_time=None,
    )
