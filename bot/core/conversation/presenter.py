"""How an adapter shows the core's answer: one method per kind of effect, one dispatch.

Each adapter implements ``Presenter`` once (a chat's messages, Slack's ephemeral replies,
the terminal), and ``present`` is the only place that tells the kinds of effect apart, so a
new kind is added here and the type checker then names every adapter that lacks it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, assert_never

from bot.core.conversation.richtext import paragraph
from bot.core.conversation.screens import (
    Delete,
    Document,
    Edit,
    Effect,
    Notice,
    Screen,
    Send,
    SendDocument,
)

__all__ = ["Presenter", "present"]


class Presenter(Protocol):
    """One adapter's way to show the answer to one event of one user."""

    async def send(self, screen: Screen) -> None:
        """Show a new message."""

    async def edit(self, message_id: str, screen: Screen) -> None:
        """Replace an earlier message (the one a button was pressed on)."""

    async def delete(self, message_id: str) -> None:
        """Delete the user's message (a password)."""

    async def send_document(self, document: Document) -> None:
        """Hand over a file."""

    async def notice(self, text: str) -> None:
        """Show a short notice (a toast, where a button was pressed)."""


async def present(presenter: Presenter, effects: Iterable[Effect]) -> None:
    """Carry out the effects in order."""
    for effect in effects:
        match effect:
            case Send(screen):
                await presenter.send(screen)
            case Edit(message_id, screen):
                await presenter.edit(message_id, screen)
            case Delete(message_id, note):
                await presenter.delete(message_id)
                if note:
                    # Said where the message was, whatever the platform.
                    await presenter.send(Screen((paragraph(note),)))
            case SendDocument(document):
                await presenter.send_document(document)
            case Notice(text):
                await presenter.notice(text)
            case _:
                assert_never(effect)
