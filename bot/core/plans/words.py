"""How a plan's times and rhythm read, in the plan's zone and the user's language."""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo

from bot.core.texts.calendar import CalendarTexts
from storage.schedule import DAILY, WEEKDAYS, Schedule

__all__ = ["describe", "examples", "local_time", "tomorrow"]


def local_time(at: datetime, zone: tzinfo, texts: CalendarTexts) -> str:
    """A UTC time as the zone's wall clock shows it: ``27.11.2026 09:00``."""
    return at.astimezone(zone).strftime(texts.time_format)


def describe(schedule: Schedule, texts: CalendarTexts) -> str:
    """The schedule in words: ``27.11.2026 14:30``, ``her gün 09:00``, ``her pazartesi, ...``."""
    if schedule.once is not None:
        return schedule.once.strftime(texts.time_format)
    time = f"{schedule.hour:02d}:{schedule.minute:02d}"
    if schedule.days == DAILY:
        return texts.every_day.format(time=time)
    names = [texts.day_names[WEEKDAYS.index(day)] for day in schedule.weekdays]
    return texts.every_days.format(days=", ".join(names), time=time)


def tomorrow(now: datetime, zone: tzinfo, texts: CalendarTexts) -> str:
    """Tomorrow's date in the zone, for examples that still work when copied."""
    return (now.astimezone(zone) + timedelta(days=1)).strftime(texts.date_format)


def examples(now: datetime, zone: tzinfo, texts: CalendarTexts) -> str:
    """How a plan is written, one example a line, dated from today."""
    return texts.examples.format(tomorrow=tomorrow(now, zone, texts))
