"""Whom a job's messages are for, and in which language they are written."""

from __future__ import annotations

from bot.core.texts import Texts, texts_for
from storage import Database, users
from storage.models import ChatUser

__all__ = ["Recipients"]


class Recipients:
    """Loads a job's or draft's chat user, and picks the texts of their language."""

    def __init__(self, db: Database, default_language: str = "tr") -> None:
        self._db = db
        self._default_language = default_language

    def texts(self, user: ChatUser) -> Texts:
        """The user's language's texts."""
        return texts_for(user.locale or self._default_language)

    async def user(self, user_id: int) -> ChatUser:
        """The chat user a job or draft belongs to."""
        user = await self._db.read(lambda s: users.get_user(s, user_id=user_id))
        assert user is not None, "a job's user is deleted only with the job"
        return user
