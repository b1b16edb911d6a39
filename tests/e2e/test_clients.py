"""Clients through the fake Bot API: the client step of /yaz with a client's defaults, spending
per client and its CSV read back cell by cell, and the quality card after the article."""

from __future__ import annotations

import csv
import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

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
    day, time = row[0].split(" ")
    assert [len(part) for part in day.split(".")] == [2, 2, 4]
    assert [len(part) for part in time.split(":")] == [2, 2]
