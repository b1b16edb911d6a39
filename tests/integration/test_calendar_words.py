"""The calendar's words as a new user meets them: examples dated from today that work when
copied, a time error that names the wrong part, and a delete that asks first."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tests.dialog_harness import harness, labels, texts

pytestmark = pytest.mark.integration

ISTANBUL = ZoneInfo("Europe/Istanbul")


async def test_the_example_of_an_empty_calendar_is_dated_tomorrow_and_works_when_copied(
    tmp_path: Path,
) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat()
        await chat.login()
        tomorrow = (h.clock.now.astimezone(ISTANBUL) + timedelta(days=1)).strftime("%d.%m.%Y")
        shown = texts(await chat.say("/takvim"))
        example = next(line for line in shown.splitlines() if line.startswith("/takvim "))
        assert example.startswith(f"/takvim {tomorrow} 14:30: "), shown
        tones = await chat.say(example)
        assert "Samimi" in labels(tones), texts(tones)


@pytest.mark.parametrize(
    ("typed", "named"),
    [
        ("31.02.2027 10:00", "31.02.2027 diye bir tarih yok"),
        ("her gün 24:00", "24:00 olmaz: saat 00 ile 23 arasında"),
        ("her gün 9:5", "9:5 olmaz: dakikayı iki haneyle yazın"),
        ("her gün 09:75", "09:75 olmaz: dakika 00 ile 59 arasında"),
        ("her cumba 09:00", "“cumba” bir gün adı değil"),
        ("24:00", "24:00 olmaz"),
        ("09:00", "09:00 hangi gün?"),
        ("yarın", "“yarın” içinde saat yok"),
    ],
)
async def test_a_time_that_cannot_be_read_is_answered_with_its_wrong_part_and_examples(
    tmp_path: Path, typed: str, named: str
) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat()
        await chat.login()
        answer = texts(await chat.say(f"/takvim {typed}: Yapay zekâ ile içerik üretimi"))
        assert named in answer, answer
        tomorrow = (h.clock.now.astimezone(ISTANBUL) + timedelta(days=1)).strftime("%d.%m.%Y")
        assert f"/takvim {tomorrow} 14:30:" in answer, answer
        assert "2026 14:30" not in answer.replace(tomorrow, ""), "no example in the past"


async def test_a_time_in_english_is_explained_in_english(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat(language="en")
        await chat.login()
        await chat.say("/dil")
        answer = texts(await chat.say("/takvim every day 25:00: Artificial intelligence today"))
        assert "25:00 cannot be: the hour runs from 00 to 23" in answer, answer
        assert "/takvim every day 09:00:" in answer
