"""Telegram's updates: each user's in turn, counted against the core's cap on requests in flight."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from telegram import Chat, Message, Update, User

from bot.core.conversation.events import UserKey
from bot.core.limits.inflight import InFlight
from bot.telegram.ids import PLATFORM
from bot.telegram.ordering import PerUserOrder

WAIT = 10.0


def update_of(user_id: int, update_id: int) -> Update:
    """A text message of ``user_id`` in their private chat."""
    message = Message(
        message_id=update_id,
        date=datetime.now(UTC),
        chat=Chat(user_id, Chat.PRIVATE),
        from_user=User(user_id, "Kullanıcı", is_bot=False),
        text="/bakiye",
    )
    return Update(update_id, message=message)


async def test_a_users_updates_past_the_cores_cap_are_dropped_and_told_once() -> None:
    in_flight = InFlight(limit=2)
    told: list[int] = []
    handled: list[int] = []
    gate = asyncio.Event()

    async def tell(update: Update) -> None:
        told.append(update.update_id)

    async def handle(update_id: int) -> None:
        await gate.wait()
        handled.append(update_id)

    order = PerUserOrder(4, in_flight=in_flight, on_overflow=tell)
    alice = [
        asyncio.create_task(order.do_process_update(update_of(1, n), handle(n)))
        for n in range(1, 6)
    ]
    await asyncio.wait_for(asyncio.gather(*alice[2:]), WAIT)

    assert told == [3], "the first update past the cap is the one told, and only once"
    assert not in_flight.take(UserKey(PLATFORM, "1")), "the core's count holds Alice's two"
    bob = asyncio.create_task(order.do_process_update(update_of(2, 9), handle(9)))
    gate.set()
    await asyncio.wait_for(asyncio.gather(*alice[:2], bob), WAIT)
    assert sorted(handled) == [1, 2, 9]
