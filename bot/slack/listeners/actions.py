"""Button presses: acknowledged at once, then handed to the core, answered in place."""

from __future__ import annotations

import re
from typing import Any

from slack_bolt.async_app import AsyncAck, AsyncApp, AsyncRespond
from slack_bolt.context.async_context import AsyncBoltContext

from bot.core.events import Press
from bot.slack.context import deps_of
from bot.slack.ids import message_id
from bot.slack.origins import interaction_origin
from bot.slack.render import BUTTON_ACTION_PREFIX
from bot.slack.replies import Replies

__all__ = ["PRESS", "press", "register"]

# Every button the renderer makes: its value is the core's action data.
PRESS = re.compile(rf"^{re.escape(BUTTON_ACTION_PREFIX)}\d+$")


async def press(
    ack: AsyncAck,
    body: dict[str, Any],
    action: dict[str, Any],
    respond: AsyncRespond,
    context: AsyncBoltContext,
) -> None:
    """Acknowledge, then let the core answer; the pressed message is replaced in place."""
    await ack()
    deps = deps_of(context)
    container = body.get("container") or {}
    channel = str(container.get("channel_id") or body["channel"]["id"])
    ts = container.get("message_ts")
    pressed = message_id(channel, str(ts)) if ts else None
    origin = interaction_origin(body, channel)
    replies = Replies(respond, deps.messenger, origin.chat, pressed=pressed)
    await deps.answer(origin, Press(str(action.get("value", "")), pressed), replies)


def register(app: AsyncApp) -> None:
    """Route the presses of the bot's buttons to ``press``."""
    app.action(PRESS)(press)
