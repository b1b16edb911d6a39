"""A line of sends waiting for the bot's window: the lowest rank first, then in order of
coming, and one of them at a time asking for a place (its turn).

A rank is a send's ``Priority`` and, for the rest of an article, its part of it
(``bot.core.limits.pacing``): every chat's earlier parts go ahead of other chats' later
ones, so a burst of articles ends with every chat's last send at once, not with a few
chats' sends going at their chat's one a second.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools

__all__ = ["Line", "Rank"]

Rank = tuple[int, int]


class Line:
    """Sends waiting their turn; the one whose turn it is may take places for those behind."""

    def __init__(self) -> None:
        self.busy = False
        # Each one's future: None when its turn to ask comes, or the place taken for it.
        self._waiting: list[tuple[Rank, int, asyncio.Future[str | None]]] = []
        self._order = itertools.count()

    def __len__(self) -> int:
        return len(self._waiting)

    async def turn(self, rank: Rank) -> str | None:
        """Wait in line: None when it is this one's turn to ask (``hand_on`` after), or the
        place another took for it."""
        if not self.busy:
            self.busy = True
            return None
        return await self._waited(self._entered(rank))

    def outranked(self, rank: Rank) -> bool:
        """Whether one that ranks before ``rank`` waits in line (it came after the turn was
        taken)."""
        return bool(self._waiting) and self._waiting[0][0] < rank

    def _entered(self, rank: Rank) -> tuple[Rank, int, asyncio.Future[str | None]]:
        entry = (rank, next(self._order), asyncio.get_running_loop().create_future())
        heapq.heappush(self._waiting, entry)
        return entry

    async def _waited(self, entry: tuple[Rank, int, asyncio.Future[str | None]]) -> str | None:
        try:
            place: str | None = await entry[2]
        except asyncio.CancelledError:
            if not entry[2].done():
                self._waiting.remove(entry)
                heapq.heapify(self._waiting)
            elif not entry[2].cancelled() and entry[2].result() is None:
                # Handed the turn as it was cancelled: the next one takes it.
                self.hand_on()
            raise
        return place

    def give(self, places: list[str]) -> None:
        """Hand ``places`` to the first in line, one each."""
        for place in places:
            future = self._next()
            if future is None:
                return
            future.set_result(place)

    def hand_on(self) -> None:
        """The turn to ask goes to the first in line, if any."""
        future = self._next()
        if future is None:
            self.busy = False
        else:
            future.set_result(None)

    def _next(self) -> asyncio.Future[str | None] | None:
        while self._waiting:
            future = heapq.heappop(self._waiting)[2]
            if not future.done():
                return future
        return None
