"""Updates of different users side by side, each user's in the order they came."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any
from weakref import WeakValueDictionary

from telegram import Update
from telegram.ext import BaseUpdateProcessor

__all__ = ["PerUserOrder"]


class PerUserOrder(BaseUpdateProcessor):
    """Runs up to ``max_concurrent_updates`` at once, but one user's updates one after another.

    An e-mail and a password sent while the bot was down arrive in one batch; handled side
    by side, both would be read as the e-mail, and the password would stay in the chat.
    """

    def __init__(self, max_concurrent_updates: int) -> None:
        super().__init__(max_concurrent_updates)
        self._turns: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Wait for the user's earlier updates, then handle this one."""
        user = update.effective_user if isinstance(update, Update) else None
        if user is None:
            await coroutine
            return
        turn = self._turns.setdefault(user.id, asyncio.Lock())
        async with turn:
            await coroutine

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to tear down."""
