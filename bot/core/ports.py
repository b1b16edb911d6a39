"""What the core needs from a chat platform to push messages on its own (delivery)."""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from bot.core.article import split_into_screens
from bot.core.events import ChatAddress
from bot.core.richtext import paragraph
from bot.core.screens import Delete, Document, Edit, Effect, Notice, Screen, Send, SendDocument

__all__ = ["ChatUnreachable", "Messenger", "MessengerError", "fitted", "perform"]


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

    async def send_document(self, chat: ChatAddress, document: Document) -> None:
        """Post a file."""

    def fits(self, screen: Screen) -> bool:
        """Whether the screen, rendered for this platform, fits in one message."""


def fitted(messenger: Messenger, screen: Screen) -> list[Screen]:
    """The screen as messages that each fit the platform; the buttons go with the last one."""
    if messenger.fits(screen):
        return [screen]

    def fits_with_buttons(part: Screen) -> bool:
        return messenger.fits(replace(part, buttons=screen.buttons))

    parts = split_into_screens(screen.blocks, fits_with_buttons)
    last = replace(parts[-1], buttons=screen.buttons, secret_input=screen.secret_input)
    return [*parts[:-1], last]


async def perform(messenger: Messenger, chat: ChatAddress, effects: list[Effect]) -> list[Notice]:
    """Carry out the effects in order; notices are returned, since a toast needs the press."""
    notices: list[Notice] = []
    for effect in effects:
        match effect:
            case Send(screen):
                for part in fitted(messenger, screen):
                    await messenger.send(chat, part)
            case Edit(message_id, screen):
                first, *rest = fitted(messenger, screen)
                await messenger.edit(chat, message_id, first)
                for part in rest:
                    await messenger.send(chat, part)
            case Delete(message_id, note):
                await messenger.delete(chat, message_id)
                if note:
                    await messenger.send(chat, Screen((paragraph(note),)))
            case SendDocument(document):
                await messenger.send_document(chat, document)
            case Notice():
                notices.append(effect)
    return notices
