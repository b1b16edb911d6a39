"""Updates of different users side by side, each user's in the order they came."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Any
from weakref import WeakValueDictionary

from telegram import Update
from telegram.ext import BaseUpdateProcessor

__all__ = ["PerUserOrder"]

# The base class takes its slot before ``do_process_update``; it must never be the one that
# limits, or a user's updates waiting for their turn would hold every slot meanwhile.
_UNLIMITED = 1 << 30


class PerUserOrder(BaseUpdateProcessor):
    """Runs up to ``max_concurrent_updates`` at once, but one user's updates one after another.

    An e-mail and a password sent while the bot was down arrive in one batch; handled side
    by side, both would be read as the e-mail, and the password would stay in the chat.
    A user's update waits for their earlier ones before it takes a slot, so a burst from one
    user holds one slot, not all; past ``max_queued_per_user`` updates the rest are dropped
    and ``on_overflow`` tells the user, once per burst.
    """

    def __init__(
        self,
        max_concurrent_updates: int,
        *,
        max_queued_per_user: int,
        on_overflow: Callable[[Update], Awaitable[None]],
    ) -> None:
        super().__init__(_UNLIMITED)
        self._slots = asyncio.Semaphore(max_concurrent_updates)
        self._max_queued = max_queued_per_user
        self._on_overflow = on_overflow
        self._turns: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()
        self._queued: dict[int, int] = {}
        self._told: set[int] = set()

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Wait for the user's earlier updates, then for a slot, then handle this one."""
        user = update.effective_user if isinstance(update, Update) else None
        if user is None:
            async with self._slots:
                await coroutine
            return
        queued = self._queued.get(user.id, 0)
        if queued >= self._max_queued:
            assert isinstance(update, Update)
            await self._overflow(user.id, update, coroutine)
            return
        self._queued[user.id] = queued + 1
        try:
            async with self._turns.setdefault(user.id, asyncio.Lock()), self._slots:
                await coroutine
        finally:
            self._left(user.id)

    async def _overflow(self, user_id: int, update: Update, coroutine: Awaitable[Any]) -> None:
        if inspect.iscoroutine(coroutine):
            coroutine.close()
        if user_id in self._told:
            return
        self._told.add(user_id)
        async with self._slots:
            await self._on_overflow(update)

    def _left(self, user_id: int) -> None:
        remaining = self._queued.pop(user_id) - 1
        if remaining:
            self._queued[user_id] = remaining
        else:
            self._told.discard(user_id)

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to tear down."""
