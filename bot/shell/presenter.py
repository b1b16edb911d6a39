"""The terminal's presenter: prints each answer, and remembers what the next line may pick."""

from __future__ import annotations

from bot.core.conversation.events import ChatAddress
from bot.core.conversation.screens import Document, Screen
from bot.shell.choices import Choices
from bot.shell.messenger import ShellMessenger

__all__ = ["ShellPresenter"]


class ShellPresenter:
    """Shows the core's answers; the last screen decides how the next line is read."""

    def __init__(self, messenger: ShellMessenger, chat: ChatAddress) -> None:
        self._messenger = messenger
        self._chat = chat
        self.choices = Choices()
        # Whether the next line is a password (not echoed), or the first of a list of lines.
        self.secret = False
        self.multiline = False
        self.last_message_id: str | None = None

    def expect_anything(self) -> None:
        """Forget the last screen's way of reading: a new event is being answered."""
        self.secret = self.multiline = False

    async def send(self, screen: Screen) -> None:
        """Print the screen; its buttons become the choices of the next line."""
        message_id = self._messenger.show(screen)
        self.last_message_id = message_id
        self.choices = Choices.of(screen, message_id)
        self.secret = screen.secret_input
        self.multiline = screen.multiline_input

    async def edit(self, message_id: str, screen: Screen) -> None:
        """Print the new screen below: a terminal cannot change what it printed."""
        await self.send(screen)

    async def delete(self, message_id: str) -> None:
        """Nothing to delete: a password typed here was never echoed."""

    async def send_document(self, document: Document) -> None:
        """Save the file and say where."""
        await self._messenger.send_document(self._chat, document)

    async def notice(self, text: str) -> None:
        """Print the notice."""
        self._messenger.notice(text)
