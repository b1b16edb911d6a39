"""The calendar's runs through kills and replicas: real ``python -m bot telegram`` processes on
one database, with plans written straight into it a few seconds ahead, counted from what the
sandbox charged and the fake Bot API received."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import httpx
import pytest
from sqlmodel import Session

from bot.api import ArticleApi
from bot.core.accounts import Accounts
from bot.core.clock import system_clock
from bot.sandbox import DEMO_EMAIL, DEMO_PASSWORD, RunningSandbox, running_sandbox
from storage import Database, TokenCipher, generate_key, plans, users
from storage.models import Plan, PlanStatus, Schedule
from tests.e2e.bot_process import BotProcess, bot_processes
from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.telegram_rig import TOKEN
from tests.fakes import wait_until

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

FIRST_CHAT = 6001
POLL_INTERVAL = 0.5
# A run's claim lasts 30 s: a dead claimer's run is taken over after it.
TAKEOVER = 30 + 15


@dataclass(frozen=True, slots=True)
class Stage:
    """The fake Bot API, the sandbox, the bots and their key, for one test."""

    telegram: FakeTelegram
    sandbox: RunningSandbox
    bots: tuple[BotProcess, ...]
    key: str


@asynccontextmanager
async def staged(count: int, database_url: str, tmp_path: Path) -> AsyncIterator[Stage]:
    """``count`` bot processes on one database, started, against a fake Bot API and a sandbox."""
    key = generate_key()
    async with (
        FakeTelegram.running(token=TOKEN) as telegram,
        running_sandbox(speed=60.0) as sandbox,
        bot_processes(
            count,
            telegram=telegram,
            sandbox=sandbox,
            database_url=database_url,
            key=key,
            workdir=tmp_path,
            poll_interval=POLL_INTERVAL,
            lease_seconds=2.0,
        ) as bots,
    ):
        for bot in bots:
            await bot.start()
        yield Stage(telegram, sandbox, tuple(bots), key)


async def plan_for(
    db: Database,
    key: str,
    sandbox: RunningSandbox,
    telegram: FakeTelegram,
    chat_id: int,
    at: datetime,
) -> int:
    """A logged-in Telegram user with a one-time plan of one short title at ``at``; its id."""
    telegram.user_says(chat_id, "/start")
    user = await db.run(
        lambda s: users.get_or_create_user(
            s, platform="telegram", workspace="", external_id=str(chat_id)
        )
    )
    assert user.id is not None
    user_id = user.id
    async with httpx.AsyncClient(timeout=10.0) as http:
        api = ArticleApi(http, base_url=sandbox.url)
        accounts = Accounts(db=db, api=api, cipher=TokenCipher(key), clock=system_clock)
        await accounts.login(user_id, DEMO_EMAIL, DEMO_PASSWORD)
    plan = Plan(
        chat_user_id=user_id,
        status=PlanStatus.ACTIVE,
        schedule=Schedule.at(at, ZoneInfo("UTC")),
        titles=[f"Takvim denemesi {chat_id}"],
        tone=1,
        size=1,
        platform="telegram",
        chat_id=str(chat_id),
        next_run_at=at,
    )

    def add(session: Session) -> int:
        stored = plans.start_plan(session, plan=plan)
        assert stored.id is not None
        return stored.id

    return await db.run(add)


def articles_in(telegram: FakeTelegram, chats: Iterable[int]) -> dict[int, int]:
    """How many article files each chat got (the Markdown file, one per article)."""
    return {
        chat: sum(
            1
            for m in telegram.chat(chat)
            if m.from_bot and m.document and m.document.file_name.endswith(".md")
        )
        for chat in chats
    }


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_bot_killed_before_the_time_and_started_after_it_orders_once(
    database: Database, database_url: str, tmp_path: Path
) -> None:
    async with staged(1, database_url, tmp_path) as stage:
        telegram, sandbox, key = stage.telegram, stage.sandbox, stage.key
        (bot,) = stage.bots
        at = system_clock() + timedelta(seconds=8)
        plan_id = await plan_for(database, key, sandbox, telegram, FIRST_CHAT, at)
        await bot.kill()
        assert sandbox.state.create_count == 0, "killed before its time"
        await wait_until(lambda: system_clock() > at + timedelta(seconds=2), 30)
        await bot.start()
        await wait_until(lambda: articles_in(telegram, [FIRST_CHAT])[FIRST_CHAT] == 1, 60)
        assert plan_done_now(database, plan_id)
        await bot.stop()
    assert sandbox.state.create_count == 1, "\n".join(bot.complaints())


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_kill_after_the_service_took_a_runs_order_charges_once(
    database: Database, database_url: str, tmp_path: Path
) -> None:
    async with staged(1, database_url, tmp_path) as stage:
        telegram, sandbox, key = stage.telegram, stage.sandbox, stage.key
        (bot,) = stage.bots
        # The service takes the order at once but holds its answer: no job row is written.
        sandbox.state.faults.order_latency = 120.0
        at = system_clock() + timedelta(seconds=2)
        plan_id = await plan_for(database, key, sandbox, telegram, FIRST_CHAT, at)
        await wait_until(lambda: sandbox.state.create_count == 1, 30)
        await bot.kill()
        sandbox.state.faults.order_latency = 0.0
        await bot.start()
        await wait_until(
            lambda: articles_in(telegram, [FIRST_CHAT])[FIRST_CHAT] == 1, TAKEOVER + 60
        )
        await wait_until(lambda: plan_done_now(database, plan_id), TAKEOVER + 30)
        await bot.stop()
    assert sandbox.state.create_count == 1, "\n".join(bot.complaints())
    assert articles_in(telegram, [FIRST_CHAT])[FIRST_CHAT] == 1


def plan_done_now(database: Database, plan_id: int) -> bool:
    plan = database.run_sync(lambda s: plans.get_plan(s, plan_id=plan_id))
    return plan is not None and plan.status is PlanStatus.DONE


@pytest.mark.parametrize(
    "database_url", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)
async def test_two_replicas_on_postgresql_order_each_run_once(
    database: Database, database_url: str, tmp_path: Path
) -> None:
    chats = range(FIRST_CHAT, FIRST_CHAT + 6)
    async with staged(2, database_url, tmp_path) as stage:
        telegram, sandbox, key = stage.telegram, stage.sandbox, stage.key
        replicas = stage.bots
        at = system_clock() + timedelta(seconds=6)
        for chat in chats:
            await plan_for(database, key, sandbox, telegram, chat, at)
        await wait_until(lambda: set(articles_in(telegram, chats).values()) == {1}, 90)
        for replica in replicas:
            await replica.stop()
    assert sandbox.state.create_count == len(chats)
    assert set(articles_in(telegram, chats).values()) == {1}
