"""Telegram's flood limits on the calls that post or change a message, and what passed them.

Bot-wide, Telegram's words ("will not allow more than 30 messages per second") read at their
strictest: at most 30 in any one second, a sliding window (or, with ``bot_window=None``, the
looser token bucket of 30 refilled at 30/s); each private chat (id > 0), a bucket of 3
refilled at 1/s; each group (id < 0), at most 20 in any 60 s. A call beyond a limit is
answered 429 with the whole seconds until it would pass, and consumes nothing.

Calls reach Telegram over a network: with ``jitter``, each is judged up to that many seconds
(at random) after it arrived, so two calls sent a few milliseconds apart may be judged in
either order, and a gap kept to the edge of a limit may shrink on the way.

The fake Bot API (``tests/e2e/fake_telegram``) enforces them, and the unit tier holds the
bot's pacer to them; it lives outside the fake so that the unit tier imports no server.
"""

from __future__ import annotations

import math
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["COUNTED_METHODS", "TELEGRAM_LIMITS", "Limits", "Sent", "Throttle"]

# Lower case, as the fake looks methods up. Chat actions, deletions, callback answers and
# reads post or change no message, so Telegram does not count them against these limits.
COUNTED_METHODS = frozenset(
    {"sendmessage", "senddocument", "editmessagetext", "editmessagereplymarkup"}
)


@dataclass(frozen=True)
class Limits:
    """The numbers of the limits; Telegram's by default."""

    bot_burst: int = 30
    bot_per_second: float = 30.0
    # The bot's limit as a sliding window: at most ``bot_burst`` in any this many seconds.
    # None reads it as a token bucket instead (``bot_burst`` deep, ``bot_per_second``).
    bot_window: float | None = 1.0
    private_burst: int = 3
    private_per_second: float = 1.0
    group_per_window: int = 20
    group_window: float = 60.0
    # The longest delay, in seconds, between a call's arrival and the moment it is judged.
    jitter: float = 0.0


TELEGRAM_LIMITS = Limits()


@dataclass(frozen=True)
class Sent:
    """One counted call the fake accepted: its method, chat and ``time.monotonic()``."""

    method: str
    chat_id: int
    at: float


class _Bucket:
    """A token bucket that starts full."""

    def __init__(self, capacity: int, per_second: float, now: float) -> None:
        self._capacity = capacity
        self._per_second = per_second
        self._tokens = float(capacity)
        self._at = now

    def wait(self, now: float) -> float:
        """Seconds until one token is there; 0 when it is there now."""
        self._tokens = min(self._capacity, self._tokens + (now - self._at) * self._per_second)
        self._at = now
        return max(0.0, (1 - self._tokens) / self._per_second)

    def take(self, now: float) -> None:
        self._tokens -= 1


class _Window:
    """At most ``size`` events in any ``seconds``."""

    def __init__(self, size: int, seconds: float) -> None:
        self._size = size
        self._seconds = seconds
        self._times: deque[float] = deque()

    def wait(self, now: float) -> float:
        """Seconds until one more event fits; 0 when it fits now."""
        while self._times and self._times[0] <= now - self._seconds:
            self._times.popleft()
        if len(self._times) < self._size:
            return 0.0
        return self._times[0] + self._seconds - now

    def take(self, now: float) -> None:
        self._times.append(now)


class Throttle:
    """Admits counted calls within the limits and keeps what Telegram received."""

    def __init__(
        self, limits: Limits | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.sent: list[Sent] = []
        self.refused: Counter[int] = Counter()  # 429s answered, per chat
        self._clock = clock
        self.limits = limits

    @property
    def limits(self) -> Limits | None:
        """The limits enforced now; None lets every call through."""
        return self._limits

    @limits.setter
    def limits(self, limits: Limits | None) -> None:
        self._limits = limits
        self._bot: _Bucket | _Window | None = None
        self._chats: dict[int, _Bucket | _Window] = {}

    def admit(self, chat_id: int) -> int | None:
        """Take one call to ``chat_id`` within the limits; else the ``retry_after`` to answer."""
        limits = self._limits
        if limits is None:
            return None
        now = self._clock()
        if self._bot is None:
            self._bot = (
                _Bucket(limits.bot_burst, limits.bot_per_second, now)
                if limits.bot_window is None
                else _Window(limits.bot_burst, limits.bot_window)
            )
        chat = self._chats.get(chat_id)
        if chat is None:
            chat = self._chats[chat_id] = (
                _Bucket(limits.private_burst, limits.private_per_second, now)
                if chat_id > 0
                else _Window(limits.group_per_window, limits.group_window)
            )
        wait = max(self._bot.wait(now), chat.wait(now))
        if wait > 0:
            self.refused[chat_id] += 1
            return max(1, math.ceil(wait))
        self._bot.take(now)
        chat.take(now)
        return None

    def record(self, method: str, chat_id: int) -> None:
        """Keep an accepted call that took effect."""
        self.sent.append(Sent(method, chat_id, self._clock()))
