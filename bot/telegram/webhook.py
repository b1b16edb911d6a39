"""The webhook endpoint: Telegram's POSTs, checked for the secret token, queued for the bot."""

from __future__ import annotations

import hmac
import logging

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from telegram import Update

from bot.telegram.context import TelegramApp

__all__ = ["SECRET_HEADER", "webhook_route"]

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"  # noqa: S105 - a header name
log = logging.getLogger(__name__)


def webhook_route(application: TelegramApp, *, path: str, secret: str) -> Route:
    """A route that accepts Telegram's updates carrying the secret and answers at once."""

    async def receive(request: Request) -> Response:
        offered = request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(offered.encode(), secret.encode()):
            return Response(status_code=403)
        try:
            update = Update.de_json(await request.json(), application.bot)
        except (ValueError, TypeError, AttributeError):
            # Not JSON, or JSON that is no update: the sender gets a 400, the log no traceback.
            return Response(status_code=400)
        if update is None:
            return Response(status_code=400)
        # Handled in the background: Telegram wants its 200 quickly and retries otherwise.
        await application.update_queue.put(update)
        return Response(status_code=200)

    return Route(path, receive, methods=["POST"])
