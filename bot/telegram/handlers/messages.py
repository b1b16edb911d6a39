"""Plain messages: text the dialog may be waiting for, and everything else the bot cannot read."""

from __future__ import annotations

from telegram import Message, Update
from telegram.ext import MessageHandler, filters

from bot.core.events import Text, Unsupported
from bot.telegram.context import BotContext, TelegramApp
from bot.telegram.updates import answer, post_notices

__all__ = ["register", "text", "unsupported"]


async def text(update: Update, context: BotContext) -> None:
    """Pass the text to the core: an awaited e-mail, password, title or topic, or a stray line."""
    message = update.effective_message
    if message is None or message.text is None:
        return
    event = Text(message.text, str(message.message_id))
    await post_notices(update, context, await answer(update, context, event))


async def unsupported(update: Update, context: BotContext) -> None:
    """Answer stickers, photos, files and edits with a hint."""
    await post_notices(update, context, await answer(update, context, Unsupported()))


class _RepliesToTheBot(filters.MessageFilter):
    """Messages that answer one of the bot's own messages."""

    def filter(self, message: Message) -> bool:
        replied = message.reply_to_message
        author = replied.from_user if replied else None
        return author is not None and author.id == message.get_bot().id


_REPLIES_TO_THE_BOT = _RepliesToTheBot()


def register(app: TelegramApp) -> None:
    """Route new text messages to ``text`` and every other message to ``unsupported``."""
    fresh = filters.UpdateType.MESSAGE
    # In a group only replies to the bot are for the bot; the rest is the members' talk.
    for_the_bot = filters.ChatType.PRIVATE | _REPLIES_TO_THE_BOT
    app.add_handler(MessageHandler(fresh & filters.TEXT & ~filters.COMMAND & for_the_bot, text))
    anything = (fresh | filters.UpdateType.EDITED_MESSAGE) & ~filters.StatusUpdate.ALL
    app.add_handler(MessageHandler(anything & filters.ChatType.PRIVATE, unsupported))
