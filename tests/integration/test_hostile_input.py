"""Hostile input through the core against the sandbox: stored and shown only when harmless."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.dialog_harness import Harness, harness, texts


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    async with harness(tmp_path) as running:
        yield running


async def test_control_characters_are_removed_from_a_title_before_it_is_kept(
    h: Harness,
) -> None:
    chat = h.chat()
    await chat.login()
    await chat.say("/yaz Yapay\x00 zekâ\x1b ile\u0085 içerik\x07 üretimi\ud800")
    await chat.press("Profesyonel")

    summary = texts(await chat.press("Orta"))

    assert "Yapay zekâ ile içerik üretimi" in summary
    assert not any(character in summary for character in "\x00\x1b\x85\x07\ud800")
