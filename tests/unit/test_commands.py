"""Every command the core answers is in the help of both languages, the menus and README."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.core.routing.routes import COMMANDS
from bot.core.texts import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
# /start is Telegram's own way in; /durum answers only in the admin chat, so no menu offers it.
_UNLISTED = {"start", "durum"}


def _menu(code: str) -> list[str]:
    return [name for name, _ in LANGUAGES[code].help_commands]


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_the_help_and_the_telegram_menu_name_every_command(code: str) -> None:
    menu = _menu(code)
    assert len(menu) == len(set(menu)), "a command is listed twice"
    assert set(menu) == set(COMMANDS) - _UNLISTED


def test_both_languages_list_the_commands_in_one_order() -> None:
    orders = {code: _menu(code) for code in LANGUAGES}
    assert len(set(map(tuple, orders.values()))) == 1, orders


def test_the_slack_manifest_declares_every_command() -> None:
    manifest = (ROOT / "slack" / "manifest.yml").read_text(encoding="utf-8")
    declared = re.findall(r"^\s*- command: /(\w+)\s*$", manifest, flags=re.MULTILINE)
    assert set(declared) == set(COMMANDS) - {"start"}


def test_readme_describes_every_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    first_cells = re.findall(r"^\| (`/[^|]*)\|", readme, flags=re.MULTILINE)
    described = {name for cell in first_cells for name in re.findall(r"`/(\w+)", cell)}
    assert described >= set(COMMANDS)
