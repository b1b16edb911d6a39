"""The login page in a real browser: Debian's chromium, headless, with JavaScript off.

The bot runs as ``python -m bot telegram`` does, against the fake Bot API, with its rules
saying no message can be deleted (as WhatsApp's do): ``/giris`` answers a link, the browser
logs in on the page, and the fake Bot API receives "Giriş yapıldı" with the balance. Then the
same on WhatsApp, against the fake Cloud API, where ``giris`` always answers a link.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, async_playwright

from bot.sandbox import DEMO_EMAIL, DEMO_PASSWORD
from tests.e2e.telegram_rig import ALICE, telegram_rig
from tests.e2e.whatsapp_rig import ALICE as WHATSAPP_USER
from tests.e2e.whatsapp_rig import whatsapp_rig
from tests.link_login import keep_every_message, link_in
from tests.ports import free_port

pytestmark = pytest.mark.slow

CHROMIUM = "/usr/bin/chromium"
# A phone's screen: the page must be usable there.
PHONE = {"width": 390, "height": 844}
_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-dev-shm-usage",
    "--no-first-run",
]


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    """Debian's chromium (``apt-get install chromium``): Playwright's own download needs the
    internet."""
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=_FLAGS)
        try:
            yield launched
        finally:
            await launched.close()


async def test_a_user_logs_in_through_the_page_and_the_chat_is_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, browser: Browser
) -> None:
    keep_every_message(monkeypatch, "telegram")
    port = free_port()
    async with telegram_rig(tmp_path, port=port, public_url=f"http://127.0.0.1:{port}") as rig:
        answer = await rig.says(ALICE, "/giris", "/giris/")
        link = link_in(answer.text or "")
        # The link comes as a button that opens it, too.
        assert [button.get("url") for row in answer.buttons for button in row] == [link]
        context = await browser.new_context(
            java_script_enabled=False, viewport=PHONE, is_mobile=True, locale="tr-TR"
        )
        page = await context.new_page()

        await page.goto(link)
        # The page's own style is let through its CSP: inputs span a phone's width.
        box = await page.locator("#email").bounding_box()
        assert box is not None
        assert box["width"] > PHONE["width"] * 0.8
        assert box["height"] >= 40
        await page.fill("#email", DEMO_EMAIL)
        await page.fill("#password", "Wrong1234")
        await page.click("button[type=submit]")
        await page.wait_for_selector("text=E-posta ya da şifre hatalı")
        # The e-mail is kept for the next try; the password never comes back.
        assert await page.input_value("#email") == DEMO_EMAIL
        assert await page.input_value("#password") == ""

        await page.fill("#password", DEMO_PASSWORD)
        await page.click("button[type=submit]")
        await page.wait_for_selector("text=Giriş yapıldı")
        told = await rig.until(ALICE, "Giriş yapıldı. Bakiyeniz")

        assert DEMO_PASSWORD not in (told.text or "")
        await page.goto(link)
        assert "Bu bağlantı kullanıldı" in await page.inner_text("body")
        await context.close()


async def test_a_whatsapp_user_logs_in_through_the_page_and_orders(
    tmp_path: Path, browser: Browser
) -> None:
    async with whatsapp_rig(tmp_path) as rig:
        await rig.wa.user_says(WHATSAPP_USER, "giris")
        link = link_in((await rig.wa.until(WHATSAPP_USER, "/giris/")).text)
        context = await browser.new_context(
            java_script_enabled=False, viewport=PHONE, is_mobile=True, locale="tr-TR"
        )
        page = await context.new_page()

        await page.goto(link)
        await page.fill("#email", DEMO_EMAIL)
        await page.fill("#password", DEMO_PASSWORD)
        await page.click("button[type=submit]")
        await page.wait_for_selector("text=Giriş yapıldı")
        told = await rig.wa.until(WHATSAPP_USER, "Giriş yapıldı")
        await context.close()
        since = len(rig.wa.to(WHATSAPP_USER))
        await rig.wa.user_says(WHATSAPP_USER, "bakiye")
        balance = await rig.wa.until(WHATSAPP_USER, "Bakiyeniz", since=since)

    assert "500,00 TL" in told.text
    assert "500,00 TL" in balance.text
    said = "".join(sent.text for sent in rig.wa.to(WHATSAPP_USER))
    assert DEMO_PASSWORD not in said
