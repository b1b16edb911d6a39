"""The Slack app end to end: signed requests to /slack/events, a fake Slack Web API, the sandbox."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import re
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
from sqlmodel import Session, select

from bot.bootstrap import platforms_named, serve_chats
from bot.config import ConfigError, load_settings
from bot.core.texts import texts_for
from bot.sandbox import DEMO_PASSWORD, LOW_BALANCE_EMAIL, LOW_BALANCE_PASSWORD, running_sandbox
from bot.slack import order_form
from bot.slack.render import unescape
from bot.slack.texts import slack_texts
from storage import Database, generate_key, plans
from storage.models import ChatUser
from tests.e2e.article_lines import shown_lines
from tests.e2e.fake_slack import FakeSlack
from tests.e2e.order_labels import MEDIUM, SHORT, TITLE, VERY_LONG
from tests.e2e.slack_rig import (
    ALICE,
    BOB,
    CHANNEL,
    OUTSIDE,
    SECRET,
    TOKEN,
    SlackRig,
    buttons_of,
    dm_message,
    input_values,
    slack_rig,
    text_of,
    until_serving,
)
from tests.fakes import ManualClock
from tests.plan_rows import saved_plan
from tests.ports import free_port


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[SlackRig]:
    async with slack_rig(tmp_path) as running:
        yield running


def assert_valid_message(message: dict[str, Any]) -> None:
    """Within Slack's limits: 50 blocks, 3,000 characters a section, 12,000 in all."""
    sections = [b["text"]["text"] for b in message.get("blocks") or [] if b["type"] == "section"]
    assert len(message.get("blocks") or []) <= 50
    assert all(len(text) <= 3000 for text in sections)
    assert sum(map(len, sections)) <= 12_000


async def channel_post(rig: SlackRig, channel: str) -> dict[str, Any]:
    """The one top-level post of an order in a channel."""
    [post] = await rig.slack.wait_for(lambda: rig.slack.messages(channel))
    return post


async def delivered(rig: SlackRig, channel: str, post: dict[str, Any]) -> list[dict[str, Any]]:
    """Wait for the article's file in the post's thread; the thread's text messages, without
    the quality card that ends them."""
    await rig.slack.wait_for(lambda: len(rig.slack.files) == 2, timeout=60)
    await rig.slack.wait_for(
        lambda: "Makaleniz hazır" in text_of(rig.slack.messages(channel)[0]), timeout=60
    )
    for file in rig.slack.files:
        assert (file.channel_id, file.thread_ts) == (channel, post["ts"])
    *parts, card = [m for m in rig.slack.messages(channel, post["ts"]) if not m.get("files")]
    assert "Kalite kartı" in text_of(card)
    return parts


async def test_every_command_answers_the_user_alone(
    rig: SlackRig, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    help_screen = await rig.says("/yardim", "", "giriş yapmadınız")
    assert "• */yaz* — Yeni makale sipariş edin" in text_of(help_screen)
    await rig.says("/bakiye", "", "Önce giriş")
    await rig.answered_instead_of_the_form("Önce giriş")

    await rig.command("/giris", "demo@example.com")
    modal = await rig.opened("login")
    email = next(block for block in modal["blocks"] if block["block_id"] == "email")
    assert email["element"]["initial_value"] == "demo@example.com"
    refused = await rig.submits(
        "login", input_values(email="demo-at-example", password=DEMO_PASSWORD)
    )
    assert refused["response_action"] == "errors"
    assert set(refused["errors"]) == {"email"}
    welcome = await rig.log_in()
    assert "Giriş yapıldı. Bakiyeniz: 500,00 TL" in text_of(welcome)
    recorded = json.dumps(
        [c.params for c in rig.slack.calls] + [c.response for c in rig.slack.calls]
    )
    recorded += json.dumps([post.body for post in rig.slack.responses])
    assert DEMO_PASSWORD not in recorded
    logged = "\n".join(f"{r.getMessage()} {r.exc_text or ''}" for r in caplog.records)
    assert DEMO_PASSWORD not in logged

    await rig.says("/bakiye", "", "Bakiyeniz: 500,00 TL")
    await rig.says("/makalelerim", "", "Henüz makaleniz yok")
    await rig.says("/konu", "Yapay zeka trendleri", "Konu eklendi: Yapay zeka trendleri")
    await rig.says("/konu", "", "konuyu yazın")
    answer = await rig.post(rig.slack.event(dm_message(rig, "Sürdürülebilir moda &amp; tasarım")))
    assert answer.status_code == 200
    dm = rig.slack.dm_channel(ALICE)
    await rig.slack.wait_for(
        lambda: any("Konu eklendi" in m["text"] for m in rig.slack.messages(dm))
    )
    assert rig.sandbox.state.topics == ["Yapay zeka trendleri", "Sürdürülebilir moda & tasarım"]

    titles = "Birinci makalenin başlığı\nİkinci makalenin başlığı"
    bulk = await rig.says("/toplu", titles, "Yazım tonunu seçin")
    assert "• İkinci makalenin başlığı" in text_of(bulk)
    await rig.says("/iptal", "", "İptal edildi")

    languages = await rig.says("/dil", "", "Dil seçin")
    english = await rig.presses(languages, "English", "Language: English")
    assert english["ts"] == languages["ts"], "the pressed message is replaced"
    await rig.says("/bakiye", "", "Your balance: 500.00 TL")
    await rig.command("/giris")
    # The third: /giris with the e-mail and log_in's came before; waiting for a second one
    # would take log_in's whenever the new one is still on its way.
    english_modal = await rig.opened("login", count=3)
    assert english_modal["title"]["text"] == slack_texts("en").login_title, "modals follow /dil"
    await rig.says("/dil", "tr", "Dil: Türkçe")
    await rig.says("/cikis", "", "Çıkış yapıldı")
    await rig.says("/bilinmeyen", "", "Bu komutu tanımıyorum")
    assert rig.slack.messages(CHANNEL) == [], "the dialog is never posted in the channel"


async def test_a_bare_yaz_says_to_log_in_first_when_the_core_is_slower_than_the_forms_patience(
    rig: SlackRig, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What a busy machine does to the core's answer: it comes after the loading modal.
    monkeypatch.setattr(order_form, "FORM_PATIENCE", 0.0)
    assert "Önce giriş" in await rig.answered_instead_of_the_form("Önce giriş")
    assert rig.slack.messages(CHANNEL) == [], "shown to the user alone"


async def test_the_order_form_posts_the_order_in_the_channel_and_the_article_in_its_thread(
    rig: SlackRig,
) -> None:
    await rig.log_in()
    since = len(rig.slack.ephemerals(ALICE))
    await rig.command("/yaz")
    form = await rig.opened("order")
    options = {
        block["block_id"]: [o["text"]["text"] for o in block["element"]["options"]]
        for block in form["blocks"]
        if block["type"] == "input" and block["element"]["type"] == "static_select"
    }
    assert options["tone"][:2] == ["Profesyonel", "Samimi"]
    assert options["size"][:2] == [SHORT, MEDIUM]

    too_short = await rig.submits("order", input_values(title="Kısa", tone=1, size=2))
    assert too_short["response_action"] == "errors"
    assert "en az 10 karakter" in too_short["errors"]["title"]
    title = "<!here> & SEO: yapay zekâ rehberi"
    assert await rig.submits("order", input_values(title=title, tone=2, size=2)) is None
    summary = await rig.until(ALICE, "Bakiyeniz: 500,00 TL", since=since)
    assert "Ücret: 25,00 TL" in text_of(summary)
    assert set(buttons_of(summary)) == {"Onayla", "İptal"}

    # A rate-limited post is retried after Retry-After, not dropped.
    rig.slack.fail_next("chat.postMessage", status=429, retry_after=1)
    receipt = await rig.presses(summary, "Onayla", "Siparişiniz alındı")
    assert receipt["ts"] == summary["ts"]
    assert buttons_of(receipt) == {}
    post = await channel_post(rig, CHANNEL)
    assert [c.status for c in rig.slack.calls_to("chat.postMessage")][:2] == [429, 200]
    assert post["text"].startswith(f"<@{ALICE}> Hazırlanıyor")
    assert "<!here>" not in text_of(post)
    assert "&lt;!here&gt; &amp; SEO" in text_of(post)

    rig.sandbox.state.clock.advance(600)
    parts = await delivered(rig, CHANNEL, post)
    assert parts
    for part in parts:
        assert_valid_message(part)
        assert "<!here>" not in text_of(part)
    assert any("https://example.com/kaynaklar" in text_of(part) for part in parts)
    shown = "\n".join(text_of(part) for part in parts)
    assert re.search(r"^1\. \S", shown, re.MULTILINE), "a numbered list keeps its numbers"
    assert "_📊 Tablo (Yöntem, Maliyet, Süre): tamamı ekteki .md ve .html dosyalarında._" in shown
    assert "_planlı, ölçülü ve sabırlı_" in shown
    file, html = rig.slack.files
    assert b"<table>" in (html.content or b"")
    assert file.filename.endswith(".md")
    assert html.filename == file.filename.replace(".md", ".html")
    assert len(file.content or b"") > 500
    assert rig.sandbox.state.create_count == 1

    # Opened again from the list: the text for the user alone, the file in their DM.
    listing = await rig.says("/makalelerim", "", "— Hazır")
    since = len(rig.slack.ephemerals(ALICE))
    action_id, value = buttons_of(listing)["Aç 1"]
    pressed = rig.slack.block_action(
        action_id, value, user_id=ALICE, channel_id=CHANNEL, message_ts=listing["ts"]
    )
    assert (await rig.post(pressed)).status_code == 200
    reopened = await rig.until(ALICE, "yapay zekâ rehberi", since=since)
    assert unescape(parts[0]["text"]) in unescape(reopened["text"])
    await rig.slack.wait_for(lambda: len(rig.slack.files) == 4)
    again = rig.slack.files[2]
    assert (again.channel_id, again.thread_ts) == (rig.slack.dm_channel(ALICE), None)
    assert again.content == file.content


async def test_a_long_article_is_split_under_slacks_block_limits(tmp_path: Path) -> None:
    # A fast sandbox clock: the bot waits for the size's estimate before it polls.
    async with slack_rig(tmp_path, speed=600.0) as rig:
        await rig.log_in()
        tones = await rig.says("/yaz", TITLE, "Yazım tonunu seçin")
        sizes = await rig.presses(tones, "Profesyonel", "Makale boyutunu seçin")
        assert sizes["ts"] == tones["ts"], "the same ephemeral message is replaced step by step"
        summary = await rig.presses(sizes, VERY_LONG, "Bakiyeniz")
        await rig.presses(summary, "Onayla", "Siparişiniz alındı")
        post = await channel_post(rig, CHANNEL)

        rig.sandbox.state.clock.advance(3000)
        parts = await delivered(rig, CHANNEL, post)
        content = (rig.slack.files[0].content or b"").decode()
        assert len(content) > 12_000
        assert len(parts) >= 2
        for part in parts:
            assert_valid_message(part)
        text = unescape("\n".join(part["text"] for part in parts))
        for words in shown_lines(content, tables=False):
            assert words in text, f"missing from the messages: {words[:60]}"


async def test_commands_are_acknowledged_within_three_seconds_of_a_slow_upstream(
    rig: SlackRig,
) -> None:
    await rig.log_in()
    # Choices slower than a trigger id lasts: a loading modal first, the form put in later.
    rig.sandbox.state.faults.latency = 1.2
    started = time.monotonic()
    await rig.command("/yaz")
    assert time.monotonic() - started < 3.0
    loading = await rig.opened("order")
    assert not [block for block in loading["blocks"] if block["type"] == "input"]
    await rig.slack.wait_for(
        lambda: any(block["type"] == "input" for block in rig.slack.views[-1].view["blocks"])
    )

    rig.sandbox.state.faults.latency = 4
    since = len(rig.slack.ephemerals(ALICE))
    started = time.monotonic()
    await rig.command("/bakiye")
    assert time.monotonic() - started < 3.0
    await rig.until(ALICE, "Bakiyeniz: 500,00 TL", since=since, timeout=30)


async def test_a_request_with_a_bad_signature_is_refused_and_does_nothing(
    rig: SlackRig, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    body, headers = rig.slack.slash_command("/yardim", user_id=ALICE, channel_id=CHANNEL)
    forged = await rig.post((body, {**headers, "X-Slack-Signature": "v0=" + "0" * 64}))
    tampered = await rig.post((body.replace(b"yardim", b"bakiye"), headers))
    login = input_values(email="demo@example.com", password=DEMO_PASSWORD)
    login_body, _ = rig.slack.view_submission("login", login, user_id=ALICE)
    stale = await rig.post((login_body, rig.slack.sign(login_body, int(time.time()) - 600)))
    assert (forged.status_code, tampered.status_code, stale.status_code) == (401, 401, 401)
    await rig.says("/yardim", "", "/makalelerim")
    assert len(rig.slack.ephemerals(ALICE)) == 1, "only the signed request was answered"
    assert rig.slack.responses[0].body["text"].startswith("Makale Bot")
    assert rig.sandbox.state.request_log == [], "the refused login never reached the service"
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "refused a request without a valid Slack signature" in logged
    assert DEMO_PASSWORD not in logged


async def test_a_replayed_request_has_one_effect(rig: SlackRig) -> None:
    command = rig.slack.slash_command("/yardim", user_id=ALICE, channel_id=CHANNEL)
    event = rig.slack.event(dm_message(rig, "merhaba"))
    answers = [await rig.post(signed) for signed in (command, command, event, event)]
    assert [answer.status_code for answer in answers] == [200] * 4
    dm = rig.slack.dm_channel(ALICE)
    await rig.until(ALICE, "/makalelerim")
    await rig.slack.wait_for(lambda: rig.slack.messages(dm))
    # A fresh request of each kind is answered; by then a replay would have been, too.
    await rig.says("/yardim", "", "/makalelerim", channel=OUTSIDE)
    await rig.post(rig.slack.event(dm_message(rig, "selam", ts="1700000000.000200")))
    await rig.slack.wait_for(lambda: len(rig.slack.messages(dm)) == 2)
    assert len(rig.slack.ephemerals(ALICE)) == 2
    assert all("anlamadım" in m["text"] for m in rig.slack.messages(dm))


async def test_where_the_bot_is_no_member_the_order_goes_to_the_users_dm(rig: SlackRig) -> None:
    await rig.log_in()
    tones = await rig.says("/yaz", TITLE, "Yazım tonunu seçin", channel=OUTSIDE)
    sizes = await rig.presses(tones, "Samimi", "Makale boyutunu seçin")
    summary = await rig.presses(sizes, SHORT, "Bakiyeniz")
    await rig.presses(summary, "Onayla", "Siparişiniz alındı")
    dm = rig.slack.dm_channel(ALICE)
    post = await channel_post(rig, dm)
    note = post["blocks"][0]
    assert note["type"] == "context"
    assert note["elements"][0]["text"].startswith(f"<#{OUTSIDE}> kanalına yazamadığım")
    assert "Hazırlanıyor" in text_of(post)

    rig.sandbox.state.clock.advance(600)
    parts = await delivered(rig, dm, post)
    assert TITLE in text_of(parts[0])
    assert rig.slack.messages(OUTSIDE) == []


async def test_a_failing_listener_is_logged_and_the_user_told(
    rig: SlackRig, caplog: pytest.LogCaptureFixture
) -> None:
    rig.slack.fail_next("chat.postMessage", error="internal_error")
    assert (await rig.post(rig.slack.event(dm_message(rig, "merhaba")))).status_code == 200
    dm = rig.slack.dm_channel(ALICE)
    [told] = await rig.slack.wait_for(lambda: rig.slack.messages(dm))
    assert told["text"] == "Bir şeyler ters gitti. Lütfen yeniden deneyin."
    [failure] = [r for r in caplog.records if r.getMessage() == "a Slack request failed"]
    assert failure.exc_info is not None
    assert "internal_error" in str(failure.exc_info[1])


async def test_a_refused_token_or_a_missing_signing_secret_stops_the_start(
    tmp_path: Path,
) -> None:
    async with (
        FakeSlack.running(bot_token=TOKEN, signing_secret=SECRET) as slack,
        running_sandbox() as sandbox,
    ):
        settings = load_settings(
            _env_file=None,
            article_api_url=sandbox.url,
            database_url=f"sqlite:///{tmp_path / 'bot.db'}",
            token_encryption_key=generate_key(),
            slack_bot_token="xoxb-1-not-the-bot-token",
            slack_signing_secret=SECRET,
            slack_api_url=slack.api_url,
            port=free_port(),
        )
        with pytest.raises(ConfigError, match="SLACK_BOT_TOKEN was refused: invalid_auth"):
            await serve_chats(settings, platforms_named("slack"), asyncio.Event())
        unsigned = settings.model_copy(update={"slack_signing_secret": None})
        with pytest.raises(ConfigError, match="SLACK_SIGNING_SECRET"):
            await serve_chats(unsigned, platforms_named("slack"), asyncio.Event())


async def test_python_m_bot_slack_answers_signed_requests_and_stops_on_sigterm(
    tmp_path: Path,
) -> None:
    async with (
        FakeSlack.running(bot_token=TOKEN, signing_secret=SECRET) as slack,
        httpx.AsyncClient(timeout=10) as http,
    ):
        port = free_port()
        env = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG"}}
        env.update(
            {
                "SLACK_BOT_TOKEN": TOKEN,
                "SLACK_SIGNING_SECRET": SECRET,
                "SLACK_API_URL": slack.api_url,
                "PORT": str(port),
                "PYTHONUNBUFFERED": "1",
            }
        )
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "slack",
            "--sandbox",
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            await until_serving(
                http, f"http://127.0.0.1:{port}", asyncio.ensure_future(process.wait())
            )
            body, headers = slack.slash_command("/yardim", user_id=ALICE, channel_id=CHANNEL)
            answer = await http.post(
                f"http://127.0.0.1:{port}/slack/events", content=body, headers=headers
            )
            assert answer.status_code == 200
            await slack.wait_for(lambda: slack.ephemerals(ALICE), 30)
        finally:
            process.send_signal(signal.SIGTERM)
            _, stderr = await asyncio.wait_for(process.communicate(), 30)
        assert process.returncode == 0, stderr.decode()
        assert TOKEN not in stderr.decode()
        assert "/makalelerim" in slack.ephemerals(ALICE)[0]["text"]


async def test_junk_from_anyone_is_refused_without_a_traceback(rig: SlackRig) -> None:
    junk = [
        (b"{not json", "application/json"),
        (b"payload=%7Bbad", "application/x-www-form-urlencoded"),
        (b"\xff\xfe", "application/x-www-form-urlencoded"),
    ]
    async with httpx.AsyncClient() as client:

        async def post(body: bytes, headers: dict[str, str]) -> int:
            url = f"{rig.base_url}/slack/events"
            return (await client.post(url, content=body, headers=headers)).status_code

        signed = [
            await post(body, {"Content-Type": kind, **rig.slack.sign(body)}) for body, kind in junk
        ]
        unsigned = [await post(body, {"Content-Type": kind}) for body, kind in junk]
    # Signed junk cannot be parsed; unsigned junk is not even read.
    assert signed == [400, 400, 400]
    assert unsigned == [401, 401, 401]


async def test_spending_shows_the_charged_order_and_the_balance(rig: SlackRig) -> None:
    await rig.log_in()
    tones = await rig.says("/yaz", TITLE, "Yazım tonunu seçin")
    sizes = await rig.presses(tones, "Samimi", "Makale boyutunu seçin")
    summary = await rig.presses(sizes, SHORT, "Bakiyeniz")
    await rig.presses(summary, "Onayla", "Siparişiniz alındı")

    spent = text_of(await rig.says("/harcamalar", "", "Harcamalarınız"))

    assert "Bu ay: 15,00 TL" in spent
    assert "Kısa: 1 makale" in spent
    assert "Makale başına ortalama: 15,00 TL" in spent
    assert "Bakiyeniz: 485,00 TL" in spent


def test_the_manifest_offers_every_command_of_the_help() -> None:
    manifest = (Path(__file__).parents[2] / "slack" / "manifest.yml").read_text()
    for name, _ in texts_for("tr").help_commands:
        assert f"command: /{name}\n" in manifest


async def test_a_balance_short_of_the_next_article_is_warned_after_the_order_and_on_yaz(
    rig: SlackRig,
) -> None:
    await rig.log_in(email=LOW_BALANCE_EMAIL, password=LOW_BALANCE_PASSWORD)
    tones = await rig.says("/yaz", TITLE, "Yazım tonunu seçin")
    sizes = await rig.presses(tones, "Samimi", "Makale boyutunu seçin")
    summary = await rig.presses(sizes, SHORT, "Bakiyeniz")
    warning = "Uyarı: bakiyeniz (5,00 TL) bir sonraki Kısa makale (15,00 TL) için yetmiyor."

    await rig.presses(summary, "Onayla", warning)
    await rig.says("/yaz", TITLE, warning)


async def test_an_article_is_ordered_again_in_either_way_and_the_list_comes_as_a_zip(
    rig: SlackRig,
) -> None:
    await rig.log_in()
    tones = await rig.says("/yaz", TITLE, "Yazım tonunu seçin")
    sizes = await rig.presses(tones, "Samimi", "Makale boyutunu seçin")
    summary = await rig.presses(sizes, SHORT, "Bakiyeniz")
    await rig.presses(summary, "Onayla", "Siparişiniz alındı")
    post = await channel_post(rig, CHANNEL)
    rig.sandbox.state.clock.advance(600)
    *_, last = await delivered(rig, CHANNEL, post)
    action_id, value = buttons_of(last)["Tekrar sipariş"]

    since = len(rig.slack.ephemerals(BOB))
    pressed = rig.slack.block_action(
        action_id, value, user_id=BOB, channel_id=CHANNEL, message_ts=last["ts"]
    )
    assert (await rig.post(pressed)).status_code == 200
    await rig.until(BOB, "Bu düğme size ait değil", since=since)

    since = len(rig.slack.ephemerals(ALICE))
    pressed = rig.slack.block_action(
        action_id, value, user_id=ALICE, channel_id=CHANNEL, message_ts=last["ts"]
    )
    assert (await rig.post(pressed)).status_code == 200
    again = await rig.until(ALICE, "Bakiyeniz: 485,00 TL", since=since)
    assert "Samimi" in text_of(again)
    await rig.presses(again, "Onayla", "Siparişiniz alındı")
    assert rig.sandbox.state.create_count == 2

    listing = await rig.says("/makalelerim", "", "— Hazır")
    tones = await rig.presses(listing, "Başka ton · 2", "Yazım tonunu seçin")
    other = await rig.presses(tones, "Eğitici", "Bakiyeniz: 470,00 TL")
    assert "Kısa" in text_of(other), "the size of the earlier order is kept"

    action_id, value = buttons_of(listing)["📦 Bu sayfa (.zip)"]
    pressed = rig.slack.block_action(
        action_id, value, user_id=ALICE, channel_id=CHANNEL, message_ts=listing["ts"]
    )
    assert (await rig.post(pressed)).status_code == 200
    await rig.slack.wait_for(lambda: any(f.filename.endswith(".zip") for f in rig.slack.files))
    (sent,) = [f for f in rig.slack.files if f.filename.endswith(".zip")]
    assert (sent.filename, sent.channel_id) == (
        "makaleler-sayfa-1.zip",
        rig.slack.dm_channel(ALICE),
    )
    archive = zipfile.ZipFile(io.BytesIO(sent.content or b""))
    assert [name.rsplit(".", 1)[1] for name in archive.namelist()] == ["md", "html"]


async def test_titles_shared_as_a_file_in_the_dm_are_summed_up_and_charged_once(
    rig: SlackRig,
) -> None:
    await rig.log_in()
    titles = f"{TITLE}\nBulut bilişimin kısa tarihi\n{TITLE}\n"
    file = rig.slack.user_shares_file(ALICE, "basliklar.txt", titles.encode())
    shared = dm_message(rig, "") | {"subtype": "file_share", "files": [file]}
    assert (await rig.post(rig.slack.event(shared))).status_code == 200
    dm = rig.slack.dm_channel(ALICE)

    def in_dm(text: str) -> dict[str, Any] | None:
        return next((m for m in rig.slack.messages(dm) if text in text_of(m)), None)

    await rig.slack.wait_for(lambda: in_dm("Yazım tonunu seçin") is not None)
    tones = in_dm("Yazım tonunu seçin")
    assert tones is not None
    assert f"{TITLE} — listede zaten var" in text_of(tones)
    assert rig.sandbox.state.create_count == 0

    async def press(message: dict[str, Any], label: str, expect: str) -> dict[str, Any]:
        action_id, value = buttons_of(message)[label]
        pressed = rig.slack.block_action(
            action_id, value, user_id=ALICE, channel_id=dm, message_ts=message["ts"]
        )
        assert (await rig.post(pressed)).status_code == 200
        await rig.slack.wait_for(lambda: in_dm(expect) is not None)
        found = in_dm(expect)
        assert found is not None
        return found

    sizes = await press(tones, "Samimi", "Makale boyutunu seçin")
    summary = await press(sizes, "Kısa · 300-500 kelime · 30,00 TL", "Bakiyeniz")
    assert "Ücret: 30,00 TL" in text_of(summary)
    await press(summary, "Onayla", "2 makale sipariş edildi")
    assert rig.sandbox.state.balance_of("demo@example.com") == 470

    file = rig.slack.user_shares_file(ALICE, "dev.txt", b"x" * (1024 * 1024 + 1))
    shared = dm_message(rig, "", ts="1700000000.000200") | {
        "subtype": "file_share",
        "files": [file],
    }
    assert (await rig.post(rig.slack.event(shared))).status_code == 200
    await rig.slack.wait_for(lambda: in_dm("Dosya 1 MB'tan büyük") is not None)
    assert rig.sandbox.state.create_count == 2


async def plan_in_channel(rig: SlackRig, clock: ManualClock) -> datetime:
    """A one-time plan typed in the channel, two minutes ahead; its time."""
    at = clock.now.replace(second=0, microsecond=0) + timedelta(minutes=2)
    wall = at.astimezone(ZoneInfo("Europe/Istanbul")).strftime("%d.%m.%Y %H:%M")
    tones = await rig.says("/takvim", f"{wall}: {TITLE}", "Yazım tonunu seçin")
    sizes = await rig.presses(tones, "Samimi", "Makale boyutunu seçin")
    summary = await rig.presses(sizes, SHORT, "Çalışma zamanları")
    assert "Şimdi ücret alınmaz" in text_of(summary)
    await rig.presses(summary, "Onayla", "Plan kaydedildi")
    return at


def dm_holding(rig: SlackRig, text: str) -> dict[str, Any] | None:
    """The bot's newest message in Alice's DM holding ``text``."""
    found = [m for m in rig.slack.messages(rig.slack.dm_channel(ALICE)) if text in text_of(m)]
    return found[-1] if found else None


async def test_a_plan_typed_in_a_channel_posts_only_the_article_there_at_its_time(
    tmp_path: Path,
) -> None:
    start = datetime.now(UTC).replace(second=0, microsecond=0)
    clock = ManualClock(start, ticking=True)
    async with slack_rig(tmp_path, clock=clock) as rig:
        await rig.log_in()
        at = await plan_in_channel(rig, clock)
        assert rig.sandbox.state.create_count == 0
        clock.now = at
        await rig.slack.wait_for(lambda: rig.sandbox.state.create_count == 1)
        # The check that the bot may still post there shows the owner alone what runs.
        await rig.until(ALICE, "Takvim")
        rig.sandbox.state.clock.advance(600)
        await rig.slack.wait_for(lambda: len(rig.slack.files) == 2, timeout=60)
        await rig.slack.wait_for(lambda: dm_holding(rig, "Kalite kartı") is not None, timeout=30)
        posts = rig.slack.messages(CHANNEL)
        assert posts, "the article is in the channel"
        assert text_of(posts[0]).startswith(TITLE), "the article alone, naming no one"
        assert all(buttons_of(post) == {} for post in posts), "no button readers could press"
        assert not any("Hazırlanıyor" in text_of(post) for post in posts)
        assert not any("Kalite kartı" in text_of(post) for post in posts)
        assert {file.channel_id for file in rig.slack.files} == {CHANNEL}
        # The progress line, in the owner's DM, ends as the article is ready.
        await rig.slack.wait_for(lambda: dm_holding(rig, "Makaleniz hazır") is not None)


async def test_a_paid_article_its_channel_no_longer_takes_goes_to_the_owners_dm(
    tmp_path: Path,
) -> None:
    start = datetime.now(UTC).replace(second=0, microsecond=0)
    clock = ManualClock(start, ticking=True)
    async with slack_rig(tmp_path, clock=clock) as rig:
        await rig.log_in()
        at = await plan_in_channel(rig, clock)
        clock.now = at
        await rig.slack.wait_for(lambda: rig.sandbox.state.create_count == 1)
        # Ordered and paid; then the channel is archived before the article is ready.
        rig.slack.archive_channel(CHANNEL)
        rig.sandbox.state.clock.advance(600)
        await rig.slack.wait_for(lambda: len(rig.slack.files) == 2, timeout=60)
        dm = rig.slack.dm_channel(ALICE)
        assert {file.channel_id for file in rig.slack.files} == {dm}
        assert dm_holding(rig, TITLE) is not None
        assert rig.slack.messages(CHANNEL) == []
        assert rig.sandbox.state.create_count == 1


@pytest.mark.parametrize(
    ("lose", "reason", "paused"),
    [
        (lambda slack: slack.archive_channel(CHANNEL), "kanal arşivlenmiş", "hedefe yazılamıyor"),
        (
            lambda slack: slack.add_channel(CHANNEL, member=False),
            "bot artık orada değil",
            "hedefe yazılamıyor",
        ),
        # The owner's right, not the bot's: the channel no longer takes posts from them.
        (
            lambda slack: slack.user_leaves(CHANNEL, ALICE),
            "siz artık orada üye değilsiniz",
            "kanalda yetkiniz yok",
        ),
    ],
    ids=["archived", "bot_removed", "owner_left"],
)
async def test_a_plan_whose_channel_no_longer_takes_posts_orders_nothing_and_pauses(
    tmp_path: Path, lose: Any, reason: str, paused: str
) -> None:
    start = datetime.now(UTC).replace(second=0, microsecond=0)
    clock = ManualClock(start, ticking=True)
    async with slack_rig(tmp_path, clock=clock) as rig:
        await rig.log_in()
        at = await plan_in_channel(rig, clock)
        lose(rig.slack)
        clock.now = at
        await rig.slack.wait_for(lambda: dm_holding(rig, "Planınız duraklatıldı") is not None)
        told = dm_holding(rig, "Planınız duraklatıldı")
        assert told is not None
        assert reason in text_of(told)
        assert rig.sandbox.state.create_count == 0, "nothing is charged"
        assert rig.sandbox.state.balance_of("demo@example.com") == 500
        dm = rig.slack.dm_channel(ALICE)
        listing = await rig.says("/takvim", "", "Planlarınız", channel=dm)
        assert f"Duraklatıldı ({paused})" in text_of(listing)
        assert [m for m in rig.slack.messages(CHANNEL) if "Planınız" in text_of(m)] == []


async def test_fifty_plans_are_listed_with_their_buttons_within_slacks_block_limit(
    tmp_path: Path,
) -> None:
    async with slack_rig(tmp_path) as rig:
        await rig.log_in()
        at = datetime.now(UTC).replace(second=0, microsecond=0) + timedelta(days=1)
        db = Database.connect(rig.settings.effective_database_url)
        try:
            await db.run(lambda s: _fifty_plans(s, at))
        finally:
            db.dispose()
        listing = await rig.says("/takvim", "", "Planlarınız", channel=rig.slack.dm_channel(ALICE))
        since = rig.ephemeral_index(ALICE, listing)

        def labels() -> list[str]:
            shown = rig.slack.ephemerals(ALICE)[since:]
            return [label for message in shown for label in buttons_of(message)]

        await rig.slack.wait_for(lambda: "🗑 Sil 50" in labels())
        assert "⏸ Duraklat 1" in labels()
        assert len(labels()) == 100, "each plan's two buttons, once"


def _fifty_plans(session: Session, at: datetime) -> None:
    user = session.exec(select(ChatUser).where(ChatUser.external_id == ALICE)).one()
    assert user.id is not None
    for number in range(50):
        title = f"Slack takvim başlığı {number}"
        row = saved_plan(user.id, title, at, platform="slack", chat_id=CHANNEL)
        plans.start_plan(session, plan=row)
