"""Where the terminal chat reads its lines: an interactive prompt, or a pipe."""

from __future__ import annotations

import asyncio
import enum
import sys
from typing import TYPE_CHECKING, Protocol, TextIO

from rich.console import Console
from rich.text import Text

if TYPE_CHECKING:
    from prompt_toolkit import PromptSession

__all__ = ["ECHO_CHARS", "LineSource", "PipedLines", "PromptLines", "Stop", "echoed", "prompt"]

_HIDDEN = "•" * 8
# Lines after the first of a multi-line answer.
_MORE = "  … "
# An echoed line is cut here: a transcript of a few huge lines must stay readable.
ECHO_CHARS = 300


def prompt(user: str, *, more: bool = False) -> str:
    """What stands before a typed line: the user's name, or a continuation mark."""
    return _MORE if more else f"{user} › "


def masked(line: str) -> str:
    """The line as it may be shown: a password typed after ``/giris e-mail`` is hidden."""
    command, _, rest = line.partition(" ")
    email, _, password = rest.strip().partition(" ")
    if command.lower() == "/giris" and password:
        return f"{command} {email} {_HIDDEN}"
    return line


def echoed(line: str) -> str:
    """The line as a transcript shows it: masked, and cut with the count of what was left out."""
    shown = masked(line)
    if len(shown) <= ECHO_CHARS:
        return shown
    return f"{shown[:ECHO_CHARS]}… (+{len(shown) - ECHO_CHARS})"


class Stop(enum.Enum):
    """What the user did instead of typing a line."""

    END = "Ctrl-D, or the end of the input"
    INTERRUPT = "Ctrl-C"


class LineSource(Protocol):
    """Reads the user's next line, or how they stopped.

    Nothing is raised for Ctrl-C: a ``KeyboardInterrupt`` escaping a task would stop the loop.
    """

    # Whether a person types the lines, who can still answer after the end of input.
    interactive: bool

    async def read(self, *, secret: bool, more: bool = False) -> str | Stop:
        """The next line, read without echo when it is a secret; ``more`` continues an answer."""


class PromptLines:
    """An interactive prompt; bot messages print above it while the user types."""

    interactive = True

    def __init__(self, user: str) -> None:
        # prompt_toolkit is imported for a terminal alone: the core, which the unit tier
        # starts for each dialog test, names this platform without running it.
        from prompt_toolkit import PromptSession

        self._user = user
        self._session: PromptSession[str] = PromptSession()

    async def read(self, *, secret: bool, more: bool = False) -> str | Stop:
        """Prompt for a line."""
        try:
            return await self._session.prompt_async(
                prompt(self._user, more=more), is_password=secret
            )
        except EOFError:
            return Stop.END
        except KeyboardInterrupt:
            return Stop.INTERRUPT


class PipedLines:
    """Lines from a pipe or file, echoed so a transcript reads like a conversation."""

    interactive = False

    def __init__(self, console: Console, user: str, stream: TextIO | None = None) -> None:
        self._console = console
        self._user = user
        self._stream = stream or sys.stdin

    async def read(self, *, secret: bool, more: bool = False) -> str | Stop:
        """The next line of the stream, or the end."""
        line: str = await asyncio.to_thread(self._stream.readline)
        if not line:
            return Stop.END
        line = line.rstrip("\r\n")
        shown = _HIDDEN if secret else echoed(line)
        self._console.print(Text.assemble((prompt(self._user, more=more), "bold"), shown))
        return line
