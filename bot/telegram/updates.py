"""Telegram updates as the core's events and origins, and the core's answers carried out."""

from __future__ import annotations

import logging

from telegram import Message, Update
from telegram.constants import ChatType

from bot.core.conversation.events import ChatAddress, Command, Event, Origin, UserKey
from bot.core.conversation.richtext import paragraph
from bot.core.conversation.screens import Notice, Screen
from bot.core.ports import ChatPresenter, MessengerError
from bot.core.routing.conversations import Conversations
from bot.core.texts import texts_for
from bot.telegram.context import BotContext
from bot.telegram.ids import PLATFORM
from bot.telegram.messenger import TelegramMessenger

__all__ = ["answer", "command_of", "origin_of", "post_notices", "tell_too_fast"]

log = logging.getLogger(__name__)


def origin_of(update: Update) -> Origin | None:
    """Who did what where; None for updates without a user and a chat (channel posts)."""
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return None
    message = update.effective_message
    in_topic = message is not None and message.is_topic_message and message.message_thread_id
    thread = str(message.message_thread_id) if in_topic and message is not None else None
    return Origin(
        user=UserKey(PLATFORM, str(user.id)),
        chat=ChatAddress(PLATFORM, str(chat.id), thread),
        private=chat.type == ChatType.PRIVATE,
        language_hint=user.language_code,
        inline_mode=True,
    )


def command_of(message: Message, bot_username: str) -> Command | None:
    """The command in a message; None when it is addressed to another bot (``/yaz@other``)."""
    head, _, args = (message.text or "").strip().partition(" ")
    if "\n" in head:
        head, _, rest = head.partition("\n")
        args = f"{rest} {args}".strip() if args else rest
    name, _, addressee = head.removeprefix("/").partition("@")
    if addressee and addressee.lower() != bot_username.lower():
        return None
    return Command(name.lower(), args.strip(), str(message.message_id))


async def answer(update: Update, context: BotContext, event: Event) -> list[Notice]:
    """Hand the event to the core and carry out its answer; the notices are left to the caller."""
    origin = origin_of(update)
    if origin is None:
        return []
    presenter = ChatPresenter(context.messenger, origin.chat)
    await context.conversations.answer(origin, event, presenter, context.admission)
    return presenter.notices


async def post_notices(update: Update, context: BotContext, notices: list[Notice]) -> None:
    """Post notices as messages, where there is no button press to answer with them."""
    origin = origin_of(update)
    if origin is None:
        return
    for notice in notices:
        await context.messenger.send(origin.chat, Screen((paragraph(notice.text),)))


async def tell_too_fast(
    update: Update, conversations: Conversations, messenger: TelegramMessenger
) -> None:
    """Tell a user that some of their updates were dropped for coming too fast; a stranger
    is told nothing (the refusal says enough) and leaves no row behind."""
    origin = origin_of(update)
    if origin is None or not conversations.admits(origin):
        return
    texts = texts_for(await conversations.language(origin))
    try:
        await messenger.send(origin.chat, Screen((paragraph(texts.too_fast),)))
    except MessengerError as err:
        log.warning("could not tell chat %s it goes too fast: %s", origin.chat.chat_id, err)
