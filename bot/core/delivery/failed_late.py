"""A message the platform accepted and later told failed (WhatsApp's window): where it was
an article's part, delivery takes the article back from that part."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.core.clock import Clock
from bot.core.delivery.waits import UNTIL_THEY_WRITE
from storage import Database, sent_messages

__all__ = ["TakeBack", "taking_back"]

# (message id, whether the chat takes messages again) -> the article's title where it went back.
TakeBack = Callable[[str, bool], Awaitable[str | None]]


def taking_back(db: Database, clock: Clock, platform: str) -> TakeBack:
    """How the platform's failures told later take their articles back: due now where the
    chat takes messages again, else when the user writes (``hurry_finished_jobs``)."""

    async def take_back(message_id: str, chat_open: bool) -> str | None:
        now = clock()
        until = now if chat_open else now + UNTIL_THEY_WRITE
        return await db.run(
            lambda s: sent_messages.take_back(
                s, platform=platform, message_id=message_id, until=until, at=now
            )
        )

    return take_back
