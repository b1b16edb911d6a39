"""Button presses: answered at once so the client never spins, then handled by the core."""

from __future__ import annotations

import asyncio

from telegram import Update
from telegram.ext import CallbackQueryHandler

from bot.core.events import Press
from bot.core.screens import Notice
from bot.telegram.context import BotContext, TelegramApp
from bot.telegram.updates import answer, origin_of

__all__ = ["ANSWER_WITHIN", "press", "register"]

# Telegram's client spins until the press is answered; a quick answer can carry the core's notice.
ANSWER_WITHIN = 1.0


async def press(update: Update, context: BotContext) -> None:
    """Handle the press; answer it with the core's notice if that comes quickly, else right away."""
    query = update.callback_query
    if query is None:
        return
    message_id = str(query.message.message_id) if query.message else None
    handling = asyncio.ensure_future(answer(update, context, Press(query.data or "", message_id)))
    done, _ = await asyncio.wait({handling}, timeout=ANSWER_WITHIN)
    if handling in done:
        notices = handling.result()
        await query.answer(notices[0].text if notices else None)
        return
    await query.answer()
    await _post_late(update, context, await handling)


async def _post_late(update: Update, context: BotContext, notices: list[Notice]) -> None:
    origin = origin_of(update)
    if origin is None:
        return
    for notice in notices:
        await context.bot.send_message(int(origin.chat.chat_id), notice.text)


def register(app: TelegramApp) -> None:
    """Route every callback query to ``press``."""
    app.add_handler(CallbackQueryHandler(press))
