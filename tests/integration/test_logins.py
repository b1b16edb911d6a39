"""Logins through the core against the sandbox: throttling, passwords kept out of the chat."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import Session, select

from bot.core.accounts import Accounts
from bot.core.conversation.events import Press
from bot.core.conversation.screens import Delete, Effect, Send
from bot.core.errors import LoginThrottled
from bot.core.operations.housekeeping import prune
from bot.sandbox import DEMO_EMAIL, LOW_BALANCE_EMAIL, LOW_BALANCE_PASSWORD
from storage import ChatUser, Database, LoginAttempt, TokenCipher, bookkeeping, users
from tests.dialog_harness import Chat, Harness, harness, texts
from tests.fakes import delivery_rig

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


async def test_the_bot_wide_limit_holds_for_a_user_with_a_clean_record(h: Harness) -> None:
    for number in range(6):
        chat = h.chat(f"throwaway-{number}")
        for _ in range(5):
            await guess(chat, f"throwaway-{number}@example.com")
    calls = login_calls(h)

    # A workspace of fresh users is no way round the guard of the bot's address.
    assert THROTTLED in await guess(h.chat("newcomer"), "newcomer@example.com")
    assert THROTTLED in texts(await h.chat("other").say("/giris demo@example.com Demo12345"))
    assert login_calls(h) == calls


async def test_concurrent_logins_for_one_email_reach_the_service_ten_times_at_most(
    h: Harness,
) -> None:
    assert h.sandbox is not None
    h.sandbox.state.faults.latency = 0.3
    chats = [h.chat(f"colleague-{number}") for number in range(40)]

    answers = await asyncio.gather(*(guess(chat, "demo@example.com") for chat in chats))

    assert login_calls(h) == 10
    assert sum(THROTTLED in answer for answer in answers) == 30


async def test_a_login_that_never_settled_stops_counting_after_its_reservation(
    h: Harness,
) -> None:
    db = h.bot.conversations.services.db
    chat = h.chat("crashed")
    await chat.say("/yardim")
    user = db.run_sync(
        lambda s: s.exec(select(ChatUser).where(ChatUser.external_id == "crashed")).one()
    )
    assert user.id is not None
    user_id, now = user.id, h.clock()

    # What a process killed in the middle of five login calls leaves behind.
    def reserve(session: Session) -> None:
        for _ in range(5):
            until = now + timedelta(seconds=2)
            bookkeeping.reserve_login(session, user_id=user_id, at=now, email_hash="x", until=until)

    db.run_sync(reserve)
    assert THROTTLED in await guess(chat)
    h.advance(3)
    await chat.login()


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


def deleted_with_a_note(effects: list[Effect]) -> bool:
    first = effects[0] if effects else None
    return isinstance(first, Delete) and bool(first.note)


@pytest.mark.parametrize("gap", ["\n", "\t", " \n "])
async def test_a_one_message_login_split_by_any_whitespace_is_deleted(h: Harness, gap: str) -> None:
    effects = await h.chat().say(f"/giris demo@example.com{gap}Demo12345")

    assert deleted_with_a_note(effects)
    assert "Giriş yapıldı" in texts(effects)


async def test_a_password_typed_with_the_email_at_its_prompt_is_deleted(h: Harness) -> None:
    chat = h.chat()
    await chat.say("/giris")

    effects = await chat.say("demo@example.com Demo12345")

    assert deleted_with_a_note(effects)
    assert "Giriş yapıldı" in texts(effects)


async def test_a_password_in_a_group_is_deleted_whatever_separates_it(h: Harness) -> None:
    effects = await h.chat(private=False).say("/giris demo@example.com\nDemo12345")

    assert deleted_with_a_note(effects)
    assert "özel mesajla" in texts(effects)
    assert login_calls(h) == 0


async def test_the_password_prompt_answers_a_command_as_a_command(h: Harness) -> None:
    chat = h.chat()
    await chat.say("/giris demo@example.com")

    effects = await chat.say("/iptal")

    assert "İptal edildi" in texts(effects)
    assert login_calls(h) == 0


async def test_an_empty_password_gets_an_answer_and_the_prompt_stays(h: Harness) -> None:
    chat = h.chat()
    await chat.say("/giris demo@example.com")

    assert "boş" in texts(await chat.say("   "))
    assert login_calls(h) == 0
    assert "Giriş yapıldı" in texts(await chat.say("Demo12345"))


async def test_an_upstream_refusal_shows_the_services_own_message_once(h: Harness) -> None:
    # Our check lets a trailing dot pass; the service's stricter one refuses it.
    answer = texts(await h.chat().say("/giris demo@example.com. Demo12345"))

    assert answer.count("Geçerli bir e-posta adresi giriniz") == 1
    assert "Geçerli bir e-posta adresi giriniz. " in answer
    assert ".." not in answer
    assert "login:" not in answer
    assert "400" not in answer


async def test_login_while_logged_in_names_the_account_and_asks_before_switching(
    h: Harness,
) -> None:
    chat = h.chat()
    await chat.login()

    asked = await chat.say("/giris")

    assert "d***@example.com" in texts(asked)
    assert "E-posta adresinizi" not in texts(asked)
    kept = await chat.press("Vazgeç")
    assert "d***@example.com" in texts(kept)
    assert "Giriş yaptınız: d***@example.com" in texts(await chat.say("/yardim"))
    await chat.say("/giris")
    assert "E-posta adresinizi" in texts(await chat.press("Hesap değiştir"))
    switched = await chat.say(f"{LOW_BALANCE_EMAIL} {LOW_BALANCE_PASSWORD}")
    assert "Giriş yapıldı" in texts(switched)
    masked = f"{LOW_BALANCE_EMAIL[0]}***@{LOW_BALANCE_EMAIL.partition('@')[2]}"
    assert f"Giriş yaptınız: {masked}" in texts(await chat.say("/start"))


async def test_a_press_on_another_users_switch_button_changes_nothing(h: Harness) -> None:
    owner, other = h.chat("owner"), h.chat("other")
    await owner.login()
    asked = await owner.say("/giris")
    switch = next(e.screen for e in asked if isinstance(e, Send) and e.screen.buttons)
    button, message_id = owner.find("Hesap değiştir", switch)

    effects = await other.send(Press(button.data, message_id))

    assert "size ait değil" in texts(effects)


@pytest.mark.postgres
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
async def test_concurrent_logins_through_two_replicas_on_postgresql_reach_the_service_ten_times(
    database_url: str, cipher: TokenCipher
) -> None:
    replica_a, replica_b = Database.connect(database_url), Database.connect(database_url)
    replica_a.migrate()
    try:
        async with delivery_rig(replica_a) as rig:
            replicas = [
                Accounts(db=db, api=rig.api, cipher=cipher, clock=rig.clock)
                for db in (replica_a, replica_b)
            ]

            def colleagues(session: Session) -> list[int]:
                made = [
                    users.get_or_create_user(
                        session, platform="slack", workspace="T1", external_id=f"U{number}"
                    )
                    for number in range(40)
                ]
                return [user.id for user in made if user.id is not None]

            user_ids = await replica_a.run(colleagues)
            before = sum(path.endswith("/auth/login") for _, path in rig.sandbox.state.request_log)
            rig.sandbox.state.faults.latency = 0.3

            outcomes = await asyncio.gather(
                *(
                    replicas[number % 2].login(user_id, DEMO_EMAIL, f"Wrong{number:04}")
                    for number, user_id in enumerate(user_ids)
                ),
                return_exceptions=True,
            )

            calls = sum(path.endswith("/auth/login") for _, path in rig.sandbox.state.request_log)
            assert calls - before == 10
            assert sum(isinstance(outcome, LoginThrottled) for outcome in outcomes) == 30
    finally:
        replica_a.dispose()
        replica_b.dispose()


async def test_an_email_left_waiting_for_its_password_is_erased_by_housekeeping(
    h: Harness,
) -> None:
    db = h.bot.conversations.services.db
    chat = h.chat("forgetful")
    await chat.say("/giris")
    await chat.say("unutkan@example.com")

    def waiting(session: Session) -> str | None:
        user = session.exec(select(ChatUser).where(ChatUser.external_id == "forgetful")).one()
        return user.awaiting_context

    assert db.run_sync(waiting) == "unutkan@example.com"
    await prune(db, h.clock)
    assert db.run_sync(waiting) == "unutkan@example.com", "kept while the password may come"
    h.advance(11 * 60)
    await prune(db, h.clock)
    assert db.run_sync(waiting) is None
