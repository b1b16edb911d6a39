"""Replayed updates (a webhook retried, a poller restarted) are dropped before any handler runs."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ApplicationHandlerStop, TypeHandler

from bot.telegram.context import BotContext, TelegramApp

__all__ = ["register", "skip_replayed"]

SOURCE = "telegram"


async def skip_replayed(update: Update, context: BotContext) -> None:
    """Stop an update that was handled before; let a new one through."""
    if not await context.conversations.first_time(SOURCE, str(update.update_id)):
        raise ApplicationHandlerStop


def register(app: TelegramApp) -> None:
    """Check every update first, in a group of its own."""
    app.add_handler(TypeHandler(Update, skip_replayed), group=-1)
