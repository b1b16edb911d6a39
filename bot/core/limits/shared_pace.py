"""Each chat's pace, and the bot's window, shared by every replica: the pacer's port kept in
the database.

On PostgreSQL, every replica that answers or delivers into a chat claims that chat's next
send from one row (``storage.chat_paces``), a round trip per send, and then a place in the
bot's window from a ring of rows, another. On SQLite the bot is one process, and the pacer
keeps each chat and the bot's window in memory with no database call.

A process's background sends wait for the window in one line, the most urgent first and
then in their order, and only the first of the line asks the database (again when the
refusal said a place frees), for itself and as many behind it as there are places free.
Left to ask each on its own, a burst's hundreds of waiting sends asked every time a place
freed, each claim locking the ring, and the window went to whichever asked first: a send of
an article taken over from a dead replica could wait behind sends that came long after it.
Answers (which leave no place spare) skip the line.

A place is kept a second and ``MARGIN`` from its claim; a send whose answer came later than
that keeps its place a second from its answer, with one more statement, in the background.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable

from bot.core.limits.line import Line, Rank
from bot.core.limits.pacing import SharedPace
from storage import Database, chat_paces

__all__ = ["DatabasePace", "shared_pace_for"]


class DatabasePace:
    """Chats' buckets and the bot's window kept in the database, one row per chat of
    ``platform`` and a ring of rows for the window."""

    def __init__(self, db: Database, platform: str) -> None:
        self._db = db
        self._platform = platform
        self._line = Line()
        # Held until done: the loop keeps only a weak reference to a task.
        self._keeping: set[asyncio.Task[None]] = set()

    async def claim(self, chat: Hashable, step: float, ahead: float) -> float | None:
        """Take one send of the chat's bucket if it has room now (None), else the seconds
        until it has."""
        key = self._key(chat)
        # Unsynced: a pace lost to a crash costs at most one early send, never an order.
        return await self._db.run(
            lambda s: chat_paces.claim(s, key=key, step=step, ahead=ahead), synced=False
        )

    async def hold(self, chat: Hashable, seconds: float) -> None:
        """Let no replica claim a send to the chat for ``seconds`` from now."""
        key = self._key(chat)
        await self._db.run(lambda s: chat_paces.hold(s, key=key, seconds=seconds), synced=False)

    async def claim_window(
        self,
        count: int,
        keep: float,
        spare: int,
        *,
        rank: Rank,
        sleep: Callable[[float], Awaitable[None]] | None,
    ) -> str | None:
        """Take a place in the bot's window of ``count`` for ``keep`` seconds, leaving
        ``spare``: in the line by ``rank``, sleeping until one frees; without ``sleep``, a
        place free now or none. The place taken."""
        if sleep is None:
            # Sends already wait in the line: the window has no place free now.
            found = None if self._line.busy else await self._ask(count, keep, spare, 1)
            return found[0] if isinstance(found, list) else None
        if not spare:
            return await self._until_taken(count, keep, spare, sleep)
        place = await self._line.turn(rank)
        if place is not None:
            return place
        try:
            return await self._until_taken(count, keep, spare, sleep, line=self._line)
        finally:
            self._line.hand_on()

    def keep_place(self, place: str, seconds: float) -> None:
        """Keep the window's ``place`` taken for ``seconds`` from now, in the background."""
        kept = asyncio.create_task(
            self._db.run(lambda s: chat_paces.hold(s, key=place, seconds=seconds), synced=False)
        )
        self._keeping.add(kept)
        kept.add_done_callback(self._keeping.discard)

    async def _until_taken(
        self,
        count: int,
        keep: float,
        spare: int,
        sleep: Callable[[float], Awaitable[None]],
        *,
        line: Line | None = None,
    ) -> str:
        """A place, asked for until one is free; with ``line``, places for those waiting in
        it too, as many as are free (one round trip for them all)."""
        while True:
            want = min(count, 1 + (len(line) if line is not None else 0))
            found = await self._ask(count, keep, spare, want)
            if isinstance(found, list):
                if line is not None:
                    line.give(found[1:])
                return found[0]
            await sleep(found)

    async def _ask(self, count: int, keep: float, spare: int, want: int) -> list[str] | float:
        keys = [self._key(f"window:{place:03d}") for place in range(count)]
        return await self._db.run(
            lambda s: chat_paces.claim_window(s, keys=keys, keep=keep, spare=spare, want=want),
            synced=False,
        )

    def _key(self, chat: Hashable) -> str:
        return f"{self._platform}:{chat}"


def shared_pace_for(db: Database, platform: str) -> SharedPace | None:
    """The chats' shared pace on PostgreSQL; None on SQLite (one process, kept in memory)."""
    return None if db.is_sqlite else DatabasePace(db, platform)
