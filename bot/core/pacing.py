"""Pacing: each send waits for a slot under its chat's limits and the whole bot's limits.

Limits are sliding windows ("at most 3 in any 3.2 s"), the way the platforms state them.
A send first waits until its chat may take one more message, and only then takes the bot's
next free slot, so a chat that must wait a minute (a group) holds no other chat back, and
429s are rare instead of being the mechanism. ``hold`` keeps a chat, or the whole bot,
silent after a 429 for its ``retry_after``.
"""

from __future__ import annotations

import asyncio
import time
from bisect import bisect_left
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass, field

__all__ = ["Pacer", "Slot", "Window"]

# A sweep of idle chats runs after this many reservations, so memory follows active chats.
_SWEEP_EVERY = 1024
# Longer than any platform's window, so a swept chat has nothing left that a window sees.
_MEMORY_SECONDS = 120.0


@dataclass(frozen=True, slots=True)
class Window:
    """At most ``count`` sends in any ``seconds`` long stretch of time."""

    count: int
    seconds: float


@dataclass(frozen=True, slots=True)
class Slot:
    """When to send (``reserved``), or when to ask again because the chat is not ready."""

    at: float
    reserved: bool


@dataclass(slots=True)
class _Log:
    """The send times of one chat, or of the bot (ascending), and until when it is held."""

    times: list[float] = field(default_factory=list)
    held_until: float = 0.0

    def earliest(self, windows: Sequence[Window], now: float) -> float:
        """The first moment at or after ``now`` when one more send keeps every window."""
        at = max(now, self.held_until, self.times[-1] if self.times else now)
        for window in windows:
            if len(self.times) >= window.count:
                at = max(at, self.times[-window.count] + window.seconds)
        return at

    def forget_before(self, moment: float) -> None:
        """Drop the sends no window can still see."""
        del self.times[: bisect_left(self.times, moment)]


class Pacer:
    """Hands out send slots under per-chat and bot-wide windows; see the module docstring."""

    def __init__(
        self,
        overall: Sequence[Window] = (),
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._overall = tuple(overall)
        self._clock = clock
        self._sleep = sleep
        self._bot = _Log()
        self._chats: dict[Hashable, _Log] = {}
        self._since_sweep = 0

    async def wait(self, chat: Hashable, windows: Sequence[Window]) -> None:
        """Sleep until one more message may go to ``chat``; its slot is then taken."""
        while True:
            now = self._clock()
            slot = self.reserve(chat, windows, now)
            if slot.at > now:
                await self._sleep(slot.at - now)
            if slot.reserved:
                return

    def reserve(self, chat: Hashable, windows: Sequence[Window], now: float) -> Slot:
        """Take the bot's next slot once ``chat`` is ready, else say when it will be."""
        log = self._chats.setdefault(chat, _Log())
        ready = log.earliest(windows, now)
        if ready > now:
            return Slot(ready, reserved=False)
        at = self._bot.earliest(self._overall, now)
        log.times.append(at)
        self._bot.times.append(at)
        self._forget(now)
        return Slot(at, reserved=True)

    def hold(self, chat: Hashable | None, seconds: float) -> None:
        """Send nothing to ``chat`` (to any chat, when None) for ``seconds`` from now."""
        log = self._bot if chat is None else self._chats.setdefault(chat, _Log())
        log.held_until = max(log.held_until, self._clock() + seconds)

    @property
    def chats_tracked(self) -> int:
        """How many chats have recent sends or a hold remembered."""
        return len(self._chats)

    def _forget(self, now: float) -> None:
        horizon = now - _MEMORY_SECONDS
        self._bot.forget_before(horizon)
        self._since_sweep += 1
        if self._since_sweep < _SWEEP_EVERY:
            return
        self._since_sweep = 0
        for chat, log in list(self._chats.items()):
            log.forget_before(horizon)
            if not log.times and log.held_until <= now:
                del self._chats[chat]
