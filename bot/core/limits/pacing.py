"""Pacing: each send waits for a slot under its chat's limits and the whole bot's limits.

A limit is a sliding window ("at most 20 in any 60 s", a group's) or a token bucket
("3 at once, then one a second", a private chat's; 30 a second for a bot), the way each
platform states it. A send first waits until its chat may take one more message, and only
then takes the bot's next free slot, so a chat that must wait a minute (a group) holds no
other chat back, and 429s are rare instead of being the mechanism.

Sends reach the platform over a network, each a little late by a varying amount: two sent
one refill apart may arrive closer than that. So a bucket is kept with a margin of room (its
burst counts that much refill less): ``MARGIN``, or more when the requests measured lately
(``reached``) took longer, as on a busy host. A send counts from the moment its answer came
back (``reached``), the latest it can have reached the platform (until then, from
``MARGIN`` after it left). A window compares that with when the next send leaves, so no
window of the platform's holds more than its count however late the network carries the
next one, and however late a busy host lets it leave. A send the platform refused (429) is
handed back with ``refused``: only what reached the platform counts. A 429 keeps the chat
silent for its ``retry_after``; the bot cannot tell whether the chat's limit or the bot's
refused it, so only a second 429 soon after halves the chat's pace, for ``SLOWED_FOR``,
then the pace recovers.

Who goes first when the pace is short is the send's ``Priority``, set for a stretch of work
with ``paced_as``. Interactive answers go first: a send made in the background (delivery)
leaves ``RESERVE`` tokens of each bucket, the chat's and the bot's, to answers, and never
books a bot slot ahead of time, so an answer never queues behind an article. An article's
first message goes next: the rest of an article (its other parts, files, card and last line)
leaves ``REST_RESERVE`` of the bot's tokens to first messages, so an article found finished
is not kept waiting behind the files of those found before it. Background sends wait for
the bot in one line (``bot.core.limits.line``), by priority, and the rest of the articles by
their part of the work: every chat's earlier parts go ahead of other chats' later ones, so a
burst ends with every chat's last send at once. First messages keep their order of coming:
one of an article taken over from a dead replica (a later part) must not wait behind those
found after it. A progress line takes only a slot free now (``IF_FREE``),
else ``NoRoom`` is raised: a fresher line comes with the next poll, and a poll must not wait
for a line.
"""

from __future__ import annotations

import asyncio
import time
from bisect import bisect_left, insort
from collections import deque
from collections.abc import Awaitable, Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Protocol

from bot.core.limits.line import Line, Rank

__all__ = [
    "MARGIN",
    "RESERVE",
    "REST_RESERVE",
    "SLOWED_FOR",
    "Bucket",
    "Limit",
    "NoRoom",
    "Pacer",
    "Priority",
    "Slot",
    "Spare",
    "Window",
    "paced_as",
]

# A sweep of idle chats runs after this many reservations, so memory follows active chats.
_SWEEP_EVERY = 1024
# Longer than any platform's window, so a swept chat has nothing left that a window sees.
_MEMORY_SECONDS = 120.0
# The network's jitter allowed for: sends to the platform arrive up to this much apart from
# how they left (tens of milliseconds on a good day, more on a busy host).
MARGIN = 0.1
# Tokens of each bucket a background send leaves to interactive answers.
RESERVE = 1
# Tokens of the bot's bucket the rest of an article leaves to first messages: a third of a
# second at Telegram's 30/s, room for the first messages a round finds at once.
REST_RESERVE = 10
# The margin follows the slowest of this many requests measured lately, up to _MAX_MARGIN.
_MEASURED = 64
_MAX_MARGIN = 1.0
# A chat refused twice within this long has its pace halved for this long.
SLOWED_FOR = 60.0
_SLOWER = 2.0


class Priority(IntEnum):
    """Who goes first when the pace is short: the lower, the sooner."""

    ANSWER = 0  # an interactive answer: any slot, booked ahead if need be
    ARTICLE = 1  # delivery, an article's first message above all
    REST = 2  # the rest of an article: behind the first messages of the others
    IF_FREE = 3  # a progress line: a slot free now, or none (``NoRoom``)


class NoRoom(Exception):
    """An ``IF_FREE`` send found no slot free now; it was not sent."""


_PRIORITY: ContextVar[tuple[Priority, int]] = ContextVar("paced_as", default=(Priority.ANSWER, 0))
# Sends at these priorities wait for the bot's slot in the line, by rank.
_LINED = (Priority.ARTICLE, Priority.REST)


@contextmanager
def paced_as(priority: Priority | None = None, *, part: int = 0) -> Iterator[None]:
    """Sends made within (and in tasks started within) go at ``priority`` (None: the one set
    around), as the ``part``-th send of their work (an article's): at ``Priority.REST``, an
    earlier part goes ahead of a later one."""
    token = _PRIORITY.set((_PRIORITY.get()[0] if priority is None else priority, part))
    try:
        yield
    finally:
        _PRIORITY.reset(token)


@dataclass(frozen=True, slots=True)
class Spare:
    """What a send leaves: tokens of each bucket, places in each window, and the tokens of
    each bucket the margin never takes (``kept``)."""

    bucket: int
    window: int
    kept: int


def _spare(priority: Priority, bot: bool) -> Spare:
    """What a send at ``priority`` leaves of the chat's limits, or of the bot's."""
    kept = REST_RESERVE if bot else RESERVE
    if priority is Priority.ANSWER:
        return Spare(0, 0, kept)
    bucket = REST_RESERVE if bot and priority >= Priority.REST else RESERVE
    # A chat's window is a group's minute: its pace is kept whole, and answers are rare there.
    return Spare(bucket, RESERVE if bot else 0, kept)


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


def _ahead(bucket: Bucket, step: float, margin: float, spare: Spare) -> float:
    """How far ahead of its pace (GCRA's theoretical arrival time) a send may be: the
    bucket's burst less the margin, never below the ``kept`` tokens, less what it leaves."""
    room = min(spare.kept, bucket.burst - 1) / bucket.per_second
    return max(room, (bucket.burst - 1) / bucket.per_second - margin) - spare.bucket * step


class SharedPace(Protocol):
    """Chats' buckets and the bot's window kept where every replica draws from them (a
    database)."""

    async def claim(self, chat: Hashable, step: float, ahead: float) -> float | None:
        """Take one send of the chat's bucket if its next free time is at most ``ahead``
        seconds from now, moving it a ``step`` on (None); else the seconds until it is."""

    async def hold(self, chat: Hashable, seconds: float) -> None:
        """Let no send to the chat be claimed for ``seconds`` from now."""

    async def claim_window(
        self,
        count: int,
        keep: float,
        spare: int,
        *,
        rank: Rank,
        sleep: Callable[[float], Awaitable[None]] | None,
    ) -> str | None:
        """Take one of the bot's ``count`` places for ``keep`` seconds once more than
        ``spare`` are free, in turn by ``rank`` (the lower, the sooner) with ``sleep`` to
        wait: the place taken. Without ``sleep``, only a place free now, else None."""

    def keep_place(self, place: str, seconds: float) -> None:
        """Keep the window's ``place`` taken for at least ``seconds`` from now (in the
        background)."""


@dataclass(frozen=True, slots=True)
class Slot:
    """When to send (``reserved``), or when to ask again: because the chat is not ready, or
    (``bot_busy``) the bot has no slot free for a background send."""

    at: float
    reserved: bool
    bot_busy: bool = False


@dataclass(slots=True)
class _Log:
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
                ahead = _ahead(limit, self.step_of(limit, now), margin, spare)
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
        return step * _SLOWER if now < self.slowed_until else step

    def forget_before(self, moment: float) -> None:
        """Drop the sends no window can still see, and guesses never answered."""
        del self.times[: bisect_left(self.times, moment)]
        for slot in [slot for slot in self.unanswered if slot < moment]:
            del self.unanswered[slot]

    def idle(self, now: float) -> bool:
        return not self.times and self.held_until <= now and self.last < now - _MEMORY_SECONDS


class Pacer:
    """Hands out send slots under per-chat and bot-wide limits; see the module docstring."""

    def __init__(
        self,
        overall: Sequence[Limit] = (),
        *,
        margin: float = MARGIN,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        shared: SharedPace | None = None,
    ) -> None:
        self._overall = tuple(overall)
        self._bot_windows = tuple(limit for limit in overall if isinstance(limit, Window))
        self._shared = shared
        self._margin = margin
        self._clock = clock
        self._sleep = sleep
        self._bot = _Log()
        self._line = Line()
        self._chats: dict[Hashable, _Log] = {}
        self._since_sweep = 0
        self._took: deque[float] = deque(maxlen=_MEASURED)
        # The places of the shared window each send took, and its length, by chat and slot.
        self._places: dict[tuple[Hashable, float], list[tuple[str, float]]] = {}

    @property
    def margin(self) -> float:
        """The room kept in each bucket: the allowance, or the slowest request lately."""
        return min(max(self._margin, *self._took, 0.0), _MAX_MARGIN)

    async def wait(self, chat: Hashable, limits: Sequence[Limit]) -> float:
        """Sleep until one more message may go to ``chat``; its slot is then taken: when.

        At ``Priority.IF_FREE``, raise ``NoRoom`` instead of sleeping.
        """
        priority, part = _PRIORITY.get()
        rank = (priority, part if priority is Priority.REST else 0)
        shared = next((limit for limit in limits if isinstance(limit, Bucket)), None)
        claimed = None
        if self._shared is not None and shared is not None:
            await self._claim(self._shared, chat, shared, priority)
            claimed = self._clock()
            limits = tuple(limit for limit in limits if limit is not shared)
        while True:
            if priority in _LINED:
                slot = await self._in_line(chat, limits, rank)
            else:
                slot = self.reserve(chat, limits, self._clock(), priority=priority)
            if priority is Priority.IF_FREE and not slot.reserved:
                raise NoRoom(chat)
            now = self._clock()
            if slot.at > now:
                await self._sleep(slot.at - now)
            if slot.reserved:
                if self._shared is not None and self._bot_windows:
                    self._places[chat, slot.at] = await self._claim_window(
                        self._shared, chat, limits, slot.at, rank
                    )
                now = self._clock()
                late = claimed is not None and now - claimed > MARGIN
                if late and self._shared is not None and shared is not None:
                    # It leaves later than the chat's claim counted it (it waited for the
                    # bot): the chat's next send is a step from now.
                    await self._shared.hold(chat, self._chats[chat].step_of(shared, now))
                return slot.at

    async def _in_line(self, chat: Hashable, limits: Sequence[Limit], rank: Rank) -> Slot:
        """The bot's next slot for a background send, taken in the line by ``rank`` once its
        chat is ready; a chat not ready (or no longer: an answer took its room) waits out of
        the line, and its slot says until when."""
        priority = Priority(rank[0])
        now = self._clock()
        ready = self._ready_at(chat, limits, now, priority)
        if ready > now:
            return Slot(ready, reserved=False)
        await self._line.turn(rank)
        try:
            while True:
                now = self._clock()
                slot = self.reserve(chat, limits, now, priority=priority)
                if not slot.bot_busy:
                    return slot
                await self._sleep(slot.at - now)
                await self._line.let_ahead(rank)
        finally:
            self._line.hand_on()

    async def _claim(
        self, shared: SharedPace, chat: Hashable, bucket: Bucket, priority: Priority
    ) -> None:
        """Take a send of ``chat``'s ``bucket`` where every replica draws from it, once this
        process holds the chat no longer."""
        while True:
            now = self._clock()
            log = self._chats.setdefault(chat, _Log())
            wait = log.held_until - now
            if wait <= 0:
                step = log.step_of(bucket, now)
                ahead = _ahead(bucket, step, self.margin, _spare(priority, bot=False))
                claimed = await shared.claim(chat, step, ahead)
                if claimed is None:
                    return
                wait = claimed
            if priority is Priority.IF_FREE:
                raise NoRoom(chat)
            await self._sleep(wait)

    async def _claim_window(
        self,
        shared: SharedPace,
        chat: Hashable,
        limits: Sequence[Limit],
        slot: float,
        rank: Rank,
    ) -> list[tuple[str, float]]:
        """Take a place in each of the bot's windows where every replica draws from them, as
        the send leaves: held a window's length and ``MARGIN``, when it has arrived unless
        its answer comes later (``reached``). Not the measured margin: one slow request
        would halve the window for every replica."""
        priority = Priority(rank[0])
        spare = _spare(priority, bot=True).window
        sleep = None if priority is Priority.IF_FREE else self._sleep
        places = []
        for window in self._bot_windows:
            keep = window.seconds + MARGIN
            place = await shared.claim_window(window.count, keep, spare, rank=rank, sleep=sleep)
            if place is None:
                now = self._clock()
                self._chats[chat].give_back(limits, slot, now)
                self._bot.give_back(self._overall, slot, now)
                raise NoRoom(chat)
            places.append((place, window.seconds))
        return places

    async def share_refusal(
        self, chat: Hashable, limits: Sequence[Limit], retry_after: float
    ) -> None:
        """Hold ``chat`` for ``retry_after`` on every replica, after a 429 (see ``refused``)."""
        bucket = next((limit for limit in limits if isinstance(limit, Bucket)), None)
        if self._shared is not None and bucket is not None:
            # Its next free time then, plus the burst's room: one send at the end of the hold.
            room = (bucket.burst - 1) / bucket.per_second
            await self._shared.hold(chat, retry_after + room)

    def reserve(
        self,
        chat: Hashable,
        limits: Sequence[Limit],
        now: float,
        *,
        priority: Priority = Priority.ANSWER,
    ) -> Slot:
        """Take the bot's next slot once ``chat`` is ready, else say when it will be.

        Below ``Priority.ANSWER``, a send leaves tokens of each bucket (``_spare``) and takes
        only a bot slot free now: one booked ahead would make a later answer queue behind it.
        """
        ready = self._ready_at(chat, limits, now, priority)
        if ready > now:
            return Slot(ready, reserved=False)
        margin = self.margin
        at = self._bot.earliest(self._overall, now, margin, _spare(priority, bot=True))
        if priority is not Priority.ANSWER and at > now:
            return Slot(at, reserved=False, bot_busy=True)
        log = self._chats[chat]
        log.take(limits, at, margin)
        self._bot.take(self._overall, at, margin)
        self._forget(now)
        return Slot(at, reserved=True)

    def _ready_at(
        self, chat: Hashable, limits: Sequence[Limit], now: float, priority: Priority
    ) -> float:
        """When ``chat`` may take one more send at ``priority``, leaving its spare."""
        log = self._chats.setdefault(chat, _Log())
        return log.earliest(limits, now, self.margin, _spare(priority, bot=False))

    def reached(self, chat: Hashable, limits: Sequence[Limit], slot: float) -> None:
        """A send to ``chat`` booked for ``slot`` was answered now: it reached the platform
        between the two. It counts from now, and the time it took is measured."""
        now = self._clock()
        self._took.append(max(0.0, now - slot))
        places = self._places.pop((chat, slot), ())
        if self._shared is not None and now - slot > MARGIN:
            # It may have arrived after its place was let go: the place counts from now.
            for place, seconds in places:
                self._shared.keep_place(place, seconds)
        self._chats.setdefault(chat, _Log()).reached(limits, slot, now)
        # The bot's bucket paces; only its window, the limit itself, counts from answers.
        self._bot.reached(self._bot_windows, slot, now)

    def hold(self, chat: Hashable | None, seconds: float) -> None:
        """Send nothing to ``chat`` (to any chat, when None) for ``seconds`` from now."""
        log = self._bot if chat is None else self._chats.setdefault(chat, _Log())
        log.held_until = max(log.held_until, self._clock() + seconds)

    def refused(
        self, chat: Hashable, limits: Sequence[Limit], retry_after: float, slot: float
    ) -> None:
        """The platform answered the send of ``slot`` to ``chat`` with 429: it counts for
        nothing, and the chat stays silent for ``retry_after``.

        The bot cannot tell which limit refused it (the chat's or the whole bot's), so one
        429 is no verdict on the chat; a second one within ``SLOWED_FOR`` of the first halves
        the chat's pace for ``SLOWED_FOR``.
        """
        now = self._clock()
        self._places.pop((chat, slot), None)
        log = self._chats.setdefault(chat, _Log())
        log.give_back(limits, slot, now)
        self._bot.give_back(self._overall, slot, now)
        log.held_until = max(log.held_until, now + retry_after)
        if now < log.suspect_until:
            log.slowed_until = now + retry_after + SLOWED_FOR
        log.suspect_until = now + retry_after + SLOWED_FOR

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
        for sent in [sent for sent in self._places if sent[1] < horizon]:
            del self._places[sent]
        for chat, log in list(self._chats.items()):
            log.forget_before(horizon)
            if log.idle(now) and max(log.slowed_until, log.suspect_until) <= now:
                del self._chats[chat]
