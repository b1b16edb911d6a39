"""What one chat (or the whole bot) has sent, as each of its limits counts it, and when the
next send fits: a sliding window counts sends from when they reached the platform, a token
bucket by its theoretical arrival time (GCRA). The pacer (``bot.core.limits.pacing``) keeps
one of these per chat and one for the bot.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = [
    "MARGIN",
    "MEMORY_SECONDS",
    "SLOWER",
    "Bucket",
    "Limit",
    "SendLog",
    "Spare",
    "Window",
    "room_ahead",
]

# Longer than any platform's window, so a swept chat has nothing left that a window sees.
MEMORY_SECONDS = 120.0
# The network's jitter allowed for: sends to the platform arrive up to this much apart from
# how they left (tens of milliseconds on a good day, more on a busy host).
MARGIN = 0.1
# A slowed chat's step between sends is this many times its bucket's.
SLOWER = 2.0


@dataclass(frozen=True, slots=True)
class Spare:
    """What a send leaves: tokens of each bucket, places in each window, and the tokens of
    each bucket the margin never takes (``kept``)."""

    bucket: int
    window: int
    kept: int


@dataclass(frozen=True, slots=True)
class Window:
    """At most ``count`` sends in any ``seconds`` long stretch of time."""

    count: int
    seconds: float


@dataclass(frozen=True, slots=True)
class Bucket:
    """``burst`` sends at once, then ``per_second``: a token bucket that starts full."""

    burst: int
    per_second: float


Limit = Window | Bucket


def room_ahead(bucket: Bucket, step: float, margin: float, spare: Spare) -> float:
    """How far ahead of its pace (GCRA's theoretical arrival time) a send may be: the
    bucket's burst less the margin, never below the ``kept`` tokens, less what it leaves."""
    room = min(spare.kept, bucket.burst - 1) / bucket.per_second
    return max(room, (bucket.burst - 1) / bucket.per_second - margin) - spare.bucket * step


@dataclass(slots=True)
class SendLog:
    """The sends of one chat, or of the bot: for windows, when each reached the platform at
    the latest (ascending), for buckets each one's theoretical arrival time (GCRA), until
    when it is held, and slowed."""

    times: list[float] = field(default_factory=list)
    # Sends not answered yet, by slot: their place in ``times`` until the answer.
    unanswered: dict[float, list[float]] = field(default_factory=dict)
    arrivals: dict[Bucket, float] = field(default_factory=dict)
    last: float = 0.0
    held_until: float = 0.0
    slowed_until: float = 0.0
    # A 429 until then is this chat's second in a row: only that one slows it.
    suspect_until: float = 0.0

    def earliest(self, limits: Sequence[Limit], now: float, margin: float, spare: Spare) -> float:
        """The first moment at or after ``now`` when one more send keeps every limit, with
        ``spare`` left in each.

        A window counts each send from when it reached the platform at the latest, and
        compares that with when the next one leaves: however late the next one arrives, no
        window of the platform's can hold more than its count. The margin
        never takes the ``kept`` tokens the priorities leave each other: however late
        answers come back, an answer or a first message still finds its room.
        """
        at = max(now, self.held_until, self.last)
        for limit in limits:
            if isinstance(limit, Bucket):
                ahead = room_ahead(limit, self.step_of(limit, now), margin, spare)
                at = max(at, self.arrivals.get(limit, 0.0) - ahead)
            elif len(self.times) >= limit.count - spare.window:
                at = max(at, self.times[spare.window - limit.count] + limit.seconds)
        return at

    def take(self, limits: Sequence[Limit], at: float, margin: float) -> None:
        self.last = at
        for limit in limits:
            if isinstance(limit, Bucket):
                self.arrivals[limit] = max(self.arrivals.get(limit, 0.0), at) + self.step_of(
                    limit, at
                )
        if any(isinstance(limit, Window) for limit in limits):
            # Counted from a margin after it left until its answer says when.
            insort(self.times, at + MARGIN)
            self.unanswered.setdefault(at, []).append(at + MARGIN)

    def reached(self, limits: Sequence[Limit], slot: float, at: float) -> None:
        """The send of ``slot`` reached the platform by ``at``: count it from then at the
        latest."""
        for limit in limits:
            if isinstance(limit, Bucket) and limit in self.arrivals:
                self.arrivals[limit] = max(self.arrivals[limit], at + self.step_of(limit, at))
        if self._answered(slot) is not None:
            insort(self.times, at)

    def give_back(self, limits: Sequence[Limit], slot: float, now: float) -> None:
        """Undo the count of the send of ``slot``: the platform refused it, so it took
        nothing."""
        for limit in limits:
            if isinstance(limit, Bucket) and limit in self.arrivals:
                self.arrivals[limit] -= self.step_of(limit, now)
        self._answered(slot)

    def _answered(self, slot: float) -> float | None:
        """Drop the guess of when the send of ``slot`` reached the platform: it, if any."""
        guesses = self.unanswered.get(slot)
        if not guesses:
            return None
        guess = guesses.pop()
        if not guesses:
            del self.unanswered[slot]
        index = bisect_left(self.times, guess)
        if index < len(self.times) and self.times[index] == guess:
            del self.times[index]
        return guess

    def step_of(self, bucket: Bucket, now: float) -> float:
        """The bucket's step between sends now: longer while the chat is slowed."""
        step = 1.0 / bucket.per_second
        return step * SLOWER if now < self.slowed_until else step

    def forget_before(self, moment: float) -> None:
        """Drop the sends no window can still see, and guesses never answered."""
        del self.times[: bisect_left(self.times, moment)]
        for slot in [slot for slot in self.unanswered if slot < moment]:
            del self.unanswered[slot]

    def idle(self, now: float) -> bool:
        return not self.times and self.held_until <= now and self.last < now - MEMORY_SECONDS
