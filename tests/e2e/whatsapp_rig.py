"""The WhatsApp number started as users start it, against the fake Cloud API and the sandbox.

People write through the fake, which posts signed webhooks to the bot's ``/whatsapp/webhook``;
what the bot sent is read back from the fake. Time, where it matters, is ``VirtualTime``:
the bot's pacer sleeps on it, and the fake's window and pair rate read it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from bot.bootstrap import serve_chats
from bot.config import Settings, load_settings
from bot.core.limits.pacing import Pacer
from bot.http_clients import http_client
from bot.sandbox import DEMO_EMAIL, DEMO_PASSWORD, RunningSandbox, running_sandbox
from bot.whatsapp.pace import NUMBER_LIMITS
from bot.whatsapp.platform import WhatsAppPlatform
from storage import generate_key
from tests.e2e.fake_whatsapp import FakeWhatsApp
from tests.e2e.fake_whatsapp.pairs import PairRate
from tests.e2e.fake_whatsapp.records import APP_SECRET, PHONE_NUMBER_ID, TOKEN
from tests.e2e.slack_rig import until_serving
from tests.link_login import link_in, log_in_by_page
from tests.ports import free_port
from tests.schema import migrated_sqlite

__all__ = ["ALICE", "BOB", "VERIFY_TOKEN", "VirtualTime", "WhatsAppRig", "whatsapp_rig"]

ALICE, BOB = "905551112233", "905559998877"
VERIFY_TOKEN = "verify-token-for-tests"
# WhatsApp's own pair rate: a long burst, then one each 6 seconds.
STRICT = PairRate(burst=5, every=6.0)


class VirtualTime:
    """Seconds since the epoch that jump forward when someone sleeps on them, or a test moves
    them; so pacing of many seconds takes none."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    async def sleep(self, seconds: float) -> None:
        """Move time on by ``seconds`` and let the loop run."""
        self.offset += max(seconds, 0.0)
        await asyncio.sleep(0)

    def advance(self, seconds: float) -> None:
        """Move time on (the 24-hour window)."""
        self.offset += seconds


@dataclass
class WhatsAppRig:
    """A running bot serving the number, the fake Cloud API and the sandbox behind it."""

    wa: FakeWhatsApp
    sandbox: RunningSandbox
    settings: Settings
    http: httpx.AsyncClient
    time: VirtualTime
    _stop: asyncio.Event = field(default_factory=asyncio.Event)
    _task: asyncio.Task[None] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.settings.port}"

    async def start(self) -> None:
        """Start the bot and wait until its HTTP side answers."""
        virtual = self.time

        def pacer() -> Pacer:
            return Pacer(NUMBER_LIMITS, clock=virtual, sleep=virtual.sleep)

        chats = [WhatsAppPlatform(pacer=pacer)]
        self._task = asyncio.create_task(serve_chats(self.settings, chats, self._stop))
        await until_serving(self.http, self.base_url, self._task)

    async def stop(self) -> None:
        """Stop the bot the way SIGTERM does."""
        self._stop.set()
        if self._task is not None:
            await asyncio.wait_for(self._task, timeout=15)

    async def restart(self) -> None:
        """Stop the bot and start it again on the same database, as a new process would."""
        await self.stop()
        self._stop = asyncio.Event()
        await self.start()

    async def log_in(self, person: str = ALICE) -> None:
        """Log the person into the sandbox's demo account as they would: ``giris``, then the
        link's page in a browser; back once the chat says so."""
        since = len(self.wa.to(person))
        await self.wa.user_says(person, "giris")
        link = link_in((await self.wa.until(person, "/giris/", since=since)).text)
        async with http_client(timeout=10) as browser:
            done = await log_in_by_page(browser, link, DEMO_EMAIL, DEMO_PASSWORD)
        assert done.status_code == 200, done.text
        await self.wa.until(person, "Giriş yapıldı", since=since)


@asynccontextmanager
async def whatsapp_rig(
    tmp_path: Path,
    *,
    speed: float = 60.0,
    window_errors: str = "answer",
    pair_rate: PairRate = STRICT,
    **overrides: object,
) -> AsyncIterator[WhatsAppRig]:
    """The bot on a free port, nobody logged in yet; ``speed`` is the sandbox clock's."""
    virtual = VirtualTime()
    async with (
        FakeWhatsApp.running(clock=virtual, pair_rate=pair_rate, window_errors=window_errors) as wa,
        running_sandbox(speed=speed) as sandbox,
        http_client(timeout=10) as http,
    ):
        port = free_port()
        options: dict[str, object] = {
            "_env_file": None,
            "article_api_url": sandbox.url,
            "database_url": migrated_sqlite(tmp_path / "bot.db"),
            "token_encryption_key": generate_key(),
            "whatsapp_access_token": TOKEN,
            "whatsapp_phone_number_id": PHONE_NUMBER_ID,
            "whatsapp_app_secret": APP_SECRET,
            "whatsapp_verify_token": VERIFY_TOKEN,
            "whatsapp_api_url": wa.api_url,
            "poll_interval_seconds": 0.2,
            "port": port,
            "public_url": f"http://127.0.0.1:{port}",
            **overrides,
        }
        wa.webhook_url = f"http://127.0.0.1:{port}/whatsapp/webhook"
        rig = WhatsAppRig(wa, sandbox, load_settings(**options), http, virtual)
        await rig.start()
        try:
            yield rig
        finally:
            await rig.stop()
