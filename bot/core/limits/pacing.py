"""Pacing: each send waits for a slot under its chat's limits and the whole bot's limits.

A limit is a sliding window ("at most 20 in any 60 s", a group's) or a token bucket
("3 at once, then one a second", a private chat's; 30 a second for a bot), the way each
platform states it (``bot.core.limits.sends`` keeps what each chat, and the bot, has sent as
its limits count it). A send first waits until its chat may take one more message, and only
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
from collections import deque
from collections.abc import Awaitable, Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from enum import IntEnum
from typing import Protocol

from bot.core.limits.line import Line, Rank
from bot.core.limits.sends import (
    MARGIN,
    MEMORY_SECONDS,
    Bucket,
    Limit,
    SendLog,
    Spare,
    Window,
    room_ahead,
)

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


def _spare(priority: Priority, bot: bool) -> Spare:
    """What a send at ``priority`` leaves of the chat's limits, or of the bot's."""
    kept = REST_RESERVE if bot else RESERVE
    if priority is Priority.ANSWER:
        return Spare(0, 0, kept)
    bucket = REST_RESERVE if bot and priority >= Priority.REST else RESERVE
    # A chat's window is a group's minute: its pace is kept whole, and answers are rare there.
    return Spare(bucket, RESERVE if bot else 0, kept)


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
        self._bot = SendLog()
        self._line = Line()
        self._chats: dict[Hashable, SendLog] = {}
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
        while True:
            now = self._clock()
            ready = self._ready_at(chat, limits, now, priority)
            if ready > now:
                return Slot(ready, reserved=False)
            await self._line.turn(rank)
            try:
                slot = await self._first_in_line(chat, limits, rank)
            finally:
                self._line.hand_on()
            if slot is not None:
                return slot

    async def _first_in_line(
        self, chat: Hashable, limits: Sequence[Limit], rank: Rank
    ) -> Slot | None:
        """With the line's turn: the slot once the bot has one free (or the chat is no longer
        ready); None when a send that ranks before came meanwhile, to go first."""
        while True:
            now = self._clock()
            slot = self.reserve(chat, limits, now, priority=Priority(rank[0]))
            if not slot.bot_busy:
                return slot
            await self._sleep(slot.at - now)
            if self._line.outranked(rank):
                return None

    async def _claim(
        self, shared: SharedPace, chat: Hashable, bucket: Bucket, priority: Priority
    ) -> None:
        """Take a send of ``chat``'s ``bucket`` where every replica draws from it, once this
        process holds the chat no longer."""
        while True:
            now = self._clock()
            log = self._chats.setdefault(chat, SendLog())
            wait = log.held_until - now
            if wait <= 0:
                step = log.step_of(bucket, now)
                ahead = room_ahead(bucket, step, self.margin, _spare(priority, bot=False))
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
        log = self._chats.setdefault(chat, SendLog())
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
        self._chats.setdefault(chat, SendLog()).reached(limits, slot, now)
        # The bot's bucket paces; only its window, the limit itself, counts from answers.
        self._bot.reached(self._bot_windows, slot, now)

    def hold(self, chat: Hashable | None, seconds: float) -> None:
        """Send nothing to ``chat`` (to any chat, when None) for ``seconds`` from now."""
        log = self._bot if chat is None else self._chats.setdefault(chat, SendLog())
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
        log = self._chats.setdefault(chat, SendLog())
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
        horizon = now - MEMORY_SECONDS
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
