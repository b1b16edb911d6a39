"""The polling policy: when to ask the upstream about a pending job again.

Jobs finish around their estimate (real ones at about 0.9 to 1.3 times it), so polls are
densest there, where they find the most:

- the first poll is at the estimate (set when the job is ordered);
- then every poll interval while the job's age is within ``CLOSE`` (2) times its estimate;
- only after that the waits grow: the interval plus ``BACKOFF_SHARE`` (a quarter) of the
  time beyond twice the estimate, up to ``MAX_POLL_WAIT`` (5 minutes);
- a progress the service shows may bring a poll earlier (when the job should be done at
  that pace), never later: near the estimate the wait stays the interval.

With an interval of 15 s, a 10-minute job is polled at 10:00, 10:15, 10:30, ... until
20:00, then about every 15 s + a quarter of the time beyond: at 40 minutes, every 5 minutes.
No wait is under the interval, nor over the cap (or the interval, when that is longer).

A job due after a wait of one interval must be taken by the round one interval later, not
the one after it: so each wait is a quarter interval shorter than it says (``EARLY``). And a
round asks its users over a moment, not all at its start, so it takes the jobs that become
due within an eighth of an interval (``AHEAD``): the first poll of a job, at its estimate,
is then asked about its time rather than by the next round, up to an interval later.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

__all__ = ["AHEAD", "BACKOFF_SHARE", "CLOSE", "EARLY", "MAX_POLL_WAIT", "PollPolicy"]

MAX_POLL_WAIT = timedelta(minutes=5)
CLOSE = 2.0
BACKOFF_SHARE = 0.25
EARLY = 0.25
AHEAD = 0.125


@dataclass(frozen=True, slots=True)
class PollPolicy:
    """The policy with its interval; ``due`` is when to poll a job next."""

    interval: timedelta
    cap: timedelta = MAX_POLL_WAIT

    def wait(
        self,
        *,
        now: datetime,
        created_at: datetime,
        expected_at: datetime | None,
        progress: int | None,
    ) -> timedelta:
        """How long to wait before the job's next poll; see the module docstring."""
        age = now - created_at
        # An estimate unknown counts as none: the waits grow from the start.
        estimate = max(expected_at - created_at, timedelta(0)) if expected_at else timedelta(0)
        if age < estimate:
            wait = estimate - age
        elif age <= estimate * CLOSE:
            return self.interval
        else:
            wait = self.interval + (age - estimate * CLOSE) * BACKOFF_SHARE
        if progress is not None and 0 < progress < 100:
            wait = min(wait, age * (100 - progress) / progress)
        return min(max(self.interval, wait), max(self.cap, self.interval))

    def due(
        self,
        *,
        now: datetime,
        created_at: datetime,
        expected_at: datetime | None,
        progress: int | None,
    ) -> datetime:
        """When to poll next: the wait, a quarter interval early for the round to take it."""
        wait = self.wait(now=now, created_at=created_at, expected_at=expected_at, progress=progress)
        return now + wait - self.interval * EARLY

    def due_by(self, now: datetime) -> datetime:
        """The latest due time a round starting ``now`` takes a job for."""
        return now + self.interval * AHEAD
