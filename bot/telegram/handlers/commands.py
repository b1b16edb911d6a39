"""Slash commands: every one goes to the core, which knows the commands and the unknown ones."""

from __future__ import annotations

from telegram import Update
from telegram.ext import MessageHandler, filters

from bot.telegram.context import BotContext, TelegramApp
from bot.telegram.updates import answer, command_of, post_notices

__all__ = ["command", "register"]


async def command(update: Update, context: BotContext) -> None:
    """Run a slash command; a command for another bot in a group is left alone."""
    message = update.effective_message
    if message is None:
        return
    event = command_of(message, context.bot.username)
    if event is not None:
        await post_notices(update, context, await answer(update, context, event))


def register(app: TelegramApp) -> None:
    """Route new command messages to ``command``."""
    app.add_handler(MessageHandler(filters.COMMAND & ~filters.UpdateType.EDITED, command))
