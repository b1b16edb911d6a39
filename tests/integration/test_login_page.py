"""The login by link through the core and its page over loopback HTTP, against the sandbox."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from bot.core.login_links import LINK_LIFETIME
from bot.login_page import login_routes
from bot.sandbox import DEMO_EMAIL, DEMO_PASSWORD
from bot.web import serving_http, web_app
from storage import users
from tests.dialog_harness import PLATFORM, Chat, Harness, harness, texts
from tests.link_login import csrf_of, keep_every_message, link_in, log_in_by_page
from tests.ports import free_port

LOGGED_IN = "Giriş yapıldı. Bakiyeniz:"
WRONG = "E-posta ya da şifre hatalı."


@dataclass
class Page:
    """A bot whose test platform keeps every message, its login page served on loopback."""

    h: Harness
    http: httpx.AsyncClient

    def login_calls(self) -> int:
        assert self.h.sandbox is not None
        return sum(path.endswith("/auth/login") for _, path in self.h.sandbox.state.request_log)

    async def link(self, chat: Chat) -> str:
        return link_in(texts(await chat.say("/giris")))

    def told(self, chat: Chat) -> list[str]:
        """What the bot posted on its own in the chat's private chat (not answers)."""
        return [c.text for c in self.h.messenger.sent if c.chat.chat_id == chat.origin.chat.chat_id]


@asynccontextmanager
async def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Page]:
    keep_every_message(monkeypatch, PLATFORM)
    port = free_port()
    async with harness(tmp_path, public_url=f"http://127.0.0.1:{port}") as h:
        links = h.bot.services.links
        assert links is not None
        app = web_app(
            login_routes(links, secure_cookie=False),
            health=lambda: _healthy(),
            before_scrape=_nothing,
        )
        async with (
            serving_http(app, port=port, host="127.0.0.1"),
            httpx.AsyncClient(timeout=30) as http,
        ):
            yield Page(h, http)


async def _healthy() -> tuple[bool, dict[str, object]]:
    return True, {}


async def _nothing() -> None:
    return None


@pytest.fixture
async def page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Page]:
    async with served(tmp_path, monkeypatch) as running:
        yield running


async def test_giris_answers_a_link_and_never_asks_for_the_password(page: Page) -> None:
    chat = page.h.chat()
    effects = await chat.say("/giris")
    answer = texts(effects)

    assert link_in(answer).startswith("http://127.0.0.1:")
    assert [b.url for b in chat.screens[-1].buttons[0]] == [link_in(answer)]
    assert "silinemez" in answer
    assert "E-posta adresinizi yazın" not in answer
    # Nothing is awaited in the chat: a password typed there is no login.
    assert "Ne istediğinizi anlamadım" in texts(await chat.say(DEMO_PASSWORD))


async def test_the_page_logs_in_once_and_tells_the_chat(page: Page) -> None:
    chat = page.h.chat()
    link = await page.link(chat)
    shown = await page.http.get(link)

    assert shown.status_code == 200
    assert 'name="viewport"' in shown.text
    assert "<script" not in shown.text
    headers = shown.headers
    assert headers["cache-control"] == "no-store"
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "no-referrer"
    cookie = headers["set-cookie"].lower()
    assert "samesite=strict" in cookie
    assert "httponly" in cookie

    done = await page.http.post(
        link, data={"csrf": csrf_of(shown.text), "email": DEMO_EMAIL, "password": DEMO_PASSWORD}
    )

    assert done.status_code == 200
    assert "Giriş yapıldı" in done.text
    assert DEMO_PASSWORD not in done.text
    assert any(LOGGED_IN in text for text in page.told(chat))
    assert await page.h.bot.services.accounts.is_logged_in(await _user_id(page, chat))
    calls = page.login_calls()
    again = await log_in_by_page_after_use(page, link)
    assert again.status_code == 410
    assert "kullanıldı" in again.text
    assert page.login_calls() == calls


async def log_in_by_page_after_use(page: Page, link: str) -> httpx.Response:
    """Send the used link's form once more (its cookie and token are still in hand)."""
    return await page.http.post(
        link,
        data={"csrf": page.http.cookies["giris_csrf"], "email": DEMO_EMAIL, "password": "x"},
    )


async def test_a_form_without_its_csrf_token_is_refused_and_the_link_still_works(
    page: Page,
) -> None:
    chat = page.h.chat()
    link = await page.link(chat)
    token = csrf_of((await page.http.get(link)).text)
    fields = {"email": DEMO_EMAIL, "password": DEMO_PASSWORD}

    # The form's token alone (a page elsewhere cannot send the SameSite cookie)...
    async with httpx.AsyncClient() as stranger:
        refused = await stranger.post(link, data={**fields, "csrf": token})
    # ...or the cookie alone, or a token of someone else's making.
    no_field = await page.http.post(link, data=fields)
    forged = await page.http.post(link, data={**fields, "csrf": "0" * 64})

    assert [r.status_code for r in (refused, no_field, forged)] == [403, 403, 403]
    assert page.login_calls() == 0
    assert not any(LOGGED_IN in text for text in page.told(chat))
    assert (await log_in_by_page(page.http, link, DEMO_EMAIL, DEMO_PASSWORD)).status_code == 200


async def test_a_wrong_password_keeps_the_link_until_the_right_one(page: Page) -> None:
    chat = page.h.chat()
    link = await page.link(chat)

    wrong = await log_in_by_page(page.http, link, DEMO_EMAIL, "Wrong1234")

    assert wrong.status_code == 400
    assert WRONG in wrong.text
    assert DEMO_EMAIL in wrong.text
    assert "Wrong1234" not in wrong.text
    right = await log_in_by_page(page.http, link, DEMO_EMAIL, DEMO_PASSWORD)
    assert right.status_code == 200
    assert any(LOGGED_IN in text for text in page.told(chat))


async def test_failed_tries_on_the_page_are_throttled_like_any_login(page: Page) -> None:
    chat = page.h.chat()
    link = await page.link(chat)
    for _ in range(5):
        assert WRONG in (await log_in_by_page(page.http, link, DEMO_EMAIL, "Wrong1234")).text
    calls = page.login_calls()

    throttled = await log_in_by_page(page.http, link, DEMO_EMAIL, DEMO_PASSWORD)

    assert "Çok fazla hatalı deneme" in throttled.text
    assert page.login_calls() == calls


async def test_a_link_expires_after_ten_minutes(page: Page) -> None:
    chat = page.h.chat()
    link = await page.link(chat)
    token = csrf_of((await page.http.get(link)).text)
    page.h.advance(LINK_LIFETIME.total_seconds() + 1)

    shown = await page.http.get(link)
    sent = await page.http.post(
        link, data={"csrf": token, "email": DEMO_EMAIL, "password": DEMO_PASSWORD}
    )

    assert shown.status_code == sent.status_code == 410
    assert "süresi doldu" in shown.text
    assert "süresi doldu" in sent.text
    assert page.login_calls() == 0


async def test_a_new_link_ends_the_one_before_and_links_are_not_guessable(page: Page) -> None:
    chat = page.h.chat()
    first = await page.link(chat)
    second = await page.link(chat)

    assert first != second
    assert (await page.http.get(first)).status_code == 410
    assert (await page.http.get(second)).status_code == 200
    assert (
        await page.http.get(second[:-1] + ("A" if second[-1] != "A" else "B"))
    ).status_code == 410


async def test_the_page_speaks_the_users_language(page: Page) -> None:
    chat = page.h.chat()
    await chat.say("/dil")
    await chat.press("English")
    link = await page.link(chat)

    shown = await page.http.get(link)
    wrong = await log_in_by_page(page.http, link, DEMO_EMAIL, "Wrong1234")

    assert '<html lang="en">' in shown.text
    assert "Password" in shown.text
    assert "Wrong e-mail or password." in wrong.text


async def test_the_password_is_stored_and_logged_nowhere(
    page: Page, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    chat = page.h.chat()
    link = await page.link(chat)
    wrong = await log_in_by_page(page.http, link, DEMO_EMAIL, "Wrong1234")
    done = await log_in_by_page(page.http, link, DEMO_EMAIL, DEMO_PASSWORD)

    assert (wrong.status_code, done.status_code) == (400, 200)
    assert DEMO_PASSWORD.encode() not in _database_files(tmp_path)
    assert caplog.records, "the bot logged nothing at DEBUG"
    assert DEMO_PASSWORD not in caplog.text
    assert "Wrong1234" not in caplog.text


def _database_files(folder: Path) -> bytes:
    """The SQLite database's bytes, its write-ahead log's too."""
    return b"".join(path.read_bytes() for path in folder.glob("bot.db*"))


async def _user_id(page: Page, chat: Chat) -> int:
    user = await page.h.bot.db.run(
        lambda s: users.get_or_create_user(
            s, platform=PLATFORM, workspace="", external_id=chat.user
        )
    )
    assert user.id is not None
    return user.id


async def test_a_service_down_is_said_on_the_page_and_leaves_the_link_usable(page: Page) -> None:
    chat = page.h.chat()
    link = await page.link(chat)
    assert page.h.sandbox is not None
    # A login is never retried: one failure is the service's answer.
    page.h.sandbox.state.faults.fail_next(1, status=503)

    down = await log_in_by_page(page.http, link, DEMO_EMAIL, DEMO_PASSWORD)

    assert down.status_code == 400
    assert "yanıt vermiyor" in down.text
    assert (await log_in_by_page(page.http, link, DEMO_EMAIL, DEMO_PASSWORD)).status_code == 200


async def test_a_password_typed_with_giris_is_not_used_where_it_stays(page: Page) -> None:
    chat = page.h.chat()

    answer = texts(await chat.say(f"/giris {DEMO_EMAIL} {DEMO_PASSWORD}"))

    assert link_in(answer)
    assert page.login_calls() == 0
    assert not await page.h.bot.services.accounts.is_logged_in(await _user_id(page, chat))
