"""The core dialogs end to end: Conversations against the sandbox over loopback, real SQLite."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from decimal import Decimal
from pathlib import Path

import pytest

from bot.core.conversation.actions import Confirm, PickTone
from bot.core.conversation.events import Press
from bot.core.conversation.screens import Delete, Notice, Send
from bot.sandbox import LOW_BALANCE_EMAIL, LOW_BALANCE_PASSWORD
from tests.dialog_harness import Harness, harness, labels, texts

TITLE = "Yapay zekâ ile içerik üretimi"


@pytest.fixture
async def h(tmp_path: Path) -> AsyncIterator[Harness]:
    async with harness(tmp_path) as running:
        yield running


async def order_until_summary(chat, title: str = TITLE, size: str = "Orta") -> list:
    await chat.say(f"/yaz {title}")
    await chat.press("Profesyonel")
    return await chat.press(size)


async def test_help_says_whether_logged_in(h: Harness) -> None:
    chat = h.chat()
    assert "/giris ile başlayın" in texts(await chat.say("/start"))
    await chat.login()
    answer = texts(await chat.say("/yardim"))
    assert "Giriş yaptınız" in answer
    assert "/makalelerim" in answer


async def test_login_step_by_step_deletes_the_password_message(h: Harness) -> None:
    chat = h.chat()
    assert "E-posta" in texts(await chat.say("/giris"))
    asked = await chat.say("demo@example.com")
    assert any(isinstance(e, Send) and e.screen.secret_input for e in asked)
    effects = await chat.say("Demo12345")
    assert isinstance(effects[0], Delete)
    assert "Bakiyeniz: 500,00 TL" in texts(effects)


async def test_anything_typed_while_a_password_is_awaited_is_deleted(h: Harness) -> None:
    chat = h.chat()
    await chat.say("/giris demo@example.com")
    slashed = await chat.say("/Gizli123")
    assert isinstance(slashed[0], Delete), "a password may begin with a slash"
    await chat.say("/giris demo@example.com")
    in_a_group = await h.chat(private=False).say("Demo12345")
    assert isinstance(in_a_group[0], Delete)
    assert "özel mesajla" in texts(in_a_group)
    assert not any(p.endswith("/auth/login") for _, p in h.sandbox.state.request_log)


async def test_one_line_login_is_deleted_too(h: Harness) -> None:
    effects = await h.chat().say("/giris demo@example.com Demo12345")
    assert isinstance(effects[0], Delete)
    assert "Giriş yapıldı" in texts(effects)


async def test_wrong_password_and_bad_email_get_plain_messages(h: Harness) -> None:
    chat = h.chat()
    assert "hatalı" in texts(await chat.say("/giris demo@example.com Wrong1234"))
    await chat.say("/giris")
    assert "e-posta adresine benzemiyor" in texts(await chat.say("not-an-address"))
    h.sandbox.state.faults.wrong_password_status = 400
    assert "hatalı" in texts(await chat.say("/giris demo@example.com Wrong1234"))


async def test_login_in_a_group_points_to_the_private_chat(h: Harness) -> None:
    effects = await h.chat(private=False).say("/giris demo@example.com Demo12345")
    assert isinstance(effects[0], Delete), "a password typed in a group must still be deleted"
    assert "özel mesajla" in texts(effects)
    assert h.sandbox.state.request_log == []


async def test_failed_logins_are_throttled_before_the_upstream_blocks(h: Harness) -> None:
    chat = h.chat()
    for _ in range(5):
        await chat.say("/giris demo@example.com Wrong1234")
    calls = len(h.sandbox.state.request_log)
    assert "Çok fazla" in texts(await chat.say("/giris demo@example.com Demo12345"))
    assert len(h.sandbox.state.request_log) == calls


async def test_balance_is_shown_the_turkish_way(h: Harness) -> None:
    chat = h.chat()
    await chat.login()
    h.sandbox.state.set_balance("demo@example.com", Decimal("1234.5"))
    assert texts(await chat.say("/bakiye")) == "Bakiyeniz: 1.234,50 TL"


async def test_commands_need_a_login(h: Harness) -> None:
    for command in ("/bakiye", "/yaz", "/makalelerim", "/konu", "/toplu"):
        assert "Önce giriş yapmalısınız" in texts(await h.chat().say(command))


async def test_order_walks_title_tone_size_summary_and_charges_once(h: Harness) -> None:
    chat = h.chat()
    await chat.login()
    assert "başlığını" in texts(await chat.say("/yaz"))
    assert "en az 10 karakter" in texts(await chat.say("Kısa"))
    tones = await chat.say(TITLE)
    assert labels(tones)[:5] == ["Profesyonel", "Samimi", "Eğitici", "İkna Edici", "Yaratıcı"]
    sizes = await chat.press("Samimi")
    assert "Orta · 800-1200 kelime · 25,00 TL" in labels(sizes)
    summary = texts(await chat.press("Orta"))
    for part in (TITLE, "Samimi", "25,00 TL", "Bakiyeniz: 500,00 TL"):
        assert part in summary
    button, message_id = chat.find("Onayla")
    first = await chat.send(Press(button.data, message_id))
    second = await chat.send(Press(button.data, message_id))
    assert "Siparişiniz alındı" in texts(first)
    assert [e.text for e in second if isinstance(e, Notice)] == ["Bu sipariş zaten işlendi."]
    assert h.sandbox.state.create_count == 1
    assert h.sandbox.state.balance_of("demo@example.com") == Decimal("475")
    assert h.messenger.sent, "the job's progress message is posted at once"


async def test_concurrent_confirms_charge_once(h: Harness) -> None:
    import asyncio

    chat = h.chat()
    await chat.login()
    await order_until_summary(chat)
    button, message_id = chat.find("Onayla")
    await asyncio.gather(*(chat.send(Press(button.data, message_id)) for _ in range(5)))
    assert h.sandbox.state.create_count == 1


async def test_insufficient_balance_offers_no_confirm(h: Harness) -> None:
    chat = h.chat()
    await chat.login(LOW_BALANCE_EMAIL, LOW_BALANCE_PASSWORD)
    summary = await order_until_summary(chat)
    assert "yetmiyor" in texts(summary)
    assert "Onayla" not in labels(summary)
    assert "İptal" in labels(summary)


async def test_upstream_refusing_for_balance_is_reported_without_a_charge(h: Harness) -> None:
    chat = h.chat()
    await chat.login()
    await order_until_summary(chat)
    h.sandbox.state.set_balance("demo@example.com", Decimal("10"))
    answer = texts(await chat.press("Onayla"))
    assert "gereken 25,00 TL, mevcut 10,00 TL" in answer
    assert h.sandbox.state.create_count == 0


async def test_a_refused_create_keeps_the_draft_for_a_retry(h: Harness) -> None:
    chat = h.chat()
    await chat.login()
    await order_until_summary(chat)
    h.sandbox.state.faults.fail_next(1, status=429)
    refused = await chat.press("Onayla")
    assert "çok yoğun" in texts(refused)
    assert h.sandbox.state.create_count == 0
    assert "Siparişiniz alındı" in texts(await chat.press("Onayla", refused[-1].screen))
    assert h.sandbox.state.create_count == 1


async def test_a_503_on_create_is_checked_not_offered_again(h: Harness) -> None:
    chat = h.chat()
    await chat.login()
    await order_until_summary(chat)
    h.sandbox.state.faults.fail_next(1, status=503)
    answer = await chat.press("Onayla")
    assert "kontrol ediyorum" in texts(answer)
    assert labels(answer) == [], "no Onayla: the order may have been charged"
    again = await chat.press("Onayla")
    assert [e.text for e in again if isinstance(e, Notice)] == ["Bu sipariş zaten işlendi."]


async def test_a_timed_out_create_is_not_resent(h: Harness) -> None:
    chat = h.chat()
    await chat.login()
    await order_until_summary(chat)
    h.sandbox.state.faults.latency = 3.0
    answer = texts(await chat.press("Onayla"))
    assert "kontrol ediyorum" in answer
    h.sandbox.state.faults.latency = 0.0
    assert h.sandbox.state.create_count == 1
    again = await chat.press("Onayla")
    assert [e.text for e in again if isinstance(e, Notice)] == ["Bu sipariş zaten işlendi."]


async def test_stale_foreign_and_tampered_buttons_change_nothing(h: Harness) -> None:
    owner, other = h.chat("owner"), h.chat("other")
    await owner.login()
    await other.login()
    await order_until_summary(owner)
    button, message_id = owner.find("Onayla")
    foreign = await other.send(Press(button.data, message_id))
    assert [e.text for e in foreign] == ["Bu düğme size ait değil."]
    tampered = await owner.send(Press("ok|../../etc", message_id))
    assert [e.text for e in tampered if isinstance(e, Notice)] == ["Bu düğme artık geçerli değil."]
    unknown_draft = await owner.send(Press(Confirm("zzzzzzzz").encode(), message_id))
    assert [e.text for e in unknown_draft] == ["Bu düğme artık geçerli değil."]
    bad_tone = await owner.send(Press(PickTone(button.data.split("|")[1], 9).encode(), message_id))
    assert [e.text for e in bad_tone] == ["Bu düğme artık geçerli değil."]
    assert h.sandbox.state.create_count == 0


async def test_cancel_ends_the_dialog_and_a_command_ends_a_wait(h: Harness) -> None:
    chat = h.chat()
    await chat.login()
    await chat.say("/yaz")
    assert "Bakiyeniz" in texts(await chat.say("/bakiye"))
    assert "Ne istediğinizi anlamadım" in texts(await chat.say("Bu artık bir başlık değil"))
    await order_until_summary(chat)
    assert "İptal edildi" in texts(await chat.say("/iptal"))
    stale = await chat.press("Onayla")
    assert [e.text for e in stale if isinstance(e, Notice)] == ["Bu düğme artık geçerli değil."]
    assert "İptal edilecek bir işlem yok" in texts(await chat.say("/iptal"))


async def test_cancel_button_drops_the_draft(h: Harness) -> None:
    chat = h.chat()
    await chat.login()
    await order_until_summary(chat)
    assert "Sipariş iptal edildi" in texts(await chat.press("İptal"))
    assert h.sandbox.state.create_count == 0


async def test_articles_list_and_open(h: Harness) -> None:
    chat = h.chat()
    await chat.login()
    assert "Henüz makaleniz yok" in texts(await chat.say("/makalelerim"))
    await order_until_summary(chat, size="Kısa")
    await chat.press("Onayla")
    listing = texts(await chat.say("/makalelerim"))
    assert TITLE in listing
    h.advance(600)
    ready = await chat.say("/makalelerim")
    assert "Hazır" in texts(ready)
    opened = await chat.press("Aç 1", ready[-1].screen)
    assert opened[0].screen.text.startswith(TITLE)
    *_, markdown, html, card = opened
    assert markdown.document.filename == "yapay-zeka-ile-icerik-uretimi.md"
    assert html.document.filename == "yapay-zeka-ile-icerik-uretimi.html"
    assert card.screen.text.startswith("Kalite kartı")
    assert "(sipariş: 300-500)" in card.screen.text, "the size the bot ordered"


async def test_articles_are_paged(h: Harness) -> None:
    chat = h.chat()
    await chat.login()
    for number in range(7):
        await order_until_summary(chat, title=f"Makale numarası {number} hakkında", size="Kısa")
        await chat.press("Onayla")
    first = await chat.say("/makalelerim")
    assert "sayfa 1/2" in texts(first)
    second = await chat.press("Sonraki ▶", first[-1].screen)
    assert "sayfa 2/2" in texts(second)
    assert "Makale numarası 0 hakkında" in texts(second)


async def test_topic(h: Harness) -> None:
    chat = h.chat()
    await chat.login()
    assert "Konu eklendi: Yapay zekâ" in texts(await chat.say("/konu Yapay zekâ"))
    await chat.say("/konu")
    assert "2-255 karakter" in texts(await chat.say("x"))
    assert "Konu eklendi: Bulut bilişim" in texts(await chat.say("Bulut bilişim"))


async def test_bulk_order_one_confirmation_one_total(h: Harness) -> None:
    chat = h.chat()
    await chat.login()
    await chat.say("/toplu")
    left_out = texts(await chat.say("Bu başlık yeterince uzun\nkısa"))
    assert "kısa — çok kısa (en az 10 karakter)" in left_out, "left out, as a file's row"
    await chat.press("İptal")
    await chat.say("/toplu")
    await chat.say(
        "Birinci uzun makale başlığı\nİkinci uzun makale başlığı\nÜçüncü uzun makale başlığı"
    )
    await chat.press("Eğitici")
    summary = texts(await chat.press("Kısa"))
    assert "45,00 TL" in summary
    assert "3 makale sipariş edildi" in texts(await chat.press("Onayla"))
    assert h.sandbox.state.create_count == 3


async def test_bulk_falls_back_to_single_creates(h: Harness) -> None:
    h.sandbox.state.faults.bulk_enabled = False
    chat = h.chat()
    await chat.login()
    await chat.say("/toplu Birinci uzun makale başlığı\nİkinci uzun makale başlığı")
    await chat.press("Samimi")
    await chat.press("Kısa")
    assert "2 makale sipariş edildi" in texts(await chat.press("Onayla"))
    assert h.sandbox.state.create_count == 2


async def test_language_switch(h: Harness) -> None:
    chat = h.chat()
    await chat.say("/dil")
    assert "Language: English." in texts(await chat.press("English"))
    assert "not logged in" in texts(await chat.say("/yardim"))
    assert "Dil: Türkçe." in texts(await chat.say("/dil tr"))


async def test_telegram_language_hint_is_used_until_a_choice(h: Harness) -> None:
    assert "not logged in" in texts(await h.chat(language="en-GB").say("/start"))


async def test_unknown_input_gets_a_hint(h: Harness) -> None:
    chat = h.chat()
    assert "/yardim" in texts(await chat.say("merhaba"))
    assert "tanımıyorum" in texts(await chat.say("/nope"))
    assert "/yardim" in texts(await chat.say("x" * 100_000))


async def test_expired_access_token_is_refreshed_and_rotated_token_stored(h: Harness) -> None:
    chat = h.chat()
    await chat.login()
    h.advance(3600)
    assert "Bakiyeniz" in texts(await chat.say("/bakiye"))
    refreshes = [p for m, p in h.sandbox.state.request_log if p.endswith("/auth/refresh")]
    assert len(refreshes) == 1
    h.advance(3600)
    assert "Bakiyeniz" in texts(await chat.say("/bakiye")), "the rotated refresh token was stored"


async def test_a_refused_refresh_asks_for_a_new_login(h: Harness) -> None:
    chat = h.chat()
    await chat.login()
    h.advance(31 * 24 * 3600)
    assert "yeniden giriş" in texts(await chat.say("/bakiye"))
    assert "giriş yapmadınız" in texts(await chat.say("/yardim"))


async def test_logout_forgets_the_session(h: Harness) -> None:
    chat = h.chat()
    await chat.login()
    assert "Çıkış yapıldı" in texts(await chat.say("/cikis"))
    assert "Önce giriş" in texts(await chat.say("/bakiye"))
    assert "kapatılacak bir oturum yok" in texts(await chat.say("/cikis"))


async def test_service_outage_on_a_read_is_a_plain_message(h: Harness) -> None:
    chat = h.chat()
    await chat.login()
    h.sandbox.state.faults.fail_next(10, status=503)
    assert "yanıt vermiyor" in texts(await chat.say("/bakiye"))


async def test_a_low_balance_offers_the_sizes_it_can_pay(h: Harness) -> None:
    chat = h.chat()
    await chat.login(LOW_BALANCE_EMAIL, LOW_BALANCE_PASSWORD)
    summary = await order_until_summary(chat, size="Orta")
    assert labels(summary) == ["Kısa · 300-500 kelime · 15,00 TL", "İptal"]
    assert "yettiği bir boyut" in texts(summary)
    assert "Onayla" in labels(await chat.press("Kısa", summary[-1].screen))


async def test_bulk_titles_on_one_line_split_at_semicolons_and_bars(h: Harness) -> None:
    chat = h.chat()
    await chat.login()
    asked = await chat.say("/toplu")
    assert "; koyarak" in texts(asked)
    tones = await chat.say("Birinci uzun makale başlığı; İkinci uzun makale başlığı")
    assert "Başlıklar (2)" in texts(tones)
    await chat.say(
        "/toplu Birinci uzun makale başlığı | İkinci uzun makale başlığı;Üçüncüsü de uzun"
    )
    await chat.press("Eğitici")
    assert "45,00 TL" in texts(await chat.press("Kısa"))


async def test_english_mode_speaks_english_and_takes_either_name(h: Harness) -> None:
    chat = h.chat(language="en")
    await chat.login()
    await chat.say(f"/yaz {TITLE}")
    tones = chat.screens[-1]
    assert [b.label for row in tones.buttons for b in row] == [
        "Professional",
        "Friendly",
        "Educational",
        "Persuasive",
        "Creative",
        "Cancel",
    ]
    persuasive = tones.buttons[1][1]
    assert {"Persuasive", "İkna Edici"} <= set(persuasive.aliases)
    assert "Persuasive — Sales-minded, motivating language" in tones.text
    sizes = await chat.press("Persuasive")
    assert "Short · 300-500 words · 15.00 TL" in labels(sizes)
    summary = await chat.press("Short")
    assert "Cost: 15.00 TL" in texts(summary)
    assert "Your balance: 500.00 TL" in texts(summary)
    assert labels(summary) == ["Confirm", "Cancel"]
    placed = texts(await chat.press("Confirm"))
    assert re.search(r"Estimated time: \d+(-\d+)? seconds?\.", placed), placed
    assert "Cost: 15.00 TL" in placed


async def test_tone_descriptions_are_shown_in_turkish_too(h: Harness) -> None:
    chat = h.chat()
    await chat.login()
    tones = texts(await chat.say(f"/yaz {TITLE}"))
    assert "Profesyonel — Resmi, teknik bir dil" in tones


async def test_listed_articles_are_chosen_by_their_own_numbers(h: Harness) -> None:
    chat = h.chat()
    await chat.login()
    await chat.say("/toplu " + ";".join(f"Makale numarası {n} hakkında" for n in range(6)))
    await chat.press("Samimi")
    await chat.press("Kısa")
    await chat.press("Onayla")
    h.advance(600)
    first = await chat.say("/makalelerim")
    second = await chat.press("Sonraki ▶", first[-1].screen)
    openers = [b for row in second[-1].screen.buttons for b in row if b.label.startswith("Aç")]
    assert [(b.label, b.key) for b in openers] == [("Aç 6", 6)]
    (previous,) = [b for row in second[-1].screen.buttons for b in row if "◀" in b.label]
    assert {"◀ Önceki", "◀ Previous"} <= set(previous.aliases)
