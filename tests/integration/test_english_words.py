"""English mode as a whole: numbers with their plural forms, the bot's own English tone
descriptions instead of the service's Turkish ones, and a plan's cancel naming the plan."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.dialog_harness import harness, labels, texts

pytestmark = pytest.mark.integration

TITLE = "Artificial intelligence in content writing"


async def test_english_tones_are_described_in_english_and_one_article_is_singular(
    tmp_path: Path,
) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat(language="en")
        await chat.login()
        tones = texts(await chat.say(f"/yaz {TITLE}"))
        assert "Professional — Formal, technical language" in tones, tones
        assert "Resmi" not in tones, "no Turkish description"
        await chat.press("Friendly")
        await chat.press("Medium")
        placed = texts(await chat.press("Confirm"))
        assert "Order" in placed or "order" in placed, placed
        spent = texts(await chat.say("/harcamalar"))
        assert "Medium: 1 article\n" in f"{spent}\n", spent


async def test_cancelling_a_plan_in_english_says_the_plan_was_cancelled(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat(language="en")
        await chat.login()
        asked = await chat.say(f"/takvim every day 09:00: {TITLE}")
        assert "Cancel" in labels(asked), texts(asked)
        cancelled = texts(await chat.press("Cancel"))
        assert "Plan cancelled" in cancelled, cancelled
        assert "Order" not in cancelled
