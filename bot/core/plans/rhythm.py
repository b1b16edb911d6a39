"""A plan's rhythm: when it runs, read from what the user typed, and its next run.

Three forms, in Turkish or English: a date and time (``27.11.2026 14:30``), every day
(``her gün 09:00``), or some weekdays (``her pazartesi, perşembe 09:00``). The times are in
the deployment's zone; the next run of a repeating plan is APScheduler's ``CronTrigger``'s
answer, which knows the weekdays and the zone's clock changes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from apscheduler.triggers.cron import CronTrigger

from bot.core.turkish import fold

__all__ = ["DAY_NAMES", "EVERY_DAY", "WEEKDAYS", "Rhythm", "next_runs", "read_rhythm"]

# Folded day names (Turkish, then English) to CronTrigger's.
DAY_NAMES = {
    "pazartesi": "mon",
    "sali": "tue",
    "carsamba": "wed",
    "persembe": "thu",
    "cuma": "fri",
    "cumartesi": "sat",
    "pazar": "sun",
    "monday": "mon",
    "tuesday": "tue",
    "wednesday": "wed",
    "thursday": "thu",
    "friday": "fri",
    "saturday": "sat",
    "sunday": "sun",
}
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_TIME = r"(?P<hour>[01]?\d|2[0-3])[:.](?P<minute>[0-5]\d)"
_ONCE = re.compile(rf"(?P<day>\d{{1,2}})\.(?P<month>\d{{1,2}})\.(?P<year>\d{{4}})\s+{_TIME}")
_EVERY = re.compile(rf"(?:her|every)\s+(?P<days>.+?)\s+{_TIME}")
EVERY_DAY = frozenset({"gun", "day"})


@dataclass(frozen=True, slots=True)
class Rhythm:
    """Once at ``once`` (a wall-clock time of the zone), or on ``days`` ("*" for every day)
    at ``hour``:``minute``."""

    hour: int
    minute: int
    once: datetime | None = None
    days: str = "*"

    @property
    def repeats(self) -> bool:
        """Whether it runs more than once."""
        return self.once is None

    def encode(self) -> str:
        """The rhythm as it is stored."""
        if self.once is not None:
            return f"once {self.once:%Y-%m-%dT%H:%M}"
        return f"cron {self.days} {self.hour:02d}:{self.minute:02d}"

    @classmethod
    def decode(cls, stored: str) -> Rhythm:
        """The rhythm that ``encode`` stored."""
        kind, *rest = stored.split(" ")
        if kind == "once":
            once = datetime.strptime(rest[0], "%Y-%m-%dT%H:%M")
            return cls(once.hour, once.minute, once=once)
        hour, minute = rest[1].split(":")
        return cls(int(hour), int(minute), days=rest[0])

    def next_run(self, zone: ZoneInfo, after: datetime) -> datetime | None:
        """The first run strictly after ``after`` (UTC), or None when there is none."""
        if self.once is not None:
            at = self.once.replace(tzinfo=zone).astimezone(UTC)
            return at if at > after else None
        trigger = CronTrigger(
            day_of_week=None if self.days == "*" else self.days,
            hour=self.hour,
            minute=self.minute,
            timezone=zone,
        )
        fire: datetime | None = trigger.get_next_fire_time(None, after + timedelta(seconds=1))
        return fire.astimezone(UTC) if fire is not None else None


def read_rhythm(text: str) -> Rhythm | None:
    """The rhythm the user typed, or None when it is none of the three forms."""
    folded = fold(text)
    if match := _ONCE.fullmatch(folded):
        try:
            once = datetime(
                int(match["year"]),
                int(match["month"]),
                int(match["day"]),
                int(match["hour"]),
                int(match["minute"]),
            )
        except ValueError:
            return None
        return Rhythm(once.hour, once.minute, once=once)
    if match := _EVERY.fullmatch(folded):
        days = _weekdays(match["days"])
        if days is None:
            return None
        return Rhythm(int(match["hour"]), int(match["minute"]), days=days)
    return None


def _weekdays(text: str) -> str | None:
    names = [name for name in re.split(r"[\s,]+|\bve\b|\band\b", text) if name]
    if len(names) == 1 and names[0] in EVERY_DAY:
        return "*"
    days = {DAY_NAMES.get(name) for name in names}
    if not names or None in days:
        return None
    return ",".join(day for day in WEEKDAYS if day in days)


def next_runs(rhythm: Rhythm, zone: ZoneInfo, after: datetime, count: int) -> list[datetime]:
    """Up to ``count`` runs after ``after``, in order."""
    runs: list[datetime] = []
    at = rhythm.next_run(zone, after)
    while at is not None and len(runs) < count:
        runs.append(at)
        at = rhythm.next_run(zone, at)
    return runs
