"""A list of titles typed after /toplu or /takvim follows a file's rule: a title the service
would refuse is left out and named with its reason, and a list with no title is answered."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.conversation.events import Upload
from tests.dialog_harness import harness, labels, texts

pytestmark = pytest.mark.integration

FIRST = "Yapay zekâ ile içerik üretimi"
SECOND = "Bulut bilişimin kısa tarihi"


async def test_a_typed_list_leaves_out_a_bad_title_as_a_file_does(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat()
        await chat.login()
        typed = texts(await chat.say(f"/toplu {FIRST}; Kısa; {SECOND}; {FIRST}"))
        await chat.press("İptal")
        rows = f"{FIRST}\nKısa\n{SECOND}\n{FIRST}\n".encode()
        filed = texts(await chat.send(Upload("liste.txt", rows, len(rows))))
        for shown in (typed, filed):
            assert "Başlıklar (2):" in shown, shown
            assert "Alınmayan başlıklar (2):" in shown
            assert "Kısa — çok kısa (en az 10 karakter)" in shown
            assert f"{FIRST} — listede zaten var" in shown
            assert "Samimi" in shown, "the order goes on to the tone"


@pytest.mark.parametrize("typed", ["/toplu ;;;", "/toplu |", "/takvim her gün 09:00: ;;"])
async def test_a_list_without_a_title_is_answered_and_the_titles_are_asked_again(
    tmp_path: Path, typed: str
) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat()
        await chat.login()
        answer = texts(await chat.say(typed))
        assert "Listede sipariş edilebilecek başlık yok" in answer, answer
        assert "karakter olmalı: -" not in answer
        tones = await chat.say(f"{FIRST}\n{SECOND}")
        assert "Samimi" in labels(tones), "the titles are still awaited"
