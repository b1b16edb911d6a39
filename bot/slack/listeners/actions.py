"""Button presses: acknowledged at once, then handed to the core, answered in place."""

from __future__ import annotations

import re
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp, AsyncRespond
from slack_bolt.context.async_context import AsyncBoltContext
from slack_sdk.web.async_client import AsyncWebClient

from bot.core.conversation.actions import Confirm, ConnectSite
from bot.core.conversation.events import ChatAddress, Press
from bot.core.routing.routes import parse_action
from bot.slack.context import SlackDeps, deps_of
from bot.slack.home import home_origin
from bot.slack.ids import message_id
from bot.slack.modals import ModalOrigin, site_view
from bot.slack.origins import interaction_origin
from bot.slack.render import BUTTON_ACTION_PREFIX
from bot.slack.replies import Replies

__all__ = ["PRESS", "press", "register"]

# Every button the renderer makes: its value is the core's action data.
PRESS = re.compile(rf"^{re.escape(BUTTON_ACTION_PREFIX)}\d+$")
# The container of a button in a view (the Home tab) rather than a message.
_VIEW = "view"


async def press(
    ack: AsyncAck,
    body: dict[str, Any],
    action: dict[str, Any],
    respond: AsyncRespond,
    client: AsyncWebClient,
    context: AsyncBoltContext,
) -> None:
    """Acknowledge, then let the core answer; the pressed message is replaced in place.

    A client's site is asked for in a form here: a password typed in a Slack message could not
    be deleted.
    """
    await ack()
    deps = deps_of(context)
    container = body.get("container") or {}
    data = str(action.get("value", ""))
    connect = parse_action(data)
    if isinstance(connect, ConnectSite) and body.get("trigger_id"):
        await _open_site_form(deps, body, client, connect)
        return
    if container.get("type") == _VIEW:
        # A button of the Home tab: no message, no response URL; answered in the DM.
        team = interaction_origin(body, "").user.workspace
        asker = home_origin(team, str(body["user"]["id"]))
        await deps.answer_in_chat(asker, Press(data, None))
        _refresh_after(deps, asker.chat, data)
        return
    channel = str(container.get("channel_id") or body["channel"]["id"])
    ts = container.get("message_ts")
    pressed = message_id(channel, str(ts)) if ts else None
    origin = interaction_origin(body, channel)
    replies = Replies(respond, deps.messenger, origin.chat, pressed=pressed)
    await deps.answer(origin, Press(data, pressed), replies)
    _refresh_after(deps, origin.chat, data)


async def _open_site_form(
    deps: SlackDeps, body: dict[str, Any], client: AsyncWebClient, action: ConnectSite
) -> None:
    """The site's form, answered where the button was (to the user alone), else in the DM."""
    container = body.get("container") or {}
    channel = str(container.get("channel_id") or (body.get("channel") or {}).get("id") or "")
    origin = interaction_origin(body, channel or str(body["user"]["id"]))
    texts, slack = await deps.speaking_to(origin)
    where = ModalOrigin(channel or str(body["user"]["id"]), str(body.get("response_url") or ""))
    view = site_view(slack, texts.sites, where, action.client)
    await client.views_open(trigger_id=body["trigger_id"], view=view)


def _refresh_after(deps: SlackDeps, chat: ChatAddress, data: str) -> None:
    """A confirmed order changes the user's Home tab (balance, latest articles)."""
    if isinstance(parse_action(data), Confirm):
        deps.home.refresh(chat)


def register(app: AsyncApp) -> None:
    """Route the presses of the bot's buttons to ``press``."""
    app.action(PRESS)(press)
