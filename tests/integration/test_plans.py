"""The content calendar through the dialogs and the planner, against the sandbox on loopback:
a run orders at its time and not before, repeats on the next day, and never charges what the
balance cannot pay."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.core.conversation.events import Upload
from tests.dialog_harness import Chat, Harness, harness, labels, texts

pytestmark = pytest.mark.integration

ISTANBUL = ZoneInfo("Europe/Istanbul")
FIRST = "Yapay zekâ: içerik üretiminin geleceği"
SECOND = "Bulut bilişimin kısa tarihi"


def wall(at: datetime) -> str:
    return at.astimezone(ISTANBUL).strftime("%d.%m.%Y %H:%M")


def minute_ahead(h: Harness, minutes: int = 2) -> datetime:
    """The start of the minute ``minutes`` from now, in UTC: by default at least a minute
    away, so that a dialog slowed by a busy machine still saves its plan before that time
    (the harness's clock runs on)."""
    now = h.clock.now.replace(second=0, microsecond=0)
    return now + timedelta(minutes=minutes)


async def plan(chat: Chat, line: str, size: str = "Kısa") -> str:
    """Write a plan in one message, pick the tone and size, and save it; the summary."""
    tones = await chat.say(line)
    assert "Samimi" in labels(tones), texts(tones)
    await chat.press("Samimi")
    summary = texts(await chat.press(size))
    saved = texts(await chat.press("Onayla"))
    assert "Plan kaydedildi" in saved, saved
    return summary


async def test_a_one_time_plan_orders_all_its_titles_at_its_time_and_not_before(
    tmp_path: Path,
) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat()
        await chat.login()
        at = minute_ahead(h)
        summary = await plan(chat, f"/takvim {wall(at)}: {FIRST}; {SECOND}")
        assert "Çalışma zamanları" in summary
        assert wall(at) in summary
        assert "Ücret: 30,00 TL" in summary, "the cost of all its titles"
        assert "her sipariş, çalıştığı anda" in summary
        assert h.sandbox is not None
        assert h.sandbox.state.create_count == 0, "saving a plan charges nothing"

        listing = texts(await chat.say("/takvim"))
        assert f"sonraki: {wall(at)} · kalan: 2 başlık · hedef: bu sohbet" in listing

        h.clock.now = at - timedelta(seconds=1)
        await h.run_plans()
        assert h.sandbox.state.create_count == 0, "never before its time"

        h.clock.now = at
        await h.run_plans()
        await h.run_plans()
        assert h.sandbox.state.create_count == 2, "both titles, once"
        assert any("Takvim" in text for text in [c.text for c in h.messenger.sent])
        assert "Henüz planınız yok" in texts(await chat.say("/takvim")), "a one-time plan ends"


async def test_a_repeating_plan_lists_its_second_run_for_the_next_day(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat()
        await chat.login()
        at = minute_ahead(h, 2)
        clock = at.astimezone(ISTANBUL).strftime("%H:%M")
        await plan(chat, f"/takvim her gün {clock}:\n{FIRST}\n{SECOND}")
        h.clock.now = at + timedelta(seconds=5)
        await h.run_plans()
        assert h.sandbox is not None
        assert h.sandbox.state.create_count == 1, "one title a run"
        listing = texts(await chat.say("/takvim"))
        assert f"sonraki: {wall(at + timedelta(days=1))} · kalan: 1 başlık" in listing
        h.clock.now = at + timedelta(days=1, seconds=5)
        await h.run_plans()
        assert h.sandbox.state.create_count == 2, "the next title at the next run"
        assert "Henüz planınız yok" in texts(await chat.say("/takvim")), "none left: it ends"


async def test_a_run_the_balance_cannot_pay_orders_nothing_and_pauses_the_plan(
    tmp_path: Path,
) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat()
        await chat.login("az@example.com", "Az123456")
        at = minute_ahead(h)
        await plan(chat, f"/takvim {wall(at)}: {FIRST}; {SECOND}")
        told = len([c.text for c in h.messenger.sent])
        h.clock.now = at
        await h.run_plans()
        h.clock.advance(60)
        await h.run_plans()
        assert h.sandbox is not None
        assert h.sandbox.state.create_count == 0
        assert h.sandbox.state.balance_of("az@example.com") == 20
        notes = [c.text for c in h.messenger.sent][told:]
        assert len(notes) == 1, notes
        assert "bakiyeniz (20,00 TL)" in notes[0]
        listing = await chat.say("/takvim")
        assert "Duraklatıldı (bakiye yetersiz)" in texts(listing)
        assert "▶ Sürdür 1" in labels(listing)


async def test_a_plan_asks_its_client_and_removing_the_client_pauses_it(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat()
        await chat.login()
        await chat.say("/musteriler")
        await chat.press("Müşteri ekle")
        await chat.say("Acme")
        asked = await chat.say(f"/takvim her gün 09:00: {FIRST}")
        assert "Hangi müşteri için?" in texts(asked)
        await chat.press("Acme")
        await chat.press("Samimi")
        summary = texts(await chat.press("Kısa"))
        assert "Müşteri: Acme" in summary
        assert "Zaman: her gün 09:00" in summary
        assert "Plan kaydedildi" in texts(await chat.press("Onayla"))

        await chat.say("/musteriler")
        await chat.press("Sil")
        await chat.press("Evet, sil")
        listing = texts(await chat.say("/takvim"))
        assert "Duraklatıldı (müşteri silindi)" in listing


async def test_a_plan_is_paused_resumed_and_deleted_with_its_buttons(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat()
        await chat.login()
        at = minute_ahead(h, 5)
        await plan(chat, f"/takvim her gün {at.astimezone(ISTANBUL):%H:%M}: {FIRST}; {SECOND}")
        await chat.say("/takvim")
        paused = texts(await chat.press("⏸ Duraklat 1"))
        assert "Plan duraklatıldı." in paused
        assert "Duraklatıldı (sizin isteğinizle)" in paused
        h.clock.now = at
        await h.run_plans()
        assert h.sandbox is not None
        assert h.sandbox.state.create_count == 0, "a paused plan does not run"
        resumed = texts(await chat.press("▶ Sürdür 1"))
        assert f"sonraki: {wall(at + timedelta(days=1))} · kalan: 2 başlık" in resumed
        asked = await chat.press("🗑 Sil 1")
        assert "1. plan silinsin mi?" in texts(asked), "asked before it is deleted"
        kept = texts(await chat.press("Vazgeç"))
        assert "kalan: 2 başlık" in kept, "given up, the plan stays"
        await chat.press("🗑 Sil 1")
        deleted = texts(await chat.press("Evet, sil"))
        assert "Plan silindi." in deleted
        assert "Henüz planınız yok" in deleted


async def test_a_plans_titles_are_checked_as_toplu_checks_them_and_may_come_in_a_file(
    tmp_path: Path,
) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat()
        await chat.login()
        left_out = texts(await chat.say(f"/takvim her gün 09:00: {FIRST}; Kısa; {SECOND}"))
        assert "Alınmayan başlıklar (1)" in left_out, "as /toplu and a file leave it out"
        assert "Kısa — çok kısa (en az 10 karakter)" in left_out
        await chat.press("İptal")

        prompt = texts(await chat.say("/takvim her pazartesi 10:00:"))
        assert "Planın başlıklarını yazın" in prompt
        rows = f"baslik;boyut\n{FIRST};Orta\n{SECOND};\n".encode()
        tones = await chat.send(Upload("liste.csv", rows, len(rows)))
        assert "Samimi" in labels(tones), texts(tones)
        await chat.press("Samimi")
        summary = texts(await chat.press("Kısa"))
        assert f"{FIRST} (Orta)" in summary
        assert "Ücret: 40,00 TL" in summary, "25 for the row's Orta, 15 for the plan's Kısa"
        assert "Plan kaydedildi" in texts(await chat.press("Onayla"))
        listing = texts(await chat.say("/takvim"))
        assert "her pazartesi 10:00" in listing
        assert "kalan: 2 başlık" in listing


async def test_a_runs_order_keeps_the_plans_client_in_the_list_and_the_spending(
    tmp_path: Path,
) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat()
        await chat.login()
        await chat.say("/musteriler")
        await chat.press("Müşteri ekle")
        await chat.say("Acme")
        at = minute_ahead(h)
        await chat.say(f"/takvim {wall(at)}: {FIRST}")
        await chat.press("Acme")
        await chat.press("Samimi")
        await chat.press("Kısa")
        assert "Plan kaydedildi" in texts(await chat.press("Onayla"))
        h.clock.now = at
        await h.run_plans()
        assert h.sandbox is not None
        assert h.sandbox.state.create_count == 1

        spent = texts(await chat.say("/harcamalar"))
        assert "Acme: 15,00 TL / 0,00 TL" in spent
        listing = await chat.say("/makalelerim")
        narrowed = texts(await chat.press("Yalnız Acme", listing[-1].screen))
        assert "Acme için siparişler" in narrowed
        assert FIRST in narrowed


async def test_a_plan_for_a_client_with_defaults_skips_tone_and_size_and_can_change_them(
    tmp_path: Path,
) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat()
        await chat.login()
        await chat.say("/musteriler")
        await chat.press("Müşteri ekle")
        await chat.say("Acme")
        await chat.say("/musteriler")
        await chat.press("Varsayılanlar · Acme")
        await chat.press("Profesyonel")
        await chat.press("Orta")
        await chat.say(f"/takvim her gün 09:00: {FIRST}")
        summary = await chat.press("Acme")
        assert "Ton: Profesyonel" in texts(summary)
        assert "Çalışma zamanları" in texts(summary)
        assert "Değiştir" in labels(summary)
        await chat.press("Değiştir")
        await chat.press("Samimi")
        changed = texts(await chat.press("Kısa"))
        assert "Ton: Samimi" in changed
        assert "Ücret: 15,00 TL" in changed
        assert "Plan kaydedildi" in texts(await chat.press("Onayla"))
