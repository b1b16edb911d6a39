"""``GET/POST /whatsapp/webhook``: Meta's verification, then signed notifications.

A POST's body is read up to the cap and its ``X-Hub-Signature-256`` (HMAC-SHA256 of the raw
body with the app secret) checked before anything parses it. What it tells is handed on and
answered 200 at once: Meta sends again what is not answered soon.
"""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Callable

from pywa.utils import webhook_updates_validator
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from bot.bodies import capped_body
from bot.whatsapp.inbound import Update, read_notification

__all__ = ["WEBHOOK_PATH", "webhook_routes"]

log = logging.getLogger(__name__)
WEBHOOK_PATH = "/whatsapp/webhook"
_BAD, _UNSIGNED, _FORBIDDEN, _TOO_LARGE = 400, 401, 403, 413


def webhook_routes(
    *, verify_token: str, app_secret: str, take: Callable[[list[Update]], None]
) -> list[Route]:
    """The webhook's two routes; ``take`` gets what each signed notification tells."""

    async def verify(request: Request) -> Response:
        query = request.query_params
        token = query.get("hub.verify_token", "")
        subscribing = query.get("hub.mode") == "subscribe"
        if subscribing and hmac.compare_digest(token.encode(), verify_token.encode()):
            return PlainTextResponse(query.get("hub.challenge", ""))
        return Response(status_code=_FORBIDDEN)

    async def receive(request: Request) -> Response:
        body = await capped_body(request)
        if body is None:
            return Response(status_code=_TOO_LARGE)
        signature = request.headers.get("x-hub-signature-256", "")
        signed = signature.isascii() and webhook_updates_validator(app_secret, body, signature)
        if not signature or not signed:
            # Never the body: nobody vouches for what it holds.
            log.warning("refused a WhatsApp webhook without a valid signature")
            return Response(status_code=_UNSIGNED)
        try:
            payload = json.loads(body)
        except (ValueError, RecursionError):
            return Response(status_code=_BAD)
        take(read_notification(payload))
        return Response()

    return [
        Route(WEBHOOK_PATH, verify, methods=["GET"]),
        Route(WEBHOOK_PATH, receive, methods=["POST"]),
    ]
