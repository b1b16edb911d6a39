"""Telegram logins end to end: every message that may hold a password leaves the chat."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.telegram_rig import ALICE, BOB, Rig, telegram_rig

NOTE = "Şifre içerebileceği için mesajınızı sildim"
NOT_DELETED = "silemedim"


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    async with telegram_rig(tmp_path) as running:
        yield running


def deleted(rig: Rig, message: dict[str, object], chat_id: int) -> bool:
    return (
        rig.count(
            "deleteMessage",
            lambda p: p["message_id"] == message["message_id"] and p["chat_id"] == chat_id,
        )
        == 1
    )


async def test_a_password_after_a_newline_or_a_tab_is_deleted_with_a_note(rig: Rig) -> None:
    group = -700
    in_a_group = rig.telegram.user_says(
        BOB, "/giris demo@example.com\nDemo12345", chat_id=group, chat_type="group"
    )
    await rig.until(group, "özel mesajla")
    assert deleted(rig, in_a_group, group)
    # The test bot is no admin of the group, so Telegram refused: the user is told to do it.
    assert rig.shown(group, NOT_DELETED) is not None
    assert rig.shown(group, NOTE) is None

    one_message = rig.telegram.user_says(ALICE, "/giris demo@example.com\tDemo12345")
    await rig.until(ALICE, "Giriş yapıldı")
    assert deleted(rig, one_message, ALICE)
    assert rig.shown(ALICE, NOTE) is not None


async def test_an_email_prompt_answered_with_the_password_too_is_deleted(rig: Rig) -> None:
    await rig.says(ALICE, "/giris", "E-posta adresinizi yazın")

    both = rig.telegram.user_says(ALICE, "demo@example.com Demo12345")

    await rig.until(ALICE, "Giriş yapıldı")
    assert deleted(rig, both, ALICE)
