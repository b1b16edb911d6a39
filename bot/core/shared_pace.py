"""Each chat's pace shared by every replica: the pacer's port kept in the database.

On PostgreSQL, every replica that answers or delivers into a chat claims that chat's next
send from one row (``storage.chat_paces``), a round trip per send. On SQLite the bot is one
process, and the pacer keeps each chat in memory with no database call.
"""

from __future__ import annotations

from collections.abc import Hashable

from bot.core.pacing import SharedPace
from storage import Database, chat_paces

__all__ = ["DatabasePace", "shared_pace_for"]


class DatabasePace:
    """Chats' buckets kept in the database, one row per chat of ``platform``."""

    def __init__(self, db: Database, platform: str) -> None:
        self._db = db
        self._platform = platform

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

    def _key(self, chat: Hashable) -> str:
        return f"{self._platform}:{chat}"


def shared_pace_for(db: Database, platform: str) -> SharedPace | None:
    """The chats' shared pace on PostgreSQL; None on SQLite (one process, kept in memory)."""
    return None if db.is_sqlite else DatabasePace(db, platform)
