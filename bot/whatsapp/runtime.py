"""Starts and stops the WhatsApp number: the pywa client on the Graph API, the webhook routes
on the shared app, and the messenger for delivery."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, MutableMapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass

import httpx
from pywa_async.client import WhatsApp
from starlette.routing import BaseRoute

from bot.config import Settings
from bot.core.delivery.announcing import announcing
from bot.core.delivery.failed_late import taking_back
from bot.core.limits.pacing import Pacer
from bot.core.ports import Messenger
from bot.core.routing.conversations import Conversations
from bot.http_clients import http_client
from bot.whatsapp.ids import PLATFORM, REQUIRED
from bot.whatsapp.intake import Intake
from bot.whatsapp.messenger import WhatsAppMessenger
from bot.whatsapp.pace import number_pacer
from bot.whatsapp.texts import whatsapp_texts
from bot.whatsapp.webhook import WEBHOOK_PATH, webhook_routes

__all__ = ["GRAPH_VERSION", "WhatsAppRuntime", "cloud_api", "running_whatsapp"]

log = logging.getLogger(__name__)
# The Graph API version the bot speaks; WHATSAPP_API_URL is the base before it.
GRAPH_VERSION = "21.0"
_TIMEOUT = httpx.Timeout(20.0, connect=5.0)


@dataclass(frozen=True)
class WhatsAppRuntime:
    """The webhook's routes; updates come in as soon as they are served."""

    routes: Sequence[BaseRoute]

    async def connected(self) -> bool:
        """Always: Meta posts to the webhook, nothing here keeps a connection."""
        return True

    async def go_live(self) -> None:
        """Nothing to start: the routes served are the way in."""
        log.info("WhatsApp number takes its webhooks at %s", WEBHOOK_PATH)


def cloud_api(http: httpx.AsyncClient, *, api_url: str, phone_id: str, token: str) -> WhatsApp:
    """pywa's client of the number, its requests on ``http`` to the Graph API at ``api_url``.

    Webhooks are checked and read by the bot's own route, so pywa validates none.
    """
    client = WhatsApp(
        phone_id=phone_id,
        token=token,
        session=http,
        api_version=float(GRAPH_VERSION),
        validate_updates=False,
    )
    # pywa writes Meta's host into the session; the bot's setting names the base.
    http.base_url = httpx.URL(f"{api_url}/v{GRAPH_VERSION}")
    return client


def _secret(settings: Settings, name: str) -> str:
    value = getattr(settings, name)
    assert value is not None, "required at the start"
    return str(value.get_secret_value())


@asynccontextmanager
async def running_whatsapp(
    settings: Settings,
    conversations: Conversations,
    messengers: MutableMapping[str, Messenger],
    *,
    pacer: Pacer | None = None,
) -> AsyncIterator[WhatsAppRuntime]:
    """Serve the number for the block; ``pacer`` keeps its pace (tests hand in their clock)."""
    settings.require(*REQUIRED)
    services = conversations.services
    async with http_client(timeout=_TIMEOUT) as http:
        assert settings.whatsapp_phone_number_id is not None
        client = cloud_api(
            http,
            api_url=settings.whatsapp_api_url,
            phone_id=settings.whatsapp_phone_number_id,
            token=_secret(settings, "whatsapp_access_token"),
        )
        messenger = WhatsAppMessenger(
            client,
            whatsapp_texts(settings.bot_language),
            template=settings.whatsapp_ready_template,
            template_language=settings.bot_language,
            pacer=pacer or number_pacer(),
            take_back=taking_back(services.db, services.clock, PLATFORM),
            announcing=announcing(services.db, services.clock, PLATFORM),
        )
        intake = Intake(conversations, messenger, client)
        routes = webhook_routes(
            verify_token=_secret(settings, "whatsapp_verify_token"),
            app_secret=_secret(settings, "whatsapp_app_secret"),
            take=intake.take,
        )
        messengers[PLATFORM] = messenger
        try:
            yield WhatsAppRuntime(routes)
        finally:
            messengers.pop(PLATFORM, None)
            await intake.close()
