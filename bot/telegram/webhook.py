"""The webhook endpoint: Telegram's POSTs, checked for the secret token, queued for the bot."""

from __future__ import annotations

import hmac
import logging

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from telegram import Update

from bot.telegram.context import TelegramApp
from bot.telegram.handlers.replays import SOURCE

__all__ = ["SECRET_HEADER", "UPDATE_CLAIM", "webhook_route"]

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"  # noqa: S105 - a header name
# How long an update is claimed while it is handled: sent again meanwhile, it is taken over
# (its handler died). Longer than any update takes; Telegram waits about as long for an answer.
# Should Telegram give up on a handler that still runs, the update is handled twice: the
# purchase's one conditional move still charges once.
UPDATE_CLAIM = 60.0
log = logging.getLogger(__name__)


def webhook_route(application: TelegramApp, *, path: str, secret: str) -> Route:
    """A route that accepts Telegram's updates carrying the secret, and answers once each is
    handled."""

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
        # Answered once handled, not on arrival: a replica killed meanwhile answers nothing,
        # and Telegram sends the update again, to another replica, which takes it over. Its
        # user's earlier updates still go first, and the answer in the chat does not wait.
        processor = application.update_processor
        await processor.process_update(update, application.process_update(update))
        conversations = application.bot_data.conversations
        assert conversations is not None, "set when the application is built"
        await conversations.finished(SOURCE, str(update.update_id))
        return Response(status_code=200)

    return Route(path, receive, methods=["POST"])
