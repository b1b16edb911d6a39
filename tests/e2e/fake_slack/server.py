"""The fake Slack as tests use it: served on loopback in the test's event loop, read back after."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Generator

import uvicorn

from tests.e2e.fake_slack.distribution import Distribution, Grant
from tests.e2e.fake_slack.faults import Fault, Faults
from tests.e2e.fake_slack.routes import create_app
from tests.e2e.fake_slack.socket_mode import SocketMode
from tests.e2e.fake_slack.team import FakeTeam
from tests.e2e.fake_slack.workspace import Workspace

__all__ = ["FakeSlack"]

# The app-level token (connections:write) that opens Socket Mode connections.
APP_TOKEN = "xapp-1-A0FAKEAPP-1-fake-app-token"
# Slack accepts a trigger id for three seconds.
TRIGGER_TTL = 3.0
_START_TIMEOUT = 30.0


class FakeSlack(FakeTeam):
    """Slack's Web API for one app over loopback, and signed Slack requests to the app under test.

    Start it with ``async with FakeSlack.running(...) as slack``; point the app's
    ``AsyncWebClient`` at ``slack.api_url``; read what the bot did from ``calls``,
    ``messages()``, ``ephemerals()``, ``responses``, ``files`` and ``views``. The fake is the
    first workspace (``team_id``), with the app installed under ``bot_token`` unless that is
    None; ``team()`` adds others, ``authorize()`` installs the app as a person approving it.
    """

    def __init__(
        self,
        url: str,
        *,
        bot_token: str | None,
        signing_secret: str,
        team_id: str = "T1",
        trigger_ttl: float = TRIGGER_TTL,
        app_token: str = APP_TOKEN,
    ) -> None:
        workspace = Workspace.create(base_url=url, team_id=team_id, trigger_ttl=trigger_ttl)
        distribution = Distribution({team_id: workspace})
        if bot_token is not None:
            distribution.install(team_id, bot_token)
        changed = asyncio.Condition()
        super().__init__(
            workspace, signing_secret, distribution=distribution, calls=[], changed=changed
        )
        self.url = url
        self.api_url = f"{url}/api/"
        self._signing_secret_text = signing_secret
        self._trigger_ttl = trigger_ttl
        self._faults = Faults()
        self.socket_mode = SocketMode(workspace.ids, app_token, self._changed)
        self.app = create_app(
            workspace,
            distribution=distribution,
            faults=self._faults,
            calls=self.calls,
            changed=self._changed,
            socket_mode=self.socket_mode,
        )

    @classmethod
    @contextlib.asynccontextmanager
    async def running(
        cls,
        *,
        bot_token: str | None = "xoxb-test",
        signing_secret: str = "fake-signing-secret",
        team_id: str = "T1",
        trigger_ttl: float = TRIGGER_TTL,
        app_token: str = APP_TOKEN,
    ) -> AsyncIterator[FakeSlack]:
        """Serve a fresh fake on a free port of 127.0.0.1 in this loop until the block ends."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.bind(("127.0.0.1", 0))
            host, port = sock.getsockname()
            slack = cls(
                f"http://{host}:{port}",
                bot_token=bot_token,
                signing_secret=signing_secret,
                team_id=team_id,
                trigger_ttl=trigger_ttl,
                app_token=app_token,
            )
            server = _Server(
                uvicorn.Config(
                    slack.app,
                    log_level="warning",
                    access_log=False,
                    lifespan="off",
                    timeout_graceful_shutdown=1,
                )
            )
            task = asyncio.create_task(server.serve(sockets=[sock]))
            try:
                await server.until_started(task)
                async with slack.socket_mode.serving():
                    yield slack
            finally:
                server.stop()
                await task
        finally:
            sock.close()

    def team(self, team_id: str) -> FakeTeam:
        """Another workspace of this Slack (made on first use), the app not installed there."""
        workspace = self.distribution.workspaces.get(team_id)
        if workspace is None:
            workspace = Workspace.create(
                base_url=f"{self.url}/t/{team_id}", team_id=team_id, trigger_ttl=self._trigger_ttl
            )
            self.distribution.workspaces[team_id] = workspace
        return FakeTeam(
            workspace,
            self._signing_secret_text,
            distribution=self.distribution,
            calls=self.calls,
            changed=self._changed,
        )

    def authorize(self, url: str, team_id: str) -> Grant:
        """A person of ``team_id`` follows the app's authorize link and approves the app."""
        self.team(team_id)
        return self.distribution.authorize(url, team_id)

    def authorize_org(self, url: str, enterprise_id: str) -> Grant:
        """An admin of an Enterprise Grid org approves the app for the whole organisation."""
        return self.distribution.authorize(url, enterprise_id, org=True)

    def remove_app(self, team_id: str) -> None:
        """An admin removes the app in Slack: the team's token stops working (events are the
        test's to send)."""
        self.distribution.revoke(team_id)

    def fail_next(
        self,
        method: str,
        *,
        error: str | None = None,
        status: int = 200,
        retry_after: int | None = None,
        count: int = 1,
    ) -> None:
        """Make the next `count` calls of `method` fail instead of doing anything.

        The answer is ``{"ok": false, "error": error}`` with HTTP `status`; the error defaults
        to ``ratelimited`` for 429, else ``internal_error``. A 429 always carries Retry-After,
        as Slack's do (1 s unless `retry_after` says otherwise).
        """
        if status == 429 and retry_after is None:
            retry_after = 1
        if error is None:
            error = "ratelimited" if status == 429 else "internal_error"
        self._faults.add(method, Fault(error, status, retry_after), count)


class _Server(uvicorn.Server):
    """A uvicorn server that tells when it listens, stops without polling, and leaves signals
    to the test runner."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self._listening = asyncio.Event()
        self._stopping = asyncio.Event()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        self._listening.set()

    async def main_loop(self) -> None:
        # uvicorn's own loop looks at should_exit every 0.1 s, which every test would wait out.
        await self.on_tick(0)
        await self._stopping.wait()

    def stop(self) -> None:
        """Make the server shut down now."""
        self.should_exit = True
        self._stopping.set()

    async def until_started(self, serving: asyncio.Task[None]) -> None:
        """Return once the server listens; raise if `serving` ended first."""
        listening = asyncio.ensure_future(self._listening.wait())
        try:
            async with asyncio.timeout(_START_TIMEOUT):
                await asyncio.wait({listening, serving}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            listening.cancel()
        if not self._listening.is_set():
            serving.result()
            raise RuntimeError("the fake Slack server stopped while starting")

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield
