"""A plan's schedule: when it runs, in the zone it was written in, and its stored form.

Once at a date and time, every day, or on some weekdays, at a wall-clock time of one zone.
The zone is decided when the plan is written (the bot's zone, ``BOT_TIMEZONE``) and kept with
the plan, so a later change of the setting does not move the runs its owner asked for. The
next run of a repeating plan is APScheduler's ``CronTrigger``'s answer, which knows the
weekdays and the zone's clock changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from apscheduler.triggers.cron import CronTrigger
from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

__all__ = ["DAILY", "WEEKDAYS", "Schedule"]

# CronTrigger's day names, Monday first.
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
# The days of a plan that runs every day.
DAILY = "*"
_STORED_TIME = "%Y-%m-%dT%H:%M"


@dataclass(frozen=True, slots=True)
class Schedule:
    """Once at ``once`` (a wall-clock time of ``zone``), or on ``days`` (``DAILY``, or
    weekdays joined by commas) at ``hour``:``minute`` of ``zone``."""

    zone: ZoneInfo
    hour: int
    minute: int
    once: datetime | None = None
    days: str = DAILY
    # Made at the first next_after, then kept: loading a row costs no trigger, asking again
    # builds none.
    _trigger: CronTrigger | None = field(init=False, default=None, repr=False, compare=False)

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: type[object], handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        """A plan row holds the value as it is: pydantic is not to take it apart."""
        return core_schema.is_instance_schema(cls)

    @classmethod
    def at(cls, once: datetime, zone: ZoneInfo) -> Schedule:
        """Once, at the wall-clock time ``once`` of ``zone`` (an aware ``once``: its moment)."""
        if once.tzinfo is not None:
            once = once.astimezone(zone)
        once = once.replace(second=0, microsecond=0, tzinfo=None)
        return cls(zone, once.hour, once.minute, once=once)

    @classmethod
    def every(cls, days: str, hour: int, minute: int, zone: ZoneInfo) -> Schedule:
        """On ``days`` (``DAILY``, or weekdays joined by commas) at ``hour``:``minute``."""
        return cls(zone, hour, minute, days=days)

    @property
    def repeats(self) -> bool:
        """Whether it runs more than once."""
        return self.once is None

    @property
    def weekdays(self) -> tuple[str, ...]:
        """The weekdays it runs on, Monday first; all seven for every day."""
        return WEEKDAYS if self.days == DAILY else tuple(self.days.split(","))

    def next_after(self, t: datetime) -> datetime | None:
        """The first run strictly after ``t`` (aware), in UTC; None when there is none (a
        one-time plan whose time has passed)."""
        if self.once is not None:
            at = self.once.replace(tzinfo=self.zone).astimezone(UTC)
            return at if at > t else None
        # CronTrigger answers "at or after", to the second.
        start = t.replace(microsecond=0) + timedelta(seconds=1)
        fire = self._fire(start)
        if fire is not None and _repeated(fire.astimezone(self.zone)):
            # The clock went back over the run's time: it ran at its first showing.
            fire = self._fire(fire + timedelta(seconds=1))
        return fire

    def _fire(self, start: datetime) -> datetime | None:
        """The trigger's first time at or after ``start``, in UTC (where sums are of time
        elapsed, not of the wall clock)."""
        if self._trigger is None:
            trigger = CronTrigger(
                day_of_week=None if self.days == DAILY else self.days,
                hour=self.hour,
                minute=self.minute,
                timezone=self.zone,
            )
            object.__setattr__(self, "_trigger", trigger)
        assert self._trigger is not None
        fire: datetime | None = self._trigger.get_next_fire_time(None, start)
        return fire.astimezone(UTC) if fire is not None else None

    def next_times(self, t: datetime, count: int) -> list[datetime]:
        """Up to ``count`` runs after ``t``, in order."""
        runs: list[datetime] = []
        at = self.next_after(t)
        while at is not None and len(runs) < count:
            runs.append(at)
            at = self.next_after(at)
        return runs

    def encode(self) -> str:
        """The stored form: ``once 2026-11-27T14:30 Europe/Istanbul`` or ``cron mon,thu 09:00
        Europe/Istanbul``."""
        if self.once is not None:
            return f"once {self.once:{_STORED_TIME}} {self.zone.key}"
        return f"cron {self.days} {self.hour:02d}:{self.minute:02d} {self.zone.key}"

    @classmethod
    def decode(cls, stored: str) -> Schedule:
        """The schedule that ``encode`` stored."""
        kind, *rest, key = stored.split(" ")
        zone = ZoneInfo(key)
        if kind == "once":
            return cls.at(datetime.strptime(rest[0], _STORED_TIME), zone)
        hour, minute = rest[1].split(":")
        return cls.every(rest[0], int(hour), int(minute), zone)


def _repeated(local: datetime) -> bool:
    """Whether a wall-clock time is its second showing, the clock having gone back over it."""
    return local.fold == 1 and local.replace(fold=0).utcoffset() != local.utcoffset()
