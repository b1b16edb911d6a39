"""Notices posted in the background: whoever tells (a plan's run) goes on at once, while each
chat's notices go out in order, as fast as that chat's pacing lets them."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable

from bot.core.conversation.events import ChatAddress

__all__ = ["MAX_WAITING", "Notices"]

log = logging.getLogger(__name__)

# Notices waiting at most, over all chats: past it, whoever tells waits for room, so a flood
# of them slows its source instead of growing without end.
MAX_WAITING = 2000

Post = Callable[[], Awaitable[None]]
_ChatKey = tuple[str, str, str]


class Notices:
    """A queue of posts per chat, each drained by a task of its own while it has any."""

    def __init__(self, limit: int = MAX_WAITING) -> None:
        self._room = asyncio.Semaphore(limit)
        self._queues: dict[_ChatKey, deque[Post]] = {}
        self._drains: dict[_ChatKey, asyncio.Task[None]] = {}
        self._closed = False

    async def post(self, chat: ChatAddress, post: Post) -> None:
        """Queue ``post`` behind the chat's earlier notices (once closed, post it now)."""
        if self._closed:
            await post()
            return
        await self._room.acquire()
        key = (chat.platform, chat.workspace, chat.chat_id)
        self._queues.setdefault(key, deque()).append(post)
        if key not in self._drains:
            self._drains[key] = asyncio.create_task(self._drain(key), name=f"notices {key}")

    async def _drain(self, key: _ChatKey) -> None:
        queue = self._queues[key]
        try:
            while queue:
                post = queue.popleft()
                try:
                    await post()
                except Exception:
                    # A bug in one notice: logged, and the chat's next ones still go.
                    log.exception("a notice to a %s chat failed", key[0])
                finally:
                    self._room.release()
        finally:
            del self._queues[key]
            del self._drains[key]

    async def drained(self) -> None:
        """Return once every notice queued so far has been posted."""
        while self._drains:
            await asyncio.wait(list(self._drains.values()))

    async def close(self, grace: float) -> None:
        """Post what waits for up to ``grace`` seconds, then drop the rest (logged)."""
        self._closed = True
        if not self._drains:
            return
        _, late = await asyncio.wait(list(self._drains.values()), timeout=grace)
        if late:
            left = sum(len(queue) for queue in self._queues.values())
            log.info("stopping: %d notices not posted", left)
        for task in late:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
