"""Button presses: answered at once so the client never spins, then handled by the core."""

from __future__ import annotations

import asyncio
import logging

from telegram import Update
from telegram.error import BadRequest
from telegram.ext import CallbackQueryHandler

from bot.core.conversation.events import Press
from bot.telegram.context import BotContext, TelegramApp
from bot.telegram.updates import answer, post_notices

__all__ = ["ANSWER_WITHIN", "press", "register"]

# Telegram's client spins until the press is answered; a quick answer can carry the core's notice.
ANSWER_WITHIN = 1.0
log = logging.getLogger(__name__)


async def press(update: Update, context: BotContext) -> None:
    """Handle the press; answer it with the core's notice if that comes quickly, else at once."""
    query = update.callback_query
    if query is None:
        return
    message_id = str(query.message.message_id) if query.message else None
    handling = asyncio.ensure_future(answer(update, context, Press(query.data or "", message_id)))
    done, _ = await asyncio.wait({handling}, timeout=ANSWER_WITHIN)
    quick = handling.result() if handling in done and handling.exception() is None else None
    try:
        # Answered whatever happens next, so the client's spinner always stops.
        await query.answer(quick[0].text if quick else None)
    except BadRequest as err:
        # Too old to answer (a backlog after a restart): the notices go out as messages.
        log.info("could not answer a button press: %s", err)
        quick = None
    notices = await handling
    await post_notices(update, context, notices if quick is None else notices[1:])


def register(app: TelegramApp) -> None:
    """Route every callback query to ``press``."""
    app.add_handler(CallbackQueryHandler(press))
