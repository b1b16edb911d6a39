"""The terminal as a chat platform: screens are printed, files saved beside the database."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from pathlib import Path

from rich.console import Console
from rich.text import Text

from bot.core.conversation.events import ChatAddress
from bot.core.conversation.screens import Document, Screen
from bot.shell.choices import Choices
from bot.shell.render import render_screen

__all__ = ["ShellMessenger"]


class ShellMessenger:
    """Prints what the bot says; a terminal cannot edit or delete, so edits print anew."""

    def __init__(self, console: Console, documents: Path) -> None:
        self._console = console
        self._documents = documents
        self._ids = itertools.count(1)
        self._shown: dict[str, Screen] = {}
        self._held: list[tuple[Screen, str]] | None = None
        # The buttons of a message pushed since the dialog's last screen (a delivered article's).
        self.offered = Choices()

    @contextlib.contextmanager
    def holding(self) -> Iterator[None]:
        """Keep pushed messages back until the block ends, so a dialog's answer comes first."""
        self._held = []
        try:
            yield
        finally:
            held, self._held = self._held or [], None
            for screen, message_id in held:
                self._push(screen, message_id)

    def show(self, screen: Screen) -> str:
        """Print a screen of the dialog now, held or not, and return its message id."""
        message_id = str(next(self._ids))
        self._shown[message_id] = screen
        self.offered = Choices()
        self._render(screen)
        return message_id

    def _render(self, screen: Screen) -> None:
        self._console.print(Text.assemble(("bot › ", "bold green"), render_screen(screen)))
        self._console.print()

    def _push(self, screen: Screen, message_id: str) -> None:
        self._render(screen)
        if screen.buttons:
            self.offered = Choices.of(screen, message_id)

    def _print(self, screen: Screen, message_id: str) -> None:
        if self._held is None:
            self._push(screen, message_id)
        else:
            self._held.append((screen, message_id))

    async def send(self, chat: ChatAddress, screen: Screen) -> str | None:
        """Print a new message (after the dialog's answer, if one is being shown)."""
        message_id = str(next(self._ids))
        self._shown[message_id] = screen
        self._print(screen, message_id)
        return message_id

    async def edit(self, chat: ChatAddress, message_id: str, screen: Screen) -> None:
        """Print the new version of a message, unless it did not change."""
        if self._shown.get(message_id) != screen:
            self._shown[message_id] = screen
            self._print(screen, message_id)

    async def delete(self, chat: ChatAddress, message_id: str) -> None:
        """Nothing to delete: the password prompt never echoed."""

    async def send_document(self, chat: ChatAddress, document: Document) -> None:
        """Save the file under a name of its own and say where it is."""
        self._documents.mkdir(parents=True, exist_ok=True)
        path = _save_apart(self._documents / document.filename, document.content)
        self._console.print(f"📄 {document.caption}: {path}", style="dim", markup=False)
        self._console.print()

    def fits(self, screen: Screen) -> bool:
        """A terminal has no message limit."""
        return True

    def notice(self, text: str) -> None:
        """Print a short notice for a choice."""
        self._console.print(f"ⓘ {text}", style="dim", markup=False)
        self._console.print()


def _save_apart(path: Path, content: bytes) -> Path:
    """Write a new file: two articles of one title are two files, ``name.md`` and ``name-2.md``;
    the same article again (opened from ``/makalelerim``) is the file already saved."""
    candidate, number = path, 1
    while True:
        try:
            # "x" creates, never overwrites: an earlier article of the same title stays.
            with candidate.open("xb") as file:
                file.write(content)
        except FileExistsError:
            if candidate.read_bytes() == content:
                return candidate
            number += 1
            candidate = path.with_stem(f"{path.stem}-{number}")
        else:
            return candidate
