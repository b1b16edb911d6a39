"""Where a chat takes no message until its person writes (WhatsApp's 24-hour window), the
article waiting there is announced by a template: once a window, whichever replica (or a
restarted process) is told of the refusal.

A window opens when the person writes and shuts a day later, so a chat announced to less
than a day ago cannot have opened and shut again since: it is not announced to again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta

from bot.core.clock import Clock
from storage import Database, announcements

__all__ = ["ANNOUNCE_EVERY", "Announcing", "announcing"]

ANNOUNCE_EVERY = timedelta(days=1)

# (chat id) -> whether to announce the waiting article now.
Announcing = Callable[[str], Awaitable[bool]]


def announcing(db: Database, clock: Clock, platform: str) -> Announcing:
    """Whether to announce to a chat of ``platform`` now, kept where every replica sees it."""

    async def first(chat_id: str) -> bool:
        now = clock()
        return await db.run(
            lambda s: announcements.announce_once(
                s, platform=platform, chat_id=chat_id, at=now, every=ANNOUNCE_EVERY
            )
        )

    return first
