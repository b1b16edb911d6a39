"""Logins through the core against the sandbox: throttling, passwords kept out of the chat."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlmodel import select

from storage import LoginAttempt
from tests.integration.dialog_harness import Chat, Harness, harness, texts

THROTTLED = "Çok fazla"


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    async with harness(tmp_path) as running:
        yield running


def login_calls(h: Harness) -> int:
    return sum(path.endswith("/auth/login") for _, path in h.sandbox.state.request_log)


async def guess(chat: Chat, email: str = "someone@example.com") -> str:
    return texts(await chat.say(f"/giris {email} Wrong1234"))


async def test_a_successful_login_does_not_forgive_earlier_failures(h: Harness) -> None:
    chat = h.chat()
    for _ in range(4):
        await guess(chat)
    await chat.login()
    assert THROTTLED not in await guess(chat)
    calls = login_calls(h)

    assert THROTTLED in await guess(chat)
    assert login_calls(h) == calls


async def test_failures_are_counted_per_target_email_across_chat_users(h: Harness) -> None:
    for number in range(10):
        assert THROTTLED not in await guess(h.chat(f"stranger-{number}"), "demo@example.com")
    calls = login_calls(h)

    assert THROTTLED in await guess(h.chat("stranger-10"), "demo@example.com")
    assert THROTTLED not in await guess(h.chat("stranger-11"), "other@example.com")
    assert login_calls(h) == calls + 1


async def test_a_few_users_failing_on_purpose_do_not_lock_out_the_rest(h: Harness) -> None:
    for number in range(6):
        chat = h.chat(f"throwaway-{number}")
        for _ in range(5):
            await guess(chat, f"throwaway-{number}@example.com")

    await h.chat("newcomer").login()
    unlucky = h.chat("typo")
    assert THROTTLED not in await guess(unlucky, "typo@example.com")
    calls = login_calls(h)
    assert THROTTLED in await guess(unlucky, "typo@example.com")
    assert login_calls(h) == calls


async def test_a_user_over_their_own_limit_adds_nothing_to_the_bot_wide_count(
    h: Harness,
) -> None:
    greedy = h.chat("greedy")
    for _ in range(10):
        await guess(greedy)
    for number in range(5):
        chat = h.chat(f"careless-{number}")
        for _ in range(4):
            await guess(chat, f"careless-{number}@example.com")
    calls = login_calls(h)

    assert THROTTLED not in await guess(h.chat("careless-0"), "careless-0@example.com")
    assert login_calls(h) == calls + 1


async def test_the_target_email_is_stored_only_as_a_keyed_hash(h: Harness) -> None:
    await guess(h.chat(), "Secret.Person@example.com")

    rows = h.bot.conversations.services.db.run_sync(lambda s: s.exec(select(LoginAttempt)).all())
    assert len(rows) == 1
    stored = " ".join(str(value) for value in rows[0].model_dump().values()).casefold()
    assert "secret.person" not in stored
    assert rows[0].email_hash is not None
    assert len(rows[0].email_hash) == 64
