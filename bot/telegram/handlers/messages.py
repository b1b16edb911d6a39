"""Plain messages: text the dialog may be waiting for, and everything else the bot cannot read."""

from __future__ import annotations

from telegram import Message, Update
from telegram.ext import MessageHandler, filters

from bot.core.conversation.events import Text, Unsupported, Upload
from bot.core.ordering.title_files import MAX_FILE_BYTES
from bot.downloads import download_capped
from bot.telegram.context import BotContext, TelegramApp
from bot.telegram.updates import answer, post_notices

__all__ = ["document", "register", "text", "unsupported"]


async def text(update: Update, context: BotContext) -> None:
    """Pass the text to the core: an awaited e-mail, password, title or topic, or a stray line."""
    message = update.effective_message
    if message is None or message.text is None:
        return
    event = Text(message.text, str(message.message_id))
    await post_notices(update, context, await answer(update, context, event))


async def document(update: Update, context: BotContext) -> None:
    """Pass a file to the core (a list of titles); one over the limit is not even fetched."""
    message = update.effective_message
    if message is None or message.document is None:
        return
    sent = message.document
    # Telegram's size is optional: without it, the download stops at the limit instead.
    size = sent.file_size or 0
    content = None
    if size <= MAX_FILE_BYTES:
        fetched = await context.bot.get_file(sent.file_id)
        size = size or fetched.file_size or 0
        if size <= MAX_FILE_BYTES:
            content = await _fetched(fetched.file_path)
    event = Upload(sent.file_name or "", content, size, str(message.message_id))
    await post_notices(update, context, await answer(update, context, event))


async def _fetched(url: str | None) -> bytes | None:
    """The file's bytes; None past the limit, nothing when Telegram would not hand it over."""
    if not url:
        return b""
    download = await download_capped(url, limit=MAX_FILE_BYTES)
    return download.content if download.status == 200 else b""


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
    """Route new text messages to ``text``, files in a private chat to ``document`` and every
    other message to ``unsupported``."""
    fresh = filters.UpdateType.MESSAGE
    # In a group only replies to the bot are for the bot; the rest is the members' talk.
    for_the_bot = filters.ChatType.PRIVATE | _REPLIES_TO_THE_BOT
    app.add_handler(MessageHandler(fresh & filters.TEXT & ~filters.COMMAND & for_the_bot, text))
    app.add_handler(
        MessageHandler(fresh & filters.Document.ALL & filters.ChatType.PRIVATE, document)
    )
    anything = (fresh | filters.UpdateType.EDITED_MESSAGE) & ~filters.StatusUpdate.ALL
    app.add_handler(MessageHandler(anything & filters.ChatType.PRIVATE, unsupported))
