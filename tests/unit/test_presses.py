"""The table of buttons: every kind of action has one entry, and each keeps the data it wrote."""

from __future__ import annotations

import pytest

from bot.core.conversation import actions
from bot.core.conversation.action_data import ButtonAction
from bot.core.routing.routes import PRESSES, entry_of, parse_action

# Data as the bot wrote it before the table: buttons already in chats must keep working.
WRITTEN: list[tuple[ButtonAction, str]] = [
    (actions.PickTone("abcDEF12", 5), "t|abcDEF12|5"),
    (actions.PickSize("abc-EF_2", 4), "s|abc-EF_2|4"),
    (actions.Confirm("abcDEF12"), "ok|abcDEF12"),
    (actions.Abort("abcDEF12"), "no|abcDEF12"),
    (actions.ShowPage(123456789, 3), "pg|123456789|3"),
    (
        actions.OpenArticle(987654321, "0b7e6c2a-1f5e-4a43-9a57-0f5a2c7c9b11"),
        "op|987654321|0b7e6c2a-1f5e-4a43-9a57-0f5a2c7c9b11",
    ),
    (actions.ExportArticles(7, 0), "zp|7|0"),
    (actions.OrderAgain(7, "req.1:a_b"), "ag|7|req.1:a_b"),
    (actions.OtherTone(7, "req-2"), "at|7|req-2"),
    (actions.ChooseLanguage(7, "en"), "ln|7|en"),
    (actions.SwitchAccount(7, 1), "sw|7|1"),
    (actions.SavePlan("abcDEF12"), "pl|abcDEF12"),
    (actions.PickTarget("abcDEF12", 0), "tg|abcDEF12|0"),
    (actions.PlanAction(7, 42, "d"), "pa|7|42|d"),
    (actions.PickClient("abcDEF12", 0), "pc|abcDEF12|0"),
    (actions.ChangeChoices("abcDEF12"), "cc|abcDEF12"),
    (actions.AddClient(7), "ca|7"),
    (actions.ClientDefaults(7, 42), "cd|7|42"),
    (actions.RemoveClient(7, 42, "y"), "cr|7|42|y"),
    (actions.ClientArticles(7, 42, 2), "cl|7|42|2"),
    (actions.ClientSearch(7, 42, "w6dpw6dlaw"), "cq|7|42|w6dpw6dlaw"),
    (actions.ClientTone(7, 42, 3), "ct|7|42|3"),
    (actions.ClientSize(7, 42, 3, 2), "cz|7|42|3|2"),
    (actions.SpendingCsv(7), "cv|7"),
    (actions.ClientSite(7, 42), "cw|7|42"),
    (actions.ConnectSite(7, 42), "cn|7|42"),
    (actions.RemoveSite(7, 42), "cx|7|42"),
    (actions.PublishDraft(7, "req-3"), "wp|7|req-3"),
    (actions.PickSite("abcDEF12"), "ts|abcDEF12"),
    (actions.PickSitePost("abcDEF12", 1), "tw|abcDEF12|1"),
]


def _kinds() -> set[type[ButtonAction]]:
    """Every kind a button can carry: the classes of ``bot.core.conversation.actions`` that
    name a code."""
    return {
        value
        for value in vars(actions).values()
        if isinstance(value, type) and issubclass(value, ButtonAction) and "code" in vars(value)
    }


def test_every_kind_of_action_has_one_entry_and_no_two_share_a_code() -> None:
    listed = [entry.kind for entry in PRESSES]
    codes = [kind.code for kind in listed]
    assert len(set(listed)) == len(listed), "a kind is listed twice"
    assert len(set(codes)) == len(codes), "two kinds write the same code"
    assert set(listed) == _kinds(), "a kind of button has no entry"
    assert all("|" not in code for code in codes)


@pytest.mark.parametrize(("action", "data"), WRITTEN, ids=lambda x: type(x).__name__)
def test_every_kind_round_trips_through_the_table_byte_for_byte(
    action: ButtonAction, data: str
) -> None:
    assert action.encode() == data
    parsed = parse_action(data)
    assert parsed == action
    assert entry_of(action).kind is type(action)


def test_the_examples_cover_every_entry() -> None:
    assert {type(action) for action, _ in WRITTEN} == {entry.kind for entry in PRESSES}
