"""A bot wired by ``bootstrap`` against the sandbox, driven the way an adapter drives it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from bot.bootstrap import Bot, running_bot
from bot.config import Settings, load_settings
from bot.core.conversation.events import ChatAddress, Command, Event, Origin, Press, Text, UserKey
from bot.core.conversation.screens import Button, Edit, Effect, Notice, Screen, Send
from storage import generate_key
from tests.fake_upstream import FakeUpstream
from tests.fakes import ManualClock, RecordingMessenger
from tests.schema import fresh_database, migrated_sqlite

if TYPE_CHECKING:
    # Imported by harness() alone: the unit tier's scripted() bot serves no sandbox.
    from bot.sandbox import RunningSandbox

PLATFORM = "test"


@dataclass
class Chat:
    """One user in one chat, typing and pressing like a person."""

    bot: Bot
    user: str = "u1"
    private: bool = True
    language: str | None = None
    screens: list[Screen] = field(default_factory=list)
    _next_message: int = 100

    @property
    def origin(self) -> Origin:
        chat_id = f"chat-{self.user}" if self.private else "group-1"
        return Origin(
            UserKey(PLATFORM, self.user),
            ChatAddress(PLATFORM, chat_id),
            self.private,
            self.language,
        )

    async def send(self, event: Event) -> list[Effect]:
        effects = await self.bot.conversations.handle(self.origin, event)
        self.screens.extend(e.screen for e in effects if isinstance(e, Send | Edit))
        return effects

    async def say(self, line: str) -> list[Effect]:
        """Type a line: a command when it starts with a slash."""
        self._next_message += 1
        if line.startswith("/"):
            name, _, args = line[1:].partition(" ")
            return await self.send(Command(name, args, str(self._next_message)))
        return await self.send(Text(line, str(self._next_message)))

    async def press(self, label: str, screen: Screen | None = None) -> list[Effect]:
        """Press the button with this label on the last screen that has it."""
        button, message_id = self.find(label, screen)
        return await self.send(Press(button.data, message_id))

    def find(self, label: str, screen: Screen | None = None) -> tuple[Button, str]:
        candidates = [screen] if screen else reversed(self.screens)
        for shown in candidates:
            for row in shown.buttons:
                for button in row:
                    if button.label == label or button.label.startswith(f"{label} ·"):
                        return button, "42"
        raise AssertionError(f"no button {label!r} on screen")

    async def login(self, email: str = "demo@example.com", password: str = "Demo12345") -> None:
        effects = await self.say(f"/giris {email} {password}")
        assert any("Bakiyeniz" in text_of(e) or "balance" in text_of(e) for e in effects), effects


def text_of(effect: Effect) -> str:
    match effect:
        case Send(screen) | Edit(_, screen):
            return screen.text
        case Notice(text):
            return text
        case _:
            return ""


def texts(effects: list[Effect]) -> str:
    return "\n".join(text_of(e) for e in effects)


def labels(effects: list[Effect]) -> list[str]:
    return [
        b.label
        for e in effects
        if isinstance(e, Send | Edit)
        for row in e.screen.buttons
        for b in row
    ]


@dataclass
class Harness:
    bot: Bot
    sandbox: RunningSandbox | None
    messenger: RecordingMessenger
    clock: ManualClock

    def chat(self, user: str = "u1", *, private: bool = True, language: str | None = None) -> Chat:
        return Chat(self.bot, user, private, language)

    async def run_plans(self) -> None:
        """Tick the calendar once, and wait for the notices its runs queued to be posted."""
        await self.bot.planner.run_due()
        await self.bot.delivery.outbox.notices.drained()

    def advance(self, seconds: float) -> None:
        """Move both clocks: the sandbox's (if any) and the bot's."""
        if self.sandbox is not None:
            self.sandbox.state.clock.advance(seconds)
        self.clock.advance(seconds)


@asynccontextmanager
async def harness(tmp_path: Path, **settings: object) -> AsyncIterator[Harness]:
    """The sandbox on loopback and a bot on a fresh SQLite file, without the background poller."""
    from bot.sandbox import running_sandbox

    async with running_sandbox(speed=60.0) as sandbox:
        config = load_settings(
            _env_file=None,
            article_api_url=sandbox.url,
            database_url=migrated_sqlite(tmp_path / "bot.db"),
            token_encryption_key=generate_key(),
            article_api_timeout_seconds=2.0,
            **settings,
        )
        # It runs on with the sandbox's, and is moved together with it.
        clock = ManualClock(ticking=True)
        async with running_bot(config, clock=clock) as bot:
            messenger = RecordingMessenger()
            bot.messengers[PLATFORM] = messenger
            yield Harness(bot, sandbox, messenger, clock)


@cache
def _scripted_settings() -> Settings:
    """The settings of every scripted bot; validating them takes milliseconds a time."""
    return load_settings(
        _env_file=None,
        # Never dialled: the fake stands in for the client.
        article_api_url="http://127.0.0.1:9",
        token_encryption_key=generate_key(),
    )


@asynccontextmanager
async def scripted(upstream: FakeUpstream) -> AsyncIterator[Harness]:
    """A bot on a copy of the migrated schema and a scripted upstream: no sandbox, no socket."""
    database = fresh_database()
    try:
        clock = ManualClock()
        async with running_bot(_scripted_settings(), clock=clock, api=upstream, db=database) as bot:
            messenger = RecordingMessenger()
            bot.messengers[PLATFORM] = messenger
            yield Harness(bot, None, messenger, clock)
    finally:
        database.dispose()
