"""Every input a chat can carry, fuzzed: the bot answers or refuses, never crashes, and never
sends the upstream a payload the interface forbids (the sandbox refuses those with a 400)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.conversation.events import Command, Press, Text
from bot.core.conversation.screens import Effect
from bot.core.texts import LANGUAGES
from bot.sandbox import DEMO_EMAIL
from tests.dialog_harness import Chat, labels, texts
from tests.integration.driven_bot import DrivenBot, driven_bot, examples

BROKE = tuple(language.something_broke for language in LANGUAGES.values())
# What the bot says when the service refused a payload: a forbidden one must never go out.
REFUSED_ORDER = tuple(language.order_rejected.split(":")[0] for language in LANGUAGES.values())
EMPTY_LOGIN_FIELD = "zorunludur"

NASTY = st.sampled_from(
    [
        "",
        " ",
        "\x00",
        "\x00" * 12,
        "\ud800\udfff",
        "\u202e\u202d gizli",
        "\ufeff",
        "\n\t\r",
        "|",
        "ok|",
        "ok|../../etc",
        "/iptal",
        "İ" * 300,
        "ğ" * 10_240,
        "x" * 10_240,
    ]
)
ANY_TEXT = st.one_of(
    NASTY,
    st.text(max_size=300),
    st.text(st.characters(codec=None, categories=["Cc", "Cs", "Cf", "Zs", "Zl"]), max_size=40),
)
ANY_DATA = st.one_of(
    ANY_TEXT,
    st.builds(
        lambda code, values: "|".join([code, *values]),
        st.sampled_from(["t", "s", "ok", "no", "pg", "op", "ln", "sw", ""]),
        st.lists(st.one_of(ANY_TEXT, st.integers().map(str)), max_size=4),
    ),
)
EXAMPLES = settings(max_examples=examples(0.5))


@pytest.fixture(scope="module")
def bot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DrivenBot]:
    with driven_bot(tmp_path_factory.mktemp("fuzz")) as driven:
        # Enough for every example to order, so that what is sent is checked, not the balance.
        driven.h.sandbox.state.set_balance(DEMO_EMAIL, Decimal(10**9))
        yield driven


@pytest.fixture(scope="module")
def member(bot: DrivenBot) -> Chat:
    chat = bot.h.chat("member")
    bot.run(chat.login())
    return chat


_strangers = itertools.count()


def stranger(bot: DrivenBot) -> Chat:
    """A chat user never seen before, so that no example's throttle counts for another's."""
    return bot.h.chat(f"stranger-{next(_strangers)}")


def assert_answered_safely(effects: list[Effect]) -> None:
    assert effects, "no answer at all"
    said = texts(effects)
    assert not any(broke in said for broke in BROKE), said
    assert not any(refused in said for refused in REFUSED_ORDER), said
    assert EMPTY_LOGIN_FIELD not in said, said


@EXAMPLES
@given(data=ANY_DATA)
def test_any_button_data_or_slack_action_value(bot: DrivenBot, member: Chat, data: str) -> None:
    assert_answered_safely(bot.send(member, Press(data, "42")))
    assert_answered_safely(bot.send(stranger(bot), Press(data, "42")))


@EXAMPLES
@given(
    name=st.one_of(
        st.sampled_from(["yaz", "toplu", "konu", "giris", "dil", "makalelerim", "iptal"]),
        ANY_TEXT,
    ),
    args=ANY_TEXT,
)
def test_any_command_and_arguments(bot: DrivenBot, member: Chat, name: str, args: str) -> None:
    # A login with these arguments would end the member's session for the next example.
    chat = stranger(bot) if name == "giris" else member
    assert_answered_safely(bot.send(chat, Command(name, args, "7")))
    assert_answered_safely(bot.send(member, Command("iptal", "", "8")))


@EXAMPLES
@given(title=ANY_TEXT)
def test_any_title_is_ordered_or_refused_before_it_reaches_the_service(
    bot: DrivenBot, member: Chat, title: str
) -> None:
    effects = bot.send(member, Command("yaz", title, "9"))
    assert_answered_safely(effects)
    steps = iter(("Profesyonel", "Kısa", "Onayla"))
    while (step := next(steps, None)) is not None and any(
        label == step or label.startswith(f"{step} ·") for label in labels(effects)
    ):
        effects = bot.run(member.press(step))
        assert_answered_safely(effects)
    bot.send(member, Command("iptal", "", "10"))


@EXAMPLES
@given(email=ANY_TEXT, password=ANY_TEXT)
def test_any_email_and_password(bot: DrivenBot, email: str, password: str) -> None:
    in_one = stranger(bot)
    assert_answered_safely(bot.send(in_one, Command("giris", f"{email} {password}", "11")))

    step_by_step = stranger(bot)
    assert_answered_safely(bot.send(step_by_step, Command("giris", "", "12")))
    assert_answered_safely(bot.send(step_by_step, Text(email, "13")))
    assert_answered_safely(bot.send(step_by_step, Text(password, "14")))
