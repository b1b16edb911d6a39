"""Telegram as the core's messenger: screens become HTML messages and inline keyboards."""

from __future__ import annotations

import logging

from telegram import (
    Bot,
    ChatMember,
    ChatMemberAdministrator,
    ChatMemberOwner,
    ChatMemberRestricted,
    InputFile,
    LinkPreviewOptions,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import Defaults

from bot.core.conversation.events import ChatAddress
from bot.core.conversation.screens import Document, Screen
from bot.core.ports import ChatUnreachable, MessengerError, PostingRefused
from bot.telegram.render import MESSAGE_LIMIT, keyboard, to_html, visible_length

__all__ = ["DEFAULTS", "TelegramMessenger"]

# Every message is rendered as HTML, and links in articles stay plain links.
DEFAULTS = Defaults(
    parse_mode=ParseMode.HTML, link_preview_options=LinkPreviewOptions(is_disabled=True)
)
log = logging.getLogger(__name__)
# Answers that mean the chat is gone for good, not that the send hit a passing problem.
_GONE = (
    "chat not found",
    "user is deactivated",
    "bot was kicked",
    "have no rights to send",
    # A channel or group whose admins took the bot's right to post.
    "need administrator rights",
    "not enough rights to send",
)


def _thread(chat: ChatAddress) -> int | None:
    return int(chat.thread_id) if chat.thread_id else None


def _translated(err: TelegramError) -> MessengerError:
    message = str(err).lower()
    if isinstance(err, Forbidden) or any(reason in message for reason in _GONE):
        return ChatUnreachable(str(err))
    return MessengerError(str(err))


_GONE_MEMBERS = frozenset({ChatMember.LEFT, ChatMember.BANNED})


def _bot_may_post(member: ChatMember) -> bool:
    """Whether a bot with this membership may post: in a channel only an administrator with
    the right to post; in a group any member not restricted from writing."""
    if isinstance(member, ChatMemberAdministrator):
        return member.can_post_messages is not False
    if isinstance(member, ChatMemberRestricted):
        return member.can_send_messages
    return member.status not in _GONE_MEMBERS


def _in_channel(bot: ChatMember) -> bool:
    """Whether the bot's membership is a channel's: the Bot API gives an administrator
    ``can_post_messages`` "for channels only", and a bot is in a channel only as one."""
    return isinstance(bot, ChatMemberAdministrator) and bot.can_post_messages is not None


def _owner_refused(member: ChatMember, *, channel: bool) -> PostingRefused | None:
    """Why ``member`` may not have the bot post for them: gone, or in a channel neither its
    creator nor an administrator with the right to post (a subscriber, a demoted editor)."""
    if member.status in _GONE_MEMBERS:
        return PostingRefused.OWNER_LEFT
    if isinstance(member, ChatMemberOwner):
        return None
    if channel:
        may = isinstance(member, ChatMemberAdministrator) and member.can_post_messages is True
    else:
        may = _bot_may_post(member)
    return None if may else PostingRefused.OWNER_NO_RIGHTS


class TelegramMessenger:
    """Sends, edits and deletes through the Bot API; errors become the core's ``MessengerError``."""

    def __init__(self, bot: Bot) -> None:
        self._bot = bot

    async def send(self, chat: ChatAddress, screen: Screen) -> str | None:
        """Post a message; returns its message id."""
        try:
            message = await self._bot.send_message(
                chat_id=int(chat.chat_id),
                text=to_html(screen),
                reply_markup=keyboard(screen),
                message_thread_id=_thread(chat),
            )
        except TelegramError as err:
            raise _translated(err) from err
        return str(message.message_id)

    async def edit(self, chat: ChatAddress, message_id: str, screen: Screen) -> None:
        """Replace a message's text and buttons; an unchanged or vanished message is left be."""
        try:
            await self._bot.edit_message_text(
                chat_id=int(chat.chat_id),
                message_id=int(message_id),
                text=to_html(screen),
                reply_markup=keyboard(screen),
            )
        except BadRequest as err:
            # The user saw the same thing already, or deleted the message.
            if "not modified" in err.message or "message to edit not found" in err.message:
                return
            raise _translated(err) from err
        except TelegramError as err:
            raise _translated(err) from err

    async def may_post(self, chat: ChatAddress, owner: str) -> PostingRefused | None:
        """Ask getChatMember whether the bot may post to the chat, and whether ``owner`` still
        may (a channel's creator or administrator with the right to post, a group's member);
        a passing failure raises ``MessengerError``, so the run is tried again."""
        chat_id = int(chat.chat_id)
        try:
            bot = await self._bot.get_chat_member(chat_id, self._bot.id)
            if bot.status in _GONE_MEMBERS:
                return PostingRefused.NOT_MEMBER
            if not _bot_may_post(bot):
                return PostingRefused.NO_RIGHTS
            member = await self._bot.get_chat_member(chat_id, int(owner))
        except Forbidden:
            return PostingRefused.NOT_MEMBER
        except BadRequest as err:
            log.info("getChatMember in chat %s refused: %s", chat_id, err)
            return PostingRefused.UNKNOWN
        except TelegramError as err:
            raise MessengerError(str(err)) from err
        return _owner_refused(member, channel=_in_channel(bot))

    async def delete(self, chat: ChatAddress, message_id: str) -> None:
        """Delete a message (the user's password), as far as Telegram lets the bot."""
        try:
            await self._bot.delete_message(chat_id=int(chat.chat_id), message_id=int(message_id))
        except BadRequest as err:
            if "message to delete not found" in err.message:
                # Gone already: what deleting was for.
                return
            # E.g. a group where the bot is no admin: the user must be told the message stays.
            raise _translated(err) from err
        except TelegramError as err:
            raise _translated(err) from err

    async def send_document(self, chat: ChatAddress, document: Document) -> str:
        """Post a file with its caption; the message's id."""
        try:
            sent = await self._bot.send_document(
                chat_id=int(chat.chat_id),
                document=InputFile(document.content, filename=document.filename),
                caption=document.caption[:1024],
                # Plain text, unlike the messages' HTML (the application's default).
                parse_mode=None,
                message_thread_id=_thread(chat),
            )
        except TelegramError as err:
            raise _translated(err) from err
        return str(sent.message_id)

    def fits(self, screen: Screen) -> bool:
        """Whether the rendered text stays under Telegram's message limit."""
        return visible_length(to_html(screen)) <= MESSAGE_LIMIT
