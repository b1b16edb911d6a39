"""WhatsApp end to end: the bot as users start it, people writing through the fake Cloud API."""

from __future__ import annotations

import asyncio
import itertools
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlmodel import select

from bot.bodies import MAX_BODY_BYTES
from bot.core.limits.inflight import IN_FLIGHT_PER_USER
from bot.core.texts import texts_for
from bot.core.texts.tr import TURKISH
from bot.sandbox import DEMO_PASSWORD
from storage import Database, Job
from tests.e2e.bot_process import fresh_env
from tests.e2e.fake_whatsapp import FakeWhatsApp, Sent
from tests.e2e.fake_whatsapp.limits import RE_ENGAGEMENT, GraphError
from tests.e2e.fake_whatsapp.records import APP_SECRET, PHONE_NUMBER_ID, TOKEN
from tests.e2e.fake_whatsapp.webhooks import SIGNATURE_HEADER, message_value, notification
from tests.e2e.fake_whatsapp.webhooks import sign as sign_with
from tests.e2e.order_labels import TITLE
from tests.e2e.slack_rig import until_serving
from tests.e2e.whatsapp_rig import ALICE, BOB, VERIFY_TOKEN, WhatsAppRig, whatsapp_rig
from tests.fakes import wait_until
from tests.ports import free_port

pytestmark = pytest.mark.e2e


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[WhatsAppRig]:
    async with whatsapp_rig(tmp_path) as started:
        yield started


async def test_meta_verifies_the_webhook_with_the_token_alone(rig: WhatsAppRig) -> None:
    url = f"{rig.base_url}/whatsapp/webhook"
    asked = {"hub.mode": "subscribe", "hub.challenge": "1158201444"}
    right = await rig.http.get(url, params={**asked, "hub.verify_token": VERIFY_TOKEN})
    wrong = await rig.http.get(url, params={**asked, "hub.verify_token": "guess"})
    assert (right.status_code, right.text) == (200, "1158201444")
    assert wrong.status_code == 403


async def test_a_command_without_the_slash_is_answered(rig: WhatsAppRig) -> None:
    await rig.log_in()
    await rig.wa.user_says(ALICE, "bakiye")
    answer = await rig.wa.until(ALICE, "TL")
    assert answer.type == "text"


def _log(rig: WhatsAppRig) -> str:
    return "\n".join(f"{s.type}: {s.text[:80]!r} {list(s.choices)}" for s in rig.wa.sent)


async def test_an_order_with_a_list_and_buttons_creates_once_for_a_double_tap(
    rig: WhatsAppRig,
) -> None:
    await rig.log_in()
    await rig.wa.user_says(ALICE, f"yaz {TITLE}")
    await wait_until(lambda: any(s.choices for s in rig.wa.to(ALICE)))
    tones = next(s for s in rig.wa.to(ALICE) if s.choices)
    assert tones.content["type"] == "list", _log(rig)
    since = len(rig.wa.to(ALICE))
    await rig.wa.user_chooses(ALICE, tones, next(iter(tones.choices)))
    await wait_until(lambda: any(s.choices for s in rig.wa.to(ALICE)[since:]))
    sizes = next(s for s in rig.wa.to(ALICE)[since:] if s.choices)
    assert sizes.content["type"] == "list", _log(rig)
    assert len([title for title in sizes.choices if "kelime" in title]) == 4
    since = len(rig.wa.to(ALICE))
    short = next(title for title in sizes.choices if title.startswith("Kısa"))
    await rig.wa.user_chooses(ALICE, sizes, short)
    await wait_until(lambda: any(s.choices for s in rig.wa.to(ALICE)[since:]))
    summary = next(s for s in rig.wa.to(ALICE)[since:] if s.choices)
    assert summary.content["type"] == "button", _log(rig)
    assert "Onayla" in summary.choices, _log(rig)
    await rig.wa.user_chooses(ALICE, summary, "Onayla")
    await rig.wa.user_chooses(ALICE, summary, "Onayla")
    await wait_until(lambda: rig.sandbox.state.create_count == 1)
    await rig.wa.until(ALICE, TITLE, since=since + 1)
    assert rig.sandbox.state.create_count == 1


def _menus(rig: WhatsAppRig, person: str) -> list[Sent]:
    return [sent for sent in rig.wa.to(person) if sent.choices]


async def _order(rig: WhatsAppRig, size: str, person: str = ALICE) -> None:
    """Order the title through the dialog: tone, size, Onayla."""
    seen = len(_menus(rig, person))
    await rig.wa.user_says(person, f"yaz {TITLE}")
    for pick in ("", size, "Onayla"):
        await wait_until(lambda: len(_menus(rig, person)) > seen)  # noqa: B023
        shown = _menus(rig, person)[seen]
        seen += 1
        choice = next(title for title in shown.choices if title.startswith(pick))
        await rig.wa.user_chooses(person, shown, choice)
    await wait_until(lambda: rig.sandbox.state.create_count == 1)


async def test_a_long_article_arrives_in_parts_and_files_within_the_pace(
    tmp_path: Path,
) -> None:
    async with whatsapp_rig(tmp_path, speed=600) as rig:
        await rig.log_in()
        await _order(rig, "Çok Uzun")
        await rig.wa.until(ALICE, "Kalite kartı")
    start = next(i for i, s in enumerate(rig.wa.to(ALICE)) if s.text.startswith(f"*{TITLE}*"))
    parts = [s for s in rig.wa.to(ALICE)[start:] if s.type == "text"][:-1]
    documents = [s for s in rig.wa.to(ALICE) if s.type == "document"]
    assert rig.wa.refused == [], "WhatsApp refused nothing: the pace was kept"
    assert all(len(s.text) <= 4096 for s in rig.wa.to(ALICE))
    assert len(parts) >= 4, _log(rig)
    assert [d.content["filename"].rsplit(".", 1)[1] for d in documents] == ["md", "html"]
    assert {rig.wa.media[d.content["id"]].mime_type for d in documents} == {"text/plain"}
    paced = rig.wa.to(ALICE)[5:]
    gaps = [b.at - a.at for a, b in itertools.pairwise(paced)]
    assert min(gaps) >= 6.0 - 0.5, gaps


DAY = 24 * 3600


def sign(body: bytes) -> str:
    return sign_with(body, APP_SECRET)


def _article_texts(rig: WhatsAppRig, person: str = ALICE) -> list[Sent]:
    return [s for s in rig.wa.to(person) if s.type == "text" and s.text.startswith(f"*{TITLE}*")]


def _templates(rig: WhatsAppRig, person: str = ALICE) -> list[Sent]:
    return [s for s in rig.wa.to(person) if s.type == "template"]


async def test_after_the_window_the_template_announces_and_the_article_follows_a_message(
    tmp_path: Path,
) -> None:
    async with whatsapp_rig(tmp_path, speed=600) as rig:
        await rig.log_in()
        await _order(rig, "Kısa")
        rig.time.advance(DAY + 60)
        await wait_until(lambda: bool(_templates(rig)))
        (template,) = _templates(rig)
        assert template.content["name"] == "makale_hazir"
        parameters = template.content["components"][0]["parameters"]
        assert parameters == [{"type": "text", "text": TITLE}]
        assert _article_texts(rig) == []
        await rig.wa.user_says(ALICE, "merhaba")
        await rig.wa.until(ALICE, "Kalite kartı")
    assert len(_article_texts(rig)) == 1
    assert len(_templates(rig)) == 1, _log(rig)


async def test_a_window_failure_told_by_a_status_keeps_the_article_for_the_templates_button(
    tmp_path: Path,
) -> None:
    async with whatsapp_rig(tmp_path, speed=600, window_errors="status") as rig:
        await rig.log_in()
        await _order(rig, "Kısa")
        # Sends are taken from now on, and each fails a moment later by a status.
        await rig.wa.until(ALICE, "Hazırlanıyor")
        rig.time.advance(DAY + 60)
        await wait_until(lambda: bool(_templates(rig)))
        (template,) = _templates(rig)
        await rig.wa.user_presses_template_button(ALICE, template, "Makaleyi gönder")
        pressed = rig.wa.to(ALICE).index(template) + 1
        await rig.wa.until(ALICE, "Kalite kartı", since=pressed)
    sent = rig.wa.to(ALICE)
    preparing = next(i for i, s in enumerate(sent) if s.text.startswith("Hazırlanıyor"))
    failed = {s.text for s in sent[preparing + 1 : pressed - 1] if s.type == "text"}
    again = {s.text for s in sent[pressed:]}
    assert failed, _log(rig)
    assert failed <= again, _log(rig)
    assert len(_templates(rig)) == 1, _log(rig)


async def test_a_file_failed_by_a_status_after_a_restart_is_sent_again_with_what_follows(
    tmp_path: Path,
) -> None:
    async with whatsapp_rig(tmp_path, speed=600) as rig:
        await rig.log_in()
        await _order(rig, "Kısa")
        await rig.wa.until(ALICE, "Kalite kartı")
        files = [s.content["filename"] for s in rig.wa.to(ALICE) if s.type == "document"]
        markdown = next(s for s in rig.wa.to(ALICE) if s.type == "document")
        await rig.restart()
        rig.time.advance(DAY + 60)
        # Accepted, then failed for the window: told after the bot restarted.
        closed = GraphError(RE_ENGAGEMENT, "more than 24 hours since the customer replied")
        assert await rig.wa.status(markdown, "failed", [closed.status_error()]) == 200
        await wait_until(lambda: bool(_templates(rig)))
        (template,) = _templates(rig)
        await rig.wa.user_presses_template_button(ALICE, template, "Makaleyi gönder")
        pressed = rig.wa.to(ALICE).index(template) + 1
        await rig.wa.until(ALICE, "Kalite kartı", since=pressed)
    again = rig.wa.to(ALICE)[pressed:]
    assert [s.content["filename"] for s in again if s.type == "document"] == files, _log(rig)
    assert len(_article_texts(rig)) == 1, "the parts before the file stay delivered"


async def test_a_restart_announces_no_article_again_while_the_window_is_shut(
    tmp_path: Path,
) -> None:
    closed = GraphError(RE_ENGAGEMENT, "more than 24 hours since the customer replied")
    async with whatsapp_rig(tmp_path, speed=600) as rig:
        await rig.log_in()
        await _order(rig, "Kısa")
        await rig.wa.until(ALICE, "Kalite kartı")
        (first_part,) = _article_texts(rig)
        markdown = next(s for s in rig.wa.to(ALICE) if s.type == "document")
        rig.time.advance(DAY + 60)
        assert await rig.wa.status(markdown, "failed", [closed.status_error()]) == 200
        await wait_until(lambda: bool(_templates(rig)))
        await rig.restart()
        # The article's first part failed too, told after the restart: it goes back further.
        assert await rig.wa.status(first_part, "failed", [closed.status_error()]) == 200
        await wait_until(lambda: _parts_sent(rig) == 0)
        (template,) = _templates(rig)
        await rig.wa.user_presses_template_button(ALICE, template, "Makaleyi gönder")
        pressed = rig.wa.to(ALICE).index(template) + 1
        await rig.wa.until(ALICE, "Kalite kartı", since=pressed)
    assert len(_article_texts(rig)) == 2, "the article came again from its first part"
    assert len(_templates(rig)) == 1, _log(rig)


def _parts_sent(rig: WhatsAppRig) -> int | None:
    """How far the article's delivery is, as stored."""
    database = Database.connect(rig.settings.effective_database_url)
    try:
        job = database.run_sync(lambda s: s.exec(select(Job)).one())
    finally:
        database.dispose()
    return job.parts_sent


# A part's message: plain, or with the buttons under the article's last part.
_TEXTS = ("text", "interactive")


async def test_an_article_failed_by_a_status_survives_a_restart_and_follows_whole_once(
    tmp_path: Path,
) -> None:
    async with whatsapp_rig(tmp_path, speed=600, window_errors="status") as rig:
        await rig.log_in()
        await _order(rig, "Uzun")
        await rig.wa.until(ALICE, "Hazırlanıyor")
        rig.time.advance(DAY + 60)
        closed = len(rig.wa.to(ALICE))
        await wait_until(lambda: bool(_templates(rig)))
        failing = [s for s in rig.wa.to(ALICE)[closed:] if s.type != "template"]
        # Every status told and taken before the bot stops; nothing is kept in its memory.
        await wait_until(lambda: {s.id for s in failing} <= set(rig.wa.told))
        await rig.restart()
        (template,) = _templates(rig)
        await rig.wa.user_presses_template_button(ALICE, template, "Makaleyi gönder")
        pressed = len(rig.wa.to(ALICE))
        await rig.wa.until(ALICE, "Kalite kartı", since=pressed)
    again = rig.wa.to(ALICE)[pressed:]
    parts = [s for s in again if s.type in _TEXTS][:-1]
    documents = [s for s in again if s.type == "document"]
    assert parts[0].text.startswith(f"*{TITLE}*"), _log(rig)
    assert parts[-1].choices, "the last part, with its buttons: the article came whole"
    assert len({s.text for s in parts}) == len(parts), _log(rig)
    failed = [s.text for s in failing if s.type in _TEXTS]
    assert [s.text for s in parts[: len(failed)]] == failed, _log(rig)
    assert len(documents) == 2, _log(rig)
    assert len(_templates(rig)) == 1, _log(rig)


async def test_forged_or_oversized_webhooks_are_refused_before_reading(rig: WhatsAppRig) -> None:
    said = {"type": "text", "text": {"body": "bakiye"}}
    value = message_value(ALICE, {"id": "wamid.forged", **said}, name="Mallory", at=0)
    forged = await rig.wa.post_webhook(value, secret="not-the-app-secret")
    url = f"{rig.base_url}/whatsapp/webhook"
    unsigned = await rig.http.post(url, content=notification(PHONE_NUMBER_ID, value))
    huge = b"x" * (MAX_BODY_BYTES + 1)
    oversized = await rig.http.post(url, content=huge, headers={SIGNATURE_HEADER: sign(huge)})
    signed_junk = b"{not json"
    junk = await rig.http.post(
        url, content=signed_junk, headers={SIGNATURE_HEADER: sign(signed_junk)}
    )
    assert (forged, unsigned.status_code) == (401, 401)
    assert oversized.status_code == 413
    assert junk.status_code == 400
    assert rig.wa.to(ALICE) == []


@pytest.mark.parametrize(
    "message",
    [
        {"type": "sticker", "sticker": {"id": "media.1", "mime_type": "image/webp"}},
        {"type": "location", "location": {"latitude": 41.0, "longitude": 29.0}},
        {"type": "text", "text": {"body": "ç" * 10_000}},
    ],
    ids=["sticker", "location", "huge-text"],
)
async def test_what_the_bot_cannot_read_is_answered_shortly(
    rig: WhatsAppRig, message: dict[str, Any]
) -> None:
    await rig.wa.user_sends(ALICE, message)
    await wait_until(lambda: bool(rig.wa.to(ALICE)))
    (answer,) = rig.wa.to(ALICE)
    assert answer.type == "text"
    assert 0 < len(answer.text) < 300


async def test_delivery_statuses_are_taken_and_not_answered(rig: WhatsAppRig) -> None:
    await rig.wa.user_says(ALICE, "yardim")
    help_message = await rig.wa.until(ALICE, "")
    for status in ("sent", "delivered", "read"):
        assert await rig.wa.status(help_message, status) == 200
    await rig.wa.user_says(ALICE, "/yardim")
    await wait_until(lambda: len(rig.wa.to(ALICE)) >= 2)
    assert len(rig.wa.to(ALICE)) == 2


async def test_a_document_of_titles_is_downloaded_with_the_token_for_a_bulk_order(
    rig: WhatsAppRig,
) -> None:
    await rig.log_in()
    titles = "Bahçe bakımında ilk adımlar\nKış aylarında ev ısıtma rehberi\n"
    await rig.wa.user_sends_document(ALICE, "basliklar.txt", titles.encode())
    summary = await rig.wa.until(ALICE, "Kış aylarında ev ısıtma rehberi")
    assert "Bahçe bakımında ilk adımlar" in summary.text
    assert "Profesyonel" in summary.choices, "on to the tone, as for one title"


async def test_giris_asks_for_no_password_in_the_chat_but_logs_in_by_the_page(
    rig: WhatsAppRig,
) -> None:
    await rig.wa.user_says(ALICE, "giris")
    answer = await rig.wa.until(ALICE, "/giris/")
    await rig.wa.user_says(ALICE, "demo@example.com")
    await wait_until(lambda: len(rig.wa.to(ALICE)) == 2)
    assert TURKISH.login_page.link in answer.text
    assert not answer.choices, "the link is in the text: no reply button opens an address"
    assert "Şifre" not in rig.wa.to(ALICE)[1].text, "an e-mail typed after it asks for nothing"

    await rig.log_in()

    (told,) = [sent for sent in rig.wa.to(ALICE) if "Giriş yapıldı" in sent.text]
    assert "500,00 TL" in told.text
    assert DEMO_PASSWORD not in "".join(sent.text for sent in rig.wa.to(ALICE))


async def test_a_number_off_the_allow_list_is_refused_once_even_in_a_flood(tmp_path: Path) -> None:
    async with whatsapp_rig(tmp_path, allowed_whatsapp_users=BOB) as rig:
        flood = 3 * IN_FLIGHT_PER_USER
        await asyncio.gather(*(rig.wa.user_says(ALICE, "bakiye") for _ in range(flood)))
        await rig.wa.user_says(BOB, "yardim")
        await rig.wa.until(BOB, "")
        await wait_until(lambda: bool(rig.wa.to(ALICE)))
    (refusal,) = rig.wa.to(ALICE)
    assert refusal.text != texts_for("tr").too_fast
    assert rig.sandbox.state.create_count == 0


async def test_a_flood_past_the_in_flight_cap_is_told_once_and_dropped(rig: WhatsAppRig) -> None:
    flood = 3 * IN_FLIGHT_PER_USER
    await asyncio.gather(*(rig.wa.user_says(ALICE, "yardim") for _ in range(flood)))
    told = texts_for("tr").too_fast
    await wait_until(lambda: rig.wa.last_to(ALICE, told) is not None)
    await wait_until(lambda: len(rig.wa.to(ALICE)) >= IN_FLIGHT_PER_USER + 1)
    assert len([s for s in rig.wa.to(ALICE) if s.text == told]) == 1
    assert len(rig.wa.to(ALICE)) < flood


async def test_python_m_bot_whatsapp_answers_a_signed_message_and_stops_on_sigterm(
    tmp_path: Path,
) -> None:
    async with FakeWhatsApp.running() as wa, httpx.AsyncClient(timeout=10) as http:
        port = free_port()
        env = fresh_env()
        env.update(
            {
                "WHATSAPP_ACCESS_TOKEN": TOKEN,
                "WHATSAPP_PHONE_NUMBER_ID": PHONE_NUMBER_ID,
                "WHATSAPP_APP_SECRET": APP_SECRET,
                "WHATSAPP_VERIFY_TOKEN": VERIFY_TOKEN,
                "WHATSAPP_API_URL": wa.api_url,
                "PORT": str(port),
                "PUBLIC_URL": f"http://127.0.0.1:{port}",
            }
        )
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "whatsapp",
            "--sandbox",
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        wa.webhook_url = f"http://127.0.0.1:{port}/whatsapp/webhook"
        try:
            await until_serving(
                http, f"http://127.0.0.1:{port}", asyncio.ensure_future(process.wait())
            )
            await wa.user_says(ALICE, "/yardim")
            answer = await wa.until(ALICE, "")
        finally:
            process.send_signal(signal.SIGTERM)
            _, stderr = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 0, stderr.decode()
    assert TOKEN not in stderr.decode()
    assert "makalelerim" in answer.text


async def test_dil_en_answers_in_english_after_turkish_first(rig: WhatsAppRig) -> None:
    await rig.wa.user_says(ALICE, "yardim")
    turkish = await rig.wa.until(ALICE, "")
    await rig.wa.user_says(ALICE, "dil en")
    await wait_until(lambda: len(rig.wa.to(ALICE)) == 2)
    await rig.wa.user_says(ALICE, "yardim")
    await wait_until(lambda: len(rig.wa.to(ALICE)) == 3)
    english = rig.wa.to(ALICE)[2]
    assert texts_for("tr").help_commands[0][1] in turkish.text
    assert texts_for("en").help_commands[0][1] in english.text
