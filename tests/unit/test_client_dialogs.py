"""Clients in the dialogs, on a scripted upstream: /musteriler, the client step of every way to
order, a client's defaults, /makalelerim narrowed, and spending per client in the bot's zone."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from sqlmodel import Session, select

from bot.core.conversation.events import Upload
from storage.models import Job
from tests.client_seeds import add_clients
from tests.dialog_harness import Chat, Harness, labels, scripted, texts
from tests.fake_upstream import EMAIL, PASSWORD, FakeUpstream

TITLE = "Sürdürülebilir tarımın geleceği"
SECOND = "Bulut bilişimin kısa tarihi"


@pytest.fixture
def upstream() -> FakeUpstream:
    return FakeUpstream(balance=Decimal("200.00"))


@pytest.fixture
async def h(upstream: FakeUpstream) -> AsyncIterator[Harness]:
    async with scripted(upstream) as running:
        yield running


async def with_clients(h: Harness, *names: str) -> Chat:
    chat = h.chat()
    await chat.login(EMAIL, PASSWORD)
    for name in names:
        await chat.say("/musteriler")
        await chat.press("Müşteri ekle")
        assert "eklendi" in texts(await chat.say(name))
    return chat


async def set_defaults(chat: Chat, name: str, tone: str, size: str) -> str:
    await chat.say("/musteriler")
    await chat.press(f"Varsayılanlar · {name}")
    await chat.press(tone)
    return texts(await chat.press(size))


async def test_names_are_checked_and_unique_with_turkish_case_folding(h: Harness) -> None:
    chat = await with_clients(h, "İSTANBUL Kitap")
    await chat.say("/musteriler")
    await chat.press("Müşteri ekle")

    short = texts(await chat.say("A"))
    long = texts(await chat.say("x" * 61))
    taken = texts(await chat.say("istanbul kitap"))
    other = texts(await chat.say("Işık Yayınları"))

    assert "2-60 karakter" in short
    assert "2-60 karakter" in long
    assert "zaten var" in taken
    assert "Işık Yayınları eklendi" in other
    listing = texts(await chat.say("/musteriler"))
    assert "İSTANBUL Kitap" in listing
    assert "Işık Yayınları" in listing


async def test_adding_a_client_needs_a_login(h: Harness) -> None:
    chat = h.chat()
    await chat.say("/musteriler")

    refused = texts(await chat.press("Müşteri ekle"))
    typed = texts(await chat.say("Acme Blog"))

    assert "Önce giriş yapmalısınız" in refused
    assert "eklendi" not in typed
    assert "Henüz müşteri eklemediniz" in texts(await chat.say("/musteriler"))


async def test_a_full_list_answers_with_its_cap_and_adds_nothing(h: Harness) -> None:
    names = [f"Müşteri {number:02}" for number in range(1, 21)]
    chat = await with_clients(h, *names[:-1])
    await chat.say("/musteriler")
    await chat.press("Müşteri ekle")
    # The last place is taken while the name is being typed (say, from another chat).
    await h.bot.db.run(
        lambda s: add_clients(s, external_id=chat.user, names=names[-1:], now=h.clock())
    )

    late = texts(await chat.say("Geç Kalan"))
    listing = await chat.say("/musteriler")
    full = texts(await chat.press("Müşteri ekle"))

    assert "En çok 20 müşteriniz olabilir" in late
    assert "En çok 20 müşteriniz olabilir" in full
    assert "Müşterinin adını yazın" not in full
    shown = texts(listing)
    assert all(name in shown for name in names)
    assert "Geç Kalan" not in shown
    assert len(labels(listing)) == 3 * 20 + 1


async def test_a_client_with_defaults_skips_tone_and_size_and_can_change_them(
    h: Harness, upstream: FakeUpstream
) -> None:
    chat = await with_clients(h, "Acme Blog", "Beta")
    saved = await set_defaults(chat, "Acme Blog", "Samimi", "Orta")
    assert "Acme Blog için varsayılanlar: Samimi, Orta" in saved
    assert "varsayılan: Samimi, Orta" in saved

    question = await chat.say(f"/yaz {TITLE}")
    assert "Hangi müşteri için?" in texts(question)
    assert labels(question) == ["Acme Blog", "Beta", "Müşterisiz", "İptal"]
    summary = await chat.press("Acme Blog")
    assert "Müşteri: Acme Blog" in texts(summary)
    assert "Ton: Samimi" in texts(summary)
    assert "Ücret: 25,00 TL" in texts(summary)
    assert "Değiştir" in labels(summary)

    assert "Yazım tonunu seçin" in texts(await chat.press("Değiştir"))
    await chat.press("Profesyonel")
    changed = await chat.press("Kısa")
    assert "Müşteri: Acme Blog" in texts(changed)
    await chat.press("Onayla")

    assert upstream.of("create")[-1].kwargs == {"title": TITLE, "tone": 1, "size": 1}
    (job,) = await h.bot.services.db.run(_jobs)
    assert job.client_id is not None


def _jobs(session: Session) -> list[Job]:
    return list(session.exec(select(Job)))


async def test_toplu_asks_the_client_first_then_the_titles(h: Harness) -> None:
    chat = await with_clients(h, "Beta")

    question = await chat.say("/toplu")
    prompt = await chat.press("Beta")
    tones = await chat.say(f"{TITLE}\n{SECOND}")
    await chat.press("Profesyonel")
    summary = await chat.press("Kısa")

    assert "Hangi müşteri için?" in texts(question)
    assert "Başlıkları" in texts(prompt)
    assert "Yazım tonunu seçin" in texts(tones)
    assert "Müşteri: Beta" in texts(summary)
    assert "Ücret: 30,00 TL" in texts(summary)


async def test_a_file_rows_size_wins_over_the_clients_default(h: Harness) -> None:
    chat = await with_clients(h, "Acme Blog")
    await set_defaults(chat, "Acme Blog", "Samimi", "Orta")
    rows = f"baslik;boyut\n{TITLE};Kısa\n{SECOND};\n".encode()

    question = await chat.send(Upload("liste.csv", rows, len(rows)))
    summary = texts(await chat.press("Acme Blog"))

    assert "Hangi müşteri için?" in texts(question)
    assert f"{TITLE} (Kısa)" in summary
    assert "Ücret: 40,00 TL" in summary, "15 for the row's Kısa, 25 for Acme's Orta"


async def test_order_again_keeps_the_client_and_the_list_narrows_to_one(
    h: Harness, upstream: FakeUpstream
) -> None:
    chat = await with_clients(h, "Acme Blog", "Beta")
    for title, client in ((TITLE, "Acme Blog"), (SECOND, "Müşterisiz")):
        await chat.say(f"/yaz {title}")
        await chat.press(client)
        await chat.press("Profesyonel")
        await chat.press("Kısa")
        await chat.press("Onayla")
    for order in upstream.orders:
        upstream.finish(order.request_id, "# Başlık\n\nMetin.")

    listing = await chat.say("/makalelerim")
    assert "Yalnız Acme Blog" in labels(listing)
    narrowed = texts(await chat.press("Yalnız Acme Blog"))
    assert "Acme Blog için siparişler" in narrowed
    assert TITLE in narrowed
    assert SECOND not in narrowed
    again = texts(await chat.press("Tekrar sipariş"))

    assert "Müşteri: Acme Blog" in again
    assert TITLE in again


async def test_removing_a_client_keeps_its_orders_and_leaves_the_question(
    h: Harness,
) -> None:
    chat = await with_clients(h, "Acme Blog", "Beta")
    await chat.say(f"/yaz {TITLE}")
    await chat.press("Acme Blog")
    await chat.press("Profesyonel")
    await chat.press("Kısa")
    await chat.press("Onayla")

    await chat.say("/musteriler")
    asked = await chat.press("Sil · Acme Blog")
    removed = texts(await chat.press("Evet, sil"))
    question = await chat.say(f"/yaz {TITLE}")
    spent = texts(await chat.say("/harcamalar"))

    assert "Acme Blog silinsin mi?" in texts(asked), "asked before anything is removed"
    assert labels(asked) == ["Evet, sil", "Vazgeç"]
    assert "Acme Blog silindi" in removed
    assert labels(question) == ["Beta", "Müşterisiz", "İptal"]
    assert "Acme Blog (silindi): 15,00 TL / 0,00 TL" in spent
    assert "Beta: 0,00 TL / 0,00 TL" in spent


async def test_a_user_without_clients_is_not_asked(h: Harness) -> None:
    chat = h.chat()
    await chat.login(EMAIL, PASSWORD)

    assert "Yazım tonunu seçin" in texts(await chat.say(f"/yaz {TITLE}"))
    assert "Müşteriye göre" not in texts(await chat.say("/harcamalar"))


async def test_months_are_counted_in_the_bots_zone_not_in_utc(h: Harness) -> None:
    chat = await with_clients(h, "Acme Blog")
    # 22:30 on 31 January in UTC is 01:30 on 1 February in Istanbul.
    h.clock.now = datetime(2026, 1, 31, 22, 30, tzinfo=UTC)
    await chat.say(f"/yaz {TITLE}")
    await chat.press("Acme Blog")
    await chat.press("Profesyonel")
    await chat.press("Kısa")
    await chat.press("Onayla")
    h.clock.now = datetime(2026, 2, 10, 12, tzinfo=UTC)

    spent = texts(await chat.say("/harcamalar"))

    assert "Bu ay: 15,00 TL" in spent
    assert "Geçen ay: 0,00 TL" in spent
    assert "Acme Blog: 15,00 TL / 0,00 TL" in spent
