"""The scheduler job that runs the delivery rounds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.core.delivery import Delivery

__all__ = ["DELIVERY_JOB_ID", "schedule_polling"]

DELIVERY_JOB_ID = "delivery"


def schedule_polling(scheduler: AsyncIOScheduler, delivery: Delivery, interval: timedelta) -> None:
    """Run a delivery round every ``interval``; the first at once, so start-up reconciles."""
    scheduler.add_job(
        delivery.poll_once,
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
