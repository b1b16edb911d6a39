"""Operating the bot: /health, /metrics, allow lists, the admin chat and /durum, end to end."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import make_url
from sqlmodel import select

from storage import ChatUser, Database, LoginAttempt
from tests.e2e.order_labels import SHORT, TITLE
from tests.e2e.relay import relaying
from tests.e2e.slack_rig import ALICE as SLACK_ALICE
from tests.e2e.slack_rig import BOB as SLACK_BOB
from tests.e2e.slack_rig import SlackRig, dm_message, slack_rig, text_of
from tests.e2e.telegram_rig import ALICE, BOB, TOKEN, Rig, telegram_rig

GROUP = -100777


async def _get(rig: Rig | SlackRig, path: str) -> httpx.Response:
    token = rig.settings.metrics_token
    bearer = {"Authorization": f"Bearer {token.get_secret_value()}"} if token else {}
    async with httpx.AsyncClient(timeout=10) as client:
        return await client.get(f"http://127.0.0.1:{rig.settings.port}{path}", headers=bearer)


def _samples(exposition: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape by name and labels."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(exposition)
        for sample in family.samples
    }


def _value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def _stored_users_and_failed_logins(rig: Rig) -> tuple[list[str], int]:
    database = Database.connect(rig.settings.effective_database_url)
    try:
        return database.run_sync(
            lambda s: (
                list(s.exec(select(ChatUser.external_id)).all()),
                len(s.exec(select(LoginAttempt)).all()),
            )
        )
    finally:
        database.dispose()


async def _order(rig: Rig, user: int = ALICE) -> None:
    tones = await rig.says(user, f"/yaz {TITLE}", "Yazım tonunu seçin")
    sizes = await rig.presses(user, tones, "Profesyonel", "Makale boyutunu seçin")
    summary = await rig.presses(user, sizes, SHORT, "Bakiyeniz")
    await rig.presses(user, summary, "Onayla", "Siparişiniz alındı")


@pytest.mark.parametrize("webhook", [False, True], ids=["polling", "webhook"])
async def test_health_reports_the_database_the_delivery_rounds_and_the_chat(
    tmp_path: Path, webhook: bool
) -> None:
    async with telegram_rig(tmp_path, webhook=webhook) as rig:
        await rig.telegram.wait_for(lambda: rig.count("getMe") > 0)
        answer = await _get(rig, "/health")
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["status"] == "ok"
        assert body["database"] is True
        assert body["chats"] == {"telegram": {"connected": True}}
        assert body["delivery"]["overdue"] is False
        for secret in (TOKEN, str(rig.settings.database_url), "1001"):
            assert secret not in answer.text


def _running(mode: str, tmp_path: Path, **overrides: object) -> AbstractAsyncContextManager[Any]:
    """The bot in one of the modes /health must be served in, PORT set."""
    if mode == "socket mode":
        return slack_rig(tmp_path, socket_mode=True, **overrides)
    return telegram_rig(tmp_path, webhook=mode == "webhook", **overrides)


@pytest.mark.postgres
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
@pytest.mark.parametrize("mode", ["polling", "webhook", "socket mode"])
async def test_health_is_503_once_the_database_stops(
    tmp_path: Path, database_url: str, mode: str
) -> None:
    url = make_url(database_url)
    assert url.host is not None
    assert url.port is not None
    async with relaying(url.host, url.port) as relay:
        relayed = url.set(host="127.0.0.1", port=relay.port)
        through = relayed.render_as_string(hide_password=False)
        async with _running(mode, tmp_path, database_url=through) as rig:
            healthy = await _get(rig, "/health")
            assert healthy.status_code == 200, healthy.text
            assert all(chat["connected"] for chat in healthy.json()["chats"].values())
            await relay.cut()
            answer = await _get(rig, "/health")
            assert answer.status_code == 503
            assert answer.json()["database"] is False
            assert answer.json()["status"] == "unavailable"


async def test_metrics_count_an_order_from_confirmation_to_delivery(tmp_path: Path) -> None:
    async with telegram_rig(tmp_path) as rig:
        before = _samples((await _get(rig, "/metrics")).text)
        await rig.log_in()
        await _order(rig)
        rig.sandbox.state.clock.advance(600)
        await rig.until(ALICE, "Makaleniz hazır", timeout=60)
        scraped = await _get(rig, "/metrics")
        assert scraped.headers["content-type"].startswith("text/plain")
        after = _samples(scraped.text)

    def moved(name: str, **labels: str) -> float:
        return _value(after, name, **labels) - _value(before, name, **labels)

    assert moved("makale_orders_total", stage="confirmed") == 1
    assert moved("makale_orders_total", stage="charged") == 1
    assert moved("makale_articles_total", outcome="delivered") == 1
    assert moved("makale_upstream_calls_total", operation="create", outcome="ok") == 1
    assert moved("makale_upstream_call_seconds_count", operation="create") == 1
    assert moved("makale_chat_messages_sent_total", platform="telegram") >= 5
    assert _value(after, "makale_pending_jobs") == 0
    labels = {value for _, pairs in after for _, value in pairs}
    for private in (str(ALICE), "demo@example.com", TITLE):
        assert private not in labels


async def test_failed_logins_are_counted(tmp_path: Path) -> None:
    async with telegram_rig(tmp_path) as rig:
        before = _samples((await _get(rig, "/metrics")).text)
        await rig.says(ALICE, "/giris demo@example.com Yanlis12345", "hatalı")
        after = _samples((await _get(rig, "/metrics")).text)
    failed = ("makale_logins_refused_total", (("outcome", "failed"),))
    assert after[failed] - before.get(failed, 0.0) == 1


async def test_a_user_outside_the_allow_list_is_refused_once_without_an_upstream_call(
    tmp_path: Path,
) -> None:
    async with telegram_rig(
        tmp_path, allowed_telegram_users=str(BOB), allowed_telegram_chats=str(GROUP)
    ) as rig:
        requests = len(rig.sandbox.state.request_log)
        said = rig.telegram.user_says(ALICE, "/giris demo@example.com Yanlis12345")
        await rig.until(ALICE, "izniniz yok", since=said["message_id"])
        for text in ("/bakiye", "/yaz Yapay zekâ ile içerik", "merhaba"):
            rig.telegram.user_says(ALICE, text)
        # Bob is allowed: his answer comes after Alice's messages were handled, or dropped.
        await rig.says(BOB, "/yardim", "/makalelerim")
        await rig.says(BOB, "/yardim", "/makalelerim", chat_id=GROUP, chat_type="supergroup")
        assert len(rig.sandbox.state.request_log) == requests, "no upstream call for a stranger"
        assert [m.text for m in rig.bot_messages(ALICE)] == [rig.shown(ALICE, "izniniz").text]
        known, failed_logins = _stored_users_and_failed_logins(rig)
        assert known == [str(BOB)], "a stranger leaves no trace"
        assert failed_logins == 0


async def test_durum_answers_in_the_admin_chat_only(tmp_path: Path) -> None:
    async with telegram_rig(tmp_path, admin_chat=str(BOB)) as rig:
        # Telegram lets a bot write only to chats that wrote to it first.
        await rig.says(BOB, "/yardim", "/makalelerim")
        await rig.stop()
        await rig.start()
        started = await rig.until(BOB, "sürümüyle başladı")
        status = await rig.says(BOB, "/durum", "Sürüm:")
        assert "Bekleyen işler: 0 (en eskisi: yok)" in (status.text or "")
        assert "Son servis hatası: yok" in (status.text or "")
        await rig.says(ALICE, "/durum", "Bu komutu tanımıyorum")
        assert rig.shown(ALICE, "Sürüm:") is None
        assert [m for m in rig.bot_messages(BOB) if "başladı" in (m.text or "")] == [started]

        await rig.log_in()
        await _order(rig)
        waiting = await rig.says(BOB, "/durum", "Sürüm:")
        assert "Bekleyen işler: 1 (en eskisi: 0:00:" in (waiting.text or "")
        rig.sandbox.state.clock.advance(600)
        await rig.until(ALICE, "Makaleniz hazır", timeout=60)
        done = await rig.says(BOB, "/durum", "Sürüm:")
        assert "Bekleyen işler: 0 (en eskisi: yok)" in (done.text or "")
        assert "Son bir saatte teslim edilen: 1" in (done.text or "")


async def test_a_slack_user_outside_the_allow_list_is_refused_once_without_an_upstream_call(
    tmp_path: Path,
) -> None:
    async with slack_rig(tmp_path, allowed_slack_users=SLACK_BOB) as rig:
        requests = len(rig.sandbox.state.request_log)
        await rig.says("/bakiye", "", "izniniz yok")
        await rig.command("/giris")
        await rig.command("/yaz", TITLE)
        # Bob is allowed; his answer shows Alice's commands were handled (or dropped) first.
        await rig.says("/yardim", "", "/makalelerim", user=SLACK_BOB)
        assert [text_of(m) for m in rig.slack.ephemerals(SLACK_ALICE)] == [
            text_of(rig.slack.ephemerals(SLACK_ALICE)[0])
        ]
        assert rig.slack.views == [], "no login modal for a stranger"
        assert len(rig.sandbox.state.request_log) == requests, "no upstream call for a stranger"


async def test_telegram_is_asked_only_for_handled_updates_with_html_defaults(
    tmp_path: Path,
) -> None:
    async with telegram_rig(tmp_path) as rig:
        await rig.says(ALICE, "/yardim", "/makalelerim")
        polls = rig.telegram.calls_of("getUpdates")
    wanted = ["message", "edited_message", "callback_query", "inline_query", "my_chat_member"]
    assert all(c.params["allowed_updates"] == wanted for c in polls)
    [sent] = [c for c in rig.telegram.calls_of("sendMessage") if c.params["chat_id"] == ALICE]
    assert sent.params["parse_mode"] == "HTML"
    assert sent.params["link_preview_options"] == {"is_disabled": True}


async def test_the_error_notice_speaks_the_language_chosen_with_dil(tmp_path: Path) -> None:
    async with telegram_rig(tmp_path) as rig:
        menu = await rig.says(ALICE, "/dil", "Dil seçin")
        await rig.presses(ALICE, menu, "English", "Language: English")
        rig.telegram.fail_next("sendMessage", status=400, description="Bad Request: boom")
        said = rig.telegram.user_says(ALICE, "/yardim")
        await rig.until(ALICE, "Something went wrong", since=said["message_id"])


async def test_429s_from_telegram_are_counted_and_the_message_still_goes_out(
    tmp_path: Path,
) -> None:
    async with telegram_rig(tmp_path) as rig:
        await rig.says(ALICE, "/yardim", "/makalelerim")
        before = _samples((await _get(rig, "/metrics")).text)
        rig.telegram.fail_next("sendMessage", status=429, retry_after=1)
        await rig.says(ALICE, "/yardim", "/makalelerim")
        after = _samples((await _get(rig, "/metrics")).text)
    limited = ("makale_chat_rate_limited_total", (("platform", "telegram"),))
    sent = ("makale_chat_messages_sent_total", (("platform", "telegram"),))
    assert after[limited] - before.get(limited, 0.0) == 1
    assert after[sent] - before[sent] == 1


async def test_slack_messages_and_429s_are_counted(tmp_path: Path) -> None:
    async with slack_rig(tmp_path) as rig:
        before = _samples((await _get(rig, "/metrics")).text)
        rig.slack.fail_next("chat.postMessage", status=429, retry_after=1)
        await rig.post(rig.slack.event(dm_message(rig, "merhaba")))
        dm = rig.slack.dm_channel(SLACK_ALICE)
        await rig.slack.wait_for(lambda: rig.slack.messages(dm))
        after = _samples((await _get(rig, "/metrics")).text)
    limited = ("makale_chat_rate_limited_total", (("platform", "slack"),))
    sent = ("makale_chat_messages_sent_total", (("platform", "slack"),))
    assert after[limited] - before.get(limited, 0.0) == 1
    assert after[sent] - before.get(sent, 0.0) == 1
