"""Telegram under abuse: files too large or too slow to read stall no one; metrics are private."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from sqlmodel import select

from bot.core.ordering.title_files import MAX_FILE_BYTES
from storage import ChatUser, Database, Draft
from tests.e2e.telegram_rig import ALICE, BOB, METRICS_TOKEN, Rig, telegram_rig
from tests.loop_lag import LoopLag


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    async with telegram_rig(tmp_path) as running:
        yield running


async def test_a_file_without_its_size_is_downloaded_no_further_than_the_limit(rig: Rig) -> None:
    await rig.log_in()
    huge = b"Bir baslik burada\n" * (64 * 1024 * 1024 // 18)
    sent = rig.telegram.user_sends_document(ALICE, "dev.txt", huge, size_shown=False)

    await rig.until(ALICE, "Dosya 1 MB'tan büyük", since=sent["message_id"])

    served = rig.telegram.served(sent["document"]["file_id"])
    assert served < len(huge) // 4, f"{served} of {len(huge)} bytes were read"


async def test_a_megabyte_of_empty_lines_does_not_stall_the_others(rig: Rig) -> None:
    await rig.log_in()
    await rig.says(BOB, "/yardim", "/yaz")

    async with LoopLag(tick=0.005) as lag:
        sent = rig.telegram.user_sends_document(ALICE, "bos.txt", b"\n" * MAX_FILE_BYTES)
        await rig.until(ALICE, "edilebilecek başlık yok", since=sent["message_id"])

    assert lag.worst < 1.0, f"the event loop stalled {lag.worst:.1f} s"


async def test_a_file_of_long_refused_titles_is_echoed_in_one_short_message(
    rig: Rig, tmp_path: Path
) -> None:
    await rig.log_in()
    rows = ["Yapay zekâ ile içerik üretimi", *(f"{n:02} " + "c" * 9_996 for n in range(99))]
    sent = rig.telegram.user_sends_document(ALICE, "uzun.csv", "\n".join(rows).encode())

    tones = await rig.until(ALICE, "Yazım tonunu seçin", since=sent["message_id"])
    sizes = await rig.presses(ALICE, tones, "Samimi", "Makale boyutunu seçin")

    for screen in (tones, sizes):
        shown = screen.text or ""
        assert "Alınmayan başlıklar (99)" in shown
        assert "ve 89 başlık daha" in shown
        assert len(shown) < 2000
    replies = [m for m in rig.bot_messages(ALICE) if m.message_id > sent["message_id"]]
    assert len(replies) == 1, "one screen, edited in place"
    db = Database.connect(f"sqlite:///{tmp_path / 'bot.db'}")
    try:
        (draft,) = db.run_sync(lambda s: s.exec(select(Draft)).all())
        assert len(json.dumps(draft.model_dump(mode="json"))) < 8 * 1024
    finally:
        db.dispose()


async def scrape(rig: Rig, path: str, token: str | None = None) -> int:
    bearer = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(timeout=10) as client:
        url = f"http://127.0.0.1:{rig.settings.port}{path}"
        return (await client.get(url, headers=bearer)).status_code


async def test_metrics_answer_only_their_bearer_token_and_health_stays_open(
    rig: Rig,
) -> None:
    assert await scrape(rig, "/metrics") == 401
    assert await scrape(rig, "/metrics", "x" * len(METRICS_TOKEN)) == 401
    assert await scrape(rig, "/metrics", METRICS_TOKEN) == 200
    assert await scrape(rig, "/health") == 200


async def test_metrics_are_not_served_without_a_token_set(tmp_path: Path) -> None:
    async with telegram_rig(tmp_path, metrics_token=None) as rig:
        assert await scrape(rig, "/metrics") == 404
        assert await scrape(rig, "/metrics", METRICS_TOKEN) == 404
        assert await scrape(rig, "/health") == 200


async def test_a_strangers_burst_leaves_no_row_and_no_too_fast_and_their_password_goes(
    tmp_path: Path,
) -> None:
    async with telegram_rig(tmp_path, allowed_telegram_users=str(BOB)) as rig:
        login = rig.telegram.user_says(ALICE, "/giris demo@example.com Yanlis12345")
        rig.telegram.user_says(
            ALICE, "/giris demo@example.com Yanlis12345", chat_id=-700, chat_type="group"
        )
        burst = [rig.telegram.user_says(ALICE, f"merhaba {n}") for n in range(30)]
        await rig.until(ALICE, "izniniz yok", since=login["message_id"])
        await rig.says(BOB, "/yardim", "/makalelerim")
        await rig.telegram.wait_for(
            lambda: rig.count("deleteMessage", lambda p: p["chat_id"] == -700) == 1
        )

        private = {"chat_id": ALICE, "message_id": login["message_id"]}
        assert rig.count("deleteMessage", lambda p: p == private) == 1
        assert burst[-1]["message_id"] > login["message_id"]
        assert rig.shown(ALICE, "Çok hızlı") is None
        assert [m.text for m in rig.bot_messages(ALICE)] == [rig.shown(ALICE, "izniniz").text]
        db = Database.connect(rig.settings.effective_database_url)
        try:
            known = db.run_sync(lambda s: list(s.exec(select(ChatUser.external_id)).all()))
        finally:
            db.dispose()
        assert known == [str(BOB)], "a stranger leaves no row"
