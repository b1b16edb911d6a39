"""The one error handler: log the traceback, then tell the user briefly that something broke."""

from __future__ import annotations

import logging

import aiohttp
from slack_bolt.async_app import AsyncApp
from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.errors import SlackClientError
from slack_sdk.web.async_client import AsyncWebClient

from bot.core.texts import TURKISH_CODE, texts_for
from bot.slack.context import found_deps

__all__ = ["on_error", "register"]

log = logging.getLogger(__name__)


async def on_error(error: Exception, context: AsyncBoltContext, client: AsyncWebClient) -> None:
    """Log the failure with its traceback and tell the user, by the response URL or in a DM."""
    log.error("a Slack request failed", exc_info=error)
    deps = found_deps(context)
    text = deps.texts.something_broke if deps else texts_for(TURKISH_CODE).something_broke
    respond = context.respond
    try:
        # Events carry no response URL; Bolt still gives them a respond that refuses to work.
        if respond is not None and respond.response_url is not None:
            await respond(text=text, response_type="ephemeral", replace_original=False)
        elif context.user_id is not None:
            await client.chat_postMessage(channel=context.user_id, text=text)
    except (SlackClientError, aiohttp.ClientError, TimeoutError):
        log.warning("could not tell Slack user %s about the failure", context.user_id)


def register(app: AsyncApp) -> None:
    """Register ``on_error`` as the app's error handler."""
    app.error(on_error)
