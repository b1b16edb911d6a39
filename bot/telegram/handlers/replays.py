"""Replayed updates (a webhook retried, a poller restarted) are dropped before any handler runs."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ApplicationHandlerStop, TypeHandler

from bot.telegram.context import BotContext, TelegramApp
from bot.telegram.updates import origin_of

__all__ = ["register", "skip_replayed"]

SOURCE = "telegram"


async def skip_replayed(update: Update, context: BotContext) -> None:
    """Stop an update that was handled before; let a new one through, with what the check
    read for its answer (the chat user and their access token) kept in its context."""
    origin = origin_of(update)
    update_id = str(update.update_id)
    conversations = context.conversations
    if origin is None:
        if not await conversations.first_time(SOURCE, update_id):
            raise ApplicationHandlerStop
        return
    claim = context.bot_data.claim
    context.admission = await conversations.admit(SOURCE, update_id, origin, claim=claim)
    if context.admission is None:
        raise ApplicationHandlerStop


def register(app: TelegramApp) -> None:
    """Check every update first, in a group of its own."""
    app.add_handler(TypeHandler(Update, skip_replayed), group=-1)
