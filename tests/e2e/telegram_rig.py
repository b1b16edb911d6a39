"""The Telegram bot started as users start it, against the fake Bot API and the sandbox."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.bootstrap import platforms_named, serve_chats
from bot.config import Settings, load_settings
from bot.core.clock import Clock
from bot.sandbox import RunningSandbox, running_sandbox
from storage import generate_key
from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.fake_telegram.records import StoredMessage
from tests.ports import free_port
from tests.schema import migrated_sqlite

METRICS_TOKEN = "metrics-token-for-tests"
TOKEN = "123456789:AAEfakeTokenForTestsOnly_abcdefghijk"
ALICE = 1001
BOB = 1002
# The public URL Telegram is given in webhook mode; the host's router forwards it to PORT.
WEBHOOK_URL = "https://bot.example.test/telegram/hook"
WEBHOOK_SECRET = "s3cret-token_for-tests"


@dataclass
class Rig:
    """A running bot, the fake Telegram it talks to, and the sandbox behind it."""

    telegram: FakeTelegram
    sandbox: RunningSandbox
    settings: Settings
    clock: Clock | None = None
    _stop: asyncio.Event = field(default_factory=asyncio.Event)
    _task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Start the bot and wait until it polls (or has set its webhook)."""
        self._stop = asyncio.Event()
        self._task = asyncio.create_task(
            serve_chats(self.settings, platforms_named("telegram"), self._stop, clock=self.clock)
        )
        calls = len(self.telegram.calls)
        wanted = "setWebhook" if self.settings.telegram_webhook_url else "getUpdates"
        await self.telegram.wait_for(
            lambda: (
                self._task is not None
                and (
                    self._task.done()
                    or any(c.method == wanted for c in self.telegram.calls[calls:])
                )
            )
        )
        if self._task.done():
            self._task.result()

    async def stop(self) -> None:
        """Stop the bot the way SIGTERM does."""
        self._stop.set()
        if self._task is not None:
            await asyncio.wait_for(self._task, timeout=15)

    def bot_messages(self, chat_id: int) -> list[StoredMessage]:
        return [m for m in self.telegram.chat(chat_id) if m.from_bot and not m.deleted]

    def shown(self, chat_id: int, text: str, since: int = 0) -> StoredMessage | None:
        """The newest bot message from ``since`` on whose text contains ``text``."""
        for message in reversed(self.bot_messages(chat_id)):
            if message.message_id >= since and text in (message.text or message.caption or ""):
                return message
        return None

    async def until(
        self, chat_id: int, text: str, timeout: float = 30, since: int = 0
    ) -> StoredMessage:
        """Wait for a bot message (new or edited) from ``since`` on containing ``text``."""
        await self.telegram.wait_for(lambda: self.shown(chat_id, text, since) is not None, timeout)
        found = self.shown(chat_id, text, since)
        assert found is not None
        return found

    async def says(self, user: int, text: str, expect: str, **kwargs: Any) -> StoredMessage:
        """Send a message as the user and wait for the answer containing ``expect``."""
        said = self.telegram.user_says(user, text, **kwargs)
        chat_id = kwargs.get("chat_id") or user
        return await self.until(chat_id, expect, since=said["message_id"])

    async def presses(
        self, user: int, message: StoredMessage, label: str, expect: str
    ) -> StoredMessage:
        """Press a button as the user; wait for that message (or a newer one) to show ``expect``."""
        data = message.callback_data(label)
        self.telegram.user_presses(user, message.message_id, data, chat_id=message.chat_id)
        return await self.until(message.chat_id, expect, since=message.message_id)

    def count(
        self, method: str, where: Callable[[dict[str, object]], bool] = lambda _: True
    ) -> int:
        return sum(1 for c in self.telegram.calls if c.method == method and where(c.params))

    async def log_in(
        self, user: int = ALICE, email: str = "demo@example.com", password: str = "Demo12345"
    ) -> None:
        await self.says(user, f"/giris {email} {password}", "Giriş yapıldı")


@asynccontextmanager
async def telegram_rig(
    tmp_path: Path, *, webhook: bool = False, clock: Clock | None = None, **overrides: object
) -> AsyncIterator[Rig]:
    async with (
        FakeTelegram.running(token=TOKEN) as telegram,
        running_sandbox(speed=60.0) as sandbox,
    ):
        port = free_port()
        options: dict[str, object] = {
            "_env_file": None,
            "article_api_url": sandbox.url,
            "database_url": migrated_sqlite(tmp_path / "bot.db"),
            "token_encryption_key": generate_key(),
            "telegram_bot_token": TOKEN,
            "telegram_api_url": telegram.url,
            "poll_interval_seconds": 0.2,
            "port": port,
            "metrics_token": METRICS_TOKEN,
        }
        if webhook:
            options["telegram_webhook_url"] = WEBHOOK_URL
            options["telegram_webhook_secret"] = WEBHOOK_SECRET
        options.update(overrides)
        rig = Rig(telegram, sandbox, load_settings(**options), clock)
        await rig.start()
        try:
            yield rig
        finally:
            await rig.stop()
