"""Background notices: each chat's in order, other chats not held up behind them, a full
queue slowing whoever tells, and what is left at the stop dropped after the grace."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.core.conversation.events import ChatAddress
from bot.core.delivery.notices import Notices
from tests.fakes import wait_until

ONE = ChatAddress("test", "one")
TWO = ChatAddress("test", "two")


async def test_a_chats_notices_go_in_order_and_another_chat_is_not_held_behind_them() -> None:
    notices = Notices()
    posted: list[str] = []
    gate = asyncio.Event()

    def post(name: str, *, wait: bool = False) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            if wait:
                await gate.wait()
            posted.append(name)

        return run

    await notices.post(ONE, post("one-1", wait=True))
    await notices.post(ONE, post("one-2"))
    await notices.post(TWO, post("two-1"))
    await wait_until(lambda: posted == ["two-1"], timeout=5)
    gate.set()
    await asyncio.wait_for(notices.drained(), 5)
    assert posted == ["two-1", "one-1", "one-2"]


async def test_a_full_queue_makes_the_teller_wait_and_the_stop_drops_the_rest() -> None:
    notices = Notices(limit=2)
    gate = asyncio.Event()

    async def stuck() -> None:
        await gate.wait()

    await notices.post(ONE, stuck)
    await notices.post(ONE, stuck)
    third = asyncio.create_task(notices.post(ONE, stuck))
    await asyncio.sleep(0)
    assert not third.done(), "no room: the third waits"
    await notices.close(grace=0.05)
    third.cancel()
    posted: list[str] = []

    async def late() -> None:
        posted.append("late")

    await notices.post(TWO, late)
    assert posted == ["late"], "once closed, a notice is posted at once"
