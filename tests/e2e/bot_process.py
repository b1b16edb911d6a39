"""The Telegram bot as real processes (``python -m bot telegram``), several at once on one
database, each behind its own gate to the fake Bot API, killed and restarted by the test.

The gate is a Bot API proxy on loopback: it passes everything through, and on the test's word
holds the chat-changing requests of its process before they reach Telegram, or slows them down
like a slow network. It knows which requests are held and which are on their way, so a test can
kill a process at a known point of its delivery.
"""

from __future__ import annotations

import asyncio
import html
import os
import re
import signal
import sys
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from decimal import Decimal
from functools import cache, partial
from http import HTTPStatus
from pathlib import Path
from typing import IO

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.api import ArticleApi
from bot.core.accounts import Accounts, LoginLimits
from bot.core.clock import system_clock
from bot.core.conversation.events import ChatAddress
from bot.http_clients import http_client
from bot.sandbox import DEMO_EMAIL, DEMO_PASSWORD, RunningSandbox
from bot.web import serving_http
from storage import Database, TokenCipher, users
from tests.e2e.article_lines import shown_lines
from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.fake_telegram.forms import read_request
from tests.e2e.telegram_rig import TOKEN, WEBHOOK_SECRET, WEBHOOK_URL
from tests.fakes import place_order, wait_until
from tests.ports import free_port

__all__ = [
    "CHAT_CHANGES",
    "BotProcess",
    "Delivered",
    "Order",
    "TelegramGate",
    "bot_processes",
    "deliveries",
    "fresh_env",
    "order_one_article_per_chat",
    "paragraphs",
]

# The Bot API methods that put something into a chat or change it there.
CHAT_CHANGES = frozenset({"sendmessage", "senddocument", "editmessagetext", "deletemessage"})
# Three processes importing the whole bot at once take a minute on a busy machine.
_START_TIMEOUT = 90.0
# A SIGTERM lets the process finish its round and close its servers: slow under load.
_STOP_TIMEOUT = 60.0
_LOG_TAIL = 3000
_TAG = re.compile(r"<[^>]+>")


def fresh_env() -> dict[str, str]:
    """The environment of a fresh machine: nothing of the bot's configured."""
    keep = {"PATH", "HOME", "LANG", "LC_ALL", "SYSTEMROOT", "TMPDIR"}
    env = {k: v for k, v in os.environ.items() if k in keep}
    env["PYTHONUNBUFFERED"] = "1"
    return env


async def bot_subprocess(
    command: str, env: Mapping[str, str], cwd: Path, output: int | IO[str]
) -> asyncio.subprocess.Process:
    """``python -m bot <command>`` started as a deployment starts it, its stdout and stderr
    together in ``output`` (a file, or ``asyncio.subprocess.PIPE``)."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "bot", command),
        cwd=cwd,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=output,
        stderr=asyncio.subprocess.STDOUT,
    )


@dataclass(frozen=True)
class _ChatChange:
    """A chat-changing request at the gate: its method (lower case), its chat, and the process
    life it came from."""

    method: str
    chat_id: str
    life: int


class TelegramGate:
    """A Bot API proxy in front of the fake for one bot process, which can hold or slow sends."""

    def __init__(self, telegram: FakeTelegram, http: httpx.AsyncClient) -> None:
        self.telegram = telegram
        self._http = http
        self.port = free_port()
        self.methods: list[str] = []
        self.passed: list[_ChatChange] = []
        self.held: list[_ChatChange] = []
        # Chat changes passed on to Telegram and not answered yet.
        self.in_flight = 0
        self._life = 0
        self._holding: frozenset[str] = frozenset()
        self._let_through = 0
        self._changed = asyncio.Event()
        self._delays: deque[float] = deque()
        self.slowed = 0

    @property
    def url(self) -> str:
        """The Bot API root to give the process instead of the fake's."""
        return f"http://127.0.0.1:{self.port}"

    def app(self) -> Starlette:
        """The proxy as an ASGI app."""
        return Starlette(routes=[Route("/{rest:path}", self._forward, methods=["GET", "POST"])])

    def hold(self, methods: Iterable[str] = CHAT_CHANGES, *, after: int = 0) -> None:
        """From now on keep requests of these methods from Telegram, but the first ``after``."""
        self._holding = frozenset(method.lower() for method in methods)
        self._let_through = after
        self._changed.set()

    def release(self) -> None:
        """Let every request through again, the held ones first."""
        self.hold(())

    def slow_next(self, seconds: float) -> None:
        """Make the next chat-changing request take ``seconds`` longer, like a slow network."""
        self._delays.append(seconds)

    def cut(self) -> None:
        """The process is gone: what it left held never reaches Telegram."""
        self._life += 1
        self._changed.set()

    def chats_held(self) -> set[str]:
        """The chats with a request held at the gate."""
        return {held.chat_id for held in self.held}

    def sent(self, method: str) -> int:
        """How many requests of ``method`` (any case) passed the gate."""
        return sum(1 for passed in self.methods if passed == method.lower())

    async def _forward(self, request: Request) -> Response:
        method = request.url.path.rsplit("/", 1)[-1].lower()
        body = await request.body()
        if method in CHAT_CHANGES:
            params, _ = await read_request(request)
            change = _ChatChange(method, str(params.get("chat_id")), self._life)
            if not await self._pass(change, request):
                return Response(status_code=HTTPStatus.BAD_GATEWAY)
            if self._delays:
                self.slowed += 1
                await asyncio.sleep(self._delays.popleft())
                if await request.is_disconnected():
                    return Response(status_code=HTTPStatus.BAD_GATEWAY)
            self.passed.append(change)
            self.in_flight += 1
        self.methods.append(method)
        try:
            answer = await self._http.request(
                request.method,
                f"{self.telegram.url}{request.url.path}",
                params=request.query_params,
                content=body,
                headers={"content-type": request.headers.get("content-type", "")},
            )
        finally:
            if method in CHAT_CHANGES:
                self.in_flight -= 1
        content_type = answer.headers.get("content-type")
        return Response(answer.content, answer.status_code, media_type=content_type)

    async def _pass(self, change: _ChatChange, request: Request) -> bool:
        """Wait while such requests are held; whether the request may go on to Telegram.

        A request its process gave up on (timed out, or killed) never goes on: the process
        would send it again, and Telegram would get it twice because of the gate alone.
        """
        if not self._holds(change):
            return change.life == self._life
        self.held.append(change)
        gone = asyncio.ensure_future(_client_gone(request))
        try:
            while self._holds(change) and change.life == self._life and not gone.done():
                self._changed.clear()
                changed = asyncio.ensure_future(self._changed.wait())
                await asyncio.wait({changed, gone}, return_when=asyncio.FIRST_COMPLETED)
                changed.cancel()
        finally:
            gone.cancel()
            self.held.remove(change)
        return change.life == self._life and not gone.done()

    def _holds(self, change: _ChatChange) -> bool:
        if change.method not in self._holding:
            return False
        if self._let_through > 0:
            self._let_through -= 1
            return False
        return True


async def _client_gone(request: Request) -> None:
    """Return once the client has closed the connection of the request (its body is read)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


@dataclass
class BotProcess:
    """One ``python -m bot telegram`` process behind its gate, started, stopped, killed and
    restarted at will; every start appends to its log."""

    name: str
    env: Mapping[str, str]
    workdir: Path
    gate: TelegramGate
    webhook: bool
    # Straight to the fake Bot API, its gate left out: half the requests for the test's
    # event loop to serve, where nothing is to be held.
    direct: bool = False
    starts: int = 0
    # The port its HTTP app listens on, new at each start.
    port: int = 0
    _process: asyncio.subprocess.Process | None = None

    @property
    def log(self) -> Path:
        """Where the process writes its log."""
        return self.workdir / f"{self.name}.log"

    @property
    def served_at(self) -> str:
        """The root URL of its HTTP app, where a load balancer sends its requests."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        """Whether the process is started and not ended."""
        return self._process is not None and self._process.returncode is None

    async def start(self) -> None:
        """Start the process; return once it polls (or has set its webhook)."""
        self.port = free_port()
        api = self.gate.telegram.url if self.direct else self.gate.url
        env = {**self.env, "TELEGRAM_API_URL": api, "PORT": str(self.port)}
        if self.webhook:
            env |= {
                "TELEGRAM_WEBHOOK_URL": WEBHOOK_URL,
                "TELEGRAM_WEBHOOK_SECRET": WEBHOOK_SECRET,
            }
        ready = "setwebhook" if self.webhook else "getupdates"
        seen = self.gate.sent(ready)
        self.starts += 1
        with self.log.open("a") as log:
            log.write(f"--- start {self.starts}\n")
            log.flush()
            self._process = await bot_subprocess("telegram", env, self.workdir, log)
        try:
            await wait_until(lambda: self._started(ready, seen) or not self.running, _START_TIMEOUT)
        except AssertionError:
            raise AssertionError(f"{self.name} did not start:\n{self.log_tail()}") from None
        if not self.running:
            raise AssertionError(f"{self.name} ended while starting:\n{self.log_tail()}")

    async def _started(self, ready: str, seen: int) -> bool:
        """Whether the process has asked the Bot API for its updates (through its gate), or,
        going straight to the fake, serves its HTTP app."""
        if not self.direct:
            return self.gate.sent(ready) > seen
        async with httpx.AsyncClient(timeout=1.0) as http:
            try:
                answer = await http.get(f"{self.served_at}/health")
            except httpx.HTTPError:
                return False
        return answer.status_code == HTTPStatus.OK

    async def stop(self) -> None:
        """Stop the process as SIGTERM does, letting it finish its round."""
        await self._end(signal.SIGTERM)

    async def kill(self) -> None:
        """Kill the process with SIGKILL; nothing it left held at the gate reaches Telegram."""
        await self._end(signal.SIGKILL)

    def holds(self, lease_owner: str | None) -> bool:
        """Whether a job's lease owner is this process as now started."""
        # The bot names a lease's owner host:pid:random, unique per start.
        return (
            self._process is not None
            and lease_owner is not None
            and lease_owner.split(":")[-2:-1] == [str(self._process.pid)]
        )

    def complaints(self) -> list[str]:
        """The bot's own warnings and errors in the log, for a failure's message."""
        if not self.log.exists():
            return []
        lines = self.log.read_text(errors="replace").splitlines()
        return [line for line in lines if re.search(r" (WARNING|ERROR|CRITICAL) bot\.", line)]

    def log_tail(self) -> str:
        """The end of the process's log, for a failure's message."""
        return self.log.read_text(errors="replace")[-_LOG_TAIL:] if self.log.exists() else ""

    async def _end(self, how: signal.Signals) -> None:
        process = self._process
        if process is not None and process.returncode is None:
            process.send_signal(how)
            try:
                await asyncio.wait_for(process.wait(), _STOP_TIMEOUT)
            except TimeoutError:
                process.kill()
                await process.wait()
                raise AssertionError(
                    f"{self.name} ignored {how.name}:\n{self.log_tail()}"
                ) from None
        self.gate.cut()


@asynccontextmanager
async def bot_processes(
    count: int,
    *,
    telegram: FakeTelegram,
    sandbox: RunningSandbox,
    database_url: str,
    key: str,
    workdir: Path,
    poll_interval: float,
    lease_seconds: float,
    webhook: bool = False,
    direct: bool = False,
) -> AsyncIterator[list[BotProcess]]:
    """``count`` bot processes on one database and upstream, not started yet; all killed after.

    ``direct``: the processes talk to the fake Bot API with no gate between."""
    env = fresh_env() | {
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "ARTICLE_API_URL": sandbox.url,
        "DATABASE_URL": database_url,
        "TOKEN_ENCRYPTION_KEY": key,
        "POLL_INTERVAL_SECONDS": str(poll_interval),
        "DELIVERY_LEASE_SECONDS": str(lease_seconds),
    }
    async with http_client(timeout=30.0) as http, AsyncExitStack() as gates:
        processes: list[BotProcess] = []
        for number in range(1, count + 1):
            gate = TelegramGate(telegram, http)
            await gates.enter_async_context(
                serving_http(gate.app(), port=gate.port, host="127.0.0.1")
            )
            processes.append(BotProcess(f"bot-{number}", env, workdir, gate, webhook, direct))
        try:
            yield processes
        finally:
            for process in processes:
                await process.kill()


@dataclass(frozen=True)
class Order:
    """One article ordered for one private chat, and what the upstream writes for it."""

    chat_id: int
    title: str
    content: str


async def order_one_article_per_chat(
    *,
    db: Database,
    sandbox: RunningSandbox,
    telegram: FakeTelegram,
    key: str,
    chats: Iterable[int],
) -> list[Order]:
    """Each chat's person starts the bot and logs in; one short article is ordered for each.

    The logins and orders go through the bot's own client and accounts, on the processes'
    database and key, so the processes deliver them as if the dialogs had taken place.
    """
    chats = list(chats)
    sandbox.state.set_balance(DEMO_EMAIL, Decimal(15 * len(chats)))
    account = sandbox.state.account(DEMO_EMAIL)
    assert account is not None
    async with http_client(timeout=10.0) as http:
        api = ArticleApi(http, base_url=sandbox.url)
        # Every chat logs in to one account at once: seeding, not what the throttle guards.
        limits = LoginLimits(per_email=len(chats), per_bot=len(chats))
        accounts = Accounts(
            db=db, api=api, cipher=TokenCipher(key), clock=system_clock, limits=limits
        )

        async def order(chat_id: int) -> Order:
            telegram.user_says(chat_id, "/start")
            user = await db.run(
                partial(
                    users.get_or_create_user,
                    platform="telegram",
                    workspace="",
                    external_id=str(chat_id),
                )
            )
            assert user.id is not None
            await accounts.login(user.id, DEMO_EMAIL, DEMO_PASSWORD)
            title = f"Teslimat denemesi {chat_id}"
            job = await place_order(
                db,
                accounts,
                api,
                user_id=user.id,
                chat=ChatAddress("telegram", str(chat_id)),
                title=title,
                size=1,
                now=system_clock(),
            )
            (upstream,) = [
                j for j in sandbox.state.jobs_of(account) if j.request_id == job.request_id
            ]
            assert upstream.content is not None
            return Order(chat_id, title, upstream.content)

        return list(await asyncio.gather(*(order(chat_id) for chat_id in chats)))


@dataclass(frozen=True)
class Delivered:
    """What Telegram accepted of one article in its chat: how many parts carried each of its
    paragraphs, and how many times its Markdown file and its HTML file came."""

    order: Order
    copies: tuple[int, ...]
    files: int
    # The messages that carried any of its paragraphs: each is one part the bot sent.
    messages: int
    pages: int

    @property
    def begun(self) -> bool:
        """Some of the article's text arrived, its last file (the HTML one) not yet."""
        return any(self.copies) and self.pages == 0

    @property
    def whole(self) -> bool:
        """Every paragraph of the article arrived, and both its files."""
        return all(self.copies) and self.files >= 1 and self.pages >= 1

    @property
    def twice(self) -> bool:
        """Some paragraph or a file arrived more than once."""
        return any(copies > 1 for copies in self.copies) or self.files > 1 or self.pages > 1


def deliveries(telegram: FakeTelegram, orders: Iterable[Order]) -> list[Delivered]:
    """What Telegram accepted of each article in its chat, in the order of ``orders``."""
    texts: defaultdict[str, list[str]] = defaultdict(list)
    files: defaultdict[str, list[bytes]] = defaultdict(list)
    pages: defaultdict[str, int] = defaultdict(int)
    for call in telegram.calls:
        chat, method = str(call.params.get("chat_id")), call.method.lower()
        if not call.ok:
            continue
        if method == "sendmessage":
            texts[chat].append(html.unescape(_TAG.sub("", str(call.params.get("text", "")))))
        elif method == "senddocument" and "document" in call.files:
            document = call.files["document"]
            if (document.filename or "").endswith(".html"):
                pages[chat] += 1
            else:
                files[chat].append(document.content)
    found: list[Delivered] = []
    for order in orders:
        chat = str(order.chat_id)
        plain = paragraphs(order.content)
        copies = tuple(sum(paragraph in text for text in texts[chat]) for paragraph in plain)
        messages = sum(any(paragraph in text for paragraph in plain) for text in texts[chat])
        article = order.content.encode()
        files_in = sum(article in file for file in files[chat])
        found.append(Delivered(order, copies, files_in, messages, pages[chat]))
    return found


# Asked again at every look at the chats, for each of hundreds of articles.
@cache
def paragraphs(content: str) -> tuple[str, ...]:
    """The article's plain paragraphs, neither headings, lists nor tables, as a chat shows them."""
    blocks = (block.strip() for block in content.split("\n\n"))
    plain = (
        block for block in blocks if block and not block.startswith(("#", "-", "*", "1.", "|"))
    )
    return tuple(" ".join(shown_lines(block)) for block in plain)
