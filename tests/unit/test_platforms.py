"""A chat platform is its package and its line in the table: the core names none, the command
line offers each, and a name no platform states gets the open rules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.bootstrap import CHAT_PLATFORMS
from bot.config import load_settings
from bot.core.conversation.events import ChatAddress, Origin, UserKey
from bot.core.platforms import Platforms

CORE = Path(__file__).resolve().parents[2] / "bot" / "core"
NAMES = {chat.name for chat in CHAT_PLATFORMS}


def _strings(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


def test_the_table_holds_every_chat_and_each_once() -> None:
    assert {"telegram", "slack", "whatsapp", "shell"} <= NAMES
    assert len(NAMES) == len(CHAT_PLATFORMS)


def test_the_core_names_no_platform() -> None:
    named = {
        f"{path.relative_to(CORE)}: {value}"
        for path in CORE.rglob("*.py")
        for value in _strings(path) & NAMES
    }
    assert not named, "the core decides by a platform's rules, not its name"


@pytest.mark.parametrize("name", sorted(NAMES))
def test_every_platform_has_its_sub_command(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as leaving:
        main([name, "--help"])
    assert leaving.value.code == 0
    assert "--sandbox" in capsys.readouterr().out


def test_a_name_no_platform_states_gets_the_open_rules() -> None:
    settings = load_settings(_env_file=None, allowed_telegram_users="1", allowed_slack_teams="T1")
    platforms = Platforms(chat.rules(settings) for chat in CHAT_PLATFORMS)
    stranger = Origin(UserKey("elsewhere", "9"), ChatAddress("elsewhere", "9"))
    assert platforms.admits(stranger)
    assert not platforms["elsewhere"].threads_articles
    assert platforms["elsewhere"].login_in_chat
    assert not platforms.admits(Origin(UserKey("telegram", "9"), ChatAddress("telegram", "9")))
    assert not platforms.admits(Origin(UserKey("slack", "U9", "T2"), ChatAddress("slack", "C1")))
    assert platforms.admin_chat("elsewhere:1") is None


def test_the_chats_that_hide_a_password_ask_for_it_there() -> None:
    # Telegram deletes it, Slack's modal and the terminal never show it; a platform whose
    # messages stay (WhatsApp) states login_in_chat=False, and its users get a link instead.
    settings = load_settings(_env_file=None)
    in_chat = {chat.name: chat.rules(settings).login_in_chat for chat in CHAT_PLATFORMS}
    assert [in_chat[name] for name in ("telegram", "slack", "shell")] == [True, True, True]
