"""A clean stop (SIGTERM) in the middle of a poll round, with a real bot process: no ERROR in
its log, and no lease left behind for the next start to wait out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqlalchemy import update
from sqlmodel import col, select

from bot.core.clock import system_clock
from bot.sandbox import running_sandbox
from storage import Database, Job, generate_key
from tests.e2e.bot_process import CHAT_CHANGES, bot_processes, order_one_article_per_chat
from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.telegram_rig import TOKEN
from tests.fakes import wait_until

FIRST_CHAT = 6101
CHATS = 3
TIMEOUT = 30.0


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_sigterm_mid_round_logs_no_error_and_leaves_no_lease(
    database: Database, database_url: str, tmp_path: Path
) -> None:
    key = generate_key()
    async with (
        FakeTelegram.running(token=TOKEN) as telegram,
        # At speed 1 a short article takes a minute or more: still being written in the round.
        running_sandbox(speed=1.0) as sandbox,
    ):
        chats = range(FIRST_CHAT, FIRST_CHAT + CHATS)
        await order_one_article_per_chat(
            db=database, sandbox=sandbox, telegram=telegram, key=key, chats=chats
        )
        async with bot_processes(
            1,
            telegram=telegram,
            sandbox=sandbox,
            database_url=database_url,
            key=key,
            workdir=tmp_path,
            poll_interval=0.5,
            # Long, so that a lease left behind is still there when the test looks.
            lease_seconds=60.0,
        ) as (bot,):
            await bot.start()
            # Each /start is answered before the round's messages are held.
            await wait_until(lambda: all(telegram.chat(chat) for chat in chats), TIMEOUT)
            bot.gate.hold(CHAT_CHANGES)

            async def each_round_held_at_the_gate() -> bool:
                # The round posts each job's progress line: it waits at the gate, mid-round.
                if len(bot.gate.held) == CHATS:
                    return True
                # A round under way writes its own next poll over ours: due again until held.
                now = system_clock()
                await database.run(lambda s: s.exec(update(Job).values(next_poll_at=now)))
                return False

            await wait_until(each_round_held_at_the_gate, TIMEOUT, interval=0.2)
            await bot.stop()
            log = bot.log.read_text(errors="replace")
        leases = await database.run(
            lambda s: s.exec(select(Job.id).where(col(Job.lease_owner).is_not(None))).all()
        )
    assert not re.search(r"\bERROR\b|Traceback|CancelledError", log), log[-3000:]
    assert leases == []
