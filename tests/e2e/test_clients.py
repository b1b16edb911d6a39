"""Clients through the fake Bot API: the client step of /yaz with a client's defaults, spending
per client and its CSV read back cell by cell, and the quality card after the article."""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.core.clients.picker import MOST_CLIENTS
from storage import Database
from tests.client_seeds import add_clients as seeded
from tests.e2e.fake_telegram.records import StoredFile, StoredMessage
from tests.e2e.order_labels import MEDIUM
from tests.e2e.telegram_rig import ALICE, Rig, telegram_rig

pytestmark = pytest.mark.e2e

FORMULA_TITLE = "=SUM(A1:A9) ile tablolar"


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    async with telegram_rig(tmp_path) as running:
        yield running


def labels(message: StoredMessage) -> list[str]:
    return [button["text"] for row in message.buttons for button in row]


async def test_a_client_with_defaults_its_orders_csv_and_the_quality_card(rig: Rig) -> None:
    await rig.log_in()
    empty = await rig.says(ALICE, "/musteriler", "Henüz müşteri eklemediniz")
    await rig.presses(ALICE, empty, "Müşteri ekle", "Müşterinin adını yazın")
    listing = await rig.says(ALICE, "Acme Blog", "Acme Blog eklendi")
    tones = await rig.presses(ALICE, listing, "Varsayılanlar · Acme Blog", "varsayılan tonu")
    sizes = await rig.presses(ALICE, tones, "Profesyonel", "varsayılan boyutu")
    await rig.presses(ALICE, sizes, MEDIUM, "varsayılanlar: Profesyonel, Orta")

    question = await rig.says(ALICE, f"/yaz {FORMULA_TITLE}", "Hangi müşteri için?")
    assert labels(question) == ["Acme Blog", "Müşterisiz", "İptal"]
    summary = await rig.presses(ALICE, question, "Acme Blog", "Bakiyeniz")
    assert "Müşteri: Acme Blog" in summary.text
    assert "Değiştir" in labels(summary)
    await rig.presses(ALICE, summary, "Onayla", "Siparişiniz alındı")

    # The article ends with its card, after its parts and files.
    rig.sandbox.state.clock.advance(600)
    card = await rig.until(ALICE, "Kalite kartı", timeout=15)
    assert "(sipariş: 800-1200)" in card.text
    assert "Okunabilirlik (Ateşman): " in card.text
    assert "Başlığın kelimeleri: " in card.text
    files = [m for m in rig.bot_messages(ALICE) if m.document]
    assert files
    assert files[0].message_id < card.message_id

    spent = await rig.says(ALICE, "/harcamalar", "Müşteriye göre")
    assert "Acme Blog: 25,00 TL / 0,00 TL" in spent.text
    rig.telegram.user_presses(ALICE, spent.message_id, spent.callback_data("CSV"))

    def csv_files() -> list[StoredFile]:
        return [
            m.document
            for m in rig.bot_messages(ALICE)
            if m.document and m.document.file_name.endswith(".csv")
        ]

    await rig.telegram.wait_for(lambda: bool(csv_files()))
    (document,) = csv_files()
    assert document.file_name == "siparisler.csv"
    assert document.content.startswith(b"\xef\xbb\xbf"), "UTF-8 with a BOM, for Excel"
    rows = list(csv.reader(io.StringIO(document.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[0] == ["Tarih", "Müşteri", "Başlık", "Ton", "Boyut", "Tutar", "Durum"]
    (row,) = rows[1:]
    assert row[1:6] == ["Acme Blog", f"'{FORMULA_TITLE}", "Profesyonel", "Orta", "25,00"]
    # Delivered, or about to be stored so: the card goes out just before.
    assert row[6] in {"Hazır", "Teslim edildi"}
    # The order's minute, in the bot's zone (Istanbul, three hours from UTC).
    stamp = datetime.strptime(row[0], "%d.%m.%Y %H:%M").replace(tzinfo=ZoneInfo("Europe/Istanbul"))
    assert abs(stamp - datetime.now(UTC)) < timedelta(minutes=2)


async def add_clients(rig: Rig, *names: str) -> None:
    listing = await rig.says(ALICE, "/musteriler", "Müşterileriniz")
    for name in names:
        await rig.presses(ALICE, listing, "Müşteri ekle", "Müşterinin adını yazın")
        listing = await rig.says(ALICE, name, f"{name} eklendi")


async def order_for(rig: Rig, client: str, titles: str) -> None:
    """Order the titles (``;`` between them) for the client, through /toplu's steps."""
    question = await rig.says(ALICE, f"/toplu {titles}", "Hangi müşteri için?")
    tones = await rig.presses(ALICE, question, client, "Yazım tonunu seçin")
    sizes = await rig.presses(ALICE, tones, "Samimi", "Makale boyutunu seçin")
    medium = next(label for label in labels(sizes) if label.startswith("Orta"))
    summary = await rig.presses(ALICE, sizes, medium, "Bakiyeniz")
    await rig.presses(ALICE, summary, "Onayla", "sipariş edildi")


async def test_a_search_is_narrowed_to_one_client_and_keeps_its_words(rig: Rig) -> None:
    await rig.log_in()
    # Articles that take their real minutes: no delivery shares the chat's pace with the test.
    rig.sandbox.state.speed = 1.0
    await add_clients(rig, "Acme Blog", "Oto Market")
    await order_for(rig, "Acme Blog", "Bulut bilişimin kısa tarihi; Yapay zekâ ile içerik üretimi")
    await order_for(rig, "Oto Market", "BULUT depolama ile yedekleme")

    found = await rig.says(ALICE, "/makalelerim bulut", "2 makale bulundu")
    assert "Yalnız Acme Blog" in labels(found)
    assert "Yalnız Oto Market" in labels(found)
    narrowed = await rig.presses(ALICE, found, "Yalnız Acme Blog", "Acme Blog için")
    assert "“bulut” için 1 makale bulundu" in narrowed.text
    assert "Bulut bilişimin kısa tarihi" in narrowed.text
    assert "depolama" not in narrowed.text, "another client's"
    assert "Yapay zekâ" not in narrowed.text, "the search word is kept"
    assert not any(label.startswith("Yalnız") for label in labels(narrowed))


async def test_a_full_list_of_clients_fits_telegrams_keyboards_and_the_cap_is_said(
    rig: Rig,
) -> None:
    await rig.log_in()
    names = [f"Müşteri {number:02}" for number in range(1, MOST_CLIENTS)]
    db = Database.connect(rig.settings.effective_database_url)
    try:
        now = datetime.now(UTC)
        db.run_sync(lambda s: seeded(s, external_id=str(ALICE), names=names, now=now))
    finally:
        db.dispose()

    # The fake Bot API refuses a keyboard of over 100 buttons, as Telegram does.
    await add_clients(rig, "Son Müşteri")
    listing = await rig.says(ALICE, "/musteriler", "Son Müşteri")
    assert len(labels(listing)) == 3 * MOST_CLIENTS + 1
    await rig.presses(ALICE, listing, "Müşteri ekle", f"En çok {MOST_CLIENTS} müşteriniz")
    question = await rig.says(ALICE, "/yaz Bulut bilişimin kısa tarihi", "Hangi müşteri için?")
    assert len(labels(question)) == MOST_CLIENTS + 2
