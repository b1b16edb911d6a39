"""Three webhook replicas on PostgreSQL, killed with SIGKILL three times while people order
and earlier articles arrive in their chats: every button is answered within 3 s of its press,
and no order and no article is lost or doubled.

Telegram sends each update to the webhook, which the host's balancer hands to the replicas in
turn (``tests/e2e/fake_telegram/pushing.py``), and sends again an update a replica took and
never answered 2xx. A kill lands while its victim has a press in hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from pathlib import Path

import pytest

from bot.sandbox import DEMO_EMAIL, RunningSandbox, running_sandbox
from storage import Database, generate_key
from tests.e2e.bot_process import (
    BotProcess,
    Order,
    bot_processes,
    deliveries,
    order_one_article_per_chat,
    paragraphs,
)
from tests.e2e.fake_telegram import FakeTelegram, StoredMessage
from tests.e2e.fake_telegram.pushing import WebhookPush, pushing_updates
from tests.e2e.fake_telegram.records import JSON
from tests.e2e.order_labels import SHORT
from tests.e2e.telegram_rig import TOKEN
from tests.fakes import wait_until

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(300),
    pytest.mark.xdist_group("delivery_chaos"),
]

ANSWER_GOAL = 3.0
PEOPLE = 24
FIRST_CHAT = 7001
# One person starts ordering this long after the one before, so that the kills land amid
# the orders rather than after them.
PEOPLE_APART = 0.6
# A person reads each screen this long before pressing its button: no faster than the one
# message a second Telegram lets into their chat, which is also receiving an article.
READING = 1.0
# The kills come once this many buttons have been pressed (of three a person).
KILLS_AT = (10, 30, 50)
# How long a kill waits for a replica to have a press in hand.
IN_HAND_WAIT = 5.0
LEASE = 1.0
POLL_INTERVAL = 0.5
# Far longer than any answer may take: past it a person gives up, and the press counts as lost.
GIVE_UP = 30.0
# Every article written upstream (4 to 8 s at the sandbox's speed) and delivered at
# Telegram's pace, restarts aside.
DELIVERY_TIMEOUT = 90.0
CHECK_INTERVAL = 0.25
# The service's create call's timeout: an order a kill cut off is looked for upstream after it.
CREATE_TIMEOUT = 5.0
_SHOWN = frozenset({"sendMessage", "editMessageText"})
# What a press of ``Onayla`` is answered with when its order was submitted before: by the
# same update, in a replica killed while it placed the order.
HANDLED_BEFORE = "Bu sipariş zaten işlendi"


@dataclass
class Press:
    """One press of a button: when it was pressed, and when Telegram received the press's
    answer and the next screen (``time.monotonic()``, the fake's clock of arrival)."""

    chat_id: int
    label: str
    query_id: str
    message_id: int
    expect: str
    pressed: float
    cursor: int
    answered: float | None = None
    shown: float | None = None
    # The press's answer said it was handled already, and nothing more was shown.
    handled_before: bool = False
    # What the press's answer said, if anything.
    said: str = ""

    @property
    def seconds(self) -> float:
        """From the press to the later of the answer and the screen; infinite while either
        has not come."""
        if self.answered is None or self.shown is None:
            return float("inf")
        return max(self.answered, self.shown) - self.pressed

    def settled(self, telegram: FakeTelegram) -> bool:
        """Whether both the answer and the next screen have come (reading only the calls
        that came since the last look)."""
        calls = telegram.calls
        for call in calls[self.cursor :]:
            if not call.ok:
                continue
            params = call.params
            if call.method == "answerCallbackQuery" and params.get("callback_query_id") == (
                self.query_id
            ):
                self.answered = self.answered or call.at
                self.said = str(params.get("text", ""))
                if HANDLED_BEFORE in str(params.get("text", "")) and self.shown is None:
                    self.handled_before, self.shown = True, call.at
            elif call.method in _SHOWN and self._shows(call.response):
                self.handled_before = False
                self.shown = min(self.shown or call.at, call.at)
        self.cursor = len(calls)
        return self.answered is not None and self.shown is not None

    def _shows(self, response: JSON | None) -> bool:
        """Whether Telegram's answer is the press's chat showing its next screen (in the
        pressed message or a newer one), read as plain text."""
        shown = (response or {}).get("result")
        return (
            isinstance(shown, dict)
            and shown["chat"]["id"] == self.chat_id
            and shown["message_id"] >= self.message_id
            and self.expect in shown.get("text", "")
        )


class People:
    """The people ordering, and every button they pressed."""

    def __init__(self, telegram: FakeTelegram) -> None:
        self.telegram = telegram
        self.presses: list[Press] = []

    async def order(self, chat_id: int, title: str) -> None:
        """``/yaz`` with a title, then a tone, a size and the confirmation, each pressed once
        the screen before shows; a person whose press is never answered stops there."""
        said = self.telegram.user_says(chat_id, f"/yaz {title}")
        screen = await self._screen(chat_id, "Yazım tonunu seçin", said["message_id"])
        steps = (
            ("Profesyonel", "Makale boyutunu seçin"),
            (SHORT, "Bakiyeniz"),
            ("Onayla", "Siparişiniz alındı"),
        )
        for label, expect in steps:
            if screen is None:
                return
            await asyncio.sleep(READING)
            screen = await self._press(chat_id, screen, label, expect)

    async def _screen(self, chat_id: int, expect: str, since: int) -> StoredMessage | None:
        def found() -> StoredMessage | None:
            for message in reversed(self.telegram.chat(chat_id)):
                if message.message_id >= since and expect in (message.text or ""):
                    return message
            return None

        with contextlib.suppress(AssertionError):
            await self.telegram.wait_for(lambda: found() is not None, GIVE_UP)
        return found()

    async def _press(
        self, chat_id: int, message: StoredMessage, label: str, expect: str
    ) -> StoredMessage | None:
        cursor = len(self.telegram.calls)
        pressed = time.monotonic()
        data = message.callback_data(label)
        query = self.telegram.user_presses(chat_id, message.message_id, data, chat_id=chat_id)
        press = Press(chat_id, label, query, message.message_id, expect, pressed, cursor)
        self.presses.append(press)
        with contextlib.suppress(AssertionError):
            await self.telegram.wait_for(partial(press.settled, self.telegram), GIVE_UP)
        return await self._screen(chat_id, expect, message.message_id)


async def kill_three_times(
    processes: Sequence[BotProcess], people: People, push: WebhookPush
) -> dict[str, str]:
    """Once each count of ``KILLS_AT`` presses is reached, kill with SIGKILL a replica with a
    press in hand (sent to it, not answered yet), and start it again; the killed, named by
    where they served."""
    killed: dict[str, str] = {}
    for presses in KILLS_AT:
        await wait_until(lambda: len(people.presses) >= presses, GIVE_UP * 2)  # noqa: B023
        # A bot that answers Telegram on arrival has a press in hand for a moment only: then
        # the replica that took the latest update dies instead.
        with contextlib.suppress(AssertionError):
            await wait_until(lambda: pressed_at(processes, push) is not None, IN_HAND_WAIT)
        victim = pressed_at(processes, push) or latest_at(processes, push)
        await victim.kill()
        killed[victim.served_at] = f"{victim.name} (killed)"
        await victim.start()
    return killed


def latest_at(processes: Sequence[BotProcess], push: WebhookPush) -> BotProcess:
    """The running replica that took the latest update."""
    running = [process for process in processes if process.running]
    took = [attempt.replica for attempt in push.attempts if attempt.delivered]
    return next((p for p in running if took and p.served_at == took[-1]), running[0])


def pressed_at(processes: Sequence[BotProcess], push: WebhookPush) -> BotProcess | None:
    """A running replica with a press in hand, if any."""
    for process in processes:
        in_hand = push.in_hand.get(process.served_at, [])
        if process.running and any("callback_query" in update for update in in_hand):
            return process
    return None


def sent_to(
    push: WebhookPush, press: Press, processes: Sequence[BotProcess], killed: dict[str, str]
) -> str:
    """Where the press's update went, when (from the press) and how it was answered."""
    names = killed | {process.served_at: process.name for process in processes}
    return ", ".join(
        f"{names.get(a.replica or '', a.replica)} at +{a.sent - press.pressed:.2f} s: {a.status}"
        for a in push.attempts
        if a.query == press.query_id
    )


def charged(sandbox: RunningSandbox, titles: Sequence[str]) -> Counter[str]:
    """How many times the service charged for each of the titles."""
    account = sandbox.state.account(DEMO_EMAIL)
    assert account is not None
    wanted = set(titles)
    return Counter(
        job.order.title for job in sandbox.state.jobs_of(account) if job.order.title in wanted
    )


def ordered(sandbox: RunningSandbox, titles: dict[str, int]) -> list[Order]:
    """The articles the people ordered, as the service wrote them."""
    account = sandbox.state.account(DEMO_EMAIL)
    assert account is not None
    return [
        Order(titles[job.order.title], job.order.title, job.content or "")
        for job in sandbox.state.jobs_of(account)
        if job.order.title in titles
    ]


def arrived_wrong(telegram: FakeTelegram, orders: Sequence[Order]) -> list[str]:
    """The articles that did not arrive exactly once: a paragraph, the Markdown file or the
    HTML file missing or doubled. A paragraph two articles of a chat share (a lead-in to a
    list) is due once for each."""
    by_chat: defaultdict[int, list[Order]] = defaultdict(list)
    for order in orders:
        by_chat[order.chat_id].append(order)
    wrong = []
    for delivered in deliveries(telegram, orders):
        mine = by_chat[delivered.order.chat_id]
        due = tuple(
            sum(paragraph in paragraphs(other.content) for other in mine)
            for paragraph in paragraphs(delivered.order.content)
        )
        if delivered.copies != due or delivered.files != 1 or delivered.pages != len(mine):
            wrong.append(
                f"{delivered.order.title}: paragraphs {delivered.copies} of {due}, "
                f"{delivered.files} Markdown files, {delivered.pages} HTML files in the chat"
            )
    return wrong


@pytest.mark.parametrize(
    "database_url", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)
async def test_three_replicas_killed_three_times_answer_every_button_within_3_s_and_lose_nothing(
    database: Database, database_url: str, tmp_path: Path
) -> None:
    key = generate_key()
    chats = range(FIRST_CHAT, FIRST_CHAT + PEOPLE)
    titles = {f"Yedekli sunucularda içerik {chat}": chat for chat in chats}
    async with (
        FakeTelegram.running(token=TOKEN) as telegram,
        # Short articles then take 4 to 8 s each, spread at random by the sandbox's seed.
        running_sandbox(speed=15.0) as sandbox,
        bot_processes(
            3,
            telegram=telegram,
            sandbox=sandbox,
            database_url=database_url,
            key=key,
            workdir=tmp_path,
            poll_interval=POLL_INTERVAL,
            lease_seconds=LEASE,
            webhook=True,
            direct=True,
        ) as processes,
    ):
        for process in processes:
            # An order cut off by a kill is looked for upstream this long after it was sent.
            process.env = {**process.env, "ARTICLE_API_TIMEOUT_SECONDS": str(CREATE_TIMEOUT)}
        await asyncio.gather(*(process.start() for process in processes))
        # Each person's earlier article arrives while they order the next one.
        earlier = await order_one_article_per_chat(
            db=database, sandbox=sandbox, telegram=telegram, key=key, chats=chats
        )
        sandbox.state.set_balance(DEMO_EMAIL, Decimal(1000))
        people = People(telegram)

        async def person(n: int, chat_id: int, title: str) -> None:
            await asyncio.sleep(n * PEOPLE_APART)
            await people.order(chat_id, title)

        async with pushing_updates(
            telegram, lambda: [process.served_at for process in processes]
        ) as push:
            killing = asyncio.create_task(kill_three_times(processes, people, push))
            await asyncio.gather(
                *(person(n, chat, title) for n, (title, chat) in enumerate(titles.items()))
            )
            killed = await killing
            orders = [*earlier, *ordered(sandbox, titles)]
            with contextlib.suppress(AssertionError):
                await wait_until(
                    lambda: not arrived_wrong(telegram, orders), DELIVERY_TIMEOUT, CHECK_INTERVAL
                )
        complaints = [line for process in processes for line in process.complaints()]
        slow = [
            f"chat {p.chat_id} {p.label!r}: {p.seconds:.2f} s (said {p.said!r}), "
            f"{sent_to(push, p, processes, killed)}"
            for p in people.presses
            if p.seconds > ANSWER_GOAL
        ]
        assert slow == [], "\n".join([*slow, *complaints])
        assert len(people.presses) == 3 * PEOPLE, "every person pressed every button"
        assert len(killed) == 3
        assert push.redelivered() >= 1, "a kill caught an update in hand, sent again"
        money = charged(sandbox, list(titles))
        assert set(money.values()) <= {1}, f"an order charged twice: {money}"
        # An order whose replica died while placing it may not have reached the service: its
        # person was told it was handled, and the reconciler tells them how it ended.
        cut = {p.chat_id for p in people.presses if p.handled_before}
        assert {titles[title] for title in set(titles) - set(money)} <= cut
        assert arrived_wrong(telegram, orders) == [], "\n".join(complaints)
