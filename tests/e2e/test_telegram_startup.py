"""A start that survives the platform: a Bot API failing a nice-to-have call never stops the bot.

Telegram answers 5xx and 429 now and then; an emulator may not know a method at all. The
command menu is nice to have: the bot starts, serves, and sets the menu once it passes.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from pathlib import Path

import httpx
import pytest

from bot.config import load_settings
from bot.sandbox import running_sandbox
from bot.web import serving_http
from storage import generate_key
from tests.e2e.bot_process import TelegramGate, bot_subprocess, fresh_env
from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.telegram_rig import ALICE, TOKEN, Rig
from tests.fakes import wait_until
from tests.ports import free_port

# Longer than the bot's first waits before it tries the menu again (1 s, then 2 s).
MENU_TIMEOUT = 20.0


@pytest.mark.parametrize("status", [500, 502])
async def test_the_bot_starts_and_serves_through_a_failing_set_my_commands(
    tmp_path: Path, status: int, caplog: pytest.LogCaptureFixture
) -> None:
    async with (
        FakeTelegram.running(token=TOKEN) as telegram,
        running_sandbox(speed=60.0) as sandbox,
    ):
        # The first try and the first retry fail; the second retry passes.
        telegram.fail_next("setMyCommands", status=status, retry_after=None, count=2)
        settings = load_settings(
            _env_file=None,
            article_api_url=sandbox.url,
            database_url=f"sqlite:///{tmp_path / 'bot.db'}",
            token_encryption_key=generate_key(),
            telegram_bot_token=TOKEN,
            telegram_api_url=telegram.url,
            poll_interval_seconds=0.2,
            port=free_port(),
        )
        rig = Rig(telegram, sandbox, settings)
        with caplog.at_level(logging.WARNING):
            await rig.start()
            try:
                await rig.says(ALICE, "/start", "giriş yapmadınız")
                await telegram.wait_for(
                    lambda: bool(telegram.commands(language_code="en")), MENU_TIMEOUT
                )
            finally:
                await rig.stop()
    assert "bakiye" in [command["command"] for command in telegram.commands()]
    failed = [r for r in caplog.records if "setMyCommands" in r.getMessage()]
    assert failed, "each failure is told"
    assert all(r.levelno == logging.WARNING for r in failed)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


UNREACHABLE = "getMe to the Telegram Bot API at 127.0.0.1:"


async def test_a_start_without_the_bot_api_waits_in_one_line_a_try_and_polls_once_it_answers(
    tmp_path: Path,
) -> None:
    log = tmp_path / "bot.log"
    async with (
        FakeTelegram.running(token=TOKEN) as telegram,
        running_sandbox(speed=60.0) as sandbox,
        httpx.AsyncClient(timeout=30.0) as http,
    ):
        # The gate's port is not served yet: the Bot API cannot be reached.
        gate = TelegramGate(telegram, http)
        env = fresh_env() | {
            "TELEGRAM_BOT_TOKEN": TOKEN,
            "TELEGRAM_API_URL": gate.url,
            "ARTICLE_API_URL": sandbox.url,
            "DATABASE_URL": f"sqlite:///{tmp_path / 'bot.db'}",
            "TOKEN_ENCRYPTION_KEY": generate_key(),
        }
        with log.open("w") as out:
            process = await bot_subprocess("telegram", env, tmp_path, out)
        try:
            # Tried at once, then after 1 s and 2 s.
            await wait_until(lambda: log.read_text().count(UNREACHABLE) >= 2, 60)
            async with serving_http(gate.app(), port=gate.port, host="127.0.0.1"):
                await wait_until(lambda: "getupdates" in gate.methods, 60)
                process.send_signal(signal.SIGTERM)
                assert await asyncio.wait_for(process.wait(), 60) == 0
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    lines = log.read_text().splitlines()
    told = [line for line in lines if UNREACHABLE in line]
    assert len(told) >= 2, lines
    assert all("trying again in" in line for line in told)
    assert TOKEN not in log.read_text()
    assert not [line for line in lines if "Traceback" in line or "ERROR" in line], lines


async def test_a_stop_while_the_bot_api_cannot_be_reached_ends_the_start_quietly(
    tmp_path: Path,
) -> None:
    env = fresh_env() | {
        "TELEGRAM_BOT_TOKEN": TOKEN,
        "TELEGRAM_API_URL": f"http://127.0.0.1:{free_port()}",
        "ARTICLE_API_URL": "http://127.0.0.1:9",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'bot.db'}",
        "TOKEN_ENCRYPTION_KEY": generate_key(),
    }
    process = await bot_subprocess("telegram", env, tmp_path, asyncio.subprocess.PIPE)
    assert process.stdout is not None
    first = await asyncio.wait_for(process.stdout.readline(), 60)
    assert UNREACHABLE in first.decode(), first
    process.send_signal(signal.SIGTERM)
    rest = await asyncio.wait_for(process.stdout.read(), 60)
    assert await process.wait() == 0
    assert b"Traceback" not in rest, rest
