"""Direct messages to the bot: a reply the dialog awaits (a title, a topic), a file of titles,
or a hint."""

from __future__ import annotations

from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.core.conversation.events import Event, Text, Unsupported
from bot.core.ordering.title_files import MAX_FILE_BYTES
from bot.slack.context import deps_of
from bot.slack.downloads import shared_file
from bot.slack.ids import message_id
from bot.slack.origins import origin
from bot.slack.render import unescape

__all__ = ["message", "register"]

# Slack reports edits, deletions and joins as messages too; only these are the user's own.
_FILE_SHARE = "file_share"


async def _event_of(event: dict[str, Any], client: AsyncWebClient) -> Event | None:
    """What the user did, or None for what is not theirs to answer (bots, edits, joins)."""
    if event.get("channel_type") != "im" or event.get("bot_id") or not event.get("user"):
        return None
    sent = message_id(str(event["channel"]), str(event["ts"]))
    match event.get("subtype"):
        case None:
            return Text(unescape(str(event.get("text") or "")), sent)
        case subtype if subtype == _FILE_SHARE:
            files = event.get("files") or []
            if not files or not isinstance(files[0], dict):
                return Unsupported()
            # A list of titles; anything else is refused by the core with its reason.
            return await shared_file(client, files[0], MAX_FILE_BYTES, sent)
        case _:
            return None


async def message(
    event: dict[str, Any], body: dict[str, Any], context: AsyncBoltContext, client: AsyncWebClient
) -> None:
    """Hand a DM to the core and post its answer in the DM."""
    happened = await _event_of(event, client)
    if happened is None:
        return
    deps = deps_of(context)
    sender = origin(
        team_id=str(body.get("team_id") or event.get("team") or ""),
        user_id=str(event["user"]),
        channel_id=str(event["channel"]),
    )
    # A DM has no press to answer with a toast: notices are posted too.
    await deps.answer_in_chat(sender, happened)


def register(app: AsyncApp) -> None:
    """Route message events (the bot subscribes to its DMs only) to ``message``."""
    app.event("message")(message)
