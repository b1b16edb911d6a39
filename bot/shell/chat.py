"""The terminal chat loop: one line in, its answers shown, then the next line."""

from __future__ import annotations

import asyncio

from bot.core.conversation import Conversations
from bot.core.events import ChatAddress, Command, Event, Origin, Press, Text, UserKey
from bot.core.screens import Document, Screen
from bot.core.texts import Texts, texts_for
from bot.shell.choices import Choices
from bot.shell.files import names_a_file, upload_of
from bot.shell.lines import LineSource, Stop
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


def _named_file(event: Event | None, *, awaits_list: bool) -> str | None:
    """The path of a list of titles the line names: after ``/toplu``, or where a list is awaited."""
    match event:
        case Command(name="toplu", args=args) if names_a_file(args):
            return args
        case Text(text=text) if awaits_list and names_a_file(text):
            return text
    return None


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
        self._origin = Origin(
            self._key,
            _CHAT,
            private=True,
            language_hint=language,
            deletes_messages=False,
            line_by_line=True,
        )
        self._choices = Choices()
        self._secret = False
        self._multiline = False
        self._last_message_id: str | None = None

    async def run(self, *, patience: float) -> None:
        """Chat until the user leaves, waiting (up to the timeout) for articles still coming.

        Ctrl-C cancels a dialog in progress. Ctrl-C at rest, Ctrl-D or the end of the input
        say how many articles are still coming and wait for them; a second press leaves.
        """
        await self.handle(Command("start"))
        leaving = False
        while True:
            line = await (self._read_while_waiting(patience) if leaving else self._read())
            interrupted = line is Stop.INTERRUPT and not leaving
            if interrupted and await self._conversations.in_dialog(self._origin):
                await self.handle(Command("iptal"))
                continue
            if isinstance(line, Stop) or line is None:
                if leaving or not await self._announce_wait():
                    break
                if not self._lines.interactive:
                    await self._drain(patience)
                    break
                leaving = True
                continue
            leaving = False
            await self._answer(line)
        self._messenger.notice((await self._texts()).shell_goodbye)

    async def _read(self) -> str | Stop:
        """One answer: a line, or the lines up to an empty one where a list is awaited."""
        line = await self._lines.read(secret=self._secret)
        if isinstance(line, Stop) or not self._multiline or not line.strip():
            return line
        if line.startswith("/") or names_a_file(line):
            return line
        lines = [line]
        while True:
            more = await self._lines.read(secret=False, more=True)
            if not isinstance(more, str) or not more.strip():
                break
            lines.append(more)
        # Ctrl-C in the middle of a list cancels it; an empty line or the end of input sends it.
        return more if more is Stop.INTERRUPT else "\n".join(lines)

    async def _answer(self, line: str) -> None:
        event = parse_line(line, self._choices, self._last_message_id, secret=self._secret)
        if isinstance(event, Text) and self._choices.numbers and not self._secret:
            # A typo keeps the choices on offer, and says how to pick one.
            first, last = self._choices.numbers
            texts = await self._texts()
            self._messenger.notice(texts.choose_by_number.format(first=first, last=last))
            return
        if isinstance(event, Text) and not self._secret:
            # A delivered article's buttons, pushed since the dialog's last screen.
            event = parse_line(line, self._messenger.offered, self._last_message_id)
        named = _named_file(event, awaits_list=self._multiline)
        if named is not None:
            upload = upload_of(named)
            if upload is None:
                texts = await self._texts()
                self._messenger.notice(texts.shell_file_missing.format(path=named.strip()))
                return
            event = upload
        if event is not None:
            await self.handle(event)

    async def _texts(self) -> Texts:
        return texts_for(await self._conversations.language(self._origin))

    async def _announce_wait(self) -> bool:
        """Say how many articles are still coming; False when there are none."""
        count = await self._conversations.unfinished_jobs(self._key)
        if count:
            self._messenger.notice((await self._texts()).shell_waiting.format(count=count))
        return count > 0

    async def _read_while_waiting(self, patience: float) -> str | Stop | None:
        """A line typed while the articles are awaited; None once they have come."""
        waiting = asyncio.ensure_future(self._drain(patience))
        reading = asyncio.ensure_future(self._read())
        try:
            await asyncio.wait({waiting, reading}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiting.cancel()
            reading.cancel()
        return reading.result() if reading.done() and not reading.cancelled() else None

    async def handle(self, event: Event) -> None:
        """Answer one event and show every effect before the next line is read."""
        self._secret = self._multiline = False
        with self._messenger.holding():
            await self._conversations.answer(self._origin, event, self)

    async def send(self, screen: Screen) -> None:
        """Print the screen; its buttons become the choices of the next line."""
        message_id = self._messenger.show(screen)
        self._last_message_id = message_id
        self._choices = Choices.of(screen, message_id)
        self._secret = screen.secret_input
        self._multiline = screen.multiline_input

    async def edit(self, message_id: str, screen: Screen) -> None:
        """Print the new screen below: a terminal cannot change what it printed."""
        await self.send(screen)

    async def delete(self, message_id: str) -> None:
        """Nothing to delete: a password typed here was never echoed."""

    async def send_document(self, document: Document) -> None:
        """Save the file and say where."""
        await self._messenger.send_document(_CHAT, document)

    async def notice(self, text: str) -> None:
        """Print the notice."""
        self._messenger.notice(text)

    async def _drain(self, patience: float) -> None:
        try:
            async with asyncio.timeout(patience):
                # The condition lives in the database, written by the poller.
                while await self._conversations.unfinished_jobs(self._key):  # noqa: ASYNC110
                    await asyncio.sleep(0.2)
        except TimeoutError:
            # Leave the user the list, with where each unfinished article stands.
            await self.handle(Command("makalelerim"))
