"""The terminal chat loop: one line in, its answers shown, then the next line."""

from __future__ import annotations

import asyncio

from bot.core.conversation import Conversations
from bot.core.events import ChatAddress, Command, Event, Origin, Press, Text, UserKey
from bot.core.screens import Delete, Edit, Effect, Notice, Send, SendDocument
from bot.shell.choices import Choices
from bot.shell.lines import LineSource
from bot.shell.messenger import ShellMessenger

__all__ = ["PLATFORM", "ShellChat", "parse_line"]

PLATFORM = "shell"
_CHAT = ChatAddress(PLATFORM, "terminal")


def parse_line(
    line: str, choices: Choices, last_message_id: str | None, *, secret: bool = False
) -> Event | None:
    """The event a typed line means: a command, a choice, or plain text; None for a blank line.

    At a secret (password) prompt a blank line is an answer too, and anything but a command
    is plain text, even a number.
    """
    text = line.strip()
    if not text and not secret:
        return None
    if text.startswith("/"):
        name, _, args = text[1:].partition(" ")
        return Command(name.lower(), args.strip())
    if secret:
        return Text(line, last_message_id)
    button = choices.pick(text)
    if button is not None:
        return Press(button.data, choices.message_id)
    return Text(line, last_message_id)


class ShellChat:
    """A chat with the bot in a terminal, as one user of platform ``shell``."""

    def __init__(
        self,
        conversations: Conversations,
        messenger: ShellMessenger,
        lines: LineSource,
        *,
        user: str,
        language: str | None = None,
    ) -> None:
        self._conversations = conversations
        self._messenger = messenger
        self._lines = lines
        self._key = UserKey(PLATFORM, user)
        self._origin = Origin(self._key, _CHAT, private=True, language_hint=language)
        self._choices = Choices()
        self._secret = False
        self._last_message_id: str | None = None

    async def run(self, *, patience: float) -> None:
        """Chat until the input ends, then wait (up to the timeout) for articles still coming."""
        await self.handle(Command("start"))
        while (line := await self._lines.read(secret=self._secret)) is not None:
            event = parse_line(line, self._choices, self._last_message_id, secret=self._secret)
            if event is not None:
                await self.handle(event)
        await self._drain(patience)

    async def handle(self, event: Event) -> None:
        """Answer one event and show every effect before the next line is read."""
        self._secret = False
        with self._messenger.holding():
            effects = await self._conversations.handle(self._origin, event)
            for effect in effects:
                await self._show(effect)

    async def _show(self, effect: Effect) -> None:
        match effect:
            case Send(screen) | Edit(_, screen):
                message_id = self._messenger.show(screen)
                self._last_message_id = message_id
                self._choices = Choices.of(screen, message_id)
                self._secret = screen.secret_input
            case SendDocument(document):
                await self._messenger.send_document(_CHAT, document)
            case Notice(text):
                self._messenger.notice(text)
            case Delete():
                pass

    async def _drain(self, patience: float) -> None:
        try:
            async with asyncio.timeout(patience):
                # The condition lives in the database, written by the poller.
                while await self._conversations.unfinished_jobs(self._key):  # noqa: ASYNC110
                    await asyncio.sleep(0.2)
        except TimeoutError:
            # Leave the user the list, with where each unfinished article stands.
            await self.handle(Command("makalelerim"))
