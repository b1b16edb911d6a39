"""Updates of users the operators did not allow are answered with a refusal and go no further."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.ext import ApplicationHandlerStop, TypeHandler

from bot.core.conversation.presenter import present
from bot.core.ports import ChatPresenter, MessengerError
from bot.telegram.context import BotContext, TelegramApp
from bot.telegram.updates import command_of, origin_of

__all__ = ["refuse_strangers", "register"]

log = logging.getLogger(__name__)


async def refuse_strangers(update: Update, context: BotContext) -> None:
    """Stop an update of a user (or group) outside the allow lists, refusing at most hourly;
    a login command carrying a password is deleted all the same."""
    origin = origin_of(update)
    message = update.effective_message
    typed = message.text or "" if message is not None else ""
    command = command_of(message, context.bot.username) if message and typed[:1] == "/" else None
    refusal = None if origin is None else context.conversations.refusal(origin, command)
    if origin is None or refusal is None:
        return
    if update.my_chat_member is not None:
        # The bot added to a channel by a stranger: nothing to answer, and nothing to post there.
        raise ApplicationHandlerStop
    if update.callback_query is not None:
        # The client spins until a press is answered.
        await update.callback_query.answer()
    presenter = ChatPresenter(context.messenger, origin.chat)
    for effect in refusal:
        try:
            await present(presenter, [effect])
        except MessengerError as err:
            # E.g. a group where the bot is no admin: the refusal still goes out.
            log.warning("could not refuse chat %s fully: %s", origin.chat.chat_id, err)
    raise ApplicationHandlerStop


def register(app: TelegramApp) -> None:
    """Check every update before anything else, even before the replay check (no database)."""
    app.add_handler(TypeHandler(Update, refuse_strangers), group=-2)
