"""The delivery benchmark's replica scenario: three webhook replicas on PostgreSQL.

Three ``python -m bot telegram`` processes share one PostgreSQL schema and the fake Bot API
(Telegram's limits at their strictest, with jitter). Every person's chat is receiving a
finished article (sent by whichever replica delivers) while the person acts, and each of
their updates goes to the next replica in turn, as a load balancer hands them out: the
chat's answers and its article come from different processes, and must share its pace.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit

import httpx

from bench.delivery import (
    _MIGRATING,
    ACTIONS,
    ACTIONS_APART,
    FIRST_USER,
    LIMITS,
    START_TIMEOUT,
    TOKEN,
    Delivered,
    Measure,
    Sizes,
    World,
    all_finished,
    bench_env,
    chat_user,
    child,
    p95,
    received,
)
from bot.api import ArticleApi
from bot.core.accounts import Accounts
from bot.core.clock import system_clock
from bot.sandbox import running_sandbox
from storage import Database, TokenCipher, generate_key
from tests.e2e.fake_telegram import FakeTelegram
from tests.ports import free_port

__all__ = ["replicas"]

# The PostgreSQL server of the scenario, unless BENCH_DATABASE_URL names another (a schema
# of its own is made in it, and dropped after).
LOCAL_SERVER = "postgresql://postgres@127.0.0.1:5432/test"
REPLICAS = 3
WEBHOOK_URL = "https://bot.example.test/telegram/hook"
WEBHOOK_SECRET = "bench-replicas-secret"  # noqa: S105  (the fake's, not a secret)
# A person's answer is due within this long, however busy the replicas are.
ANSWER_GOAL = 3.0
# One person starts acting this long after the one before.
PEOPLE_APART = 0.25


@dataclass
class SharedWorld(World):
    """A world whose database is a PostgreSQL schema, for processes on several hosts."""

    url: str = ""

    @property
    def database_url(self) -> str:
        return self.url


@contextlib.asynccontextmanager
async def _schema() -> AsyncIterator[str]:
    """A fresh schema on the server, first on the search path of the URL; dropped after."""
    import psycopg
    from psycopg import sql

    server = os.environ.get("BENCH_DATABASE_URL", LOCAL_SERVER)
    name = f"bench_{secrets.token_hex(6)}"
    schema = sql.Identifier(name)
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(sql.SQL("CREATE SCHEMA {}").format(schema))
    try:
        yield f"{server}?options=-csearch_path%3D{name}"
    finally:
        with psycopg.connect(server, autocommit=True) as connection:
            connection.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(schema))


@contextlib.asynccontextmanager
async def shared_world(folder: Path) -> AsyncIterator[SharedWorld]:
    """The fake Telegram, the sandbox and a migrated PostgreSQL schema."""
    await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
    async with (
        FakeTelegram.running(token=TOKEN, limits=LIMITS) as telegram,
        running_sandbox(speed=1.0) as sandbox,
        httpx.AsyncClient(timeout=30) as http,
        _schema() as url,
    ):
        key = generate_key()
        db = Database.connect(url)
        try:
            # Alembic keeps its context in module globals: one migration at a time.
            async with _MIGRATING:
                await asyncio.to_thread(db.migrate)
            api = ArticleApi(http, base_url=sandbox.url)
            accounts = Accounts(db=db, api=api, cipher=TokenCipher(key), clock=system_clock)
            yield SharedWorld(folder, telegram, sandbox, db, api, accounts, key, url=url)
        finally:
            db.dispose()


@contextlib.asynccontextmanager
async def webhook_replicas(w: SharedWorld, poll_interval: float) -> AsyncIterator[list[str]]:
    """Three webhook processes on the world's database; the URL of each one's webhook."""
    hooks = []
    async with AsyncExitStack() as stack:
        for n in range(REPLICAS):
            port = free_port()
            env = {
                **bench_env(),
                "TELEGRAM_BOT_TOKEN": TOKEN,
                "TELEGRAM_API_URL": w.telegram.url,
                "TELEGRAM_WEBHOOK_URL": WEBHOOK_URL,
                "TELEGRAM_WEBHOOK_SECRET": WEBHOOK_SECRET,
                "ARTICLE_API_URL": w.sandbox.url,
                "DATABASE_URL": w.database_url,
                "TOKEN_ENCRYPTION_KEY": w.key,
                "POLL_INTERVAL_SECONDS": str(poll_interval),
                "PORT": str(port),
                "LOG_LEVEL": "WARNING",
            }
            log = w.folder / f"replica-{n + 1}.log"
            await stack.enter_async_context(child(["bot", "telegram"], env, log, w.folder))
            hooks.append(f"http://127.0.0.1:{port}{urlsplit(WEBHOOK_URL).path}")
        await w.telegram.wait_for(
            lambda: len(w.telegram.calls_of("setWebhook")) >= REPLICAS, START_TIMEOUT
        )
        yield hooks


async def _acts(
    w: SharedWorld, http: httpx.AsyncClient, hooks: list[str], person: int, first: int
) -> list[float]:
    """The person's ``/bakiye`` a moment apart, each to the next replica: each answer's time.

    The ``first``-th person starts ``PEOPLE_APART`` after the one before: people come one
    after another, not all in the same instant (96 answers at once are more than Telegram's
    30 a second could carry within the goal, whoever paced them)."""
    await asyncio.sleep(first * PEOPLE_APART)
    times = []
    started = time.monotonic()
    for n in range(ACTIONS):
        await asyncio.sleep(max(0.0, started + n * ACTIONS_APART - time.monotonic()))
        calls = len(w.telegram.calls)
        update = w.telegram.webhook_update(w.telegram.user_says(person, "/bakiye"))
        asked = time.monotonic()
        headers = {"X-Telegram-Bot-Api-Secret-Token": WEBHOOK_SECRET}
        await http.post(hooks[(first + n) % len(hooks)], json=update, headers=headers)

        def answered(since: int = calls) -> float | None:
            for call in w.telegram.calls[since:]:
                same_chat = str(call.params.get("chat_id")) == str(person)
                text = str(call.params.get("text", ""))
                if call.method == "sendMessage" and call.ok and same_chat and "Bakiye" in text:
                    return call.at
            return None

        with contextlib.suppress(AssertionError):
            await w.telegram.wait_for(lambda: answered() is not None, 30)
        at = answered()
        times.append(at - asked if at is not None else 30.0)
    return times


def _answers(telegram: FakeTelegram) -> Counter[int]:
    """The balance answers each chat received."""
    return Counter(
        int(call.params["chat_id"])
        for call in telegram.calls_of("sendMessage")
        if call.ok and "Bakiye" in str(call.params.get("text", ""))
    )


def _sent_twice(telegram: FakeTelegram) -> int:
    """Article messages a chat received more than once (the same text again)."""
    seen = Counter(
        (str(call.params.get("chat_id")), str(call.params.get("text")))
        for call in telegram.calls_of("sendMessage")
        if call.ok and "Bakiye" not in str(call.params.get("text", ""))
    )
    return sum(n - 1 for n in seen.values() if n > 1)


async def replicas(folder: Path, sizes: Sizes) -> list[Measure]:
    """People acting in chats that are receiving articles, their updates spread over three
    webhook replicas on PostgreSQL."""
    async with shared_world(folder) as w:
        people = [FIRST_USER + n for n in range(sizes.replica_people)]
        orders = [(await chat_user(w, person), person) for person in people]
        expected = await all_finished(w, orders, "Kopya", sizes.private_size)
        async with webhook_replicas(w, sizes.poll_interval) as hooks, httpx.AsyncClient() as http:
            await w.telegram.wait_for(lambda: bool(received(w.telegram, set(expected))), 60)
            acted = await asyncio.gather(
                *(_acts(w, http, hooks, person, n) for n, person in enumerate(people))
            )

            def articles() -> Counter[int]:
                return received(w.telegram, set(expected)) - _answers(w.telegram)

            with contextlib.suppress(AssertionError):
                await w.telegram.wait_for(lambda: articles() >= expected, sizes.timeout)
        got = Delivered(
            expected, articles(), list(w.telegram.sent), sum(w.telegram.refused.values())
        )
        twice = _sent_twice(w.telegram)
    times = [t for person in acted for t in person]
    slowest = max(times)
    lost = got.lost_measure("replicas.lost")
    return [
        Measure(
            "replicas.slowest",
            f"{REPLICAS} webhook replicas on PostgreSQL, {len(people)} people acting "
            "while their articles arrive: slowest answer",
            slowest,
            ANSWER_GOAL,
            slowest / ANSWER_GOAL,
            f"ratio <= 1 ({ANSWER_GOAL:g} s)",
            slowest <= ANSWER_GOAL,
            "s",
            f"p95 {p95(times):.2f} s of {len(times)} answers",
        ),
        got.refused_measure("replicas.refused"),
        # A message sent twice is as much a failure as one lost.
        replace(
            lost,
            name="  the same: article messages lost or sent twice",
            value=lost.value + twice,
            ratio=(lost.value + twice) / max(1.0, lost.reference),
            met=lost.met and twice == 0,
            note=f"{lost.value:g} lost, {twice} twice",
        ),
    ]
