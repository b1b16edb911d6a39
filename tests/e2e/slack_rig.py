"""The Slack app started as users start it, against the fake Slack and the sandbox.

Requests go to the app's ``/slack/events`` over loopback, signed as Slack signs them; what
the app did is read back from the fake Slack.
"""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx

from bot.bootstrap import platforms_named, serve_chats
from bot.config import Settings, load_settings
from bot.core.clock import Clock
from bot.http_clients import http_client
from bot.sandbox import DEMO_EMAIL, DEMO_PASSWORD, RunningSandbox, running_sandbox
from storage import generate_key
from tests.e2e.fake_slack import FakeSlack
from tests.e2e.fake_slack.distribution import CLIENT_ID, CLIENT_SECRET
from tests.e2e.fake_slack.server import APP_TOKEN
from tests.e2e.fake_slack.team import FakeTeam
from tests.ports import free_port
from tests.schema import migrated_sqlite

METRICS_TOKEN = "metrics-token-for-tests"
TOKEN = "xoxb-1-fake-bot-token-for-tests"
SECRET = "fake-slack-signing-secret"
ALICE, BOB = "U1", "U2"
CHANNEL, OUTSIDE = "C1", "C2"
# A process's start imports the whole bot: tens of seconds on a machine busy with other work.
_START_TIMEOUT = 60.0
_AUTHORIZE_LINK = re.compile(r'href="([^"]*/oauth/v2/authorize\?[^"]*)"')
STATE_COOKIE = "slack-app-oauth-state"

Signed = tuple[bytes, dict[str, str]]


def text_of(message: dict[str, Any]) -> str:
    """A message's fallback text and its sections' text together."""
    sections = [block["text"]["text"] for block in message.get("blocks") or [] if block.get("text")]
    return "\n".join([message.get("text") or "", *sections])


def buttons_of(message: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """The message's buttons: label -> (action id, value)."""
    return {
        element["text"]["text"]: (element["action_id"], element["value"])
        for block in message.get("blocks") or []
        if block["type"] == "actions"
        for element in block["elements"]
    }


def dm_message(rig: SlackRig, text: str, ts: str = "1700000000.000100") -> dict[str, Any]:
    """A message event of Alice's in her DM with the bot."""
    channel = rig.slack.dm_channel(ALICE)
    return {
        "type": "message",
        "channel_type": "im",
        "channel": channel,
        "user": ALICE,
        "text": text,
        "ts": ts,
    }


def input_values(**fields: str | int) -> dict[str, Any]:
    """A modal's ``state.values``: text for inputs, ints for the choice of a select."""
    values: dict[str, Any] = {}
    for block_id, value in fields.items():
        if isinstance(value, int):
            state = {"type": "static_select", "selected_option": {"value": str(value)}}
        else:
            state = {"type": "plain_text_input", "value": value}
        values[block_id] = {"value": state}
    return values


@dataclass
class SlackRig:
    """A running Slack app, the fake Slack it talks to, and the sandbox behind it."""

    slack: FakeSlack
    sandbox: RunningSandbox
    settings: Settings
    http: httpx.AsyncClient
    clock: Clock | None = None
    _stop: asyncio.Event = field(default_factory=asyncio.Event)
    _task: asyncio.Task[None] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.settings.port}"

    @property
    def socket_mode(self) -> bool:
        """Whether requests reach the app over Socket Mode instead of ``/slack/events``."""
        return self.settings.slack_app_token is not None

    async def start(self) -> None:
        """Start the app and wait until its HTTP side answers."""
        self._stop = asyncio.Event()
        task = asyncio.create_task(
            serve_chats(self.settings, platforms_named("slack"), self._stop, clock=self.clock)
        )
        self._task = task
        await until_serving(self.http, self.base_url, task)
        if self.socket_mode:
            await self.slack.wait_for(lambda: task.done() or self.slack.socket_mode.connected)
            if task.done():
                task.result()

    def in_team(self, team: FakeTeam) -> SlackRig:
        """The same app driven from another workspace of the fake (many workspaces)."""
        return replace(self, slack=team)  # type: ignore[arg-type]

    async def install_page(self) -> tuple[str, str]:
        """Open /slack/install as a browser: the authorize link, and the state cookie set."""
        page = await self.http.get(f"{self.base_url}/slack/install")
        assert page.status_code == 200, page.text
        found = _AUTHORIZE_LINK.search(page.text)
        assert found is not None, page.text
        cookie = page.headers["set-cookie"].partition(";")[0]
        assert cookie.startswith(f"{STATE_COOKIE}=")
        return html.unescape(found.group(1)), cookie

    async def install(self, team_id: str) -> httpx.Response:
        """A person of ``team_id`` adds the app: install page, approval, back to the redirect."""
        link, cookie = await self.install_page()
        grant = self.slack.authorize(link, team_id)  # type: ignore[attr-defined]
        return await self.http.get(
            f"{self.base_url}/slack/oauth_redirect",
            params={"code": grant.code, "state": grant.state},
            headers={"Cookie": cookie},
        )

    async def stop(self) -> None:
        """Stop the app the way SIGTERM does."""
        self._stop.set()
        if self._task is not None:
            await asyncio.wait_for(self._task, timeout=15)

    async def post(self, signed: Signed) -> httpx.Response:
        """POST a signed request to the app's /slack/events, or send it over Socket Mode.

        Over Socket Mode the answer is made of the ack: 200, with its payload as the body.
        """
        body, headers = signed
        if not self.socket_mode:
            url = f"{self.base_url}/slack/events"
            return await self.http.post(url, content=body, headers=headers)
        acked = await self.slack.socket_mode.deliver(body, headers)
        return httpx.Response(200) if acked is None else httpx.Response(200, json=acked)

    async def command(
        self, name: str, text: str = "", *, user: str = ALICE, channel: str = CHANNEL
    ) -> httpx.Response:
        """Type a slash command; the app must acknowledge it."""
        answer = await self.post(
            self.slack.slash_command(name, text, user_id=user, channel_id=channel)
        )
        assert answer.status_code == 200, answer.text
        return answer

    def shown(self, user: str, text: str, since: int = 0) -> dict[str, Any] | None:
        """The newest ephemeral message from index ``since`` on that contains ``text``."""
        shown: list[dict[str, Any]] = self.slack.ephemerals(user)[since:]
        return next((message for message in reversed(shown) if text in text_of(message)), None)

    async def until(
        self, user: str, text: str, *, since: int = 0, timeout: float = 30
    ) -> dict[str, Any]:
        """Wait for an ephemeral message (new or replaced) from ``since`` on with ``text``."""
        await self.slack.wait_for(lambda: self.shown(user, text, since) is not None, timeout)
        found = self.shown(user, text, since)
        assert found is not None
        return found

    async def says(
        self, name: str, text: str, expect: str, *, user: str = ALICE, channel: str = CHANNEL
    ) -> dict[str, Any]:
        """Type a command and wait for the ephemeral answer containing ``expect``."""
        since = len(self.slack.ephemerals(user))
        await self.command(name, text, user=user, channel=channel)
        return await self.until(user, expect, since=since)

    async def presses(
        self, message: dict[str, Any], label: str, expect: str, *, user: str = ALICE
    ) -> dict[str, Any]:
        """Press a button of an ephemeral message; wait for it (or a newer one) to show `expect`."""
        action_id, value = buttons_of(message)[label]
        since = self.ephemeral_index(user, message)
        signed = self.slack.block_action(
            action_id, value, user_id=user, channel_id=message["channel"], message_ts=message["ts"]
        )
        answer = await self.post(signed)
        assert answer.status_code == 200, answer.text
        return await self.until(user, expect, since=since)

    async def answered_instead_of_the_form(self, expect: str, *, user: str = ALICE) -> str:
        """Type a bare /yaz the core answers without the order form (e.g. log in first); the
        answer's text once it shows ``expect``.

        The app waits ``FORM_PATIENCE`` for the core, then holds the trigger id with a loading
        modal and puts the answer in it: on a busy machine either way is right, so the answer
        is looked for in both places, and the modal must never have become a form.
        """
        since = len(self.slack.ephemerals(user))
        await self.command("/yaz", user=user)

        def answer() -> str | None:
            shown = self.shown(user, expect, since)
            modals = [v.view for v in self.slack.views if v.view["callback_id"] == "order"]
            in_modal = next((text_of(m) for m in modals if expect in text_of(m)), None)
            return text_of(shown) if shown is not None else in_modal

        found = await self.slack.wait_for(answer)
        inputs = [b for v in self.slack.views for b in v.view["blocks"] if b["type"] == "input"]
        assert inputs == [], "no order form"
        return found

    def ephemeral_index(self, user: str, message: dict[str, Any]) -> int:
        shown = self.slack.ephemerals(user)
        return next(i for i, m in enumerate(shown) if m["ts"] == message["ts"])

    async def submits(self, callback_id: str, values: dict[str, Any], *, user: str = ALICE) -> Any:
        """Submit the modal last opened for the user; returns the app's JSON answer, if any."""
        answer = await self.post(self.slack.view_submission(callback_id, values, user_id=user))
        assert answer.status_code == 200, answer.text
        return answer.json() if answer.content else None

    async def opened(self, callback_id: str, count: int = 1) -> dict[str, Any]:
        """Wait until ``count`` modals with this callback id were opened; the last one's view."""
        await self.slack.wait_for(
            lambda: (
                len([v for v in self.slack.views if v.view.get("callback_id") == callback_id])
                >= count
            )
        )
        return [v for v in self.slack.views if v.view.get("callback_id") == callback_id][-1].view

    async def log_in(
        self, user: str = ALICE, email: str = DEMO_EMAIL, password: str = DEMO_PASSWORD
    ) -> dict[str, Any]:
        """Log in through the /giris modal; returns the ephemeral answer."""
        opened = len([v for v in self.slack.views if v.view.get("callback_id") == "login"])
        since = len(self.slack.ephemerals(user))
        await self.command("/giris", user=user)
        await self.opened("login", opened + 1)
        values = {
            "email": {"value": {"type": "email_text_input", "value": email}},
            "password": {"value": {"type": "plain_text_input", "value": password}},
        }
        assert await self.submits("login", values, user=user) is None, "the modal closes"
        return await self.until(user, "Giriş yapıldı", since=since)


async def until_serving(http: httpx.AsyncClient, base_url: str, app: asyncio.Future[Any]) -> None:
    """Wait until /health answers; fail at once if the app (a task or a process) ended instead."""
    async with asyncio.timeout(_START_TIMEOUT):
        while True:
            if app.done():
                raise AssertionError(f"the app ended while starting: {app.result()!r}")
            try:
                if (await http.get(f"{base_url}/health")).status_code == 200:
                    return
            except httpx.TransportError:
                # Not listening yet; the app binds its port a moment after it starts.
                await asyncio.sleep(0.02)


@asynccontextmanager
async def slack_rig(
    tmp_path: Path,
    *,
    speed: float = 60.0,
    socket_mode: bool = False,
    many: bool = False,
    clock: Clock | None = None,
    **overrides: object,
) -> AsyncIterator[SlackRig]:
    """The app on a free port, logged in nowhere yet; `speed` is the sandbox clock's.

    With ``socket_mode`` the app connects out to the fake over Socket Mode (PORT serves only
    /health and /metrics), and every request of the rig goes over that connection. With
    ``many`` it serves every workspace that installs it (installed in none yet).
    """
    async with (
        FakeSlack.running(bot_token=None if many else TOKEN, signing_secret=SECRET) as slack,
        running_sandbox(speed=speed) as sandbox,
        http_client(timeout=10) as http,
    ):
        slack.add_channel(CHANNEL)
        slack.add_channel(OUTSIDE, member=False)
        options: dict[str, object] = {
            "_env_file": None,
            "article_api_url": sandbox.url,
            "database_url": migrated_sqlite(tmp_path / "bot.db"),
            "token_encryption_key": generate_key(),
            "slack_bot_token": TOKEN,
            "slack_signing_secret": SECRET,
            "slack_api_url": slack.api_url,
            "poll_interval_seconds": 0.2,
            "port": free_port(),
            "metrics_token": METRICS_TOKEN,
        }
        if socket_mode:
            options["slack_app_token"] = APP_TOKEN
        if many:
            del options["slack_bot_token"]
            options.update(slack_client_id=CLIENT_ID, slack_client_secret=CLIENT_SECRET)
        options.update(overrides)
        rig = SlackRig(slack, sandbox, load_settings(**options), http, clock)
        await rig.start()
        try:
            yield rig
        finally:
            await rig.stop()
