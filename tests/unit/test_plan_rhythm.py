"""A plan's rhythm read from what the user typed, and its runs in the bot's zone."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from bot.core.plans.making import rhythm_and_titles
from bot.core.plans.mistakes import TimeMistake, time_mistake
from bot.core.plans.rhythm import read_rhythm
from bot.core.plans.words import describe
from bot.core.texts import texts_for
from storage.schedule import Schedule

ISTANBUL = ZoneInfo("Europe/Istanbul")
BERLIN = ZoneInfo("Europe/Berlin")


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("27.11.2026 14:30", "once 2026-11-27T14:30 Europe/Istanbul"),
        ("her gün 09:00", "cron * 09:00 Europe/Istanbul"),
        ("HER GÜN 9:05", "cron * 09:05 Europe/Istanbul"),
        ("her pazartesi, perşembe 09:00", "cron mon,thu 09:00 Europe/Istanbul"),
        ("her Perşembe ve pazartesi 09.00", "cron mon,thu 09:00 Europe/Istanbul"),
        ("her persembe 18:45", "cron thu 18:45 Europe/Istanbul"),
        ("every day 09:00", "cron * 09:00 Europe/Istanbul"),
        ("every monday, thursday 09:00", "cron mon,thu 09:00 Europe/Istanbul"),
    ],
)
def test_each_form_is_read_and_stored(typed: str, stored: str) -> None:
    rhythm = read_rhythm(typed, ISTANBUL)
    assert rhythm is not None
    assert rhythm.encode() == stored
    assert Schedule.decode(stored) == rhythm


@pytest.mark.parametrize(
    "typed", ["yarın 09:00", "31.02.2026 10:00", "her gün 25:00", "her cumba 09:00", "09:00", ""]
)
def test_anything_else_is_no_rhythm(typed: str) -> None:
    assert read_rhythm(typed, ISTANBUL) is None


def test_the_rhythm_ends_at_the_first_colon_and_space_so_a_title_may_hold_one() -> None:
    head, titles = rhythm_and_titles("her gün 09:00: Yapay zekâ: 5 yöntem; İkinci başlık")
    assert head == "her gün 09:00"
    assert titles == "Yapay zekâ: 5 yöntem; İkinci başlık"
    assert rhythm_and_titles("her gün 09:00:\nBirinci\nİkinci") == (
        "her gün 09:00",
        "Birinci\nİkinci",
    )
    assert rhythm_and_titles("her gün 09:00:") == ("her gün 09:00", "")


def test_weekdays_run_on_their_days_at_the_zones_wall_clock() -> None:
    rhythm = read_rhythm("her pazartesi, perşembe 09:00", ISTANBUL)
    assert rhythm is not None
    # Thursday 26 November 2026, 10:00 in Istanbul (UTC+3).
    runs = rhythm.next_times(datetime(2026, 11, 26, 7, 0, tzinfo=UTC), 3)
    assert [run.astimezone(ISTANBUL).strftime("%a %d.%m %H:%M") for run in runs] == [
        "Mon 30.11 09:00",
        "Thu 03.12 09:00",
        "Mon 07.12 09:00",
    ]


def test_a_daily_run_keeps_its_wall_clock_across_a_change_of_summer_time() -> None:
    rhythm = read_rhythm("her gün 09:00", BERLIN)
    assert rhythm is not None
    # Berlin moves its clocks back on 25 October 2026.
    runs = rhythm.next_times(datetime(2026, 10, 23, 12, 0, tzinfo=UTC), 2)
    assert [run.astimezone(BERLIN).hour for run in runs] == [9, 9]
    assert [run.hour for run in runs] == [7, 8], "the UTC time moves, not the wall clock"


def test_a_one_time_plan_has_one_run_and_none_once_past() -> None:
    rhythm = read_rhythm("27.11.2026 14:30", ISTANBUL)
    assert rhythm is not None
    before = datetime(2026, 11, 27, 11, 0, tzinfo=UTC)
    assert rhythm.next_times(before, 5) == [datetime(2026, 11, 27, 11, 30, tzinfo=UTC)]
    assert rhythm.next_after(datetime(2026, 11, 27, 11, 30, tzinfo=UTC)) is None


def test_a_rhythm_reads_back_in_each_language() -> None:
    rhythm = read_rhythm("her pazartesi, perşembe 09:00", ISTANBUL)
    assert rhythm is not None
    assert describe(rhythm, texts_for("tr").calendar) == "her pazartesi, perşembe 09:00"
    assert describe(rhythm, texts_for("en").calendar) == "every Monday, Thursday 09:00"


@pytest.mark.parametrize(
    ("typed", "mistake", "part"),
    [
        ("31.02.2027 10:00", TimeMistake.DATE, "31.02.2027"),
        ("1.13.2027 10:00", TimeMistake.DATE, "1.13.2027"),
        ("29.11.26 10:00", TimeMistake.DATE, "29.11.26"),
        ("her gün 24:00", TimeMistake.HOUR, "24:00"),
        ("28.11.2027 10:60", TimeMistake.MINUTE, "10:60"),
        ("her gün 9:5", TimeMistake.DIGITS, "9:5"),
        ("her pazartesi ve cumba 09:00", TimeMistake.DAY, "cumba"),
        ("every mon 09:00", TimeMistake.DAY, "mon"),
        ("yarın", TimeMistake.NO_TIME, "yarın"),
        ("09:00", TimeMistake.NO_DAY, "09:00"),
    ],
)
def test_a_time_that_is_no_rhythm_names_its_wrong_part(
    typed: str, mistake: TimeMistake, part: str
) -> None:
    assert read_rhythm(typed, ISTANBUL) is None
    assert time_mistake(typed) == (mistake, part)


def test_a_time_without_one_wrong_part_blames_none() -> None:
    assert time_mistake("") is None
    assert time_mistake("28.11.2027 10:00 fazladan") is None
