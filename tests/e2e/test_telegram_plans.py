"""The content calendar on Telegram, end to end through the fake Bot API, with the bot's clock
moved by the test: a plan written in one message, run at its time into a channel the user
added the bot to, and paused when the bot, or its owner, may no longer post there; and one
user's many plans never delay another's."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlmodel import Session, select

from storage import Database, plans
from storage.models import ChatUser
from tests.e2e.fake_telegram.records import StoredMessage
from tests.e2e.order_labels import TITLE
from tests.e2e.telegram_rig import ALICE, BOB, Rig, telegram_rig
from tests.fakes import ManualClock
from tests.plan_rows import saved_plan

ISTANBUL = ZoneInfo("Europe/Istanbul")
CHANNEL = -1001234567890
SECOND = "Bulut bilişimin kısa tarihi"
PLANS = 50
BOBS_TITLE = "Bob'un takvimdeki tek başlığı"


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    # From the start of a minute, so the next minute but one is over a minute ahead.
    start = datetime.now(UTC).replace(second=0, microsecond=0)
    # A short grace at the stop: the notices fifty plans leave queued are not waited for.
    clock = ManualClock(start, ticking=True)
    async with telegram_rig(tmp_path, clock=clock, stop_grace_seconds=0.5) as rig:
        yield rig


def clock_of(rig: Rig) -> ManualClock:
    assert isinstance(rig.clock, ManualClock)
    return rig.clock


def next_minute(rig: Rig, minutes: int = 1) -> datetime:
    return clock_of(rig).now.replace(second=0, microsecond=0) + timedelta(minutes=minutes)


def wall(at: datetime, form: str = "%d.%m.%Y %H:%M") -> str:
    return at.astimezone(ISTANBUL).strftime(form)


def label(message: StoredMessage, start: str) -> str:
    labels = [button["text"] for row in message.buttons for button in row]
    return next(text for text in labels if text.startswith(start))


async def write_plan(rig: Rig, line: str, *, target: str | None = None) -> str:
    """The plan in one message, then tone, size (and target), summed up and saved; the
    summary's text."""
    tones = await rig.says(ALICE, line, "Yazım tonunu seçin")
    sizes = await rig.presses(ALICE, tones, "Samimi", "Makale boyutunu seçin")
    after_size = "Makaleler nereye" if target else "Çalışma zamanları"
    shown = await rig.presses(ALICE, sizes, label(sizes, "Kısa"), after_size)
    if target:
        shown = await rig.presses(ALICE, shown, target, "Çalışma zamanları")
    summary = shown.text or ""
    await rig.presses(ALICE, shown, "Onayla", "Plan kaydedildi")
    return summary


async def test_a_one_time_plan_orders_at_its_time_and_not_before(rig: Rig) -> None:
    await rig.log_in()
    at = next_minute(rig, 2)
    summary = await write_plan(rig, f"/takvim {wall(at)}: {TITLE}")
    assert "Şimdi ücret alınmaz" in summary
    assert rig.sandbox.state.create_count == 0
    clock_of(rig).now = at - timedelta(seconds=30)
    # The calendar ticks every 0.2 s here: two answers later, still nothing is ordered.
    await rig.says(ALICE, "/takvim", "kalan: 1 başlık")
    await rig.says(ALICE, "/bakiye", "500,00 TL")
    assert rig.sandbox.state.create_count == 0, "never before its time"
    clock_of(rig).now = at
    await rig.telegram.wait_for(lambda: rig.sandbox.state.create_count == 1)
    await rig.until(ALICE, "Takvim")
    rig.sandbox.state.clock.advance(600)
    await rig.until(ALICE, "Makaleniz hazır", timeout=15)
    assert any((m.text or "").startswith(TITLE) for m in rig.bot_messages(ALICE))
    assert rig.sandbox.state.create_count == 1


async def test_a_title_the_service_refuses_at_run_time_is_skipped_and_named(rig: Rig) -> None:
    await rig.log_in()
    refused = "Yasaklı bir başlık örneği"
    at = next_minute(rig, 2)
    await write_plan(rig, f"/takvim {wall(at)}: {TITLE}; {refused}; {SECOND}")
    # The service's content rules refuse one title once the plan is made.
    rig.sandbox.state.faults.refused_titles.add(refused)
    clock_of(rig).now = at
    told = await rig.until(ALICE, refused, timeout=15)
    assert "2 makale sipariş edildi" in (told.text or "")
    assert rig.sandbox.state.create_count == 2, "the others are ordered"
    assert rig.sandbox.state.balance_of("demo@example.com") == 470, "each charged once"
    listing = await rig.says(ALICE, "/takvim", "Henüz planınız yok")
    assert "kalan" not in (listing.text or ""), "the plan is done, not left to run again"
    assert rig.sandbox.state.create_count == 2


async def test_too_little_balance_at_run_time_charges_nothing_tells_once_and_pauses(
    rig: Rig,
) -> None:
    await rig.log_in(email="az@example.com", password="Az123456")
    at = next_minute(rig, 2)
    # Two short titles cost 30 TL; the account has 20.
    await write_plan(rig, f"/takvim {wall(at)}: {TITLE}; {SECOND}")
    clock_of(rig).now = at
    told = await rig.until(ALICE, "siparişi verilmedi", timeout=15)
    assert "bakiyeniz (20,00 TL)" in (told.text or "")
    listing = await rig.says(ALICE, "/takvim", "Planlarınız")
    assert "Duraklatıldı (bakiye yetersiz)" in (listing.text or "")
    await rig.says(ALICE, "/bakiye", "20,00 TL")
    notes = [m for m in rig.bot_messages(ALICE) if "siparişi verilmedi" in (m.text or "")]
    assert len(notes) == 1, "told once"
    assert rig.sandbox.state.create_count == 0
    assert rig.sandbox.state.balance_of("az@example.com") == 20


async def test_a_run_missed_by_over_an_hour_is_skipped_and_one_less_late_orders(
    rig: Rig,
) -> None:
    await rig.log_in()
    at = next_minute(rig, 2)
    await write_plan(rig, f"/takvim her gün {wall(at, '%H:%M')}: {TITLE}; {SECOND}")
    # No replica was up from before the run until an hour and a minute after it.
    clock_of(rig).now = at + timedelta(hours=1, minutes=1)
    told = await rig.until(ALICE, "bir saatten fazla gecikti", timeout=15)
    assert wall(at) in (told.text or "")
    tomorrow = at + timedelta(days=1)
    listing = await rig.says(ALICE, "/takvim", "Planlarınız")
    assert f"sonraki: {wall(tomorrow)} · kalan: 2 başlık" in (listing.text or "")
    assert rig.sandbox.state.create_count == 0
    # Half an hour late is still in time: it orders the title the skipped run left.
    clock_of(rig).now = tomorrow + timedelta(minutes=30)
    await rig.telegram.wait_for(lambda: rig.sandbox.state.create_count == 1)
    placed = await rig.until(ALICE, "Takvim", timeout=15)
    assert wall(tomorrow) in (placed.text or "")


async def test_a_channel_as_target_then_lost_rights_pause_the_plan(rig: Rig) -> None:
    await rig.log_in()
    rig.telegram.bot_added(ALICE, CHANNEL, title="Acme Blog")
    at = next_minute(rig, 2)
    await write_plan(
        rig, f"/takvim her gün {wall(at, '%H:%M')}:\n{TITLE}\n{SECOND}", target="Acme Blog"
    )
    listing = await rig.says(ALICE, "/takvim", "Planlarınız")
    assert f"sonraki: {wall(at)} · kalan: 2 başlık · hedef: Acme Blog" in (listing.text or "")

    clock_of(rig).now = at
    await rig.telegram.wait_for(lambda: rig.sandbox.state.create_count == 1)
    placed = await rig.until(ALICE, "Takvim", timeout=15)
    assert "Acme Blog" in (placed.text or ""), "the owner is told where the article goes"
    assert "buraya" not in (placed.text or "")
    rig.sandbox.state.clock.advance(600)
    await rig.telegram.wait_for(
        lambda: any(m.document for m in rig.bot_messages(CHANNEL)), timeout=15
    )
    channel = rig.bot_messages(CHANNEL)
    assert (channel[0].text or "").startswith(TITLE), "the channel gets the article"
    assert all(not m.buttons for m in channel), "no buttons where readers could press them"
    assert not any("Hazırlanıyor" in (m.text or "") for m in channel)
    await rig.until(ALICE, "Kalite kartı", timeout=15)

    listing = await rig.says(ALICE, "/takvim", "Planlarınız")
    tomorrow = at + timedelta(days=1)
    assert f"sonraki: {wall(tomorrow)} · kalan: 1 başlık" in (listing.text or "")

    # The channel's admin takes the bot's right to post away before the second run.
    rig.telegram.bot_added(ALICE, CHANNEL, title="Acme Blog", can_post=False)
    clock_of(rig).now = tomorrow
    told = await rig.until(ALICE, "Planınız duraklatıldı", timeout=15)
    assert "Acme Blog" in (told.text or "")
    assert "yetkisi yok" in (told.text or "")
    assert rig.sandbox.state.create_count == 1, "the second run orders nothing"
    listing = await rig.says(ALICE, "/takvim", "Planlarınız")
    assert "Duraklatıldı (hedefe yazılamıyor)" in (listing.text or "")


async def test_a_channel_its_owner_left_is_not_ordered_for(rig: Rig) -> None:
    await rig.log_in()
    rig.telegram.bot_added(ALICE, CHANNEL, title="Acme Blog")
    at = next_minute(rig, 2)
    await write_plan(rig, f"/takvim {wall(at)}: {TITLE}", target="Acme Blog")
    rig.telegram.user_leaves(ALICE, CHANNEL)
    clock_of(rig).now = at
    told = await rig.until(ALICE, "Planınız duraklatıldı", timeout=15)
    assert "siz artık orada üye değilsiniz" in (told.text or "")
    assert rig.sandbox.state.create_count == 0
    assert rig.bot_messages(CHANNEL) == []


async def test_a_paid_article_its_channel_no_longer_takes_goes_to_the_owner(rig: Rig) -> None:
    await rig.log_in()
    rig.telegram.bot_added(ALICE, CHANNEL, title="Acme Blog")
    at = next_minute(rig, 2)
    await write_plan(rig, f"/takvim {wall(at)}: {TITLE}", target="Acme Blog")
    clock_of(rig).now = at
    await rig.telegram.wait_for(lambda: rig.sandbox.state.create_count == 1)
    # Ordered and paid; then the channel's admin takes the bot's right to post away.
    rig.telegram.bot_added(ALICE, CHANNEL, title="Acme Blog", can_post=False)
    rig.sandbox.state.clock.advance(600)
    await rig.telegram.wait_for(
        lambda: any(m.document for m in rig.bot_messages(ALICE)), timeout=20
    )
    assert any((m.text or "").startswith(TITLE) for m in rig.bot_messages(ALICE))
    assert rig.bot_messages(CHANNEL) == []
    assert rig.sandbox.state.create_count == 1


async def test_an_owner_who_may_no_longer_post_in_the_channel_pauses_the_plan(rig: Rig) -> None:
    await rig.log_in()
    rig.telegram.bot_added(ALICE, CHANNEL, title="Acme Blog")
    at = next_minute(rig, 2)
    await write_plan(rig, f"/takvim her gün {wall(at, '%H:%M')}: {TITLE}", target="Acme Blog")
    # The channel's creator keeps Alice an administrator, without the right to post.
    rig.telegram.member_changed(ALICE, CHANNEL, status="administrator", can_post=False)
    clock_of(rig).now = at
    told = await rig.until(ALICE, "Planınız duraklatıldı", timeout=15)
    assert "kanalda yetkiniz yok" in (told.text or "")
    listing = await rig.says(ALICE, "/takvim", "Planlarınız")
    assert "Duraklatıldı (kanalda yetkiniz yok)" in (listing.text or "")
    assert rig.sandbox.state.create_count == 0, "nothing charged"
    assert rig.bot_messages(CHANNEL) == []
    notes = [m for m in rig.bot_messages(ALICE) if "Planınız duraklatıldı" in (m.text or "")]
    assert len(notes) == 1, "told once"


async def test_a_channel_where_the_owner_is_a_plain_member_is_not_offered(rig: Rig) -> None:
    await rig.log_in()
    rig.telegram.bot_added(ALICE, CHANNEL, title="Acme Blog")
    rig.telegram.member_changed(ALICE, CHANNEL, status="member")
    tones = await rig.says(ALICE, f"/takvim her gün 09:00: {TITLE}", "Yazım tonunu seçin")
    sizes = await rig.presses(ALICE, tones, "Samimi", "Makale boyutunu seçin")
    rig.telegram.user_presses(ALICE, sizes.message_id, sizes.callback_data(label(sizes, "Kısa")))
    asked, summed = "Makaleler nereye", "Çalışma zamanları"
    await rig.telegram.wait_for(
        lambda: rig.shown(ALICE, asked, sizes.message_id) or rig.shown(ALICE, summed)
    )
    assert rig.shown(ALICE, asked) is None, "the channel is not offered"
    summary = rig.shown(ALICE, summed)
    assert summary is not None
    assert "Hedef: bu sohbet" in (summary.text or "")


async def test_cikis_pauses_the_plans_it_names_and_their_runs_order_nothing(
    rig: Rig, caplog: pytest.LogCaptureFixture
) -> None:
    await rig.log_in()
    at = next_minute(rig, 2)
    await write_plan(rig, f"/takvim her gün {wall(at, '%H:%M')}: {TITLE}; {SECOND}")
    answer = await rig.says(ALICE, "/cikis", "Çıkış yapıldı")
    assert f"her gün {wall(at, '%H:%M')} · kalan: 2 başlık" in (answer.text or "")
    clock_of(rig).now = at + timedelta(seconds=30)
    # The calendar ticks every 0.2 s here: two answers later, the run had its ticks.
    await rig.says(ALICE, "/bakiye", "giriş")
    listing = await rig.says(ALICE, "/takvim", "Planlarınız")
    assert "Duraklatıldı (oturum kapalı)" in (listing.text or "")
    assert rig.sandbox.state.create_count == 0
    assert not [r for r in caplog.records if r.name.startswith("bot.core.plans")]


def add_plans(session: Session, telegram_id: int, titles: list[str], at: datetime) -> None:
    """One-time plans of one title each at ``at``, for the Telegram user, written as saved."""
    user = session.exec(select(ChatUser).where(ChatUser.external_id == str(telegram_id))).one()
    assert user.id is not None
    for title in titles:
        row = saved_plan(user.id, title, at, platform="telegram", chat_id=str(telegram_id))
        plans.start_plan(session, plan=row)


async def test_fifty_plans_of_one_user_delay_another_users_run_by_seconds_at_most(
    rig: Rig,
) -> None:
    await rig.log_in(ALICE)
    await rig.log_in(BOB, email="az@example.com", password="Az123456")
    rig.sandbox.state.set_balance("demo@example.com", Decimal(10_000))
    at = next_minute(rig, 2)
    db = Database.connect(rig.settings.effective_database_url)
    try:
        # Alice's first: a planner that takes the due runs in the order they were saved
        # comes to Bob's last.
        titles = [f"Alice'in takvim başlığı {n}" for n in range(PLANS)]
        await db.run(lambda s: add_plans(s, ALICE, titles, at))
        await db.run(lambda s: add_plans(s, BOB, [BOBS_TITLE], at))
    finally:
        db.dispose()
    bobs = rig.sandbox.state.account("az@example.com")
    assert bobs is not None
    clock_of(rig).now = at
    moved = time.monotonic()
    await rig.telegram.wait_for(lambda: len(rig.sandbox.state.jobs_of(bobs)) == 1, timeout=10)
    assert time.monotonic() - moved < 10
    await rig.until(BOB, "Takvim", timeout=10)
    # Alice's runs go on meanwhile, not one by one behind her notices.
    await rig.telegram.wait_for(lambda: rig.sandbox.state.create_count == PLANS + 1, timeout=30)
