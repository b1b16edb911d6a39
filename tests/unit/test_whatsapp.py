"""WhatsApp's own terms: screens within its limits, commands with or without the slash, its
allow list and admin chat, notifications read tolerantly, and the window's bookkeeping."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, load_settings
from bot.core.conversation.events import ChatAddress, Command, Origin, Text, Unsupported, UserKey
from bot.core.conversation.richtext import paragraph
from bot.core.conversation.screens import Button, Screen
from bot.whatsapp.inbound import Chosen, Said, SentFile, Status, Unreadable, read_notification
from bot.whatsapp.intake import event_of_text
from bot.whatsapp.platform import WhatsAppPlatform
from bot.whatsapp.render import fits, messages
from bot.whatsapp.texts import whatsapp_texts
from bot.whatsapp.window import Kept, Windows

pytestmark = pytest.mark.unit

TEXTS = whatsapp_texts("tr")


def _screen(*labels: str, text: str = "Seçin") -> Screen:
    return Screen(
        (paragraph(text),), (tuple(Button(label, f"d{i}") for i, label in enumerate(labels)),)
    )


def test_three_short_buttons_are_reply_buttons() -> None:
    (message,) = messages(_screen("Onayla", "İptal", "Değiştir"), TEXTS)
    assert not message.as_list
    assert [c.title for c in message.choices] == ["Onayla", "İptal", "Değiştir"]


@pytest.mark.parametrize(
    "labels",
    [("Kısa", "Orta", "Uzun", "Çok Uzun"), ("Bir düğme yirmi harften uzun",), ("Aynı", "Aynı")],
    ids=["four", "long-title", "twins"],
)
def test_what_reply_buttons_cannot_hold_becomes_a_list(labels: tuple[str, ...]) -> None:
    (message,) = messages(_screen(*labels), TEXTS)
    assert message.as_list
    assert all(len(c.title) <= 24 for c in message.choices)
    assert [c.id for c in message.choices] == [f"d{i}" for i in range(len(labels))]


def test_a_long_row_keeps_its_whole_label_in_the_description() -> None:
    label = "Çok Uzun · 2500+ kelime · 50,00 TL"
    (message,) = messages(_screen(label, "İptal", "Geri", "Başka"), TEXTS)
    row = message.choices[0]
    assert row.title.endswith("…")
    assert len(row.title) == 24
    assert row.description == label


def test_a_menu_longer_than_a_list_goes_in_pages_of_ten() -> None:
    pages = messages(_screen(*(f"Makale {i}" for i in range(23))), TEXTS)
    assert [len(page.choices) for page in pages] == [10, 10, 3]
    assert [page.text for page in pages] == ["Seçin", "Devamı (2/3)", "Devamı (3/3)"]


def test_text_fits_4096_alone_and_1024_with_buttons() -> None:
    assert fits(Screen((paragraph("x" * 4096),)))
    assert not fits(Screen((paragraph("x" * 4097),)))
    assert not fits(_screen("Onayla", text="x" * 1025))


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("bakiye", Command("bakiye", "", "m")),
        ("/bakiye", Command("bakiye", "", "m")),
        ("YAZ Bahçe bakımı", Command("yaz", "Bahçe bakımı", "m")),
        ("/yok", Command("yok", "", "m")),
        ("Bahçe bakımı rehberi", Text("Bahçe bakımı rehberi", "m")),
        ("x" * 4097, Unsupported()),
    ],
)
def test_commands_are_typed_with_or_without_the_slash(typed: str, expected: object) -> None:
    assert event_of_text(typed, "m") == expected


def test_the_allow_list_and_the_admin_chat() -> None:
    settings = load_settings(
        _env_file=None, allowed_whatsapp_users="905551112233", admin_chat="whatsapp:905550000000"
    )
    rules = WhatsAppPlatform().rules(settings)

    def origin(number: str) -> Origin:
        return Origin(UserKey("whatsapp", number), ChatAddress("whatsapp", number))

    assert rules.admits(origin("905551112233"))
    assert not rules.admits(origin("905559999999"))
    assert rules.admin_chat("whatsapp:905550000000") == ChatAddress("whatsapp", "905550000000")
    assert rules.admin_chat("slack:C1") is None
    with pytest.raises(ConfigError, match="ADMIN_CHAT"):
        load_settings(_env_file=None, admin_chat="whatsapp:+90 555")


def test_whatsapp_needs_its_token_number_secret_and_verify_token() -> None:
    settings = load_settings(_env_file=None, whatsapp_access_token="EAAx")
    assert WhatsAppPlatform().configured(settings)
    with pytest.raises(ConfigError, match="WHATSAPP_PHONE_NUMBER_ID"):
        WhatsAppPlatform().require(settings)
    with pytest.raises(ConfigError, match="WHATSAPP_API_URL"):
        load_settings(_env_file=None, whatsapp_api_url="http://graph.example.com")


def _value(**value: object) -> dict[str, object]:
    return {"entry": [{"changes": [{"field": "messages", "value": value}]}]}


def test_a_notification_is_read_in_order_and_odd_shapes_are_left_out() -> None:
    messages_ = [
        {"from": "90", "id": "a", "type": "text", "text": {"body": "bakiye"}},
        {
            "from": "90",
            "id": "b",
            "type": "interactive",
            "context": {"id": "w1"},
            "interactive": {"type": "list_reply", "list_reply": {"id": "s|x|1", "title": "Kısa"}},
        },
        {"from": "90", "id": "c", "type": "button", "button": {"payload": "p", "text": "p"}},
        {
            "from": "90",
            "id": "d",
            "type": "document",
            "document": {"id": "m1", "filename": "t.txt"},
        },
        {"from": "90", "id": "e", "type": "sticker", "sticker": {}},
        {"id": "no-sender"},
        "not a message",
    ]
    statuses = [{"id": "w1", "status": "failed", "errors": [{"code": 131047}, {"code": "x"}]}]
    read = read_notification(_value(messages=messages_, statuses=statuses))
    assert read == [
        Said("90", "a", "bakiye"),
        Chosen("90", "b", "s|x|1", "w1"),
        Chosen("90", "c", "p", None, template=True),
        SentFile("90", "d", "m1", "t.txt"),
        Unreadable("90", "e"),
        Status("w1", "", "failed", (131047,)),
    ]
    assert read_notification({"entry": "nonsense"}) == []
    assert read_notification([1, 2]) == []


async def _sent() -> str:
    return "again"


def test_a_late_failure_closes_the_window_until_the_person_writes() -> None:
    windows = Windows()
    first, second = Kept(_sent, "Başlık"), Kept(_sent)
    windows.sent("w1", "90", first, windows.stamp())
    windows.sent("w2", "90", second, windows.stamp())
    assert windows.failed("w1") == ("90", first, True)
    assert windows.failed("w2") == ("90", second, True)
    assert windows.is_closed("90")
    assert not windows.wrote_lately("90")
    assert windows.reopened("90")
    assert windows.wrote_lately("90")
    assert not windows.is_closed("90")
    assert not windows.reopened("90"), "open, and known open since they wrote"
    assert windows.reopened("91"), "not known since the start: maybe closed"


def test_a_failure_told_before_the_answer_or_after_the_person_wrote() -> None:
    windows = Windows()
    kept = Kept(_sent)
    order = windows.stamp()
    assert windows.failed("w1") is None, "the answer is not read yet"
    assert windows.sent("w1", "90", kept, order) == ("90", kept, True)
    windows.reopened("90")
    late = Kept(_sent)
    before = windows.stamp()
    windows.reopened("90")
    windows.sent("w2", "90", late, before)
    assert windows.failed("w2") == ("90", late, False), "sent again at once, nothing closed"
    assert not windows.is_closed("90")
