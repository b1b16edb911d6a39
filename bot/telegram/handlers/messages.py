"""Plain messages: text the dialog may be waiting for, and everything else the bot cannot read."""

from __future__ import annotations

from telegram import Update
from telegram.ext import MessageHandler, filters

from bot.core.events import Text, Unsupported
from bot.telegram.context import BotContext, TelegramApp
from bot.telegram.updates import answer

__all__ = ["register", "text", "unsupported"]


async def text(update: Update, context: BotContext) -> None:
    """Pass the text to the core: an awaited e-mail, password, title or topic, or a stray line."""
    message = update.effective_message
    if message is None or message.text is None:
        return
    await answer(update, context, Text(message.text, str(message.message_id)))


async def unsupported(update: Update, context: BotContext) -> None:
    """Answer stickers, photos, files and edits with a hint."""
    await answer(update, context, Unsupported())


def register(app: TelegramApp) -> None:
    """Route new text messages to ``text`` and every other message to ``unsupported``."""
    fresh = filters.UpdateType.MESSAGE
    # In a group only answers to the bot are for the bot; the rest is the members' talk.
    for_the_bot = filters.ChatType.PRIVATE | filters.REPLY
    app.add_handler(MessageHandler(fresh & filters.TEXT & ~filters.COMMAND & for_the_bot, text))
    anything = (fresh | filters.UpdateType.EDITED_MESSAGE) & ~filters.StatusUpdate.ALL
    app.add_handler(MessageHandler(anything & filters.ChatType.PRIVATE, unsupported))
