"""Background sends waiting for the bot's slot go in one line: first messages in their order
of coming, then the rest with every chat's earlier parts ahead of other chats' later ones,
whatever order they came in."""

from __future__ import annotations

import asyncio
import heapq
import itertools

import pytest

from bot.core.limits.pacing import Pacer, Priority, Window, paced_as
from bot.telegram.pacing import PRIVATE_LIMITS

# Enough turns of the event loop for every task woken at one moment to go as far as it can.
SETTLE_TURNS = 200


class VirtualTime:
    """A clock that moves to the next sleeper's time once every task waits."""

    def __init__(self) -> None:
        self.now = 0.0
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + max(seconds, 0.0), next(self._order), future))
        await future

    async def run(self, tasks: list[asyncio.Task[None]]) -> None:
        while not all(task.done() for task in tasks):
            for _ in range(SETTLE_TURNS):
                await asyncio.sleep(0)
            if all(task.done() for task in tasks):
                return
            assert self._sleepers, "every task waits, and none for a time"
            at, _, future = heapq.heappop(self._sleepers)
            self.now = max(self.now, at)
            # A sleeper cancelled meanwhile has gone.
            if not future.done():
                future.set_result(None)


async def test_waiting_sends_go_first_messages_in_order_then_earlier_parts_first() -> None:
    time = VirtualTime()
    # Three a second for the bot: a background send leaves one place to answers, so two.
    pacer = Pacer((Window(3, 1.0),), clock=time, sleep=time.sleep)
    sent: list[tuple[str, float]] = []

    async def send(name: str, chat: int, priority: Priority, part: int) -> None:
        with paced_as(priority, part=part):
            slot = await pacer.wait(chat, PRIVATE_LIMITS)
        sent.append((name, time.now))
        pacer.reached(chat, PRIVATE_LIMITS, slot)

    filling = [
        asyncio.create_task(send(name, chat, Priority.REST, 1))
        for name, chat in (("x", 1), ("y", 2))
    ]
    await time.run(filling)
    waiting = [
        asyncio.create_task(send(name, chat, priority, part))
        for name, chat, priority, part in (
            ("part 4", 10, Priority.REST, 4),
            ("part 1", 11, Priority.REST, 1),
            # An article taken over from a dead replica at its fourth part.
            ("first message at part 3", 12, Priority.ARTICLE, 3),
            ("first message", 13, Priority.ARTICLE, 0),
            ("part 2", 14, Priority.REST, 2),
        )
    ]
    await time.run(waiting)

    assert sent == [
        ("x", 0.0),
        ("y", 0.0),
        ("first message at part 3", 1.0),
        ("first message", 1.0),
        ("part 1", 2.0),
        ("part 2", 2.0),
        ("part 4", 3.0),
    ]


@pytest.mark.parametrize(
    ("cancelled", "after"),
    [
        # The first to come, which holds the line's turn while the window is full.
        ("part 4", [("part 1", 1.0), ("part 2", 1.0), ("part 3", 2.0)]),
        ("part 1", [("part 2", 1.0), ("part 3", 1.0), ("part 4", 2.0)]),
    ],
)
async def test_a_send_cancelled_in_the_line_leaves_the_others_their_order(
    cancelled: str, after: list[tuple[str, float]]
) -> None:
    time = VirtualTime()
    pacer = Pacer((Window(3, 1.0),), clock=time, sleep=time.sleep)
    sent: list[tuple[str, float]] = []

    async def send(name: str, chat: int, part: int) -> None:
        with paced_as(Priority.REST, part=part):
            slot = await pacer.wait(chat, PRIVATE_LIMITS)
        sent.append((name, time.now))
        pacer.reached(chat, PRIVATE_LIMITS, slot)

    filling = [asyncio.create_task(send(name, chat, 1)) for name, chat in (("x", 1), ("y", 2))]
    await time.run(filling)
    waiting = {
        name: asyncio.create_task(send(name, chat, part))
        for name, chat, part in (
            ("part 4", 10, 4),
            ("part 1", 11, 1),
            ("part 2", 12, 2),
            ("part 3", 13, 3),
        )
    }
    for _ in range(SETTLE_TURNS):
        await asyncio.sleep(0)
    waiting.pop(cancelled).cancel()
    await time.run(list(waiting.values()))

    assert sent[2:] == after
