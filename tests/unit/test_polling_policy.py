"""The polling policy on an injected clock: rounds every interval, a job polled when due."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.delivery.polling import MAX_POLL_WAIT, PollPolicy

START = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)


def polls(
    interval: float, estimate: float, finish: float, *, until: float = 4 * 3600.0
) -> list[float]:
    """The seconds after the order at which a job is polled, by rounds every ``interval``
    from the order on, until a poll finds it finished (at ``finish``) or ``until``."""
    policy = PollPolicy(timedelta(seconds=interval))
    expected = START + timedelta(seconds=estimate)
    due, done, rounds = expected, [], 0
    while not done or done[-1] < finish:
        now = START + timedelta(seconds=rounds * interval)
        rounds += 1
        if now - START > timedelta(seconds=until):
            break
        if due > now:
            continue
        done.append((now - START).total_seconds())
        due = policy.due(now=now, created_at=START, expected_at=expected, progress=None)
    return done


@pytest.mark.parametrize(
    ("interval", "estimate"), [(15.0, 600.0), (15.0, 60.0), (15.0, 180.0), (2.0, 10.0)]
)
def test_polls_start_at_the_estimate_and_come_every_interval_up_to_twice_it(
    interval: float, estimate: float
) -> None:
    times = polls(interval, estimate, finish=10 * estimate)

    assert times[0] == estimate
    close = [t for t in times if t <= 2 * estimate]
    assert close[-1] >= 2 * estimate - interval
    assert all(b - a == interval for a, b in itertools.pairwise(close))


@pytest.mark.parametrize(("interval", "estimate"), [(15.0, 600.0), (15.0, 60.0), (2.0, 10.0)])
@pytest.mark.parametrize("share", [0.9, 1.0, 1.07, 1.3, 1.9])
def test_a_job_finishing_near_its_estimate_is_found_within_one_interval(
    interval: float, estimate: float, share: float
) -> None:
    finish = share * estimate
    found = polls(interval, estimate, finish)[-1]

    assert found - max(finish, estimate) < interval


def test_only_after_twice_the_estimate_the_waits_grow_up_to_five_minutes() -> None:
    times = polls(15.0, 600.0, finish=float("inf"))

    gaps = [(b - a, a) for a, b in itertools.pairwise(times)]
    late = [gap for gap, at in gaps if at > 1200.0]
    assert all(gap == 15.0 for gap, at in gaps if at < 1200.0)
    assert late == sorted(late), "waits never shrink"
    assert late[-1] == pytest.approx(MAX_POLL_WAIT.total_seconds(), abs=15.0)
    assert max(late) <= MAX_POLL_WAIT.total_seconds()


def wait(age: float, estimate: float | None, progress: int | None, interval: float = 15.0) -> float:
    policy = PollPolicy(timedelta(seconds=interval))
    expected = None if estimate is None else START + timedelta(seconds=estimate)
    return policy.wait(
        now=START + timedelta(seconds=age),
        created_at=START,
        expected_at=expected,
        progress=progress,
    ).total_seconds()


def test_a_progress_brings_a_poll_earlier_never_later() -> None:
    # Near the estimate a slow progress changes nothing: the next poll is one interval on.
    assert wait(600.0, 600.0, 5) == wait(900.0, 600.0, 5) == 15.0
    # Past twice the estimate, a job nearly done is asked about sooner than the back-off.
    assert wait(2400.0, 600.0, 99) < wait(2400.0, 600.0, None)
    assert wait(2400.0, 600.0, 1) == wait(2400.0, 600.0, None)
    # Before the estimate (a poll after an error), a fast progress brings it forward.
    assert wait(420.0, 600.0, 90) < wait(420.0, 600.0, None) == 180.0
    # Never under the interval.
    assert wait(2400.0, 600.0, 99) >= 15.0


def test_without_an_estimate_the_waits_grow_from_the_order() -> None:
    waits = [wait(age, None, None) for age in (0.0, 60.0, 600.0, 3600.0)]

    assert waits == sorted(waits)
    assert waits[0] == 15.0
    assert waits[-1] == MAX_POLL_WAIT.total_seconds()
