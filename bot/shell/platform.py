"""The terminal as one of the bot's chat platforms: one user, at this terminal, until they leave."""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass

from rich.console import Console
from starlette.routing import BaseRoute

from bot.chat_platform import ChatHost
from bot.config import Settings
from bot.core.platforms import OpenRules
from bot.shell.chat import PLATFORM, ShellChat
from bot.shell.lines import PipedLines, PromptLines
from bot.shell.messenger import ShellMessenger

__all__ = ["RunningTerminal", "TerminalPlatform"]


class RunningTerminal:
    """The chat at this terminal; taking lines, it sets the host's stop once its user leaves."""

    routes: Sequence[BaseRoute] = ()

    def __init__(self, chat: ShellChat, stop: asyncio.Event, *, patience: float) -> None:
        self._chat = chat
        self._stop = stop
        self._patience = patience
        self._task: asyncio.Task[None] | None = None

    async def connected(self) -> bool:
        """Always: the terminal is right here."""
        return True

    async def go_live(self) -> None:
        """Start reading lines; the process stops when the user leaves."""
        self._task = asyncio.create_task(self._chat.run(patience=self._patience))
        self._task.add_done_callback(lambda _: self._stop.set())

    async def finish(self) -> None:
        """Cut the chat short if the process stops first; its failure is the process's."""
        if self._task is None:
            return
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


@dataclass(frozen=True, slots=True)
class TerminalPlatform:
    """The terminal chat (``python -m bot shell``); ``patience`` is how long it waits, at the
    end of the input, for articles still coming."""

    patience: float = 90.0
    name: str = PLATFORM
    summary: str = "chat with the bot in this terminal"
    # Someone sits at it: no health check, and no start told to the operator.
    service: bool = False

    def rules(self, settings: Settings) -> OpenRules:
        """No allow lists: whoever has the terminal has the bot."""
        return OpenRules(PLATFORM)

    def configured(self, settings: Settings) -> bool:
        """Never by the settings: the terminal chat runs when asked for."""
        return False

    def require(self, settings: Settings) -> None:
        """Nothing: a terminal needs no credentials."""

    @asynccontextmanager
    async def running(self, host: ChatHost) -> AsyncIterator[RunningTerminal]:
        """The chat at this terminal for the block, its messenger showing deliveries here."""
        interactive = sys.stdin.isatty() and sys.stdout.isatty()
        console = Console(highlight=False, width=None if interactive else 100)
        messenger = ShellMessenger(console, host.settings.data_dir / "articles")
        user = getpass.getuser()
        lines = PromptLines(user) if interactive else PipedLines(console, user)
        chat = ShellChat(host.conversations, messenger, lines, user=user)
        host.messengers[PLATFORM] = messenger
        terminal = RunningTerminal(chat, host.stop, patience=self.patience)
        with contextlib.ExitStack() as screen:
            if interactive:
                from prompt_toolkit.patch_stdout import patch_stdout

                # Under a prompt, what else is printed goes above it instead of through it.
                screen.enter_context(patch_stdout(raw=True))
            try:
                yield terminal
            finally:
                await terminal.finish()
                host.messengers.pop(PLATFORM, None)
