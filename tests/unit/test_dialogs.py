"""The dialogs against a scripted upstream: no sandbox, no socket, no database file.

The integration tier (tests/integration/test_dialogs.py) runs the same dialogs against the
sandbox over loopback; this tier pins what the core asks of the upstream, and when.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from bot.api import Article, ArticleStatus, ServiceUnavailable
from bot.bootstrap import CHECKOUTS
from bot.core.conversation.action_data import ButtonAction
from bot.core.conversation.actions import (
    ChooseLanguage,
    ExportArticles,
    OpenArticle,
    OrderAgain,
    OtherTone,
    ShowPage,
    SwitchAccount,
)
from bot.core.conversation.events import Press, Upload
from bot.core.conversation.screens import Delete, Effect, Notice, SendDocument
from bot.core.ports import ChatPresenter
from bot.core.texts import texts_for
from storage.states import DraftKind
from tests.dialog_harness import Chat, Harness, labels, scripted, text_of, texts
from tests.fake_upstream import EMAIL, PASSWORD, FakeUpstream

TITLE = "Sürdürülebilir tarımın geleceği"


@pytest.fixture
def upstream() -> FakeUpstream:
    return FakeUpstream(balance=Decimal("100.00"))


@pytest.fixture
async def h(upstream: FakeUpstream) -> AsyncIterator[Harness]:
    async with scripted(upstream) as running:
        yield running


async def logged_in(h: Harness, user: str = "u1"):
    chat = h.chat(user)
    await chat.login(EMAIL, PASSWORD)
    return chat


async def ordered_up_to_the_summary(
    h: Harness, size: str = "Kısa", user: str = "u1"
) -> tuple[Chat, list[Effect]]:
    """A logged-in user's chat with an order of TITLE at its summary, and that summary."""
    chat = await logged_in(h, user)
    await chat.say(f"/yaz {TITLE}")
    await chat.press("Profesyonel")
    return chat, await chat.press(size)


async def test_login_sends_the_password_once_and_deletes_its_message(
    h: Harness, upstream: FakeUpstream
) -> None:
    effects = await h.chat().say(f"/giris {EMAIL} {PASSWORD}")

    assert isinstance(effects[0], Delete)
    assert [asked.args for asked in upstream.of("login")] == [(EMAIL, PASSWORD)]
    assert "100,00 TL" in texts(effects)


async def test_a_wrong_password_is_refused_without_a_second_try(
    h: Harness, upstream: FakeUpstream
) -> None:
    answer = texts(await h.chat().say(f"/giris {EMAIL} Yanlis1234"))

    assert "hatalı" in answer
    assert len(upstream.of("login")) == 1


async def test_balance_asks_the_upstream_once(h: Harness, upstream: FakeUpstream) -> None:
    chat = await logged_in(h)
    upstream.script("balance", Decimal("1234.5"))

    assert texts(await chat.say("/bakiye")) == "Bakiyeniz: 1.234,50 TL"


async def test_a_confirmed_order_is_charged_once_however_often_it_is_pressed(
    h: Harness, upstream: FakeUpstream
) -> None:
    chat, summary = await ordered_up_to_the_summary(h, "Orta")
    assert "25,00 TL" in texts(summary)
    button, message_id = chat.find("Onayla")

    for _ in range(3):
        await chat.send(Press(button.data, message_id))

    (created,) = upstream.of("create")
    assert created.kwargs == {"title": TITLE, "tone": 1, "size": 2}
    assert upstream.balance_left == Decimal("75.00")


async def test_an_order_the_balance_cannot_pay_is_not_sent(
    h: Harness, upstream: FakeUpstream
) -> None:
    upstream.balance_left = Decimal("20.00")
    _, summary = await ordered_up_to_the_summary(h, "Çok Uzun")

    assert "Onayla" not in labels(summary)
    assert upstream.of("create") == []


async def test_an_unreachable_service_at_confirm_charges_nothing_and_can_be_retried(
    h: Harness, upstream: FakeUpstream
) -> None:
    chat, _ = await ordered_up_to_the_summary(h)
    upstream.script("create", ServiceUnavailable("create: connect failed"))

    first = await chat.press("Onayla")
    second = await chat.press("Onayla")

    assert texts(first)
    assert len(upstream.of("create")) == 2, "nothing was charged, so a second try is allowed"
    assert upstream.balance_left == Decimal("85.00")
    assert texts(second)


async def test_cancel_ends_the_order_before_anything_is_charged(
    h: Harness, upstream: FakeUpstream
) -> None:
    chat, _ = await ordered_up_to_the_summary(h)

    await chat.say("/iptal")
    await chat.press("Onayla")

    assert upstream.of("create") == []


async def test_another_users_press_changes_nothing(h: Harness, upstream: FakeUpstream) -> None:
    owner, _ = await ordered_up_to_the_summary(h, user="owner")
    button, message_id = owner.find("Onayla")
    stranger = await logged_in(h, "stranger")

    effects = await stranger.send(Press(button.data, message_id))

    assert any(isinstance(effect, Notice) for effect in effects)
    assert upstream.of("create") == []


# Someone else's: no chat user of these tests has this id.
_OWNER = 999_999


@pytest.mark.parametrize(
    "action",
    [
        ShowPage(_OWNER, 1),
        OpenArticle(_OWNER, "r1"),
        ExportArticles(_OWNER, 1),
        OrderAgain(_OWNER, "r1"),
        OtherTone(_OWNER, "r1"),
        ChooseLanguage(_OWNER, "en"),
        SwitchAccount(_OWNER, 1),
    ],
    ids=lambda action: type(action).__name__,
)
async def test_a_button_of_another_user_does_nothing_whatever_it_would_do(
    h: Harness, upstream: FakeUpstream, action: ButtonAction
) -> None:
    stranger = await logged_in(h, "stranger")
    asked = len(upstream.asked)

    effects = await stranger.send(Press(action.encode(), "42"))

    assert [text_of(e) for e in effects] == ["Bu düğme size ait değil."]
    assert upstream.asked[asked:] == []


async def test_an_orders_progress_line_comes_after_the_answer_that_placed_it(
    h: Harness, upstream: FakeUpstream
) -> None:
    chat, _ = await ordered_up_to_the_summary(h)
    button, message_id = chat.find("Onayla")

    shown = ChatPresenter(h.messenger, chat.origin.chat)
    await h.bot.conversations.answer(chat.origin, Press(button.data, message_id), shown)

    placed, progress = h.messenger.calls
    assert (placed.kind, placed.message_id) == ("edit", message_id)
    assert TITLE in placed.text
    assert progress.kind == "send"
    assert progress.text == texts_for("tr").progress_unknown.format(title=TITLE)


async def order_one(chat: Chat, size: str) -> None:
    await chat.say(f"/yaz {TITLE}")
    await chat.press("Profesyonel")
    await chat.press(size)
    await chat.press("Onayla")


async def test_spending_counts_this_and_last_month_from_the_bots_records(
    h: Harness, upstream: FakeUpstream
) -> None:
    chat = await logged_in(h)
    h.clock.now = datetime(2025, 12, 20, 12, tzinfo=UTC)
    await order_one(chat, "Kısa")
    h.clock.now = datetime(2026, 1, 3, 12, tzinfo=UTC)
    await order_one(chat, "Orta")
    await order_one(chat, "Orta")
    asked = len(upstream.asked)

    answer = texts(await chat.say("/harcamalar"))

    assert "Bu ay: 50,00 TL" in answer
    assert "Geçen ay: 15,00 TL" in answer, "December is the month before January"
    assert "Kısa: 1 makale" in answer
    assert "Orta: 2 makale" in answer
    assert "Makale başına ortalama: 21,67 TL" in answer
    assert "Bakiyeniz: 35,00 TL" in answer
    assert [call.operation for call in upstream.asked[asked:]] == ["balance"]


async def test_spending_without_orders_says_so_in_the_users_language(h: Harness) -> None:
    chat = h.chat(language="en")
    await chat.login(EMAIL, PASSWORD)

    answer = texts(await chat.say("/harcamalar"))

    assert "This month: 0.00 TL" in answer
    assert "You have no charged orders yet." in answer
    assert "Your balance: 100.00 TL" in answer


async def test_a_balance_short_of_the_usual_size_is_warned_after_the_order_and_on_yaz(
    h: Harness, upstream: FakeUpstream
) -> None:
    upstream.balance_left = Decimal("60.00")
    chat = await logged_in(h)
    await order_one(chat, "Orta")
    await chat.say(f"/yaz {TITLE}")
    await chat.press("Profesyonel")
    await chat.press("Kısa")

    placed = texts(await chat.press("Onayla"))
    again = texts(await chat.say("/yaz"))

    warning = "Uyarı: bakiyeniz (20,00 TL) bir sonraki Orta makale (25,00 TL) için yetmiyor."
    assert warning in placed
    assert warning in again


async def test_no_warning_while_the_balance_covers_the_usual_size(
    h: Harness, upstream: FakeUpstream
) -> None:
    chat = await logged_in(h)
    await order_one(chat, "Orta")

    assert "Uyarı" not in texts(await chat.say("/yaz"))


async def listed_after_one_order(h: Harness, upstream: FakeUpstream, user: str = "u1") -> Chat:
    """A user with one finished article of TITLE (Profesyonel, Kısa), its list on screen."""
    chat = await logged_in(h, user)
    await order_one(chat, "Kısa")
    (order,) = upstream.orders
    upstream.finish(order.request_id, "# Başlık\n\nMetin.")
    await chat.say("/makalelerim")
    return chat


async def test_order_again_is_the_same_order_through_the_summary_charged_once(
    h: Harness, upstream: FakeUpstream
) -> None:
    chat = await listed_after_one_order(h, upstream)

    summary = texts(await chat.press("Tekrar sipariş"))
    button, message_id = chat.find("Onayla")
    for _ in range(2):
        await chat.send(Press(button.data, message_id))

    assert TITLE in summary
    assert "Profesyonel" in summary
    assert "Kısa" in summary
    first, again = upstream.of("create")
    assert again.kwargs == first.kwargs == {"title": TITLE, "tone": 1, "size": 1}
    assert upstream.balance_left == Decimal("70.00")


async def test_another_tone_keeps_the_title_and_size_and_asks_only_the_tone(
    h: Harness, upstream: FakeUpstream
) -> None:
    chat = await listed_after_one_order(h, upstream)

    await chat.press("Başka ton")
    summary = await chat.press("Samimi")
    await chat.press("Onayla")

    assert "Samimi" in texts(summary)
    assert "Onayla" in labels(summary), "the size is kept: no size to pick"
    assert upstream.of("create")[-1].kwargs == {"title": TITLE, "tone": 2, "size": 1}


async def test_someone_elses_order_again_changes_nothing(
    h: Harness, upstream: FakeUpstream
) -> None:
    owner = await listed_after_one_order(h, upstream, "owner")
    button, message_id = owner.find("Tekrar sipariş")
    stranger = await logged_in(h, "stranger")

    effects = await stranger.send(Press(button.data, message_id))

    assert [type(effect) for effect in effects] == [Notice]
    assert len(upstream.of("create")) == 1


async def test_the_finished_articles_of_a_page_come_as_one_zip_of_md_and_html(
    h: Harness, upstream: FakeUpstream
) -> None:
    chat = await listed_after_one_order(h, upstream)
    await order_one(chat, "Orta")
    await chat.say("/makalelerim")

    effects = await chat.press("📦 Bu sayfa (.zip)")

    (sent,) = [e.document for e in effects if isinstance(e, SendDocument)]
    assert sent.filename == "makaleler-sayfa-1.zip"
    archive = zipfile.ZipFile(io.BytesIO(sent.content))
    slug = "surdurulebilir-tarimin-gelecegi"
    assert archive.namelist() == [f"{slug}.md", f"{slug}.html"], "only the finished one"
    assert sent.caption == "1 makale, her biri .md ve .html olarak"


async def test_the_last_30_days_leave_older_articles_out(
    h: Harness, upstream: FakeUpstream
) -> None:
    chat = await listed_after_one_order(h, upstream)
    h.clock.now = datetime.now(UTC) + timedelta(days=31)

    effects = await chat.press("📦 Son 30 gün (.zip)")

    assert not any(isinstance(e, SendDocument) for e in effects)
    assert texts(effects) == "Bu aralıkta bitmiş makaleniz yok."


async def test_someone_elses_zip_button_sends_nothing(h: Harness, upstream: FakeUpstream) -> None:
    owner = await listed_after_one_order(h, upstream, "owner")
    button, message_id = owner.find("📦 Son 30 gün (.zip)")
    stranger = await logged_in(h, "stranger")

    effects = await stranger.send(Press(button.data, message_id))

    assert [type(effect) for effect in effects] == [Notice]


CSV = """baslik;ton;boyut
Yapay zekâ ile içerik üretimi;Samimi;Orta
Bulut bilişimin kısa tarihi;;
Kısa;;
Bulut bilişimin kısa tarihi;;
"""


async def test_titles_from_a_file_are_summed_up_with_the_refused_and_charged_as_shown(
    h: Harness, upstream: FakeUpstream
) -> None:
    chat = await logged_in(h)
    await chat.say("/toplu")

    tones = texts(await chat.send(Upload("liste.csv", CSV.encode(), len(CSV.encode()))))
    await chat.press("Profesyonel")
    summary = texts(await chat.press("Kısa"))
    await chat.press("Onayla")

    assert "Alınmayan başlıklar (2)" in tones
    assert "Kısa — çok kısa (en az 10 karakter)" in tones
    assert "Bulut bilişimin kısa tarihi — listede zaten var" in tones
    assert "Yapay zekâ ile içerik üretimi (Samimi, Orta)" in summary
    assert "Ücret: 40,00 TL" in summary
    assert upstream.balance_left == Decimal("60.00"), "charged what the summary said"
    spent = texts(await chat.say("/harcamalar"))
    assert "Orta: 1 makale" in spent, "each job is recorded in its own size"
    assert "Kısa: 1 makale" in spent
    (ordered,) = upstream.of("bulk_create")
    assert ordered.args[-1] == [
        ("Yapay zekâ ile içerik üretimi", 2, 2),
        ("Bulut bilişimin kısa tarihi", 1, 1),
    ]


async def test_a_file_too_large_or_with_too_many_titles_is_refused_and_nothing_charged(
    h: Harness, upstream: FakeUpstream
) -> None:
    chat = await logged_in(h)
    many = "\n".join(f"Başlık numarası {n}" for n in range(101)).encode()

    large = texts(await chat.send(Upload("liste.txt", None, 5 * 1024 * 1024)))
    crowded = texts(await chat.send(Upload("liste.txt", many, len(many))))

    assert large == "Dosya 1 MB'tan büyük; hiçbir şey sipariş edilmedi."
    assert "100 başlıktan fazlası" in crowded
    assert upstream.of("bulk_create") == []
    assert upstream.of("create") == []


async def test_no_empty_zip_when_the_service_no_longer_gives_the_text(
    h: Harness, upstream: FakeUpstream
) -> None:
    chat = await listed_after_one_order(h, upstream)
    (order,) = upstream.orders
    textless = Article(order.request_id, ArticleStatus.FINISHED, order.title, 100, None)
    upstream.script("articles", [textless], [textless])

    effects = await chat.press("📦 Bu sayfa (.zip)")

    assert not any(isinstance(e, SendDocument) for e in effects)
    assert texts(effects) == "Bu aralıkta bitmiş makaleniz yok."
    assert [call.kwargs["request_id"] for call in upstream.of("articles")[-2:]] == [
        None,
        order.request_id,
    ], "the text is asked for by the article's id"


def test_every_kind_of_draft_has_its_checkout() -> None:
    # The wizard finds a draft's confirm screen by its kind alone: a kind left out of the
    # wiring would fail at its summary, after the user picked its tone and size.
    assert set(CHECKOUTS) == set(DraftKind)
