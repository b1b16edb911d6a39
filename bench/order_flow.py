"""How long each step of an order takes through the whole stack, and how many orders per second.

Runs the core (Conversations, SQLite, the upstream client) against the sandbox on
loopback, the way an adapter drives it, for several users at once.

    .venv/bin/python bench/order_flow.py [--users 20] [--rounds 3] [--upstream URL]

With ``--upstream`` (e.g. ``python -m bot sandbox --port 8099 --speed 1`` in another
terminal) the sandbox runs in its own process, so only the bot's time is measured
here; its demo account needs a balance of at least 15 TL per order.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from decimal import Decimal
from pathlib import Path

from bot.bootstrap import running_bot
from bot.config import load_settings
from bot.core.conversation.events import ChatAddress, Command, Event, Origin, Press, UserKey
from bot.core.conversation.screens import Button, Document, Edit, Effect, Screen, Send
from bot.sandbox import running_sandbox
from storage import generate_key

TITLE = "Yapay zekâ ile içerik üretimi"
Handle = Callable[[Origin, Event], Awaitable[list[Effect]]]


class NullMessenger:
    """Takes the delivery's messages and drops them: the benchmark measures the dialogs."""

    async def send(self, chat: ChatAddress, screen: Screen) -> str | None:
        return "1"

    async def edit(self, chat: ChatAddress, message_id: str, screen: Screen) -> None:
        return None

    async def delete(self, chat: ChatAddress, message_id: str) -> None:
        return None

    async def send_document(self, chat: ChatAddress, document: Document) -> None:
        return None

    def fits(self, screen: Screen) -> bool:
        return True


def _button(effects: list[Effect], label: str) -> Button:
    for effect in effects:
        if isinstance(effect, Send | Edit):
            for row in effect.screen.buttons:
                for button in row:
                    if button.label == label or button.label.startswith(f"{label} ·"):
                        return button
    raise LookupError(label)


async def _one_user(
    bot_handle: Handle, user: str, timings: dict[str, list[float]], rounds: int
) -> None:
    origin = Origin(UserKey("bench", user), ChatAddress("bench", f"chat-{user}"))

    async def step(name: str, event: Event) -> list[Effect]:
        started = time.perf_counter()
        effects: list[Effect] = await bot_handle(origin, event)
        timings[name].append(time.perf_counter() - started)
        return effects

    await step("giris", Command("giris", "demo@example.com Demo12345"))
    for _ in range(rounds):
        await step("bakiye", Command("bakiye"))
        tones = await step("yaz", Command("yaz", TITLE))
        sizes = await step("tone", Press(_button(tones, "Samimi").data, "1"))
        summary = await step("size", Press(_button(sizes, "Kısa").data, "1"))
        await step("onayla", Press(_button(summary, "Onayla").data, "1"))
        await step("makalelerim", Command("makalelerim"))


@asynccontextmanager
async def _upstream(url: str | None) -> AsyncIterator[str]:
    if url:
        yield url
        return
    async with running_sandbox(speed=1.0) as sandbox:
        sandbox.state.set_balance("demo@example.com", Decimal(10**6))
        yield sandbox.url


async def main(users: int, rounds: int, upstream: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with _upstream(upstream) as url:
            settings = load_settings(
                _env_file=None,
                article_api_url=url,
                database_url=f"sqlite:///{Path(folder) / 'bench.db'}",
                token_encryption_key=generate_key(),
            )
            async with running_bot(settings) as bot:
                bot.messengers["bench"] = NullMessenger()
                timings: dict[str, list[float]] = defaultdict(list)
                started = time.perf_counter()
                await asyncio.gather(
                    *(
                        _one_user(bot.conversations.handle, f"u{n}", timings, rounds)
                        for n in range(users)
                    )
                )
                elapsed = time.perf_counter() - started
    orders = users * rounds
    events = sum(map(len, timings.values()))
    print(
        f"{users} users x {rounds} orders: {orders} orders in {elapsed:.2f} s "
        f"({orders / elapsed:.1f} orders/s, {events / elapsed:.0f} events/s)"
    )
    print(f"{'step':<12} {'n':>5} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for name, values in timings.items():
        values.sort()
        p95 = values[min(len(values) - 1, int(len(values) * 0.95))]
        print(
            f"{name:<12} {len(values):>5} {statistics.median(values) * 1000:>8.1f} "
            f"{p95 * 1000:>8.1f} {values[-1] * 1000:>8.1f}"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--upstream", help="an article service already running (a sandbox)")
    options = parser.parse_args()
    asyncio.run(main(options.users, options.rounds, options.upstream))
