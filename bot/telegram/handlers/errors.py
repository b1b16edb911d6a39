"""The one error handler: log the traceback, then tell the user something went wrong."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.error import TelegramError

from bot.core.texts import texts_for
from bot.telegram.context import BotContext, TelegramApp
from bot.telegram.updates import origin_of

__all__ = ["on_error", "register"]

log = logging.getLogger(__name__)


async def _language(update: Update, context: BotContext) -> str:
    """The user's /dil choice; their client's language when the database cannot say."""
    user = update.effective_user
    fallback = (user.language_code or "tr")[:2] if user else "tr"
    origin = origin_of(update)
    if origin is None:
        return fallback
    try:
        return await context.conversations.language(origin)
    # The failure being reported may be the database's own; the notice must still go out.
    except Exception:  # noqa: BLE001
        return fallback


async def on_error(update: object, context: BotContext) -> None:
    """Log the failure with its traceback and send the user a short notice in their language."""
    log.error("a Telegram update failed", exc_info=context.error)
    if not isinstance(update, Update) or update.effective_chat is None:
        return
    texts = texts_for(await _language(update, context))
    try:
        await context.bot.send_message(update.effective_chat.id, texts.something_broke)
    except TelegramError:
        log.warning("could not tell chat %s about the failure", update.effective_chat.id)


def register(app: TelegramApp) -> None:
    """Register ``on_error`` as the application's error handler."""
    app.add_error_handler(on_error)
