"""How fast, how economically and how safely the real bot process delivers finished articles.

Runs ``python -m bot telegram`` as a subprocess against the fake Telegram Bot API of
``tests/e2e`` (with Telegram's flood limits) and the sandbox upstream, both served on
loopback by this process. Users, sessions and jobs are seeded through the project's own
code into the bot's SQLite file. Every measure is set against a reference taken in the same
run; the table is printed and written as JSON.

    .venv/bin/python -m bench.delivery [--smoke] [--out bench/results.json] [sizes...]

(from the project's folder: it imports the fake Telegram from tests/e2e).

See bench/README.md for what each measure means.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import platform
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from contextvars import ContextVar
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import insert, update
from sqlmodel import Session
from telegram import Bot, Update
from telegram.ext import Application, CommandHandler, ContextTypes

from bench import forked
from bench.order_flow import NullMessenger
from bot.api import ArticleApi
from bot.bootstrap import running_bot
from bot.config import load_settings
from bot.core.accounts import Accounts
from bot.core.articles.article import article_blocks, split_into_screens
from bot.core.clock import system_clock
from bot.core.conversation.screens import Screen
from bot.core.ordering.durations import estimate_seconds
from bot.sandbox import RunningSandbox, running_sandbox
from bot.sandbox.jobs import Job as UpstreamJob
from bot.telegram.messenger import TelegramMessenger
from bot.telegram.render import to_html
from storage import Database, TokenCipher, generate_key, jobs, users
from storage.models import Job, JobStatus
from tests.e2e.fake_telegram import FakeTelegram, Limits, Sent
from tests.ports import free_port

ROOT = Path(__file__).resolve().parent.parent
# Tokens of the fake Telegram and the password of the sandbox's accounts: no secrets.
TOKEN = "123456789:AAEbenchDeliveryTokenOnly_abcdefghijk"  # noqa: S105
BARE_TOKEN = "987654321:AAEbenchBareBotTokenOnly_abcdefghijk"  # noqa: S105
PASSWORD = "Okur12345"  # noqa: S105
BALANCE = Decimal(10**6)
SHORT = 1  # the sandbox's "Kısa": 60-120 s at speed 1, one message and the file on Telegram
LONGEST = 10 * 60  # seconds the longest size ("Çok Uzun") takes at speed 1
TONE = 2
ARTICLE_METHODS = frozenset({"sendMessage", "sendDocument"})
GROUP_ID = -1009000000001
# Telegram on its own terms: a bucket per chat and per bot, judged with a network's jitter.
JITTER = 0.05
LIMITS = Limits(jitter=JITTER)
# Real jobs finish at about 0.9 to 1.3 times their estimate (its lower bound).
AROUND_ESTIMATE = (0.9, 1.3)
# One person's actions a moment apart, each to be answered at once.
ACTIONS = 4
ACTIONS_APART = 0.7
ANSWER_GOAL = 0.3
# Answers of each bot to /bakiye before the measured ones.
WARM_UP = 5
# Private chats, and the people in them, are numbered from here; a group's orderer too.
FIRST_USER = 7_000_001
START_TIMEOUT = 60.0


@dataclass(frozen=True)
class Sizes:
    """How big each scenario is."""

    chats: int = 300
    # "Uzun": four messages and the file, more than a private chat's burst of three.
    private_size: int = 3
    group_articles: int = 30
    waiting: int = 60
    waiting_speed: float = 6.0
    # Seconds between two of the waiting users' orders: the last are placed while the first
    # finish, and each job's clock starts at its own order.
    waiting_apart: float = 0.2
    poll_interval: float = 2.0
    # The p95 of 30 answers was their second slowest: one stall of a shared machine decided
    # it, either way. Of 100, the fifth.
    bakiye: int = 100
    # Chats receiving an article while one person acts (the scenario ``actions``).
    busy: int = 60
    # People acting in their own chats while their articles arrive, over three replicas
    # (``replicas``): four answers each in 2.1 s, one person starting every 0.25 s.
    replica_people: int = 24
    delivered: int = 100_000
    baseline: int = 1_000
    pending: int = 500
    repeats: int = 3
    timeout: float = 1800.0  # per scenario; what has not arrived by then counts as lost


SMOKE = Sizes(
    chats=4,
    private_size=SHORT,
    group_articles=2,
    waiting=3,
    waiting_speed=120.0,
    waiting_apart=0.0,
    poll_interval=0.25,
    bakiye=2,
    busy=2,
    replica_people=2,
    delivered=400,
    baseline=100,
    pending=20,
    repeats=1,
    timeout=60.0,
)


@dataclass
class Measure:
    """One line of the table: the value, its reference from the same run, and the goal."""

    key: str
    name: str
    value: float
    reference: float
    ratio: float
    goal: str
    met: bool
    unit: str = ""
    note: str = ""


@dataclass
class World:
    """The fake Telegram, the sandbox and the bot's database, seeded through our own code."""

    folder: Path
    telegram: FakeTelegram
    sandbox: RunningSandbox
    db: Database
    api: ArticleApi
    accounts: Accounts
    key: str
    accounts_of: dict[int, str] = field(default_factory=dict)  # chat user id -> e-mail

    @property
    def database_url(self) -> str:
        return f"sqlite:///{self.folder / 'bot.db'}"

    def own_articles_calls(self) -> int:
        return sum(1 for _, path in self.sandbox.state.request_log if "/makalelerim" in path)


# Seeding

_MIGRATING = asyncio.Lock()


@contextlib.asynccontextmanager
async def world(folder: Path, *, speed: float) -> AsyncIterator[World]:
    """A fresh fake Telegram, sandbox and migrated database in ``folder``."""
    await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
    async with (
        FakeTelegram.running(token=TOKEN, limits=LIMITS) as telegram,
        running_sandbox(speed=speed) as sandbox,
        httpx.AsyncClient(timeout=30) as http,
    ):
        key = generate_key()
        await _migrated(folder / "bot.db")
        db = Database.connect(f"sqlite:///{folder / 'bot.db'}")
        try:
            api = ArticleApi(http, base_url=sandbox.url)
            accounts = Accounts(db=db, api=api, cipher=TokenCipher(key), clock=system_clock)
            yield World(folder, telegram, sandbox, db, api, accounts, key)
        finally:
            db.dispose()


async def _migrated(path: Path) -> None:
    """A database at the newest migration in ``path``: a copy of the one the run's first world
    migrated beside its folder (six migrations were a second of the smoke run)."""
    schema = path.parent.parent / "migrated.db"
    # Alembic keeps its context in module globals: one migration at a time.
    async with _MIGRATING:
        if not schema.exists():
            db = Database.connect(f"sqlite:///{schema}")
            try:
                await asyncio.to_thread(db.migrate)
            finally:
                db.dispose()
        await asyncio.to_thread(shutil.copyfile, schema, path)


async def chat_user(w: World, person: int, *, chat_id: int | None = None) -> int:
    """A Telegram user with a chat the bot may write to, logged in to an account of their own."""
    email = f"okur{person}@example.com"
    w.sandbox.state.open_account(email, PASSWORD, BALANCE)
    w.telegram.open_chat(
        person, chat_id=chat_id, chat_type="private" if chat_id is None else "group"
    )
    user = await w.db.run(
        lambda s: users.get_or_create_user(
            s, platform="telegram", workspace="", external_id=str(person)
        )
    )
    assert user.id is not None
    await w.accounts.login(user.id, email, PASSWORD)
    w.accounts_of[user.id] = email
    return user.id


async def order(w: World, user_id: int, chat_id: int, title: str, size: int = SHORT) -> Job:
    """An upstream job ordered and recorded as the order dialog records it."""
    created = await w.accounts.call(
        user_id, lambda token: w.api.create(token, title=title, tone=TONE, size=size)
    )
    now = system_clock()
    wait = estimate_seconds(created.estimated_time) or 0.0
    row = Job(
        request_id=created.request_id,
        chat_user_id=user_id,
        platform="telegram",
        chat_id=str(chat_id),
        title=title,
        tone=TONE,
        size=size,
        cost=created.cost,
        next_poll_at=now + timedelta(seconds=wait),
        expected_at=now + timedelta(seconds=wait),
        created_at=now,
    )
    return await w.db.run(lambda s: jobs.add_job(s, job=row))


def upstream_job(w: World, user_id: int, request_id: str) -> UpstreamJob:
    account = w.sandbox.state.account(w.accounts_of[user_id])
    assert account is not None
    return next(j for j in w.sandbox.state.jobs_of(account) if j.request_id == request_id)


_FITS = TelegramMessenger(Bot(TOKEN)).fits


def article_messages(job: UpstreamJob) -> list[Screen]:
    """The parts the bot posts for a finished job (the file comes after them)."""
    assert job.content is not None
    return split_into_screens(article_blocks(job.content, job.order.title), _FITS)


# The processes


@contextlib.asynccontextmanager
async def bot_process(w: World, poll_interval: float) -> AsyncIterator[None]:
    """``python -m bot telegram`` on the world's database, polling the fake for updates."""
    env = {
        **os.environ,
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "TELEGRAM_API_URL": w.telegram.url,
        "ARTICLE_API_URL": w.sandbox.url,
        "DATABASE_URL": w.database_url,
        "TOKEN_ENCRYPTION_KEY": w.key,
        "POLL_INTERVAL_SECONDS": str(poll_interval),
        "PORT": str(free_port()),
        "LOG_LEVEL": "WARNING",
    }
    async with child(["bot", "telegram"], env, w.folder / "bot.log", w.folder):
        await w.telegram.wait_for(
            lambda: any(c.method == "getUpdates" for c in w.telegram.calls), START_TIMEOUT
        )
        yield


# The smoke run forks its children from a server that has imported the bot once (eight
# imports of two seconds each were most of its time); a full run starts each as production
# does, ``python -m`` in a fresh interpreter.
_FORKED: ContextVar[bool] = ContextVar("forked", default=False)


@contextlib.asynccontextmanager
async def child(
    command: Sequence[str], env: dict[str, str], log: Path, cwd: Path
) -> AsyncIterator[asyncio.subprocess.Process | forked.Child]:
    """``python -m *command`` logging to ``log``, stopped with SIGTERM (then SIGKILL) at the
    end unless it has ended."""
    process = await forked.started(command, env, cwd, log, fork=_FORKED.get())
    try:
        yield process
    finally:
        if process.returncode is None:
            process.terminate()
            try:
                await asyncio.wait_for(process.wait(), 20)
            except TimeoutError:
                process.kill()
                await process.wait()


def bench_env() -> dict[str, str]:
    """The environment of a child of this script: the project importable, no .env read."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path}


# Scenario: many articles finishing at once


@dataclass(frozen=True)
class Delivered:
    """What Telegram received for a set of articles."""

    expected: Counter[int]
    received: Counter[int]
    sent: list[Sent]
    refused: int

    @property
    def lost(self) -> int:
        return sum((self.expected - self.received).values())

    @property
    def seconds(self) -> float:
        return self.sent[-1].at - self.sent[0].at if len(self.sent) > 1 else 0.0

    def refused_measure(self, key: str) -> Measure:
        attempts = len(self.sent) + self.refused
        share = self.refused / attempts if attempts else 0.0
        return Measure(
            key,
            "  the same: sends answered 429",
            self.refused,
            attempts,
            share,
            "ratio < 0.01",
            attempts > 0 and share < 0.01,
            "calls",
        )

    def lost_measure(self, key: str) -> Measure:
        expected = sum(self.expected.values())
        return Measure(
            key,
            "  the same: messages lost",
            self.lost,
            expected,
            self.lost / expected if expected else 0.0,
            "value = 0",
            self.lost == 0,
            "messages",
        )


def received(telegram: FakeTelegram, chats: set[int]) -> Counter[int]:
    return Counter(
        s.chat_id for s in telegram.sent if s.chat_id in chats and s.method in ARTICLE_METHODS
    )


async def all_finished(
    w: World, orders: list[tuple[int, int]], label: str, size: int = SHORT
) -> Counter[int]:
    """Order one article per (user, chat) and let every job finish; the messages each chat
    should get (parts and files)."""
    expected: Counter[int] = Counter()
    for n, (user_id, chat_id) in enumerate(orders):
        job = await order(w, user_id, chat_id, f"{label} {n}: yapay zekâ ile içerik üretimi", size)
        # The parts and both files (Markdown, HTML).
        expected[chat_id] += len(article_messages(upstream_job(w, user_id, job.request_id))) + 2
    w.sandbox.state.clock.advance(LONGEST + 60)  # every job done; tokens last an hour
    due = system_clock()
    await w.db.run(lambda s: _make_due(s, due))
    return expected


async def finish_at_once(
    w: World, orders: list[tuple[int, int]], sizes: Sizes, label: str, size: int = SHORT
) -> Delivered:
    """Order one article per (user, chat), let every job finish, and run the bot until all
    parts and files are in their chats (or the timeout)."""
    expected = await all_finished(w, orders, label, size)
    chats = set(expected)
    async with bot_process(w, sizes.poll_interval):
        with contextlib.suppress(AssertionError):
            await w.telegram.wait_for(
                lambda: received(w.telegram, chats) >= expected, sizes.timeout
            )
    sent = [s for s in w.telegram.sent if s.chat_id in chats and s.method in ARTICLE_METHODS]
    refused = sum(w.telegram.refused[chat] for chat in chats)
    return Delivered(expected, received(w.telegram, chats), sent, refused)


def _make_due(session: Session, now: datetime) -> None:
    session.exec(update(Job).values(next_poll_at=now))


async def private_burst(folder: Path, sizes: Sizes) -> list[Measure]:
    async with world(folder, speed=1.0) as w:
        orders = []
        for n in range(sizes.chats):
            person = FIRST_USER + n
            orders.append((await chat_user(w, person), person))
        got = await finish_at_once(w, orders, sizes, "Özel", sizes.private_size)
    rate = len(got.sent) / got.seconds if got.seconds else 0.0
    return [
        Measure(
            "private.rate",
            f"{sizes.chats} articles at once, {sizes.chats} private chats: sends/s",
            rate,
            30.0,
            rate / 30.0,
            "ratio >= 0.9",
            rate / 30.0 >= 0.9,
            "sends/s",
            f"{len(got.sent)} sends in {got.seconds:.1f} s",
        ),
        got.refused_measure("private.refused"),
        got.lost_measure("private.lost"),
    ]


def group_floor(count: int, limits: Limits) -> float:
    """The shortest time from the first to the last of ``count`` sends a group allows."""
    return limits.group_window * (math.ceil(count / limits.group_per_window) - 1)


async def group_pace(folder: Path, sizes: Sizes) -> list[Measure]:
    async with world(folder, speed=1.0) as w:
        user_id = await chat_user(w, FIRST_USER, chat_id=GROUP_ID)
        got = await finish_at_once(w, [(user_id, GROUP_ID)] * sizes.group_articles, sizes, "Grup")
        limits = w.telegram.limits
    assert limits is not None
    floor = group_floor(len(got.sent), limits)
    pace = floor / got.seconds if got.seconds and floor else 1.0
    return [
        Measure(
            "group.pace",
            f"{sizes.group_articles} articles for one group: time of its sends",
            got.seconds,
            floor,
            pace,
            "ratio >= 0.9 (floor / time)",
            pace >= 0.9,
            "s",
            f"{len(got.sent)} sends; the floor at 20 a minute",
        ),
        got.refused_measure("group.refused"),
        got.lost_measure("group.lost"),
    ]


# Scenario: articles finishing while their users wait


def p95(values: Sequence[float]) -> float:
    """The nearest-rank 95th percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


async def _finished_upstream(w: World, user_id: int, request_id: str) -> bool:
    found = await w.accounts.call(
        user_id, lambda token: w.api.articles(token, request_id=request_id)
    )
    return any(a.request_id == request_id and (a.finished or a.failed) for a in found)


async def naive_poller(
    w: World, watched: list[tuple[int, str]], interval: float, total: int
) -> int:
    """Ask for each pending job by its id once per interval, from its order until it is done,
    until all ``total`` are ordered and done; the calls."""
    done: set[str] = set()
    calls = 0
    while len(done) < total:
        for user_id, request_id in list(watched):
            if request_id not in done:
                calls += 1
                if await _finished_upstream(w, user_id, request_id):
                    done.add(request_id)
        if len(done) < total:
            await asyncio.sleep(interval)
    return calls


def first_part_at(telegram: FakeTelegram, chat_id: int, html: str) -> float | None:
    """When the message with this text reached the chat, accepted."""
    for call in telegram.calls_of("sendMessage"):
        same_chat = str(call.params.get("chat_id")) == str(chat_id)
        if call.ok and same_chat and call.params.get("text") == html:
            return call.at
    return None


def frontier_calls(jobs: Sequence[UpstreamJob], speed: float, interval: float) -> int:
    """The own-articles calls of a poller that knows when jobs can finish: first at the
    estimate, then every interval until each is done (its p95 is within the interval)."""
    calls = 0
    for job in jobs:
        estimate = job.order.size.seconds[0] / speed
        beyond = max(0.0, job.duration.total_seconds() - estimate)
        calls += 1 + math.ceil(beyond / interval)
    return calls


async def waiting_users(folder: Path, sizes: Sizes) -> list[Measure]:
    async with world(folder, speed=sizes.waiting_speed) as w:
        w.sandbox.state.around_estimate = AROUND_ESTIMATE
        watched: list[tuple[int, str]] = []
        articles: dict[int, UpstreamJob] = {}
        people = {FIRST_USER + n: await chat_user(w, FIRST_USER + n) for n in range(sizes.waiting)}
        async with bot_process(w, sizes.poll_interval):
            # Ordered once the bot runs: its start, slow on a busy machine, is not measured.
            before = w.own_articles_calls()
            naive = asyncio.create_task(naive_poller(w, watched, sizes.poll_interval, len(people)))
            started = time.monotonic()
            for n, (person, user_id) in enumerate(people.items()):
                await asyncio.sleep(max(0.0, started + n * sizes.waiting_apart - time.monotonic()))
                job = await order(w, user_id, person, f"Bekleyen {n}: yapay zekâ ile içerik")
                watched.append((user_id, job.request_id))
                articles[person] = upstream_job(w, user_id, job.request_id)
            expected = Counter({p: len(article_messages(j)) + 2 for p, j in articles.items()})
            with contextlib.suppress(AssertionError):
                await w.telegram.wait_for(
                    lambda: received(w.telegram, set(expected)) >= expected, sizes.timeout
                )
            naive_calls = await naive
        bot_calls = w.own_articles_calls() - before - naive_calls
        wall_to_monotonic = time.time() - time.monotonic()
        latencies = []
        for person, job in articles.items():
            at = first_part_at(w.telegram, person, to_html(article_messages(job)[0]))
            if at is not None:
                done = (job.created_at + job.duration).timestamp() - wall_to_monotonic
                latencies.append(at - done)
        delivered = sum(1 for p in expected if received(w.telegram, {p})[p] >= expected[p])
        frontier = frontier_calls(list(articles.values()), sizes.waiting_speed, sizes.poll_interval)
    latency = p95(latencies) if latencies else math.inf
    allowed = sizes.poll_interval + 1.0
    per_article = bot_calls / delivered if delivered else math.inf
    return [
        Measure(
            "waiting.p95",
            f"finished upstream -> first message, {sizes.waiting} users waiting: p95",
            latency,
            allowed,
            latency / allowed,
            "ratio <= 1 (poll interval + 1 s)",
            latency <= allowed,
            "s",
            f"{len(latencies)} of {sizes.waiting} arrived; poll interval {sizes.poll_interval:g} s",
        ),
        Measure(
            "waiting.calls",
            "  the same: own-articles calls per delivered article",
            bot_calls,
            delivered,
            per_article,
            "ratio <= 2.2",
            per_article <= 2.2,
            "calls",
        ),
        Measure(
            "waiting.frontier",
            "  the same: own-articles calls against the frontier",
            bot_calls,
            frontier,
            bot_calls / frontier if frontier else math.inf,
            "ratio <= 1.1",
            frontier > 0 and bot_calls / frontier <= 1.1,
            "calls",
            "a poller asking at the estimate, then every interval until done",
        ),
        Measure(
            "waiting.naive",
            "  the same: own-articles calls against a naive poller",
            bot_calls,
            naive_calls,
            bot_calls / naive_calls if naive_calls else math.inf,
            "ratio <= 1/3",
            naive_calls > 0 and bot_calls / naive_calls <= 1 / 3,
            "calls",
        ),
    ]


# Scenario: /bakiye against a bare python-telegram-bot bot


async def answer_time(telegram: FakeTelegram, person: int) -> float:
    """From the update to the bot's reply reaching the fake, in seconds."""
    start = len(telegram.calls)

    def reply_at() -> float | None:
        for call in telegram.calls[start:]:
            same_chat = str(call.params.get("chat_id")) == str(person)
            if call.method == "sendMessage" and call.ok and same_chat:
                return call.at
        return None

    asked = time.monotonic()
    telegram.user_says(person, "/bakiye")
    await telegram.wait_for(lambda: reply_at() is not None, 30)
    at = reply_at()
    assert at is not None
    return at - asked


def long_polling(telegram: FakeTelegram) -> bool:
    """Whether the bot is idle: it waits in a ``getUpdates``, with every other call answered."""
    recent = telegram.calls[-20:]
    waiting = any(c.method == "getUpdates" and c.response is None for c in recent)
    return waiting and all(c.response is not None for c in recent if c.method != "getUpdates")


def bare_bot(config_file: Path) -> None:
    """A minimal python-telegram-bot Application whose /bakiye asks the upstream's balance."""
    config = json.loads(config_file.read_text())
    http = httpx.AsyncClient(timeout=30)
    api = ArticleApi(http, base_url=config["upstream"])
    tokens: dict[int, str] = {}

    async def log_in(_: Application[Any, Any, Any, Any, Any, Any]) -> None:
        for person, email in config["accounts"].items():
            tokens[int(person)] = (await api.login(email, PASSWORD)).access_token

    async def bakiye(update: Update, _: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_user is not None
        assert update.effective_message is not None
        balance = await api.balance(tokens[update.effective_user.id])
        await update.effective_message.reply_text(f"Bakiyeniz: {balance} TL")

    application = (
        Application.builder()
        .token(config["token"])
        .base_url(f"{config['telegram']}/bot")
        .base_file_url(f"{config['telegram']}/file/bot")
        .post_init(log_in)
        .build()
    )
    application.add_handler(CommandHandler("bakiye", bakiye))
    application.run_polling()


async def bakiye(folder: Path, sizes: Sizes) -> list[Measure]:
    async with (
        world(folder, speed=1.0) as w,
        # The same limits and jitter as the bot's: each bot's work after a late reply then
        # falls into the other's measurements alike.
        FakeTelegram.running(token=BARE_TOKEN, limits=LIMITS) as bare_telegram,
    ):
        people = [FIRST_USER + n for n in range(sizes.bakiye)]
        for person in people:
            await chat_user(w, person)
            bare_telegram.open_chat(person)
        config = folder / "bare-bot.json"
        config.write_text(
            json.dumps(
                {
                    "token": BARE_TOKEN,
                    "telegram": bare_telegram.url,
                    "upstream": w.sandbox.url,
                    "accounts": {str(p): f"okur{p}@example.com" for p in people},
                }
            )
        )
        bare_command = ["bench.delivery", "bare-bot", str(config)]
        async with (
            bot_process(w, 60.0),
            child(bare_command, bench_env(), folder / "bare-bot.log", folder),
        ):
            await bare_telegram.wait_for(
                lambda: any(c.method == "getUpdates" for c in bare_telegram.calls), START_TIMEOUT
            )
            # A few answers each first: connections, caches and lazy imports warm, as in a
            # bot running for long.
            for person in people[:WARM_UP]:
                await answer_time(w.telegram, person)
                await answer_time(bare_telegram, person)
            ours, theirs = [], []
            for n, person in enumerate(people):
                # Each bot waits in its long poll before it is asked, and they take turns at
                # going first: neither is measured while the other finishes its last answer.
                pair = [(w.telegram, ours), (bare_telegram, theirs)]
                for telegram, times in pair if n % 2 else reversed(pair):
                    await telegram.wait_for(lambda t=telegram: long_polling(t), 30)
                    times.append(await answer_time(telegram, person))
    value, reference = p95(ours), p95(theirs)
    return [
        Measure(
            "bakiye.p95",
            "/bakiye p95 against a bare python-telegram-bot bot",
            value,
            reference,
            value / reference,
            "ratio <= 1.2",
            value / reference <= 1.2,
            "s",
            f"{len(people)} users, one after another",
        )
    ]


# Scenario: one person's actions a moment apart, while articles go out to other chats


async def actions(folder: Path, sizes: Sizes) -> list[Measure]:
    async with world(folder, speed=1.0) as w:
        person = FIRST_USER
        await chat_user(w, person)
        others = []
        for n in range(1, sizes.busy + 1):
            others.append((await chat_user(w, FIRST_USER + n), FIRST_USER + n))
        expected = await all_finished(w, others, "Meşgul", sizes.private_size)
        async with bot_process(w, sizes.poll_interval):
            # Delivery under way: the bot's pace is taken by the articles.
            await w.telegram.wait_for(lambda: bool(received(w.telegram, set(expected))), 60)
            times = []
            started = time.monotonic()
            for n in range(ACTIONS):
                await asyncio.sleep(max(0.0, started + n * ACTIONS_APART - time.monotonic()))
                times.append(await answer_time(w.telegram, person))
    slowest = max(times)
    return [
        Measure(
            "actions.slowest",
            f"one person's {ACTIONS} /bakiye {ACTIONS_APART:g} s apart, "
            f"{sizes.busy} chats receiving: slowest answer",
            slowest,
            ANSWER_GOAL,
            slowest / ANSWER_GOAL,
            f"ratio <= 1 ({ANSWER_GOAL:g} s)",
            slowest <= ANSWER_GOAL,
            "s",
            ", ".join(f"{t:.2f}" for t in times) + " s",
        )
    ]


# Scenario: one poll round in a large database


def delivered_rows(user_ids: Sequence[int], count: int) -> list[dict[str, Any]]:
    """Jobs delivered long ago, spread over the users, each with a short stored article."""
    long_ago = datetime.now(UTC) - timedelta(days=30)
    content = "Teslim edilmiş bir makalenin kısa metni. " * 12
    return [
        {
            "request_id": f"teslim-{n}",
            "chat_user_id": user_ids[n % len(user_ids)],
            "platform": "telegram",
            "chat_id": str(FIRST_USER + n % len(user_ids)),
            "title": f"Teslim edilmiş makale {n}",
            "tone": TONE,
            "size": SHORT,
            "cost": Decimal(15),
            "status": JobStatus.DELIVERED,
            "progress": 100,
            "next_poll_at": long_ago,
            "failures": 0,
            "content": content,
            "parts_sent": 1,
            "file_sent": True,
            "created_at": long_ago,
            "finished_at": long_ago,
            "delivered_at": long_ago,
        }
        for n in range(count)
    ]


def add_delivered(database_url: str, user_ids: Sequence[int], count: int) -> None:
    db = Database.connect(database_url)
    try:
        rows = delivered_rows(user_ids, count)
        for start in range(0, len(rows), 10_000):
            chunk = rows[start : start + 10_000]
            db.run_sync(lambda s, chunk=chunk: s.connection().execute(insert(Job), chunk))
    finally:
        db.dispose()


async def one_round() -> None:
    """Run one poll round on the database the environment names; print its time and RSS."""
    settings = load_settings(_env_file=None)
    async with running_bot(settings) as bot:
        bot.messengers["telegram"] = NullMessenger()
        started = time.perf_counter()
        await bot.delivery.poll_once()
        seconds = time.perf_counter() - started
    print(json.dumps({"seconds": seconds, "rss_mb": peak_rss_mb()}))


def peak_rss_mb() -> float:
    """This program's peak resident memory in MB.

    Linux's ``ru_maxrss`` keeps the parent's peak across fork and exec, so a child of a big
    benchmark process would report the benchmark's memory; ``VmHWM`` is the program's own.
    """
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def measured_round(w: World, database: Path, run: Path) -> dict[str, float]:
    shutil.copyfile(database, run)
    env = {
        **bench_env(),
        "ARTICLE_API_URL": w.sandbox.url,
        "DATABASE_URL": f"sqlite:///{run}",
        "TOKEN_ENCRYPTION_KEY": w.key,
        "LOG_LEVEL": "WARNING",
    }
    log = run.with_suffix(".log")
    async with child(["bench.delivery", "poll-round"], env, log, w.folder) as process:
        code = await process.wait()
    if code != 0:
        raise RuntimeError(f"the poll round failed ({code})")
    # The round prints its figures last, on a line of their own.
    printed = [line for line in log.read_text().splitlines() if line.startswith("{")]
    result: dict[str, float] = json.loads(printed[-1])
    return result


async def poll_round(folder: Path, sizes: Sizes) -> list[Measure]:
    async with world(folder, speed=1.0) as w:
        per_user = 10
        people = math.ceil(sizes.pending / per_user)
        user_ids = [await chat_user(w, FIRST_USER + n) for n in range(people)]
        for n in range(sizes.pending):
            index = n % len(user_ids)
            await order(w, user_ids[index], FIRST_USER + index, f"Yazılıyor {n}: içerik")
        due = system_clock()
        await w.db.run(lambda s: _make_due(s, due))
        w.db.dispose()  # everything in the main file before it is copied
        seeded = folder / "bot.db"
        results: dict[str, list[dict[str, float]]] = {}
        for label, total in (("small", sizes.baseline), ("large", sizes.delivered)):
            database = folder / f"{label}.db"
            shutil.copyfile(seeded, database)
            add_delivered(f"sqlite:///{database}", user_ids, total - sizes.pending)
            results[label] = [
                await measured_round(w, database, folder / "run.db") for _ in range(sizes.repeats)
            ]
    seconds = {k: statistics.median(r["seconds"] for r in v) for k, v in results.items()}
    rss = {k: max(r["rss_mb"] for r in v) for k, v in results.items()}
    return [
        Measure(
            "round.time",
            f"one poll round, {sizes.delivered:,} jobs against {sizes.baseline:,} "
            f"({sizes.pending} pending): time",
            seconds["large"],
            seconds["small"],
            seconds["large"] / seconds["small"],
            "ratio <= 1.2",
            seconds["large"] / seconds["small"] <= 1.2,
            "s",
            f"median of {sizes.repeats}",
        ),
        Measure(
            "round.rss",
            "  the same: resident memory (peak)",
            rss["large"],
            rss["small"],
            rss["large"] / rss["small"],
            "value < 200 MB",
            rss["large"] < 200,
            "MB",
        ),
    ]


# The run


async def replicas(folder: Path, sizes: Sizes) -> list[Measure]:
    """Three webhook replicas on PostgreSQL (``bench/replicas.py``, which imports this one)."""
    from bench.replicas import replicas as on_postgresql

    return await on_postgresql(folder, sizes)


SCENARIOS: dict[str, Callable[[Path, Sizes], Any]] = {
    "private": private_burst,
    "group": group_pace,
    "waiting": waiting_users,
    "bakiye": bakiye,
    "actions": actions,
    "round": poll_round,
    "replicas": replicas,
}


def show(measures: Sequence[Measure]) -> str:
    lines = [f"{'measure':<72} {'value':>10} {'reference':>10} {'ratio':>7}  goal"]
    for m in measures:
        mark = "met" if m.met else "MISSED"
        lines.append(
            f"{m.name:<72} {m.value:>10.3f} {m.reference:>10.3f} {m.ratio:>7.3f}  "
            f"{m.goal} {mark}" + (f"  ({m.note})" if m.note else "")
        )
    return "\n".join(lines)


async def run(sizes: Sizes, only: Sequence[str], *, together: bool) -> list[Measure]:
    """The scenarios one after another, or (``together``, for the smoke run, whose figures
    mean nothing) all at once, each in its own world."""

    async def one(name: str, folder: Path) -> list[Measure]:
        started = time.perf_counter()
        measured: list[Measure] = await SCENARIOS[name](folder / name, sizes)
        print(f"[{name}: {time.perf_counter() - started:.1f} s]", file=sys.stderr)
        return measured

    _FORKED.set(together)
    with tempfile.TemporaryDirectory(prefix="delivery-bench-") as folder:
        if together:
            found = await asyncio.gather(*(one(name, Path(folder)) for name in only))
            return [measure for measures in found for measure in measures]
        measures: list[Measure] = []
        for name in only:
            measures += await one(name, Path(folder))
    return measures


def main(argv: Sequence[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["poll-round"]:
        asyncio.run(one_round())
        return
    if argv[:1] == ["bare-bot"]:
        bare_bot(Path(argv[1]))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="every scenario, tiny sizes")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results.json")
    parser.add_argument("--only", nargs="+", choices=list(SCENARIOS), default=list(SCENARIOS))
    defaults = Sizes()
    for name, value in asdict(defaults).items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=type(value))
    options = parser.parse_args(argv)
    base = SMOKE if options.smoke else defaults
    chosen = {k: getattr(options, k) for k in asdict(base) if getattr(options, k) is not None}
    sizes = Sizes(**{**asdict(base), **chosen})
    # The machine may be shared: its load, at the start and at the end, says how much.
    load = {"start": list(os.getloadavg())}
    if options.smoke:
        forked.start_server()
    measures = asyncio.run(run(sizes, options.only, together=options.smoke))
    load["end"] = list(os.getloadavg())
    print(show(measures))
    report = {
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": {
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
            "python": platform.python_version(),
            "load_average": load,
        },
        "command": " ".join(["python -m bench.delivery", *(argv or [])]),
        "sizes": asdict(sizes),
        "measures": [asdict(m) for m in measures],
    }
    options.out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
