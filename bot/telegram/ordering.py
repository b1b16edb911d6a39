"""Updates of different users side by side, each user's in the order they came."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Any
from weakref import WeakValueDictionary

from telegram import Update
from telegram.ext import BaseUpdateProcessor

from bot.core.conversation.events import UserKey
from bot.core.limits.inflight import InFlight
from bot.telegram.ids import PLATFORM

__all__ = ["PerUserOrder"]

# The base class takes its slot before ``do_process_update``; it must never be the one that
# limits, or a user's updates waiting for their turn would hold every slot meanwhile.
_UNLIMITED = 1 << 30


class PerUserOrder(BaseUpdateProcessor):
    """Runs up to ``max_concurrent_updates`` at once, but one user's updates one after another.

    An e-mail and a password sent while the bot was down arrive in one batch; handled side
    by side, both would be read as the e-mail, and the password would stay in the chat.
    A user's update waits for their earlier ones before it takes a slot, so a burst from one
    user holds one slot, not all. Each update counts in ``in_flight``, the cap every platform
    keeps; past it the rest are dropped and ``on_overflow`` tells the user, once per burst.
    """

    def __init__(
        self,
        max_concurrent_updates: int,
        *,
        in_flight: InFlight,
        on_overflow: Callable[[Update], Awaitable[None]],
    ) -> None:
        super().__init__(_UNLIMITED)
        self._slots = asyncio.Semaphore(max_concurrent_updates)
        self._in_flight = in_flight
        self._on_overflow = on_overflow
        self._turns: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Wait for the user's earlier updates, then for a slot, then handle this one."""
        user = update.effective_user if isinstance(update, Update) else None
        if user is None:
            async with self._slots:
                await coroutine
            return
        key = UserKey(PLATFORM, str(user.id))
        if not self._in_flight.take(key):
            assert isinstance(update, Update)
            await self._overflow(key, update, coroutine)
            return
        try:
            async with self._turns.setdefault(user.id, asyncio.Lock()), self._slots:
                await coroutine
        finally:
            self._in_flight.release(key)

    async def _overflow(self, user: UserKey, update: Update, coroutine: Awaitable[Any]) -> None:
        if inspect.iscoroutine(coroutine):
            coroutine.close()
        if not self._in_flight.first_refusal(user):
            return
        async with self._slots:
            await self._on_overflow(update)

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to tear down."""
