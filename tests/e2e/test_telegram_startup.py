"""A start that survives the platform: a Bot API failing a nice-to-have call never stops the bot.

Telegram answers 5xx and 429 now and then; an emulator may not know a method at all. The
command menu is nice to have: the bot starts, serves, and sets the menu once it passes.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.config import load_settings
from bot.sandbox import running_sandbox
from storage import generate_key
from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.telegram_rig import ALICE, TOKEN, Rig
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
