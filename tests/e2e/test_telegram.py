"""The Telegram bot end to end: the real python-telegram-bot Application against a fake Bot API."""

from __future__ import annotations

import asyncio
import gc
import io
import logging
import os
import re
import signal
import subprocess
import sys
import zipfile
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from bot.bootstrap import platforms_named, serve_chats
from bot.config import ConfigError, load_settings
from bot.logs import configure_logging
from bot.sandbox import LOW_BALANCE_EMAIL, LOW_BALANCE_PASSWORD
from storage import generate_key
from tests.e2e.article_lines import shown_lines
from tests.e2e.fake_telegram import FakeTelegram
from tests.e2e.fake_telegram.records import StoredMessage
from tests.e2e.order_labels import MEDIUM, SHORT, TITLE, VERY_LONG
from tests.e2e.telegram_rig import ALICE, BOB, TOKEN, Rig, telegram_rig


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    async with telegram_rig(tmp_path) as running:
        yield running


async def order(rig: Rig, size: str, user: int = ALICE, title: str = TITLE):
    tones = await rig.says(user, f"/yaz {title}", "Yazım tonunu seçin")
    sizes = await rig.presses(user, tones, "Profesyonel", "Makale boyutunu seçin")
    return await rig.presses(user, sizes, size, "Bakiyeniz")


async def test_a_new_user_logs_in_orders_watches_and_receives_the_article(rig: Rig) -> None:
    await rig.says(ALICE, "/start", "giriş yapmadınız")
    await rig.says(ALICE, "/giris", "E-posta adresinizi yazın")
    await rig.says(ALICE, "demo@example.com", "Şifrenizi yazın")
    password = rig.telegram.user_says(ALICE, "Demo12345")
    await rig.until(ALICE, "Giriş yapıldı. Bakiyeniz: 500,00 TL")
    assert rig.count("deleteMessage", lambda p: p["message_id"] == password["message_id"]) == 1
    await rig.says(ALICE, "/bakiye", "Bakiyeniz: 500,00 TL")

    await rig.says(ALICE, "/yaz", "başlığını yazın")
    await rig.says(ALICE, "Kısa", "en az 10 karakter")
    tones = await rig.says(ALICE, TITLE, "Yazım tonunu seçin")
    assert [b["text"] for row in tones.buttons for b in row][:5] == [
        "Profesyonel",
        "Samimi",
        "Eğitici",
        "İkna Edici",
        "Yaratıcı",
    ]
    sizes = await rig.presses(ALICE, tones, "Samimi", "Makale boyutunu seçin")
    assert sizes.message_id == tones.message_id, "the same message is edited, step by step"
    summary = await rig.presses(ALICE, sizes, MEDIUM, "Bakiyeniz: 500,00 TL")
    assert "Ücret: 25,00 TL" in (summary.text or "")
    receipt = await rig.presses(ALICE, summary, "Onayla", "Siparişiniz alındı")
    assert "Tahmini süre" in (receipt.text or "")
    assert receipt.buttons == []
    await rig.until(ALICE, "Hazırlanıyor")

    rig.sandbox.state.clock.advance(600)
    await rig.until(ALICE, "Makaleniz hazır", timeout=60)
    article = next(m for m in rig.bot_messages(ALICE) if (m.text or "").startswith(TITLE))
    assert article.html is not None
    assert "<b>" in article.html, "headings are bold"
    texts = [m.text or "" for m in rig.bot_messages(ALICE)]
    assert any("kaynaklar (https://example.com/kaynaklar)" in t for t in texts), "links keep URLs"
    documents = [m for m in rig.bot_messages(ALICE) if m.document]
    assert [d.document.file_name for d in documents] == [
        "yapay-zeka-ile-icerik-uretimi.md",
        "yapay-zeka-ile-icerik-uretimi.html",
    ]
    page = documents[1].document.content.decode()
    assert "<h1>" in page, "the HTML file a CMS takes as is"
    assert "<ol>" in page
    assert "<table>" in page
    shown = "\n".join(m.html or "" for m in rig.bot_messages(ALICE))
    assert re.search(r"^1\. \S", shown, re.MULTILINE), "a numbered list keeps its numbers"
    assert re.search(r"<pre>Yöntem +\| Maliyet +\| Süre\n-+\+-", shown), "a table, aligned"
    assert "<i>planlı, ölçülü ve sabırlı</i>" in shown
    assert f"<b>{TITLE}</b> konusunda" in shown

    listing = await rig.says(ALICE, "/makalelerim", "Makaleleriniz")
    assert f"{TITLE} — Hazır" in (listing.text or "")
    presses = rig.count("answerCallbackQuery")
    assert presses == 3, "every press is answered"


async def test_double_tapped_confirm_charges_once(rig: Rig) -> None:
    await rig.log_in()
    summary = await order(rig, SHORT)
    data = summary.callback_data("Onayla")
    first = rig.telegram.user_presses(ALICE, summary.message_id, data)
    second = rig.telegram.user_presses(ALICE, summary.message_id, data)
    await rig.telegram.wait_for(
        lambda: rig.telegram.answered(first) and rig.telegram.answered(second)
    )
    await rig.until(ALICE, "Siparişiniz alındı")
    assert rig.sandbox.state.create_count == 1
    notices = {(rig.telegram.answered(q) or {}).get("text") for q in (first, second)}
    assert "Bu sipariş zaten işlendi." in notices


async def test_insufficient_balance_is_said_before_any_charge(rig: Rig) -> None:
    await rig.log_in(email=LOW_BALANCE_EMAIL, password=LOW_BALANCE_PASSWORD)
    summary = await order(rig, MEDIUM)
    assert "yetmiyor" in (summary.text or "")
    assert [b["text"] for row in summary.buttons for b in row] == [SHORT, "İptal"]
    assert rig.sandbox.state.create_count == 0
    cheaper = await rig.presses(ALICE, summary, SHORT, "Ücret: 15,00 TL")
    assert "Onayla" in [b["text"] for row in cheaper.buttons for b in row]


async def test_english_mode_is_english_from_the_tones_to_the_estimate(rig: Rig) -> None:
    await rig.log_in()
    await rig.says(ALICE, "/dil en", "Language: English")
    tones = await rig.says(ALICE, f"/yaz {TITLE}", "Pick the writing tone")
    assert "Persuasive — Sales-minded, motivating language" in (tones.text or "")
    sizes = await rig.presses(ALICE, tones, "Persuasive", "Pick the article size")
    short = "Short · 300-500 words · 15.00 TL"
    summary = await rig.presses(ALICE, sizes, short, "Your balance: 500.00 TL")
    assert [b["text"] for row in summary.buttons for b in row] == ["Confirm", "Cancel"]
    receipt = await rig.presses(ALICE, summary, "Confirm", "Order placed")
    assert re.search(r"Estimated time: \d+(-\d+)? seconds?\. Cost: 15\.00 TL", receipt.text or "")


async def test_a_balance_short_of_the_next_article_is_warned_after_the_order_and_on_yaz(
    rig: Rig,
) -> None:
    await rig.log_in(email=LOW_BALANCE_EMAIL, password=LOW_BALANCE_PASSWORD)
    summary = await order(rig, SHORT)
    warning = "Uyarı: bakiyeniz (5,00 TL) bir sonraki Kısa makale (15,00 TL) için yetmiyor."

    await rig.presses(ALICE, summary, "Onayla", warning)
    await rig.says(ALICE, f"/yaz {TITLE}", warning)


async def test_expired_access_token_is_refreshed_and_the_rotated_token_kept(rig: Rig) -> None:
    await rig.log_in()
    rig.sandbox.state.clock.advance(3700)
    before = len(rig.bot_messages(ALICE))
    rig.telegram.user_says(ALICE, "/bakiye")
    await rig.telegram.wait_for(lambda: len(rig.bot_messages(ALICE)) > before)
    assert rig.bot_messages(ALICE)[-1].text == "Bakiyeniz: 500,00 TL"
    rig.sandbox.state.clock.advance(3700)
    before = len(rig.bot_messages(ALICE))
    rig.telegram.user_says(ALICE, "/bakiye")
    await rig.telegram.wait_for(lambda: len(rig.bot_messages(ALICE)) > before)
    assert rig.bot_messages(ALICE)[-1].text == "Bakiyeniz: 500,00 TL"
    refreshes = [p for _, p in rig.sandbox.state.request_log if p.endswith("/auth/refresh")]
    assert len(refreshes) == 2


async def test_a_job_finishing_while_the_bot_is_down_is_delivered_once_after_restart(
    rig: Rig,
) -> None:
    await rig.log_in()
    summary = await order(rig, SHORT)
    await rig.presses(ALICE, summary, "Onayla", "Siparişiniz alındı")
    await rig.stop()
    rig.sandbox.state.clock.advance(600)
    await rig.start()
    await rig.until(ALICE, "Makaleniz hazır", timeout=60)
    await rig.says(ALICE, "/bakiye", "Bakiyeniz")
    documents = [m for m in rig.bot_messages(ALICE) if m.document]
    assert [d.document.file_name.rpartition(".")[2] for d in documents] == ["md", "html"]


async def test_a_long_article_arrives_whole_in_parts_under_the_limit(rig: Rig) -> None:
    await rig.log_in()
    summary = await order(rig, VERY_LONG)
    await rig.presses(ALICE, summary, "Onayla", "Siparişiniz alındı")
    rig.sandbox.state.clock.advance(3000)
    # Many paced messages: the parts, two files and the quality card.
    await rig.until(ALICE, "Makaleniz hazır", timeout=60)
    document = next(m.document for m in rig.bot_messages(ALICE) if m.document)
    content = document.content.decode()
    assert len(content) > 12_000
    parts = [m for m in rig.bot_messages(ALICE) if m.text and m.message_id > summary.message_id + 1]
    parts = [m for m in parts if "Makaleniz hazır" not in m.text and "Siparişiniz" not in m.text]
    assert len(parts) >= 3
    assert all(len(m.text.encode("utf-16-le")) // 2 <= 4096 for m in parts)
    delivered = "\n".join(m.text for m in parts)
    for words in shown_lines(content):
        assert words in delivered, f"missing from the messages: {words[:60]}"


async def test_login_in_a_group_points_to_the_private_chat(rig: Rig) -> None:
    group = -500
    rig.telegram.user_says(
        ALICE, "/giris demo@example.com Demo12345", chat_id=group, chat_type="group"
    )
    await rig.until(group, "özel mesajla")
    assert rig.count("deleteMessage", lambda p: p["chat_id"] == group) == 1
    assert rig.sandbox.state.request_log == []


async def test_someone_elses_button_changes_nothing(rig: Rig) -> None:
    group = -600
    await rig.log_in(ALICE)
    tones = await rig.says(
        ALICE, f"/yaz {TITLE}", "Yazım tonunu seçin", chat_id=group, chat_type="group"
    )
    query = rig.telegram.user_presses(
        BOB, tones.message_id, tones.callback_data("Samimi"), chat_id=group
    )
    await rig.telegram.wait_for(lambda: rig.telegram.answered(query) is not None)
    assert (rig.telegram.answered(query) or {}).get("text") == "Bu düğme size ait değil."
    assert "Yazım tonunu seçin" in (rig.shown(group, "Yazım") or tones).text


async def test_a_stale_button_gets_a_notice_and_does_nothing(rig: Rig) -> None:
    await rig.log_in()
    summary = await order(rig, SHORT)
    await rig.says(ALICE, "/iptal", "İptal edildi")
    query = rig.telegram.user_presses(ALICE, summary.message_id, summary.callback_data("Onayla"))
    await rig.telegram.wait_for(lambda: rig.telegram.answered(query) is not None)
    assert (rig.telegram.answered(query) or {}).get("text") == "Bu düğme artık geçerli değil."
    assert rig.sandbox.state.create_count == 0


async def test_stickers_edits_and_unknown_commands_get_a_hint(rig: Rig) -> None:
    rig.telegram.user_sends_sticker(ALICE)
    await rig.until(ALICE, "Komutlar için /yardim")
    await rig.says(ALICE, "/bilinmeyen", "Bu komutu tanımıyorum")
    said = rig.telegram.user_says(ALICE, "merhaba")
    await rig.telegram.wait_for(lambda: len(rig.bot_messages(ALICE)) == 3)
    rig.telegram.user_edits(ALICE, said["message_id"], "düzeltilmiş metin")
    await rig.telegram.wait_for(lambda: len(rig.bot_messages(ALICE)) == 4)
    assert "/yardim" in (rig.bot_messages(ALICE)[-1].text or "")


async def test_upstream_outage_is_a_plain_message(rig: Rig) -> None:
    await rig.log_in()
    rig.sandbox.state.faults.fail_next(10, status=503)
    await rig.says(ALICE, "/bakiye", "yanıt vermiyor")


async def test_429_is_waited_out_not_dropped(rig: Rig) -> None:
    rig.telegram.fail_next("sendMessage", status=429, retry_after=1)
    await rig.says(ALICE, "/yardim", "/makalelerim")
    assert rig.count("sendMessage") >= 2


async def test_the_command_menu_is_registered_in_both_languages(rig: Rig) -> None:
    menus = [c.params for c in rig.telegram.calls if c.method == "setMyCommands"]
    assert {menu.get("language_code") for menu in menus} == {None, "en"}
    for menu in menus:
        assert "harcamalar" in str(menu["commands"])
        assert "musteriler" in str(menu["commands"])


async def test_spending_shows_the_charged_order_and_the_balance(rig: Rig) -> None:
    await rig.log_in()
    summary = await order(rig, SHORT)
    await rig.presses(ALICE, summary, "Onayla", "Siparişiniz alındı")

    spent = await rig.says(ALICE, "/harcamalar", "Harcamalarınız")

    assert "Bu ay: 15,00 TL" in spent.text
    assert "Kısa: 1 makale" in spent.text
    assert "Makale başına ortalama: 15,00 TL" in spent.text
    assert "Bakiyeniz: 485,00 TL" in spent.text


@pytest.fixture
def production_logging(logging_restored: None) -> io.StringIO:
    """The bot's own logging set-up at DEBUG, into a buffer; undone afterwards."""
    buffer = io.StringIO()
    # No known secrets: the caps and the token patterns alone must keep the log clean.
    configure_logging("DEBUG", secrets=[], stream=buffer)
    return buffer


async def test_the_log_of_a_whole_session_holds_no_secret(
    production_logging: io.StringIO, rig: Rig
) -> None:
    await rig.says(ALICE, "/giris", "E-posta")
    await rig.says(ALICE, "demo@example.com", "Şifrenizi")
    await rig.says(ALICE, "Demo12345", "Giriş yapıldı")
    summary = await order(rig, SHORT)
    await rig.presses(ALICE, summary, "Onayla", "Siparişiniz alındı")
    rig.sandbox.state.clock.advance(3700)
    await rig.says(ALICE, "/bakiye", "Bakiyeniz")
    logged = production_logging.getvalue()
    assert "POST /api/v1/auth/refresh -> 200" in logged, "the session was logged at DEBUG"
    assert "Processing update" not in logged, "python-telegram-bot's DEBUG lines are capped"
    assert "Demo12345" not in logged
    assert TOKEN.split(":")[1] not in logged
    assert "eyJ" not in logged, "no JWT"


async def test_webhook_mode_checks_the_secret_and_drops_replays(tmp_path: Path) -> None:
    async with telegram_rig(tmp_path, webhook=True) as rig:
        hook = f"http://127.0.0.1:{rig.settings.port}/telegram/hook"
        secret = rig.settings.telegram_webhook_secret
        assert secret is not None
        webhooks = [c for c in rig.telegram.calls if c.method == "setWebhook"]
        assert webhooks[-1].params["secret_token"] == secret.get_secret_value()
        assert webhooks[-1].params["url"] == rig.settings.telegram_webhook_url
        update = rig.telegram.webhook_update(rig.telegram.user_says(ALICE, "/yardim"))
        headers = {"X-Telegram-Bot-Api-Secret-Token": secret.get_secret_value()}
        async with httpx.AsyncClient() as client:
            refused = await client.post(
                hook, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "x"}
            )
            first = await client.post(hook, json=update, headers=headers)
            replayed = await client.post(hook, json=update, headers=headers)
            health = await client.get(hook.replace("/telegram/hook", "/health"))
            not_json = await client.post(hook, content=b"{not json", headers=headers)
            not_an_update = await client.post(hook, json=[1, 2], headers=headers)
        assert (refused.status_code, first.status_code, replayed.status_code) == (403, 200, 200)
        assert (not_json.status_code, not_an_update.status_code) == (400, 400)
        assert health.json()["status"] == "ok"
        await rig.until(ALICE, "/makalelerim")
        helps = [m for m in rig.bot_messages(ALICE) if "/makalelerim" in (m.text or "")]
        assert len(helps) == 1, "a replayed update has no second effect"


async def test_python_m_bot_telegram_runs_against_any_bot_api_server(tmp_path: Path) -> None:
    async with FakeTelegram.running(token=TOKEN) as telegram:
        env = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG"}}
        env.update(
            {"TELEGRAM_BOT_TOKEN": TOKEN, "TELEGRAM_API_URL": telegram.url, "PYTHONUNBUFFERED": "1"}
        )
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "telegram",
            "--sandbox",
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            await telegram.wait_for(
                lambda: any(c.method == "getUpdates" for c in telegram.calls), 30
            )
            telegram.user_says(ALICE, "/start")
            await telegram.wait_for(
                lambda: any("/yaz" in (m.text or "") for m in telegram.chat(ALICE) if m.from_bot),
                30,
            )
        finally:
            process.send_signal(signal.SIGTERM)
            _, stderr = await asyncio.wait_for(process.communicate(), 30)
        assert process.returncode == 0, stderr.decode()
        assert TOKEN not in stderr.decode()


async def test_a_refused_token_is_a_configuration_error_that_does_not_quote_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with FakeTelegram.running(token="999:OtherTokenTheServerKnows_abcdefghijklmno") as fake:
        settings = load_settings(
            _env_file=None,
            article_api_url="http://127.0.0.1:9",
            database_url=f"sqlite:///{tmp_path / 'bot.db'}",
            token_encryption_key=generate_key(),
            telegram_bot_token=TOKEN,
            telegram_api_url=fake.url,
        )
        with pytest.raises(ConfigError, match="TELEGRAM_BOT_TOKEN was refused") as refused:
            await serve_chats(settings, platforms_named("telegram"), asyncio.Event())
        assert TOKEN not in str(refused.value)
        assert refused.value.__cause__ is None
        assert refused.value.__suppress_context__
        # A connection left open is reported once its objects are collected (in production,
        # as the process ends after the configuration error); the traceback holds them till then.
        del refused
        gc.collect()
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_email_and_password_sent_together_are_taken_in_order(rig: Rig) -> None:
    await rig.says(ALICE, "/giris", "E-posta adresinizi yazın")
    rig.telegram.user_says(ALICE, "demo@example.com")
    password = rig.telegram.user_says(ALICE, "Demo12345")
    await rig.until(ALICE, "Giriş yapıldı. Bakiyeniz: 500,00 TL")
    deleted = rig.telegram.message(ALICE, password["message_id"])
    assert deleted is not None
    assert deleted.deleted


async def test_the_password_is_deleted_before_the_login_answers(rig: Rig) -> None:
    await rig.says(ALICE, "/giris demo@example.com", "Şifrenizi yazın")
    rig.sandbox.state.faults.latency = 1.0
    password = rig.telegram.user_says(ALICE, "Demo12345")
    await rig.telegram.wait_for(
        lambda: rig.count("deleteMessage", lambda p: p["message_id"] == password["message_id"]) == 1
    )
    assert rig.shown(ALICE, "Giriş yapıldı") is None, "deleted while the login was under way"
    await rig.until(ALICE, "Giriş yapıldı")


async def test_an_article_is_ordered_again_in_either_way_and_the_list_comes_as_a_zip(
    rig: Rig,
) -> None:
    await rig.log_in()
    summary = await order(rig, SHORT)
    await rig.presses(ALICE, summary, "Onayla", "Siparişiniz alındı")
    rig.sandbox.state.clock.advance(600)
    await rig.until(ALICE, "Makaleniz hazır", timeout=60)
    last_part = next(
        m for m in rig.bot_messages(ALICE) if m.buttons and "sipariş" in str(m.buttons)
    )

    again = await rig.presses(ALICE, last_part, "Tekrar sipariş", "Bakiyeniz: 485,00 TL")
    assert "Profesyonel" in (again.text or "")
    assert "Kısa" in (again.text or "")
    await rig.presses(ALICE, again, "Onayla", "Siparişiniz alındı")
    assert rig.sandbox.state.create_count == 2

    listing = await rig.says(ALICE, "/makalelerim", "Makaleleriniz")
    tones = await rig.presses(ALICE, listing, "Başka ton · 2", "Yazım tonunu seçin")
    other = await rig.presses(ALICE, tones, "Samimi", "Bakiyeniz: 470,00 TL")
    assert "Samimi" in (other.text or "")
    assert "Kısa" in (other.text or ""), "the size of the earlier order is kept"
    assert rig.sandbox.state.create_count == 2, "nothing is charged before Onayla"

    data = listing.callback_data("📦 Son 30 gün (.zip)")
    rig.telegram.user_presses(ALICE, listing.message_id, data)
    await rig.telegram.wait_for(lambda: any(zipped(m) for m in rig.bot_messages(ALICE)))
    (sent,) = [m.document for m in rig.bot_messages(ALICE) if zipped(m)]
    archive = zipfile.ZipFile(io.BytesIO(sent.content))
    slug = "yapay-zeka-ile-icerik-uretimi"
    names = archive.namelist()
    assert names[:2] == [f"{slug}.md", f"{slug}.html"]
    assert names[2:] in ([], [f"{slug}-2.md", f"{slug}-2.html"]), "the same title, kept apart"


def zipped(message: StoredMessage) -> bool:
    return bool(message.document and message.document.file_name.endswith(".zip"))


async def test_titles_sent_in_a_file_are_summed_up_and_charged_once_as_shown(rig: Rig) -> None:
    await rig.log_in()
    titles = f"baslik,boyut\n{TITLE},Orta\nBulut bilişimin kısa tarihi,\nKısa,\n"
    sent = rig.telegram.user_sends_document(ALICE, "basliklar.csv", titles.encode(), "text/csv")
    tones = await rig.until(ALICE, "Yazım tonunu seçin", since=sent["message_id"])
    assert "Kısa — çok kısa (en az 10 karakter)" in (tones.text or "")
    sizes = await rig.presses(ALICE, tones, "Samimi", "Makale boyutunu seçin")
    summary = await rig.presses(ALICE, sizes, "Kısa · 300-500 kelime · 15,00 TL", "Bakiyeniz")
    assert f"{TITLE} (Orta)" in (summary.text or "")
    assert "Ücret: 40,00 TL" in (summary.text or "")
    await rig.presses(ALICE, summary, "Onayla", "2 makale sipariş edildi")
    assert rig.sandbox.state.balance_of("demo@example.com") == 460

    large = rig.telegram.user_sends_document(ALICE, "buyuk.txt", b"x" * (1024 * 1024 + 1))
    await rig.until(ALICE, "Dosya 1 MB'tan büyük", since=large["message_id"])
    assert rig.count("getFile") == 1, "a file over the limit is not fetched"
    assert rig.sandbox.state.create_count == 2
