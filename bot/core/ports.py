"""What the core needs from a chat platform to push messages on its own (delivery)."""

from __future__ import annotations

import enum
from dataclasses import replace
from typing import Protocol, runtime_checkable

from bot.core.articles.article import split_into_screens
from bot.core.conversation.events import ChatAddress
from bot.core.conversation.screens import Document, Notice, Screen

__all__ = [
    "ChatPresenter",
    "ChatUnreachable",
    "FailsLater",
    "Messenger",
    "MessengerError",
    "PostingCheck",
    "PostingRefused",
    "fitted",
]


class MessengerError(Exception):
    """A send failed for a passing reason (network, platform outage); try again later."""


class ChatUnreachable(MessengerError):
    """The chat can no longer be written to (the user blocked the bot, the channel is gone)."""


class Messenger(Protocol):
    """One chat platform's way to show screens; every adapter implements it."""

    async def send(self, chat: ChatAddress, screen: Screen) -> str | None:
        """Post a screen; returns the new message's id where the platform has one."""

    async def edit(self, chat: ChatAddress, message_id: str, screen: Screen) -> None:
        """Replace an earlier message of the bot."""

    async def delete(self, chat: ChatAddress, message_id: str) -> None:
        """Delete a message (the user's password)."""

    async def send_document(self, chat: ChatAddress, document: Document) -> str | None:
        """Post a file; returns the new message's id where the platform has one."""

    def fits(self, screen: Screen) -> bool:
        """Whether the screen, rendered for this platform, fits in one message."""


@runtime_checkable
class FailsLater(Protocol):
    """A messenger whose platform may accept a send and tell later that it failed (WhatsApp's
    status webhook): delivery records which article part each of its messages was."""

    fails_later: bool


class PostingRefused(enum.StrEnum):
    """Why the bot may not post to a channel or group for a user."""

    NOT_MEMBER = "not_member"  # removed, or never added
    NO_RIGHTS = "no_rights"  # a member that may not post (a channel's admin without the right)
    OWNER_LEFT = "owner_left"  # the plan's owner is no longer a member
    OWNER_NO_RIGHTS = "owner_no_rights"  # the owner may not post there (a channel's plain member)
    ARCHIVED = "archived"  # a Slack channel archived: it takes no posts
    UNKNOWN = "unknown"  # the platform would not say


@runtime_checkable
class PostingCheck(Protocol):
    """A messenger that can tell, before a run orders, whether the bot may still post to a
    channel or group and whether its owner still may (Telegram's getChatMember, Slack's
    chat.postEphemeral to the owner)."""

    async def may_post(self, chat: ChatAddress, owner: str) -> PostingRefused | None:
        """None when the bot may post to the chat and so may ``owner``; else why not."""


def fitted(messenger: Messenger, screen: Screen) -> list[Screen]:
    """The screen as messages that each fit the platform; the buttons go with the last one."""
    if messenger.fits(screen):
        return [screen]

    def fits_with_buttons(part: Screen) -> bool:
        return messenger.fits(replace(part, buttons=screen.buttons))

    parts = split_into_screens(screen.blocks, fits_with_buttons)
    last = replace(parts[-1], buttons=screen.buttons, secret_input=screen.secret_input)
    return [*parts[:-1], last]


class ChatPresenter:
    """Shows an answer as messages in the chat it came from; notices are kept for the adapter,
    since a toast needs the press it answers."""

    def __init__(self, messenger: Messenger, chat: ChatAddress) -> None:
        self._messenger = messenger
        self._chat = chat
        self.notices: list[Notice] = []

    async def send(self, screen: Screen) -> None:
        """Post the screen, in parts where it does not fit."""
        for part in fitted(self._messenger, screen):
            await self._messenger.send(self._chat, part)

    async def edit(self, message_id: str, screen: Screen) -> None:
        """Edit the message into the screen's first part, and post the rest after it."""
        first, *rest = fitted(self._messenger, screen)
        await self._messenger.edit(self._chat, message_id, first)
        for part in rest:
            await self._messenger.send(self._chat, part)

    async def delete(self, message_id: str) -> None:
        """Delete the user's message."""
        await self._messenger.delete(self._chat, message_id)

    async def send_document(self, document: Document) -> None:
        """Post the file in the chat."""
        await self._messenger.send_document(self._chat, document)

    async def notice(self, text: str) -> None:
        """Keep the notice for the adapter."""
        self.notices.append(Notice(text))
