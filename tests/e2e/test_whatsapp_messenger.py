"""The WhatsApp messenger against the fake Cloud API: errors read by their code, whatever
the HTTP status, and the article's title announced by the template."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime

import httpx
import pytest

from bot.core.conversation.events import ChatAddress
from bot.core.conversation.richtext import Heading, paragraph
from bot.core.conversation.screens import Screen
from bot.core.delivery.announcing import announcing
from bot.core.limits.pacing import Pacer
from bot.core.ports import ChatUnreachable
from bot.whatsapp.messenger import WhatsAppMessenger, WindowClosed
from bot.whatsapp.pace import NUMBER_LIMITS
from bot.whatsapp.runtime import cloud_api
from bot.whatsapp.texts import whatsapp_texts
from storage import Database
from tests.e2e.fake_whatsapp import FakeWhatsApp, GraphError
from tests.e2e.fake_whatsapp.limits import PAIR_RATE, THROUGHPUT
from tests.e2e.fake_whatsapp.records import PHONE_NUMBER_ID, TOKEN
from tests.e2e.whatsapp_rig import ALICE, VirtualTime

pytestmark = pytest.mark.e2e

CHAT = ChatAddress("whatsapp", ALICE)


async def _no_article(message_id: str, chat_open: bool) -> None:
    """No send here is an article's part: these tests refuse in the answer, not later."""


@asynccontextmanager
async def _messenger(
    db: Database,
) -> AsyncIterator[tuple[WhatsAppMessenger, FakeWhatsApp, VirtualTime]]:
    virtual = VirtualTime()
    async with FakeWhatsApp.running(clock=virtual) as wa, httpx.AsyncClient() as http:
        client = cloud_api(http, api_url=wa.api_url, phone_id=PHONE_NUMBER_ID, token=TOKEN)
        pacer = Pacer(NUMBER_LIMITS, clock=virtual, sleep=virtual.sleep)
        messenger = WhatsAppMessenger(
            client,
            whatsapp_texts("tr"),
            template="makale_hazir",
            template_language="tr",
            pacer=pacer,
            take_back=_no_article,
            announcing=announcing(db, lambda: datetime.fromtimestamp(virtual(), UTC), "whatsapp"),
        )
        yield messenger, wa, virtual


@pytest.mark.parametrize("status", [400, 429])
async def test_pace_refusals_are_read_by_their_code_and_the_send_goes_again(
    status: int, sqlite_database: Database
) -> None:
    async with _messenger(sqlite_database) as (messenger, wa, _):
        wa.pairs.heard(ALICE)
        wa.faults.pending[ALICE] = [
            GraphError(PAIR_RATE, status=status),
            GraphError(THROUGHPUT, status=400 if status == 429 else 429),
        ]
        await messenger.send(CHAT, Screen((paragraph("Merhaba"),)))
    assert [sent.text for sent in wa.sent] == ["Merhaba"]
    assert [err.code for _, err in wa.refused] == [PAIR_RATE, THROUGHPUT]


async def test_an_undeliverable_number_is_unreachable(sqlite_database: Database) -> None:
    async with _messenger(sqlite_database) as (messenger, wa, _):
        wa.faults.pending[ALICE] = [GraphError(131026, "not a WhatsApp user")]
        with pytest.raises(ChatUnreachable):
            await messenger.send(CHAT, Screen((paragraph("Merhaba"),)))


async def test_a_closed_window_announces_the_title_once_and_refuses_until_the_person_writes(
    sqlite_database: Database,
) -> None:
    article = Screen((Heading("Bahçe bakımı", level=1), paragraph("Giriş")))
    async with _messenger(sqlite_database) as (messenger, wa, virtual):
        wa.pairs.heard(ALICE)
        virtual.advance(24 * 3600 + 1)
        for _ in range(2):
            with pytest.raises(WindowClosed):
                await messenger.send(CHAT, article)
        wa.pairs.heard(ALICE)
        assert await messenger.reopened(ALICE)
        await messenger.send(CHAT, article)
    templates = [sent for sent in wa.sent if sent.type == "template"]
    assert len(templates) == 1
    assert templates[0].content["components"][0]["parameters"][0]["text"] == "Bahçe bakımı"
    assert [sent.type for sent in wa.sent] == ["template", "text"]
