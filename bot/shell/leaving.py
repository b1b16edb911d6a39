"""Leaving the terminal chat while articles are still coming: say so, and wait for them."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.shell.lines import Stop

__all__ = ["Departure"]


class Departure:
    """Waits for the user's unfinished articles, up to a patience, while a line may interrupt."""

    def __init__(
        self,
        unfinished: Callable[[], Awaitable[int]],
        *,
        patience: float,
        gave_up: Callable[[], Awaitable[None]],
    ) -> None:
        self._unfinished = unfinished
        self._patience = patience
        self._gave_up = gave_up

    async def drain(self) -> None:
        """Return once no article is coming, or after the patience, having called ``gave_up``."""
        try:
            async with asyncio.timeout(self._patience):
                # The condition lives in the database, written by the poller.
                while await self._unfinished():  # noqa: ASYNC110
                    await asyncio.sleep(0.2)
        except TimeoutError:
            await self._gave_up()

    async def read_meanwhile(self, read: Callable[[], Awaitable[str | Stop]]) -> str | Stop | None:
        """A line typed while the articles are awaited; None once they have come."""
        waiting = asyncio.ensure_future(self.drain())
        reading = asyncio.ensure_future(read())
        try:
            await asyncio.wait({waiting, reading}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiting.cancel()
            reading.cancel()
        return reading.result() if reading.done() and not reading.cancelled() else None
