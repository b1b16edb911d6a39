"""Delivery through crashes and replicas: real bot processes, killed with SIGKILL, on one
database, counted from what the fake Bot API received.

A kill lands while the process waits on a send that has not reached Telegram, after every
send Telegram answered has come back: a kill between Telegram's answer and the bot's record
of it would resend that message under any engine, since the Bot API has no idempotency key.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path

import httpx
import pytest
from sqlmodel import select

from bot.sandbox import running_sandbox
from bot.web import serving_http
from storage import Database, Job, generate_key
from tests.e2e.bot_process import (
    CHAT_CHANGES,
    BotProcess,
    Delivered,
    Order,
    TelegramGate,
    bot_processes,
    deliveries,
    order_one_article_per_chat,
)
from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.telegram_rig import TOKEN
from tests.fakes import wait_until

# Real processes at Telegram's pace take up to a minute or two each: more than the suite's
# usual timeout, and on one worker so that two of them never share the machine's two cores.
# The main suite runs one of each kind, small; the slow tier (`-m slow`) the deep variants.
pytestmark = [pytest.mark.timeout(300), pytest.mark.xdist_group("delivery_chaos")]

# Private chats of the people the articles are ordered for; one article each.
FIRST_CHAT = 5001
# The crash test kills its process once (three times in the slow tier), each time amid a
# wave of this many orders.
WAVE = 4
POLL_INTERVAL = 0.5
# Time for a restarted or surviving process to be seen doing something, on a busy machine.
MARGIN = 3.0
# With many articles, their progress lines and the slowed send all waiting their turn under
# the bot's limit, a survivor takes seconds more to reach the dead one's chats; this test
# is about every article arriving exactly once, the crash test about the lease's bound.
REPLICA_MARGIN = 15.0
# Long enough for every article to be written upstream and delivered at Telegram's pace
# (30 messages a second for a bot), kills aside.
DELIVERY_TIMEOUT = 90.0
# Counting what Telegram received takes a while with hundreds of messages, in the loop that
# also serves the fake Telegram and the gates: a few times a second leaves them time to answer.
CHECK_INTERVAL = 0.25


def all_whole(telegram: FakeTelegram, orders: Sequence[Order]) -> bool:
    """Whether every article arrived whole."""
    return all(delivered.whole for delivered in deliveries(telegram, orders))


def received_twice(telegram: FakeTelegram, orders: Sequence[Order]) -> list[Order]:
    """The articles with a paragraph or the file received more than once."""
    return [delivered.order for delivered in deliveries(telegram, orders) if delivered.twice]


def resumed(telegram: FakeTelegram, orders: Sequence[Order], since: float) -> bool:
    """Whether each article's chat got a message or a file since ``since``: delivery went on.

    Only that is bound to the lease: the rest of an article then takes what the chat's pace
    allows (about one message a second).
    """
    chats = {str(order.chat_id) for order in orders}
    sent = {
        str(call.params.get("chat_id"))
        for call in telegram.calls
        if call.at >= since and call.ok and call.method in {"sendMessage", "sendDocument"}
    }
    return chats <= sent


async def unrecorded(
    db: Database, delivered: Sequence[Delivered], process: BotProcess
) -> list[str]:
    """The chats of the articles the process has in hand where Telegram accepted more parts and
    files than the process has recorded.

    Only those: the other replicas go on sending meanwhile, and on a busy machine one of their
    messages is nearly always between Telegram's answer and its record.
    """
    rows = await db.run(
        lambda s: s.exec(select(Job.chat_id, Job.parts_sent, Job.lease_owner)).all()
    )
    recorded = {chat: parts for chat, parts, owner in rows if process.holds(owner)}
    return [
        chat
        for chat, accepted in (
            # Parts and files are counted together.
            (str(d.order.chat_id), d.messages + d.files + d.pages)
            for d in delivered
        )
        if chat in recorded and accepted > recorded[chat]
    ]


async def kill_mid_article(
    victim: BotProcess, telegram: FakeTelegram, orders: Sequence[Order], db: Database
) -> list[Order]:
    """Kill the victim once a file waits at its gate (which holds files), and return the
    articles it had begun: text in the chat, file not."""
    gate = victim.gate
    await wait_until(lambda: bool(gate.held), DELIVERY_TIMEOUT)
    gate.hold(CHAT_CHANGES)
    begun: set[str] = set()
    missing: list[str] = []

    async def quiet() -> bool:
        """Nothing is on its way, some article is begun, and whatever Telegram accepted of the
        victim's articles is recorded: a kill between an answer and its record would resend
        that message under any engine. The articles begun then wait at the gate (or in the
        pacer) for their next message."""
        # With every send held, none reaches Telegram from now on; read what it has, then
        # what the victim recorded.
        if gate.in_flight:
            return False
        delivered = deliveries(telegram, orders)
        missing[:] = await unrecorded(db, delivered, victim)
        mine = {change.chat_id for change in gate.passed}
        begun.clear()
        begun.update(str(d.order.chat_id) for d in delivered if d.begun)
        begun.intersection_update(mine)
        return bool(begun) and not missing

    try:
        await wait_until(quiet, DELIVERY_TIMEOUT, interval=CHECK_INTERVAL)
    except AssertionError:
        raise AssertionError(
            f"no quiet moment to kill in: {gate.in_flight} sends in flight, {len(begun)} "
            f"articles begun, unrecorded in chats {missing}\n{victim.log_tail()}"
        ) from None
    await victim.kill()
    return [order for order in orders if str(order.chat_id) in begun]


# PostgreSQL's takeover after a kill is the replica test's.
@pytest.mark.parametrize("kills", [1, pytest.param(3, marks=pytest.mark.slow)])
@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_a_killed_process_articles_arrive_once_soon_after_its_restart(
    database: Database, database_url: str, tmp_path: Path, kills: int
) -> None:
    lease = 2.0
    key = generate_key()
    orders: list[Order] = []
    async with (
        FakeTelegram.running(token=TOKEN) as telegram,
        # Short articles then take 1 to 2 s.
        running_sandbox(speed=60.0) as sandbox,
        bot_processes(
            1,
            telegram=telegram,
            sandbox=sandbox,
            database_url=database_url,
            key=key,
            workdir=tmp_path,
            poll_interval=POLL_INTERVAL,
            lease_seconds=lease,
        ) as (bot,),
    ):
        await bot.start()
        for wave in range(kills):
            # One article of the wave goes through whole, the next one's file waits for the kill.
            bot.gate.hold({"sendDocument"}, after=1)
            first = FIRST_CHAT + wave * WAVE
            orders += await order_one_article_per_chat(
                db=database,
                sandbox=sandbox,
                telegram=telegram,
                key=key,
                chats=range(first, first + WAVE),
            )
            taken = await kill_mid_article(bot, telegram, orders, database)
            bot.gate.release()
            restarted = time.monotonic()
            await bot.start()
            takeover = lease + POLL_INTERVAL + MARGIN
            await wait_until(partial(resumed, telegram, taken, restarted), takeover, CHECK_INTERVAL)
            await wait_until(partial(all_whole, telegram, orders), DELIVERY_TIMEOUT, CHECK_INTERVAL)
        await bot.stop()
    assert received_twice(telegram, orders) == [], "\n".join(bot.complaints())


# Three replicas are the fewest where a survivor can take over the slowed one's article;
# 30 articles keep all three busy through the kill and the slow round, and 200 (the bot's
# limit and its pacer under load) on two and three replicas. All in the slow tier: three bot
# processes at once are the fast tier's costliest minute, and the fast tier keeps the
# killed-and-restarted process on SQLite.
@pytest.mark.parametrize(
    ("replicas", "articles"),
    [
        pytest.param(3, 30, marks=pytest.mark.slow),
        pytest.param(2, 200, marks=pytest.mark.slow),
        pytest.param(3, 200, marks=pytest.mark.slow),
    ],
)
@pytest.mark.parametrize(
    "database_url", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)
async def test_replicas_deliver_every_article_exactly_once_through_a_kill_and_a_slow_round(
    database: Database, database_url: str, tmp_path: Path, replicas: int, articles: int
) -> None:
    lease = 1.0
    key = generate_key()
    async with (
        FakeTelegram.running(token=TOKEN) as telegram,
        # Short articles then take 4 to 8 s each, spread at random by the sandbox's seed.
        running_sandbox(speed=15.0) as sandbox,
    ):
        chats = range(FIRST_CHAT, FIRST_CHAT + articles)
        orders = await order_one_article_per_chat(
            db=database, sandbox=sandbox, telegram=telegram, key=key, chats=chats
        )
        async with bot_processes(
            replicas,
            telegram=telegram,
            sandbox=sandbox,
            database_url=database_url,
            key=key,
            workdir=tmp_path,
            poll_interval=POLL_INTERVAL,
            lease_seconds=lease,
            webhook=True,
        ) as processes:
            await asyncio.gather(*(process.start() for process in processes))
            await wait_until(
                lambda: sum(d.whole for d in deliveries(telegram, orders)) >= len(orders) // 3,
                DELIVERY_TIMEOUT,
                CHECK_INTERVAL,
            )
            victim = max(processes, key=lambda p: p.gate.sent("sendDocument"))
            victim.gate.hold({"sendDocument"})
            taken = await kill_mid_article(victim, telegram, orders, database)
            killed = time.monotonic()
            survivors = [process for process in processes if process is not victim]
            slow = 3 * lease
            for survivor in survivors:
                # Whichever survivor delivers next waits on Telegram for three of its leases.
                survivor.gate.slow_next(slow)
            takeover = lease + POLL_INTERVAL + slow + REPLICA_MARGIN
            await wait_until(partial(resumed, telegram, taken, killed), takeover, CHECK_INTERVAL)
            await wait_until(partial(all_whole, telegram, orders), DELIVERY_TIMEOUT, CHECK_INTERVAL)
            for survivor in survivors:
                await survivor.stop()
        assert sum(survivor.gate.slowed for survivor in survivors) >= 1, "a round was slowed"
        assert received_twice(telegram, orders) == [], "\n".join(
            line for process in processes for line in process.complaints()
        )


async def test_the_gate_never_passes_on_a_send_its_process_gave_up() -> None:
    async with (
        FakeTelegram.running(token=TOKEN) as telegram,
        httpx.AsyncClient() as http,
    ):
        gate = TelegramGate(telegram, http)
        async with serving_http(gate.app(), port=gate.port, host="127.0.0.1"):
            telegram.user_says(FIRST_CHAT, "/start")
            send = f"{gate.url}/bot{TOKEN}/sendMessage"
            gate.hold({"sendMessage"})
            with pytest.raises(httpx.ReadTimeout):
                await http.post(
                    send, data={"chat_id": FIRST_CHAT, "text": "bekletildi"}, timeout=0.2
                )
            await wait_until(lambda: not gate.held)
            gate.release()
            answer = await http.post(send, data={"chat_id": FIRST_CHAT, "text": "geçti"})
            assert answer.json()["ok"] is True
        assert [m.text for m in telegram.chat(FIRST_CHAT)] == ["geçti"]
