"""A stateful property test of the core: several users type, press and replay at random.

Whatever they do, and whatever the service fails with, every charge is a confirmed order,
no failure escapes as "something broke", and no user sees another's drafts, articles or
balance.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)
from sqlalchemy import func
from sqlmodel import Session, select

from bot.core.conversation.events import Press
from bot.core.conversation.screens import Button, Edit, Effect, Notice, Send
from bot.core.texts import LANGUAGES
from bot.core.texts.money import format_tl
from bot.sandbox import DEMO_EMAIL, DEMO_PASSWORD, LOW_BALANCE_EMAIL, LOW_BALANCE_PASSWORD
from storage import Job
from tests.dialog_harness import texts
from tests.integration.driven_bot import DrivenBot, driven_bot, examples

ACCOUNTS = {"alfa": (DEMO_EMAIL, DEMO_PASSWORD), "beta": (LOW_BALANCE_EMAIL, LOW_BALANCE_PASSWORD)}
# Every title a user orders carries their mark; no other user may ever see it.
MARKS = {"alfa": "ALFAMARK", "beta": "BETAMARK", "guest": "GUESTMARK"}
USERS = st.sampled_from(sorted(MARKS))
BROKE = tuple(language.something_broke for language in LANGUAGES.values())
BALANCE = re.compile(r"Bakiyeniz: ([\d.,]+ TL)")
COMMANDS = ["/bakiye", "/makalelerim", "/start", "/iptal", "/yardim", "/giris", "/toplu", "/konu"]
_machines = itertools.count()


class ChatUsers(RuleBasedStateMachine):
    """Two users with accounts of their own and a guest who never logs in, on one bot."""

    def __init__(self, bot: DrivenBot) -> None:
        super().__init__()
        self.bot = bot
        state = bot.h.sandbox.state
        # Fresh chat users for each run; the accounts behind them are the sandbox's.
        number = next(_machines)
        self.chats = {name: bot.h.chat(f"{name}-{number}") for name in MARKS}
        self.logged_in: set[str] = set()
        self.last_buttons: dict[str, list[Button]] = {}
        # Every button shown to anyone, in order; kept here rather than in a bundle, since
        # what the bot shows is not a function of the drawn steps alone.
        self.seen: list[tuple[str, Button]] = []
        state.set_balance(DEMO_EMAIL, Decimal(100_000))
        state.set_balance(LOW_BALANCE_EMAIL, Decimal(40))
        self.creates = state.create_count
        self.jobs = self._jobs()
        self.balances = self._balances()

    def teardown(self) -> None:
        while self.bot.h.sandbox.state.faults.take_failure() is not None:
            pass

    def _jobs(self) -> tuple[int, Decimal]:
        def count(session: Session) -> tuple[int, Decimal]:
            number, total = session.exec(select(func.count(), func.sum(Job.cost))).one()
            return number, Decimal(total or 0)

        return self.bot.h.bot.conversations.services.db.run_sync(count)

    def _balances(self) -> Decimal:
        state = self.bot.h.sandbox.state
        return sum((state.balance_of(email) for email, _ in ACCOUNTS.values()), Decimal(0))

    def _seen(self, user: str, effects: list[Effect]) -> None:
        said = texts(effects)
        assert not any(broke in said for broke in BROKE), said
        for other, mark in MARKS.items():
            assert other == user or mark not in said, f"{user} saw {other}'s order: {said}"
        for shown in BALANCE.findall(said):
            assert user in self.logged_in, f"{user} saw a balance while logged out: {said}"
            email = ACCOUNTS[user][0]
            assert shown == format_tl(self.bot.h.sandbox.state.balance_of(email)), said
        buttons = [
            button
            for effect in effects
            if isinstance(effect, Send | Edit)
            for row in effect.screen.buttons
            for button in row
        ]
        if buttons:
            self.last_buttons[user] = buttons
            self.seen.extend((user, button) for button in buttons)

    def _say(self, user: str, line: str) -> None:
        self._seen(user, self.bot.say(self.chats[user], line))

    def _press(self, user: str, owner: str, button: Button, taps: int) -> None:
        for _ in range(taps):
            effects = self.bot.send(self.chats[user], Press(button.data, "42"))
            if owner != user:
                # Someone else's button: a notice, and nothing else happens.
                assert all(isinstance(e, Notice) for e in effects), (user, owner, effects)
            self._seen(user, effects)

    @initialize()
    def everyone_logs_in(self) -> None:
        for user in ACCOUNTS:
            self.log_in(user)

    @rule(user=st.sampled_from(sorted(ACCOUNTS)))
    def log_in(self, user: str) -> None:
        email, password = ACCOUNTS[user]
        effects = self.bot.say(self.chats[user], f"/giris {email} {password}")
        if "Giriş yapıldı" in texts(effects):
            self.logged_in.add(user)
        self._seen(user, effects)

    @rule(user=USERS)
    def log_out(self, user: str) -> None:
        self.logged_in.discard(user)
        self._say(user, "/cikis")

    @rule(user=USERS, number=st.integers(0, 99))
    def order(self, user: str, number: int) -> None:
        self._say(user, f"/yaz {MARKS[user]} makalesi {number}")

    @rule(user=USERS, number=st.integers(0, 99), choices=st.lists(st.integers(0, 4), min_size=3))
    def order_through(self, user: str, number: int, choices: list[int]) -> None:
        """Order, then take the dialog's next steps: tone, size, a summary button and on."""
        self.order(user, number)
        for choice in choices[:4]:
            self.go_on(user, choice, taps=1)

    @rule(user=USERS, choice=st.integers(0, 4), taps=st.integers(1, 2))
    def go_on(self, user: str, choice: int, taps: int) -> None:
        """Press one of the buttons the user was shown last (twice: a double tap)."""
        shown = self.last_buttons.get(user)
        if shown:
            self._press(user, user, shown[choice % len(shown)], taps)

    @rule(user=USERS, which=st.integers(0, 10**6), taps=st.integers(1, 2))
    def press_any(self, user: str, which: int, taps: int) -> None:
        """Press a button shown to anyone: a replay, a stale one or someone else's."""
        if self.seen:
            self._press(user, *self.seen[which % len(self.seen)], taps)

    @rule(user=USERS, command=st.sampled_from(COMMANDS))
    def command(self, user: str, command: str) -> None:
        self._say(user, command)

    @rule(user=USERS, text=st.sampled_from(["merhaba", "1", "", "Onayla", "x" * 300]))
    def type_text(self, user: str, text: str) -> None:
        self._say(user, text)

    @rule(status=st.sampled_from([429, 500, 503]))
    def service_fails_next(self, status: int) -> None:
        self.bot.h.sandbox.state.faults.fail_next(1, status)

    @invariant()
    def charges_are_confirmed_orders(self) -> None:
        jobs, costs = self._jobs()
        creates = self.bot.h.sandbox.state.create_count - self.creates
        assert creates == jobs - self.jobs[0]
        assert self.balances - self._balances() == costs - self.jobs[1]


@pytest.fixture
def bot(tmp_path: Path) -> Iterator[DrivenBot]:
    with driven_bot(tmp_path) as driven:
        yield driven


def test_any_conversation_of_several_users_keeps_the_guarantees(bot: DrivenBot) -> None:
    run_state_machine_as_test(
        lambda: ChatUsers(bot),
        settings=settings(
            max_examples=examples(0.2),
            stateful_step_count=settings.default.stateful_step_count // 2,
        ),
    )
