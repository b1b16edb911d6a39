"""Updates of users the operators did not allow are answered with a refusal and go no further."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ApplicationHandlerStop, TypeHandler

from bot.core.ports import ChatPresenter
from bot.core.presenter import present
from bot.telegram.context import BotContext, TelegramApp
from bot.telegram.updates import origin_of

__all__ = ["refuse_strangers", "register"]


async def refuse_strangers(update: Update, context: BotContext) -> None:
    """Stop an update of a user (or group) outside the allow lists, refusing at most hourly."""
    origin = origin_of(update)
    refusal = None if origin is None else context.conversations.refusal(origin)
    if origin is None or refusal is None:
        return
    if update.my_chat_member is not None:
        # The bot added to a channel by a stranger: nothing to answer, and nothing to post there.
        raise ApplicationHandlerStop
    if update.callback_query is not None:
        # The client spins until a press is answered.
        await update.callback_query.answer()
    await present(ChatPresenter(context.messenger, origin.chat), refusal)
    raise ApplicationHandlerStop


def register(app: TelegramApp) -> None:
    """Check every update before anything else, even before the replay check (no database)."""
    app.add_handler(TypeHandler(Update, refuse_strangers), group=-2)
