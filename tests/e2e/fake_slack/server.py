"""The fake Slack as tests use it: served on loopback in the test's event loop, read back after."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Callable, Generator
from typing import Any, TypeVar

import uvicorn

from tests.e2e.fake_slack.faults import Fault, Faults
from tests.e2e.fake_slack.ids import BOT_USER_ID
from tests.e2e.fake_slack.inbound import SignedRequests
from tests.e2e.fake_slack.records import Call, OpenedView, ResponsePost, UploadedFile
from tests.e2e.fake_slack.routes import create_app
from tests.e2e.fake_slack.socket_mode import SocketMode
from tests.e2e.fake_slack.workspace import Workspace

__all__ = ["FakeSlack"]

T = TypeVar("T")

# The app-level token (connections:write) that opens Socket Mode connections.
APP_TOKEN = "xapp-1-A0FAKEAPP-1-fake-app-token"
# Slack accepts a trigger id for three seconds.
TRIGGER_TTL = 3.0
_START_TIMEOUT = 30.0


class FakeSlack(SignedRequests):
    """Slack's Web API for one bot over loopback, and signed Slack requests to the app under test.

    Start it with ``async with FakeSlack.running(...) as slack``; point the app's
    ``AsyncWebClient`` at ``slack.api_url``; read what the bot did from ``calls``,
    ``messages()``, ``ephemerals()``, ``responses``, ``files`` and ``views``.
    """

    def __init__(
        self,
        url: str,
        *,
        bot_token: str,
        signing_secret: str,
        team_id: str = "T1",
        trigger_ttl: float = TRIGGER_TTL,
        app_token: str = APP_TOKEN,
    ) -> None:
        workspace = Workspace.create(
            base_url=url, bot_token=bot_token, team_id=team_id, trigger_ttl=trigger_ttl
        )
        super().__init__(workspace, signing_secret)
        self.url = url
        self.api_url = f"{url}/api/"
        self.calls: list[Call] = []
        self._faults = Faults()
        self._changed = asyncio.Condition()
        self.socket_mode = SocketMode(workspace.ids, app_token, self._changed)
        self.app = create_app(
            workspace,
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
        bot_token: str = "xoxb-test",
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

    @property
    def bot_user_id(self) -> str:
        """The bot's user id, as auth.test gives it (for mentions in events)."""
        return BOT_USER_ID

    @property
    def team_id(self) -> str:
        """The workspace's team id."""
        return self._workspace.team_id

    def add_channel(self, channel_id: str, *, member: bool = True) -> None:
        """Make a channel exist, with the bot in it (it can post) or not (``not_in_channel``)."""
        self._workspace.conversations.add_channel(channel_id, member=member)

    def dm_channel(self, user_id: str) -> str:
        """The id of the user's DM with the bot, the one conversations.open gives."""
        return self._workspace.conversations.dm_channel(user_id)

    def calls_to(self, method: str) -> list[Call]:
        """The calls of one Web API method, in order."""
        return [recorded for recorded in self.calls if recorded.method == method]

    def messages(self, channel: str, thread_ts: str | None = None) -> list[dict[str, Any]]:
        """The bot's current messages at the top of `channel`, or in the thread `thread_ts`.

        Updated messages show their latest content, deleted ones are gone, and a completed
        file upload shows as a message with ``files``, as Slack shows them.
        """
        return self._workspace.conversations.messages(channel, thread_ts)

    def ephemerals(self, user: str) -> list[dict[str, Any]]:
        """The ephemeral messages shown to `user`: chat.postEphemeral and response URL posts."""
        return self._workspace.conversations.ephemerals(user)

    @property
    def responses(self) -> list[ResponsePost]:
        """Every accepted post to a response URL, in order."""
        return self._workspace.response_urls.posts

    @property
    def files(self) -> list[UploadedFile]:
        """Every file whose upload was completed, with its bytes and where it was shared."""
        return self._workspace.uploads.completed()

    def user_shares_file(
        self, user: str, filename: str, content: bytes, mimetype: str = "text/plain"
    ) -> dict[str, Any]:
        """A person shares a file; the file object a ``file_share`` message event carries."""
        return self._workspace.uploads.share(user, filename, content, mimetype)

    @property
    def views(self) -> list[OpenedView]:
        """Every modal and Home tab shown, each in its latest form."""
        return self._workspace.views.shown()

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

    async def wait_for(
        self,
        predicate: Callable[[], T],
        # Generous for a busy machine: it costs nothing when the condition comes.
        timeout: float = 30.0,
    ) -> T:
        """Return `predicate`'s first true value, checked after every request the fake gets.

        Fails the test with the last calls listed when it is not true within `timeout` s.
        """
        try:
            async with asyncio.timeout(timeout), self._changed:
                return await self._changed.wait_for(predicate)
        except TimeoutError:
            seen = ", ".join(f"{c.method}:{c.response.get('error', 'ok')}" for c in self.calls[-9:])
            raise AssertionError(
                f"condition not met within {timeout} s; last calls: {seen or 'none'}"
            ) from None


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
