"""Where the terminal chat reads its lines: an interactive prompt, or a pipe."""

from __future__ import annotations

import asyncio
import sys
from typing import Protocol, TextIO

from prompt_toolkit import PromptSession
from rich.console import Console
from rich.text import Text

__all__ = ["LineSource", "PipedLines", "PromptLines"]

PROMPT = "sen › "
_HIDDEN = "•" * 8


def masked(line: str) -> str:
    """The line as it may be shown: a password typed after ``/giris e-mail`` is hidden."""
    command, _, rest = line.partition(" ")
    email, _, password = rest.strip().partition(" ")
    if command.lower() == "/giris" and password:
        return f"{command} {email} {_HIDDEN}"
    return line


class LineSource(Protocol):
    """Reads the user's next line; None at the end of input."""

    async def read(self, *, secret: bool) -> str | None:
        """The next line, read without echo when it is a secret."""


class PromptLines:
    """An interactive prompt; bot messages print above it while the user types."""

    def __init__(self) -> None:
        self._session: PromptSession[str] = PromptSession()

    async def read(self, *, secret: bool) -> str | None:
        """Prompt for a line; Ctrl+D or Ctrl+C end the chat."""
        try:
            return await self._session.prompt_async(PROMPT, is_password=secret)
        except (EOFError, KeyboardInterrupt):
            return None


class PipedLines:
    """Lines from a pipe or file, echoed so a transcript reads like a conversation."""

    def __init__(self, console: Console, stream: TextIO | None = None) -> None:
        self._console = console
        self._stream = stream or sys.stdin

    async def read(self, *, secret: bool) -> str | None:
        """The next line of the stream, or None at its end."""
        line: str = await asyncio.to_thread(self._stream.readline)
        if not line:
            return None
        line = line.rstrip("\r\n")
        shown = _HIDDEN if secret else masked(line)
        self._console.print(Text.assemble((PROMPT, "bold"), shown))
        return line
