"""What the Cloud API keeps of each person the number talks to: the 24-hour window and the
pair rate, both on the fake's own clock.

A business may send anything but a template only within 24 hours of the person's last
message (error 131047 otherwise, in the answer or as a later ``failed`` status). About one
message every 6 seconds goes to one person, after a burst (error 131056 past it); the
number takes 80 messages a second in all (error 130429).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tests.e2e.fake_whatsapp.limits import PAIR_RATE, THROUGHPUT, GraphError

__all__ = ["WINDOW_SECONDS", "PairRate", "Pairs"]

WINDOW_SECONDS = 24 * 60 * 60


@dataclass(frozen=True)
class PairRate:
    """``burst`` messages to one person at once, then one each ``every`` seconds."""

    burst: int = 45
    every: float = 6.0


@dataclass
class Pairs:
    """Each person's last message, the sends to each, and the number's throughput."""

    clock: Callable[[], float]
    rate: PairRate = field(default_factory=PairRate)
    per_second: int = 80
    last_heard: dict[str, float] = field(default_factory=dict)
    # Theoretical arrival time of each person's bucket (GCRA): a send is early before it.
    _due: dict[str, float] = field(default_factory=dict)
    _second: list[float] = field(default_factory=list)

    def heard(self, person: str) -> None:
        """The person wrote (or pressed a button): their window opens for 24 hours."""
        self.last_heard[person] = self.clock()

    def window_open(self, person: str) -> bool:
        """Whether the person wrote within the last 24 hours."""
        heard = self.last_heard.get(person)
        return heard is not None and self.clock() - heard < WINDOW_SECONDS

    def take(self, person: str) -> None:
        """Count one send to the person, or raise the error that refuses it."""
        now = self.clock()
        self._second = [moment for moment in self._second if now - moment < 1.0]
        if len(self._second) >= self.per_second:
            raise GraphError(THROUGHPUT, "throughput of the number exceeded", status=400)
        due = max(self._due.get(person, now), now)
        if due - now > (self.rate.burst - 1) * self.rate.every:
            raise GraphError(PAIR_RATE, "too many messages to this user", status=400)
        self._due[person] = due + self.rate.every
        self._second.append(now)
