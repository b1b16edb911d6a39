"""Requests of users (or workspaces) the operators did not allow: one refusal, no further."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.context.async_context import AsyncBoltContext
from slack_bolt.response import BoltResponse

from bot.core.conversation.presenter import present
from bot.core.ports import ChatPresenter
from bot.slack.context import deps_of
from bot.slack.origins import origin
from bot.slack.replies import Replies

__all__ = ["refuse_strangers", "register"]


async def refuse_strangers(
    body: dict[str, Any], context: AsyncBoltContext, next: Callable[[], Awaitable[None]]
) -> BoltResponse | None:
    """Acknowledge a stranger's request and refuse it, at most hourly; let the others through."""
    user_id = context.user_id
    # Messages of bots (the app's own among them) concern no one's permission.
    if user_id is None or (body.get("event") or {}).get("bot_id"):
        await next()
        return None
    deps = deps_of(context)
    sender = origin(
        team_id=context.team_id or "",
        user_id=user_id,
        channel_id=context.channel_id or user_id,
    )
    refusal = deps.conversations.refusal(sender)
    if refusal is None:
        await next()
        return None
    respond = context.respond
    if respond is not None and respond.response_url is not None:
        await present(Replies(respond, deps.messenger, sender.chat), refusal)
    else:
        # No response URL (a direct message): the refusal goes to the user's DM.
        await present(ChatPresenter(deps.messenger, sender.chat), refusal)
    return BoltResponse(status=200, body="")


def register(app: AsyncApp) -> None:
    """Check every request first, as a global middleware."""
    app.middleware(refuse_strangers)
