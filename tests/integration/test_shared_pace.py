"""One pace per chat across replicas: pacers of two processes on one PostgreSQL draw each
chat's sends from the same bucket, judged by Telegram's own per-chat model."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator

import pytest

from bot.core.pacing import Bucket, NoRoom, Pacer, Priority, paced_as
from bot.core.shared_pace import shared_pace_for
from storage import Database
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

    started = time.monotonic()
    await answering.wait(CHAT, CHAT_LIMITS)

    assert 1 <= taken < 3, "delivery leaves the chat's last token to answers"
    assert time.monotonic() - started < 0.05


async def _never(seconds: float) -> None:
    raise AssertionError(f"waited {seconds:.3f} s")


def test_sqlite_keeps_the_pace_in_memory(sqlite_database: Database) -> None:
    assert shared_pace_for(sqlite_database, "telegram") is None
