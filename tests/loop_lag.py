"""How long the event loop was held: for the abuse tests and the abuse benchmark alike."""

from __future__ import annotations

import asyncio
import contextlib
import time

__all__ = ["LoopLag"]


class LoopLag:
    """The longest the event loop went without running a ready task, while it watched."""

    def __init__(self, tick: float = 0.001) -> None:
        self.worst = 0.0
        self._tick = tick
        self._task: asyncio.Task[None] | None = None

    async def _watch(self) -> None:
        # A short timer fires late by as long as the loop was held by something else.
        while True:
            before = time.perf_counter()
            await asyncio.sleep(self._tick)
            self.worst = max(self.worst, time.perf_counter() - before - self._tick)

    async def __aenter__(self) -> LoopLag:
        self._task = asyncio.create_task(self._watch())
        await asyncio.sleep(0)
        return self

    async def __aexit__(self, *_: object) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
