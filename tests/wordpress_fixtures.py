"""What the WordPress test modules share: the fake site, the scripted core a client's site is
connected through, and the steps of connecting one and delivering an article to it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from decimal import Decimal
from typing import Any

import pytest
from sqlmodel import select

from bot.core.conversation.screens import Button, Send
from bot.core.publishing import SiteCredentials
from storage import deliveries, sites
from storage.models import ClientSite, DeliveryRecord, Job
from tests.dialog_harness import Chat, Harness, labels, scripted, texts
from tests.fake_upstream import EMAIL, PASSWORD, FakeUpstream
from tests.fake_wordpress import FakeWordPress

__all__ = [
    "ARTICLE",
    "CLIENT",
    "TITLE",
    "client_chat",
    "connect",
    "creds_of",
    "delivered",
    "delivered_buttons",
    "h",
    "stored_sites",
    "upstream",
    "wordpress",
]

TITLE = "Yapay zekâ ile içerik üretimi"
ARTICLE = f"# {TITLE}\n\nİlk paragraf.\n\n## Adımlar\n\n1. Bir\n2. İki\n"
CLIENT = "Acme Blog"


@pytest.fixture
def upstream() -> FakeUpstream:
    """The article service, with a balance for a few orders."""
    return FakeUpstream(balance=Decimal("200.00"))


@pytest.fixture
async def h(upstream: FakeUpstream) -> AsyncIterator[Harness]:
    """The core, driven by scripted chats, against ``upstream``."""
    async with scripted(upstream) as running:
        yield running


@pytest.fixture
async def wordpress() -> AsyncIterator[FakeWordPress]:
    """The fake WordPress site, served on loopback."""
    async with FakeWordPress.running() as site:
        yield site


def creds_of(site: Any, **changes: str) -> SiteCredentials:
    """The site's (fake or real) own credentials, with ``changes``."""
    fields = {"url": site.base_url, "username": site.username, "app_password": site.app_password}
    return SiteCredentials(**(fields | changes))


async def client_chat(h: Harness) -> Chat:
    """A logged-in chat with the client ``CLIENT`` added."""
    chat = h.chat()
    await chat.login(EMAIL, PASSWORD)
    await chat.say("/musteriler")
    await chat.press("Müşteri ekle")
    await chat.say(CLIENT)
    return chat


async def connect(
    chat: Chat, url: str, username: str, password: str, client: str = CLIENT
) -> list[object]:
    """Connect (or change) ``CLIENT``'s site from /musteriler; what the password's answer did."""
    await chat.say("/musteriler")
    shown = await chat.press(f"Web sitesi · {client}")
    if "bağlı bir WordPress sitesi yok" in texts(shown):
        assert labels(shown) == ["Siteyi bağla"]
        assert "adresini yazın" in texts(await chat.press("Siteyi bağla"))
    else:
        assert "adresini yazın" in texts(await chat.press("Siteyi değiştir"))
    assert "kullanıcı adını" in texts(await chat.say(url))
    asked = await chat.say(username)
    assert any(isinstance(e, Send) and e.screen.secret_input for e in asked)
    return list(await chat.say(password))


def site_record(h: Harness, job: Job) -> DeliveryRecord | None:
    """The job's delivery record for its client's site, as stored."""
    assert job.id is not None
    job_id, target = job.id, str(job.client_id)
    return h.bot.db.run_sync(
        lambda s: deliveries.get_record(s, job_id=job_id, kind=sites.SITE, target=target)
    )


def stored_sites(h: Harness) -> list[ClientSite]:
    """Every client site stored."""
    return h.bot.db.run_sync(lambda s: list(s.exec(select(ClientSite))))


async def delivered(h: Harness, chat: Chat, upstream: FakeUpstream) -> Job:
    """``TITLE`` ordered for ``CLIENT``, finished by the service and delivered; its job."""
    await chat.say(f"/yaz {TITLE}")
    await chat.press(CLIENT)
    await chat.press("Profesyonel")
    await chat.press("Kısa")
    await chat.press("Onayla")
    (order,) = upstream.orders
    upstream.finish(order.request_id, ARTICLE)
    job = h.bot.db.run_sync(lambda s: s.exec(select(Job)).one())
    h.clock.now = job.next_poll_at
    await h.bot.delivery.poll_once()
    return h.bot.db.run_sync(lambda s: s.exec(select(Job)).one())


def delivered_buttons(h: Harness) -> list[Button]:
    """The buttons under the delivered article (its card follows it)."""
    return [
        button
        for call in h.messenger.sent
        if call.screen is not None
        for row in call.screen.buttons
        for button in row
    ]
