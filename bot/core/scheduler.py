"""The scheduler's jobs: the delivery rounds, the destinations' rounds, the calendar's tick,
and housekeeping every few minutes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.core.clock import Clock
from bot.core.delivery import Delivery
from bot.core.delivery.destinations import Destinations
from bot.core.operations.housekeeping import prune
from bot.core.plans.runner import Planner
from storage import Database

__all__ = [
    "DELIVERY_JOB_ID",
    "DESTINATIONS_JOB_ID",
    "HOUSEKEEPING_JOB_ID",
    "PLANS_JOB_ID",
    "schedule_destinations",
    "schedule_housekeeping",
    "schedule_plans",
    "schedule_polling",
]

DELIVERY_JOB_ID = "delivery"
DESTINATIONS_JOB_ID = "destinations"
HOUSEKEEPING_JOB_ID = "housekeeping"
PLANS_JOB_ID = "plans"
# A run orders within a minute of its time: the tick comes at least this often, and so do
# the destinations' rounds (a plan's post is due at its run's time).
PLANS_TICK = timedelta(seconds=20)


def _every(
    scheduler: AsyncIOScheduler,
    work: Callable[..., Awaitable[object]],
    job_id: str,
    seconds: float,
    **options: Any,
) -> None:
    """Run ``work`` every ``seconds``, one run at a time unless ``options`` say otherwise: the
    ticks missed while a run went long collapse into one, and a late run still runs
    (APScheduler would skip one over a second late)."""
    defaults: dict[str, Any] = {"max_instances": 1, "coalesce": True, "misfire_grace_time": None}
    scheduler.add_job(
        work, "interval", seconds=seconds, id=job_id, replace_existing=True, **(defaults | options)
    )


def schedule_polling(scheduler: AsyncIOScheduler, delivery: Delivery, interval: timedelta) -> None:
    """Run a delivery round every ``interval``; the first at once, so start-up reconciles."""
    # One round at a time (the rounds' own lock), and one more waiting, which starts as soon
    # as the round under way ends.
    _every(
        scheduler,
        delivery.scheduled_round,
        DELIVERY_JOB_ID,
        interval.total_seconds(),
        max_instances=2,
        next_run_time=datetime.now(UTC),
    )


def schedule_housekeeping(scheduler: AsyncIOScheduler, db: Database, clock: Clock) -> None:
    """Prune what is no longer needed every few minutes (an awaited e-mail goes in ten)."""
    _every(scheduler, prune, HOUSEKEEPING_JOB_ID, 120.0, args=(db, clock))


def schedule_plans(scheduler: AsyncIOScheduler, planner: Planner, interval: timedelta) -> None:
    """Tick the calendar: one query for due runs, every ``interval`` or every 20 s if sooner.

    The plans stay in our tables; a job per plan in APScheduler's store would fire on every
    replica and be lost at a restart.
    """
    _every(scheduler, planner.run_due, PLANS_JOB_ID, min(interval, PLANS_TICK).total_seconds())


def schedule_destinations(
    scheduler: AsyncIOScheduler, destinations: Destinations, interval: timedelta
) -> None:
    """Deliver the due destination records (clients' sites) every ``interval`` or every 20 s
    if sooner: a job apart from the calendar's tick, so a site that hangs delays no plan's run.
    """
    seconds = min(interval, PLANS_TICK).total_seconds()
    _every(scheduler, destinations.scheduled_round, DESTINATIONS_JOB_ID, seconds)
