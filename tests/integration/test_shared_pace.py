"""One pace per chat across replicas: pacers of two processes on one PostgreSQL draw each
chat's sends from the same bucket, judged by Telegram's own per-chat model."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Connection, Engine, event, text

from bot.core.limits.pacing import Bucket, NoRoom, Pacer, Priority, Window, paced_as
from bot.core.limits.shared_pace import shared_pace_for
from storage import Database
from tests.fakes import wait_until
from tests.telegram_limits import Limits, Throttle

# A private chat's bucket, refilled ten times faster than Telegram's so the test is short:
# the same shape (3 at once, then one a step), judged by the same model.
FAST = Limits(private_burst=3, private_per_second=10.0)
CHAT_LIMITS = (Bucket(3, 10.0),)
CHAT = 7


ON_POSTGRESQL = pytest.mark.parametrize(
    "database_url", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)


@pytest.fixture
def replicas(database: Database) -> Iterator[list[Database]]:
    """Two more engines on the same database: the replicas' own."""
    engines = [Database.connect(database.url) for _ in range(2)]
    yield engines
    for engine in engines:
        engine.dispose()


async def sends(pacer: Pacer, telegram: Throttle, count: int) -> list[bool]:
    """``count`` messages to the chat, each as soon as the pacer lets it go: accepted each."""
    accepted = []
    for _ in range(count):
        slot = await pacer.wait(CHAT, CHAT_LIMITS)
        accepted.append(telegram.admit(CHAT) is None)
        pacer.reached(CHAT, CHAT_LIMITS, slot)
    return accepted


@ON_POSTGRESQL
async def test_two_replicas_sending_into_one_chat_keep_its_bucket(
    replicas: list[Database],
) -> None:
    telegram = Throttle(FAST)
    pacers = [Pacer(shared=shared_pace_for(db, "telegram")) for db in replicas]
    started = time.monotonic()

    accepted = await asyncio.gather(*(sends(pacer, telegram, 6) for pacer in pacers))

    assert accepted == [[True] * 6] * 2
    assert telegram.refused == {}
    # Twelve sends: a burst, then a step of 0.1 s each; not a burst for each replica.
    assert time.monotonic() - started >= 0.8


@ON_POSTGRESQL
async def test_an_answer_on_one_replica_goes_at_once_while_another_delivers(
    replicas: list[Database],
) -> None:
    delivering, answering = (
        Pacer(shared=shared_pace_for(db, "telegram"), sleep=_never) for db in replicas
    )
    taken = 0
    with paced_as(Priority.IF_FREE), contextlib.suppress(NoRoom):
        while taken < 10:
            await delivering.wait(CHAT, CHAT_LIMITS)
            taken += 1

    # The answering pacer's sleep fails the test if it is asked to wait at all: the answer
    # goes at once, whatever the database's round trip costs on a busy machine.
    await answering.wait(CHAT, CHAT_LIMITS)

    assert 1 <= taken < 3, "delivery leaves the chat's last token to answers"


async def _never(seconds: float) -> None:
    raise AssertionError(f"waited {seconds:.3f} s")


def test_sqlite_keeps_the_pace_in_memory(sqlite_database: Database) -> None:
    assert shared_pace_for(sqlite_database, "telegram") is None


# The bot's window, shrunk so the test is short: at most 10 in any half second.
SMALL_WINDOW = Limits(bot_burst=10, bot_window=0.5, private_burst=3, private_per_second=10.0)
BOT_WINDOW = (Window(10, 0.5),)


async def into_many_chats(pacer: Pacer, telegram: Throttle, chats: range) -> None:
    """One message into each chat, each as soon as the pacer lets it go."""
    for chat in chats:
        slot = await pacer.wait(chat, CHAT_LIMITS)
        telegram.admit(chat)
        pacer.reached(chat, CHAT_LIMITS, slot)


@ON_POSTGRESQL
async def test_three_replicas_keep_the_bots_window_together(
    database: Database, replicas: list[Database]
) -> None:
    telegram = Throttle(SMALL_WINDOW)
    pacers = [
        Pacer(BOT_WINDOW, shared=shared_pace_for(db, "telegram")) for db in (database, *replicas)
    ]

    await asyncio.gather(
        *(
            into_many_chats(pacer, telegram, range(100 * n + 1, 100 * n + 11))
            for n, pacer in enumerate(pacers)
        )
    )

    assert telegram.refused == {}, "the replicas together sent more than 10 in half a second"


@ON_POSTGRESQL
async def test_a_burst_waiting_for_the_bots_window_leaves_the_database_to_other_work(
    database: Database, replicas: list[Database]
) -> None:
    # 150 deliveries at once on one replica: 15 half-seconds of sends under the shrunk window.
    pacer = Pacer(BOT_WINDOW, shared=shared_pace_for(replicas[0], "telegram"))
    asking = 0
    most_at_once = 0
    asked: list[str] = []

    def before(connection: Connection, cursor: object, statement: str, *_: Any) -> None:
        nonlocal asking, most_at_once
        if "FOR UPDATE" in statement and "chat_pace" in statement:
            asking += 1
            most_at_once = max(most_at_once, asking)
            asked.append(statement)

    def after(connection: Connection, cursor: object, statement: str, *_: Any) -> None:
        nonlocal asking
        if "FOR UPDATE" in statement and "chat_pace" in statement:
            asking -= 1

    event.listen(Engine, "before_cursor_execute", before)
    event.listen(Engine, "after_cursor_execute", after)
    sent: list[int] = []

    async def deliver(chat: int) -> None:
        with paced_as(Priority.ARTICLE):
            await pacer.wait(chat, CHAT_LIMITS)
        sent.append(chat)

    burst = [asyncio.create_task(deliver(chat)) for chat in range(1, 151)]
    try:
        await wait_until(lambda: len(sent) >= 30, 30.0)
        # Work of the same replica (a takeover's claim of a dead one's lease) meanwhile.
        started = time.monotonic()
        await replicas[0].run(lambda s: s.connection().execute(text("SELECT 1")).scalar_one())
        other_work = time.monotonic() - started
        await asyncio.gather(*burst)
    finally:
        event.remove(Engine, "before_cursor_execute", before)
        event.remove(Engine, "after_cursor_execute", after)

    assert most_at_once == 1, "the burst asks the database for the window one send at a time"
    # A refusal says how long the window stays full: each send asks about twice, not once
    # for every place freed while it waits.
    assert len(asked) <= 3 * len(sent), f"{len(asked)} claims for {len(sent)} sends"
    assert other_work < 0.5, f"other work waited {other_work:.2f} s behind the burst"


@ON_POSTGRESQL
async def test_sends_waiting_for_the_bots_window_go_in_their_order_first_messages_first(
    replicas: list[Database],
) -> None:
    other, pacer = (Pacer(BOT_WINDOW, shared=shared_pace_for(db, "telegram")) for db in replicas)
    # Another replica fills the window; this one's sends all wait for the shared one.
    for chat in range(1, 11):
        await other.wait(chat, CHAT_LIMITS)
    went: list[int] = []

    async def deliver(chat: int, priority: Priority) -> None:
        with paced_as(priority):
            # A group's window, kept in memory: each send comes to the line as it starts.
            await pacer.wait(chat, (Window(20, 60.0),))
        went.append(chat)

    # Nine: background sends leave this replica's own window one place too.
    rest = [asyncio.create_task(deliver(chat, Priority.REST)) for chat in range(11, 15)]
    first = [asyncio.create_task(deliver(chat, Priority.ARTICLE)) for chat in range(31, 36)]
    await asyncio.gather(*rest, *first)

    # The first in the line was already asking when the first messages came.
    assert went == [11, 31, 32, 33, 34, 35, 12, 13, 14]


@ON_POSTGRESQL
async def test_one_slow_answer_does_not_narrow_the_shared_window(
    replicas: list[Database],
) -> None:
    late = 0.0
    pacer = Pacer(
        BOT_WINDOW,
        clock=lambda: time.monotonic() + late,
        shared=shared_pace_for(replicas[0], "telegram"),
    )
    slot = await pacer.wait(1, CHAT_LIMITS)
    # Its answer comes 3 s after it left (the clock moved on): the margin is at its widest.
    late = 3.0
    pacer.reached(1, CHAT_LIMITS, slot)
    started = time.monotonic()
    went = []

    for chat in range(2, 13):
        pacer.reached(chat, CHAT_LIMITS, await pacer.wait(chat, CHAT_LIMITS))
        went.append(time.monotonic() - started)

    # Ten a half second: the eleventh goes once the first place frees, half a second and the
    # network's margin after it was taken, not the slow answer's second more.
    assert went[10] < 1.2, went


@ON_POSTGRESQL
async def test_a_send_that_waited_for_the_bots_window_counts_in_its_chat_from_when_it_left(
    database: Database, replicas: list[Database]
) -> None:
    filler, delivering = (
        Pacer(BOT_WINDOW, shared=shared_pace_for(db, "telegram")) for db in replicas
    )
    # The window is full for half a second and the margin: the delivery's send waits for it
    # after its chat's claim.
    for chat in range(100, 110):
        await filler.wait(chat, CHAT_LIMITS)
    with paced_as(Priority.ARTICLE):
        await delivering.wait(CHAT, CHAT_LIMITS)

    free_in = await database.run(
        lambda s: (
            s.connection()
            .execute(
                text(
                    "SELECT EXTRACT(EPOCH FROM free_at - clock_timestamp())::float8"
                    " FROM chat_pace WHERE key = :key"
                ),
                {"key": f"telegram:{CHAT}"},
            )
            .scalar_one()
        )
    )
    # A step (0.1 s) after it left; counted from its claim, it would be long past.
    assert free_in > 0.0
