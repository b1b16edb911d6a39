"""Typed lines in the terminal chat: commands, choices by number or name, secrets."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from rich.console import Console

from bot.core.conversation.events import ChatAddress, Command, Press, Text
from bot.core.conversation.screens import Button, Document, Screen
from bot.shell.choices import Choices
from bot.shell.lines import ECHO_CHARS, echoed, masked
from bot.shell.messenger import ShellMessenger
from bot.shell.parsing import NamedFile, named_file, parse_line
from bot.shell.render import render_screen

SIZES = Choices.of(
    Screen(
        (),
        (
            (Button("Kısa · 300-500 kelime · 15,00 TL", "s|x|1"),),
            (Button("Çok Uzun · 2500+ kelime · 50,00 TL", "s|x|4"),),
        ),
    ),
    "7",
)


def test_commands_choices_and_text() -> None:
    assert parse_line("/yaz  Bir başlık ", SIZES, "7") == Command("yaz", "Bir başlık")
    assert parse_line("2", SIZES, "7") == Press("s|x|4", "7")
    assert parse_line("cok uzun", SIZES, "7") == Press("s|x|4", "7")
    assert parse_line("KISA", SIZES, "7") == Press("s|x|1", "7")
    assert parse_line("9", SIZES, "7") == Text("9", "7")
    assert parse_line("²", SIZES, "7") == Text("²", "7")
    assert parse_line("   ", SIZES, "7") is None


def test_a_secret_is_text_but_a_command_stays_a_command_and_blank_is_an_answer() -> None:
    assert parse_line("/iptal", SIZES, "7", secret=True) == Command("iptal", "")
    assert parse_line("1", SIZES, "7", secret=True) == Text("1", "7")
    assert parse_line(" Gizli 123 ", SIZES, "7", secret=True) == Text(" Gizli 123 ", "7")
    assert parse_line("", SIZES, "7", secret=True) == Text("", "7")


def test_an_echoed_login_line_hides_the_password() -> None:
    assert masked("/giris demo@example.com Demo12345") == "/giris demo@example.com ••••••••"
    assert masked("/giris demo@example.com") == "/giris demo@example.com"
    assert masked("/yaz Demo12345 başlık") == "/yaz Demo12345 başlık"


PAGE = Screen(
    (),
    (
        (Button("Aç 6", "o|6", key=6), Button("Aç 7", "o|7", key=7)),
        (Button("◀ Önceki", "p|1", aliases=("◀ Önceki", "◀ Previous")),),
    ),
)


def test_listed_items_keep_their_numbers_and_arrows_need_not_be_typed() -> None:
    choices = Choices.of(PAGE, "9")
    assert parse_line("6", choices, "9") == Press("o|6", "9")
    assert parse_line("7", choices, "9") == Press("o|7", "9")
    assert parse_line("1", choices, "9") == Text("1", "9")
    assert parse_line("8", choices, "9") == Press("p|1", "9")
    assert parse_line("önceki", choices, "9") == Press("p|1", "9")
    assert parse_line("PREVIOUS", choices, "9") == Press("p|1", "9")
    assert choices.numbers == (6, 8)
    assert "[6] Aç 6   [7] Aç 7\n  [8] ◀ Önceki" in render_screen(PAGE).plain


def test_a_row_of_an_items_own_buttons_takes_numbers_after_every_listed_one() -> None:
    page = Screen(
        (),
        (
            (Button("Aç 1", "o|1", key=1), Button("Tekrar sipariş · 1", "ag|1")),
            (Button("Aç 2", "o|2", key=2), Button("Tekrar sipariş · 2", "ag|2")),
        ),
    )
    choices = Choices.of(page, "9")
    assert parse_line("1", choices, "9") == Press("o|1", "9")
    assert parse_line("2", choices, "9") == Press("o|2", "9")
    assert parse_line("3", choices, "9") == Press("ag|1", "9")
    assert parse_line("4", choices, "9") == Press("ag|2", "9")
    assert choices.numbers == (1, 4)


def test_a_path_is_a_file_of_titles_and_a_plan_names_its_file_after_its_time() -> None:
    assert parse_line("/home/ayse/basliklar.csv", SIZES, "7") == Text(
        "/home/ayse/basliklar.csv", "7"
    )
    assert parse_line("/toplu basliklar.csv", SIZES, "7") == Command("toplu", "basliklar.csv")
    typed = Text("/home/ayse/basliklar.csv", "7")
    assert named_file(typed, awaits_list=True) == NamedFile("/home/ayse/basliklar.csv")
    plan = Command("takvim", "her gün 09:00: basliklar.csv")
    assert named_file(plan, awaits_list=False) == NamedFile(
        "basliklar.csv", Command("takvim", "her gün 09:00:")
    )
    assert named_file(Command("takvim", "her gün 09:00: Bir başlık"), awaits_list=False) is None
    assert named_file(Text("olmayan-dosya.csv", "7"), awaits_list=False) is None, "a title"


def test_a_file_that_exists_answers_a_single_titles_prompt_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "basliklar.csv").write_text("Yapay zekâ ile içerik üretimi\n")
    monkeypatch.chdir(tmp_path)
    named = named_file(Text("basliklar.csv", "7"), awaits_list=False)
    assert named == NamedFile("basliklar.csv")


def test_a_huge_line_is_echoed_cut_with_the_count_left_out() -> None:
    shown = echoed("x" * 200_000)
    assert len(shown) < ECHO_CHARS + 20
    assert shown.endswith(f"… (+{200_000 - ECHO_CHARS})")
    assert echoed("/giris a@b.co Gizli123") == "/giris a@b.co ••••••••"


def test_an_article_saved_again_is_the_file_already_saved(tmp_path: Path) -> None:
    messenger = ShellMessenger(Console(file=io.StringIO()), tmp_path)
    chat = ChatAddress("shell", "terminal")
    article = Document("yapay-zeka.md", "Aynı makale.".encode(), "Makale")
    asyncio.run(messenger.send_document(chat, article))
    asyncio.run(messenger.send_document(chat, article))
    asyncio.run(messenger.send_document(chat, Document("yapay-zeka.md", b"Another.", "Makale")))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["yapay-zeka-2.md", "yapay-zeka.md"]
