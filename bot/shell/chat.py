"""The terminal chat loop: one line in, its answers shown, then the next line."""

from __future__ import annotations

from bot.core.conversation.events import ChatAddress, Command, Event, Origin, Text, UserKey
from bot.core.routing.conversations import Conversations
from bot.core.texts import Texts, texts_for
from bot.shell.files import names_a_file, upload_of
from bot.shell.leaving import Departure
from bot.shell.lines import LineSource, Stop
from bot.shell.messenger import ShellMessenger
from bot.shell.parsing import named_file, parse_line
from bot.shell.presenter import ShellPresenter

__all__ = ["PLATFORM", "ShellChat"]

PLATFORM = "shell"
_CHAT = ChatAddress(PLATFORM, "terminal")


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
        self._presenter = ShellPresenter(messenger, _CHAT)

    async def run(self, *, patience: float) -> None:
        """Chat until the user leaves, waiting (up to the timeout) for articles still coming.

        Ctrl-C cancels a dialog in progress. Ctrl-C at rest, Ctrl-D or the end of the input
        say how many articles are still coming and wait for them; a second press leaves.
        """
        departure = Departure(
            lambda: self._conversations.unfinished_jobs(self._key),
            patience=patience,
            # Leave the user the list, with where each unfinished article stands.
            gave_up=lambda: self.handle(Command("makalelerim")),
        )
        await self.handle(Command("start"))
        leaving = False
        while True:
            line = await (departure.read_meanwhile(self._read) if leaving else self._read())
            interrupted = line is Stop.INTERRUPT and not leaving
            if interrupted and await self._conversations.in_dialog(self._origin):
                await self.handle(Command("iptal"))
                continue
            if isinstance(line, Stop) or line is None:
                if leaving or not await self._announce_wait():
                    break
                if not self._lines.interactive:
                    await departure.drain()
                    break
                leaving = True
                continue
            leaving = False
            await self._answer(line)
        self._messenger.notice((await self._texts()).shell_goodbye)

    async def _read(self) -> str | Stop:
        """One answer: a line, or the lines up to an empty one where a list is awaited."""
        line = await self._lines.read(secret=self._presenter.secret)
        if isinstance(line, Stop) or not self._presenter.multiline or not line.strip():
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
        shown = self._presenter
        event = parse_line(line, shown.choices, shown.last_message_id, secret=shown.secret)
        if isinstance(event, Text) and shown.choices.numbers and not shown.secret:
            # A typo keeps the choices on offer, and says how to pick one.
            first, last = shown.choices.numbers
            texts = await self._texts()
            self._messenger.notice(
                texts.choose_by_number.format(first=first, last=last)
                if first != last
                else texts.choose_the_number.format(number=first)
            )
            return
        if isinstance(event, Text) and not shown.secret:
            # A delivered article's buttons, pushed since the dialog's last screen.
            event = parse_line(line, self._messenger.offered, shown.last_message_id)
        named = named_file(event, awaits_list=shown.multiline)
        if named is not None:
            upload = upload_of(named.path)
            if upload is None:
                texts = await self._texts()
                self._messenger.notice(texts.shell_file_missing.format(path=named.path.strip()))
                return
            if named.first is not None:
                # The plan is written first; its titles are then awaited, and the file gives them.
                await self.handle(named.first)
                if not self._presenter.multiline:
                    return
            event = upload
        if event is None and shown.multiline:
            # An empty line where a list is awaited is an empty list: the core says so.
            event = Text(line, shown.last_message_id)
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

    async def handle(self, event: Event) -> None:
        """Answer one event and show every effect before the next line is read."""
        self._presenter.expect_anything()
        with self._messenger.holding():
            await self._conversations.answer(self._origin, event, self._presenter)
