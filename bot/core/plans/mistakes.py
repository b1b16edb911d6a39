"""Why a typed plan time is none of the rhythm's forms, naming the part that is wrong: a date
that does not exist (``31.02.2027``), an hour or minute out of range (``24:00``), a minute of
one digit (``9:5``), a word that is no day, or a time without its day."""

from __future__ import annotations

import re
from datetime import date, datetime, tzinfo
from enum import StrEnum

from bot.core.plans.rhythm import DAY_NAMES, EVERY_DAY
from bot.core.plans.words import examples, tomorrow
from bot.core.texts.calendar import CalendarTexts
from bot.core.texts.turkish import fold

__all__ = ["TimeMistake", "time_mistake", "unreadable_time"]

_DATE = re.compile(r"\b(\d{1,2})\.(\d{1,2})\.(\d{1,4})\b")
_TIME = re.compile(r"\b(\d{1,2})[:.](\d{1,2})\b")
_EVERY = re.compile(r"^(?:her|every)\s+(.*)$")
_DAY_WORDS = re.compile(r"[^\W\d_]+")
# Words a list of days may hold besides the days.
_JOINERS = frozenset({"ve", "and"})


class TimeMistake(StrEnum):
    """The part of a plan's time that is wrong."""

    DATE = "date"
    HOUR = "hour"
    MINUTE = "minute"
    DIGITS = "digits"
    DAY = "day"
    NO_TIME = "no_time"
    NO_DAY = "no_day"


def time_mistake(text: str) -> tuple[TimeMistake, str] | None:
    """The first wrong part of a plan's time and that part as typed; None when no one part
    is to blame (the time then reads as a whole, or not at all)."""
    folded = fold(text)
    found = _DATE.search(folded)
    if found is not None and not _is_date(*found.groups()):
        return TimeMistake.DATE, found[0]
    rest = _DATE.sub(" ", folded)
    clock = _TIME.search(rest)
    if clock is None:
        return (TimeMistake.NO_TIME, text.strip()) if folded else None
    hour, minute = clock.groups()
    if int(hour) > 23:
        return TimeMistake.HOUR, clock[0]
    if int(minute) > 59:
        return TimeMistake.MINUTE, clock[0]
    if len(minute) == 1:
        return TimeMistake.DIGITS, clock[0]
    every = _EVERY.match(rest[: clock.start()].strip())
    if every is not None:
        unknown = [
            word
            for word in _DAY_WORDS.findall(every[1])
            if word not in DAY_NAMES and word not in EVERY_DAY and word not in _JOINERS
        ]
        return (TimeMistake.DAY, unknown[0]) if unknown else None
    return (TimeMistake.NO_DAY, clock[0]) if found is None else None


def _is_date(day: str, month: str, year: str) -> bool:
    try:
        date(int(year), int(month), int(day))
    except ValueError:
        return False
    return len(year) == 4


def unreadable_time(text: str, texts: CalendarTexts, now: datetime, zone: tzinfo) -> str:
    """The answer to a plan whose time cannot be read: what is wrong, then how to write it."""
    found = time_mistake(text)
    day = tomorrow(now, zone, texts)
    first = texts.mistake(found[0], found[1], day) if found else texts.bad_rhythm
    return f"{first} {texts.how_to_write}\n{examples(now, zone, texts)}"
