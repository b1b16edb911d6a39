"""A Slack start without Slack: the bot token's check waits and is tried again, one line a
try, and a stop meanwhile ends the process quietly, without a traceback."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from storage import generate_key
from tests.e2e.bot_process import bot_subprocess, fresh_env
from tests.ports import free_port

UNREACHABLE = "auth.test to Slack at 127.0.0.1:"


async def test_a_slack_start_without_slack_waits_in_one_line_a_try_and_stops_quietly(
    tmp_path: Path,
) -> None:
    env = fresh_env() | {
        "SLACK_BOT_TOKEN": "xoxb-1-2-startuptest",
        "SLACK_SIGNING_SECRET": "0123456789abcdef",
        "SLACK_API_URL": f"http://127.0.0.1:{free_port()}/api/",
        "ARTICLE_API_URL": "http://127.0.0.1:9",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'bot.db'}",
        "TOKEN_ENCRYPTION_KEY": generate_key(),
        "PORT": str(free_port()),
    }
    process = await bot_subprocess("slack", env, tmp_path, asyncio.subprocess.PIPE)
    assert process.stdout is not None
    try:
        first = (await asyncio.wait_for(process.stdout.readline(), 60)).decode()
        assert UNREACHABLE in first, first
        assert "trying again in" in first
        process.send_signal(signal.SIGTERM)
        rest = (await asyncio.wait_for(process.stdout.read(), 60)).decode()
        assert await process.wait() == 0, rest
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert "Traceback" not in rest, rest
    assert "xoxb-1-2-startuptest" not in first + rest
