"""A signal sent on every change to the fake, for waiters to check their condition again."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

__all__ = ["Changes"]


class Changes:
    """Wakes every waiter whenever something happened; callable from plain (sync) code."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        """Wake everyone waiting now; later waiters wait for the next change."""
        self._event.set()
        self._event = asyncio.Event()

    async def wait_until(
        self,
        condition: Callable[[], bool],
        timeout: float,
    ) -> bool:
        """Wait until ``condition()`` holds, checked after each change; False after ``timeout``."""
        try:
            async with asyncio.timeout(timeout):
                while not condition():
                    await self._event.wait()
        except TimeoutError:
            return condition()
        return True
