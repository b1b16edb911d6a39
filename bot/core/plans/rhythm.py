"""A plan's rhythm read from what the user typed, into its ``Schedule``.

Three forms, in Turkish or English: a date and time (``27.11.2026 14:30``), every day
(``her gün 09:00``), or some weekdays (``her pazartesi, perşembe 09:00``). The times are the
wall clock of the zone given, the bot's (``BOT_TIMEZONE``).
"""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.core.texts.turkish import fold
from storage.schedule import DAILY, WEEKDAYS, Schedule

__all__ = ["DAY_NAMES", "EVERY_DAY", "read_rhythm"]

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
_TIME = r"(?P<hour>[01]?\d|2[0-3])[:.](?P<minute>[0-5]\d)"
_ONCE = re.compile(rf"(?P<day>\d{{1,2}})\.(?P<month>\d{{1,2}})\.(?P<year>\d{{4}})\s+{_TIME}")
_EVERY = re.compile(rf"(?:her|every)\s+(?P<days>.+?)\s+{_TIME}")
EVERY_DAY = frozenset({"gun", "day"})


def read_rhythm(text: str, zone: ZoneInfo) -> Schedule | None:
    """The schedule the user typed, in ``zone``, or None when it is none of the three forms."""
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
        return Schedule.at(once, zone)
    if match := _EVERY.fullmatch(folded):
        days = _weekdays(match["days"])
        if days is None:
            return None
        return Schedule.every(days, int(match["hour"]), int(match["minute"]), zone)
    return None


def _weekdays(text: str) -> str | None:
    names = [name for name in re.split(r"[\s,]+|\bve\b|\band\b", text) if name]
    if len(names) == 1 and names[0] in EVERY_DAY:
        return DAILY
    days = {DAY_NAMES.get(name) for name in names}
    if not names or None in days:
        return None
    return ",".join(day for day in WEEKDAYS if day in days)
