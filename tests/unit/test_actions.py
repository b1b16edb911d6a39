"""Button actions: at most 64 bytes, and nothing but what the bot wrote parses back."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.conversation.action_data import MAX_ACTION_BYTES, ButtonAction
from bot.core.conversation.actions import (
    Abort,
    ChooseLanguage,
    ClientSearch,
    Confirm,
    OpenArticle,
    PickSize,
    PickTone,
    ShowPage,
)
from bot.core.routing.routes import parse_action

EXAMPLES: list[ButtonAction] = [
    PickTone("abcDEF12", 5),
    PickSize("abc-EF_2", 4),
    Confirm("abcDEF12"),
    Abort("abcDEF12"),
    ShowPage(123456789, 3),
    OpenArticle(987654321, "0b7e6c2a-1f5e-4a43-9a57-0f5a2c7c9b11"),
    ChooseLanguage(7, "en"),
]


@pytest.mark.parametrize("action", EXAMPLES, ids=lambda a: type(a).__name__)
def test_every_action_round_trips_within_telegrams_limit(action: ButtonAction) -> None:
    data = action.encode()
    assert len(data.encode()) <= MAX_ACTION_BYTES
    assert parse_action(data) == action


def test_an_action_that_would_not_fit_is_refused_when_built() -> None:
    with pytest.raises(ValueError, match="64 bytes"):
        OpenArticle(1, "x" * 60).encode()


@pytest.mark.parametrize(
    "data",
    [
        "",
        "ok",
        "ok|",
        "ok|short",
        "ok|abcDEF12|extra",
        "t|abcDEF12|x",
        "t|abcDEF12|-1",
        "zz|abcDEF12",
        "ln|1|de",
        "op|1|../../etc",
        "pg|1|2" + "0" * 70,
        "ok|abcDEF1\ud800",
        "ok|abcDEF1\u0131",
    ],
)
def test_tampered_data_is_refused(data: str) -> None:
    assert parse_action(data) is None


@given(st.text(max_size=80))
def test_any_data_parses_to_an_action_or_none(data: str) -> None:
    parsed = parse_action(data)
    assert parsed is None or parsed.encode() == data


def test_a_search_narrowed_to_a_client_keeps_its_words_or_is_not_offered() -> None:
    action = ClientSearch.of(123456789, 42, "İSTANBUL çiçek")
    assert action is not None
    parsed = parse_action(action.encode())
    assert isinstance(parsed, ClientSearch)
    assert parsed.query() == "İSTANBUL çiçek"
    assert ClientSearch.of(123456789, 42, "ğ" * 30) is None, "too long for a button"
    assert ClientSearch(1, 2, "_").query() is None, "not base64 this bot wrote"
