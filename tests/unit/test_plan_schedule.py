"""A plan's schedule: its next run after a moment, in a zone without summer time (Istanbul)
and one with it (Berlin), across month and year ends, and its stored form."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from storage.schedule import DAILY, Schedule

ISTANBUL = ZoneInfo("Europe/Istanbul")
BERLIN = ZoneInfo("Europe/Berlin")


def utc(year: int, month: int, day: int, hour: int, minute: int) -> datetime:
    """A moment in UTC."""
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def walls(schedule: Schedule, after: datetime, count: int) -> list[str]:
    """The next runs as the schedule's zone's wall clock shows them."""
    runs = schedule.next_times(after, count)
    return [f"{run.astimezone(schedule.zone):%a %d.%m.%Y %H:%M %z}" for run in runs]


def test_istanbul_keeps_three_hours_ahead_of_utc_all_year() -> None:
    daily = Schedule.every(DAILY, 9, 0, ISTANBUL)
    for month in (1, 4, 7, 10):
        assert daily.next_after(utc(2027, month, 10, 0, 0)) == utc(2027, month, 10, 6, 0)


def test_the_next_run_is_strictly_after_the_moment() -> None:
    daily = Schedule.every(DAILY, 9, 0, ISTANBUL)
    assert daily.next_after(utc(2026, 11, 26, 5, 59)) == utc(2026, 11, 26, 6, 0)
    assert daily.next_after(utc(2026, 11, 26, 6, 0)) == utc(2026, 11, 27, 6, 0)
    # Within the second before the run, it is still that run.
    just_before = datetime(2026, 11, 26, 5, 59, 59, 500000, tzinfo=UTC)
    assert daily.next_after(just_before) == utc(2026, 11, 26, 6, 0)


def test_a_daily_run_goes_on_past_the_end_of_each_month_and_year() -> None:
    daily = Schedule.every(DAILY, 9, 0, ISTANBUL)
    assert walls(daily, utc(2027, 1, 31, 7, 0), 1) == ["Mon 01.02.2027 09:00 +0300"]
    assert walls(daily, utc(2027, 2, 28, 7, 0), 1) == ["Mon 01.03.2027 09:00 +0300"]
    assert walls(daily, utc(2028, 2, 28, 7, 0), 2) == [
        "Tue 29.02.2028 09:00 +0300",
        "Wed 01.03.2028 09:00 +0300",
    ]
    assert walls(daily, utc(2026, 12, 31, 7, 0), 1) == ["Fri 01.01.2027 09:00 +0300"]


def test_a_late_evening_run_is_on_the_zones_day_not_utcs() -> None:
    # 23:30 in Istanbul on 31 January is 20:30 UTC the same day.
    daily = Schedule.every(DAILY, 23, 30, ISTANBUL)
    assert daily.next_after(utc(2027, 1, 31, 20, 0)) == utc(2027, 1, 31, 20, 30)
    # 00:15 in Istanbul on 1 March is still 28 February in UTC.
    early = Schedule.every(DAILY, 0, 15, ISTANBUL)
    assert early.next_after(utc(2027, 2, 28, 12, 0)) == utc(2027, 2, 28, 21, 15)


def test_weekdays_cross_the_end_of_a_month_and_a_year() -> None:
    weekly = Schedule.every("mon,fri", 10, 0, ISTANBUL)
    # Thursday 30 December 2027.
    assert walls(weekly, utc(2027, 12, 30, 12, 0), 3) == [
        "Fri 31.12.2027 10:00 +0300",
        "Mon 03.01.2028 10:00 +0300",
        "Fri 07.01.2028 10:00 +0300",
    ]


def test_berlins_wall_clock_holds_across_both_changes_of_summer_time() -> None:
    daily = Schedule.every(DAILY, 9, 0, BERLIN)
    # Clocks go forward on 29 March 2026 and back on 25 October 2026.
    assert [run.hour for run in daily.next_times(utc(2026, 3, 27, 12, 0), 3)] == [8, 7, 7]
    assert [run.hour for run in daily.next_times(utc(2026, 10, 23, 12, 0), 3)] == [7, 8, 8]
    year = daily.next_times(utc(2026, 3, 1, 0, 0), 300)
    assert {run.astimezone(BERLIN).hour for run in year} == {9}


def test_a_daily_run_in_the_hour_summer_time_skips_runs_an_hour_on_that_day() -> None:
    daily = Schedule.every(DAILY, 2, 30, BERLIN)
    # 02:30 does not exist on 29 March 2026: that day's run is at 03:30, an hour on.
    assert walls(daily, utc(2026, 3, 27, 12, 0), 3) == [
        "Sat 28.03.2026 02:30 +0100",
        "Sun 29.03.2026 03:30 +0200",
        "Mon 30.03.2026 02:30 +0200",
    ]


def test_a_daily_run_at_an_hour_the_clock_repeats_runs_once_that_night() -> None:
    daily = Schedule.every(DAILY, 2, 30, BERLIN)
    # 02:30 shows twice on 25 October 2026: the run is at the first, and only there.
    assert walls(daily, utc(2026, 10, 23, 12, 0), 3) == [
        "Sat 24.10.2026 02:30 +0200",
        "Sun 25.10.2026 02:30 +0200",
        "Mon 26.10.2026 02:30 +0100",
    ]


def test_a_one_time_run_is_its_zones_wall_clock_in_summer_and_winter() -> None:
    summer = Schedule.at(datetime(2026, 7, 1, 9, 0), BERLIN)
    winter = Schedule.at(datetime(2026, 12, 31, 23, 59), BERLIN)
    assert summer.next_times(utc(2026, 1, 1, 0, 0), 3) == [utc(2026, 7, 1, 7, 0)]
    assert winter.next_after(utc(2026, 12, 31, 22, 58)) == utc(2026, 12, 31, 22, 59)
    assert winter.next_after(utc(2026, 12, 31, 22, 59)) is None
    assert not winter.repeats


def test_an_aware_time_is_taken_as_its_moment_in_the_zone() -> None:
    once = Schedule.at(datetime(2026, 11, 27, 11, 30, 45, tzinfo=UTC), ISTANBUL)
    assert once.once == datetime(2026, 11, 27, 14, 30)
    assert once.next_after(utc(2026, 11, 27, 11, 0)) == utc(2026, 11, 27, 11, 30)


@pytest.mark.parametrize(
    ("schedule", "stored"),
    [
        (
            Schedule.at(datetime(2026, 11, 27, 14, 30), ISTANBUL),
            "once 2026-11-27T14:30 Europe/Istanbul",
        ),
        (Schedule.every(DAILY, 9, 5, BERLIN), "cron * 09:05 Europe/Berlin"),
        (Schedule.every("mon,thu", 18, 45, ZoneInfo("UTC")), "cron mon,thu 18:45 UTC"),
        (
            Schedule.every(
                "mon,tue,wed,thu,fri,sat,sun", 23, 59, ZoneInfo("America/Argentina/ComodRivadavia")
            ),
            "cron mon,tue,wed,thu,fri,sat,sun 23:59 America/Argentina/ComodRivadavia",
        ),
    ],
)
def test_the_stored_form_reads_back_as_the_same_schedule(schedule: Schedule, stored: str) -> None:
    assert schedule.encode() == stored
    assert Schedule.decode(stored) == schedule
    assert Schedule.decode(stored).zone is schedule.zone
    assert len(stored) <= 96, "the column's width"
