"""Replayed updates (a webhook retried, a poller restarted) are dropped before any handler runs."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ApplicationHandlerStop, TypeHandler

from bot.telegram.context import BotContext, TelegramApp
from bot.telegram.updates import origin_of

__all__ = ["register", "skip_replayed"]

SOURCE = "telegram"


async def skip_replayed(update: Update, context: BotContext) -> None:
    """Stop an update that was handled before; let a new one through."""
    # The chat user is read with the check, for the update's answer to use.
    origin = origin_of(update)
    if not await context.conversations.first_time(SOURCE, str(update.update_id), origin):
        raise ApplicationHandlerStop


def register(app: TelegramApp) -> None:
    """Check every update first, in a group of its own."""
    app.add_handler(TypeHandler(Update, skip_replayed), group=-1)
