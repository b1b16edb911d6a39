"""Replayed requests (a retried event, a resent interaction) are dropped before any listener."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.context.async_context import AsyncBoltContext
from slack_bolt.response import BoltResponse

from bot.slack.context import deps_of

__all__ = ["SOURCE", "register", "skip_replayed"]

SOURCE = "slack"
log = logging.getLogger(__name__)


def _request_id(body: Mapping[str, Any]) -> str | None:
    """What makes a request unique: an event's id, else the trigger id of an interaction."""
    value = body.get("event_id") or body.get("trigger_id")
    return value if isinstance(value, str) and value else None


async def skip_replayed(
    body: dict[str, Any], context: AsyncBoltContext, next: Callable[[], Awaitable[None]]
) -> BoltResponse | None:
    """Answer a request handled before with a bare 200; let a new one through."""
    request_id = _request_id(body)
    if request_id is not None and not await deps_of(context).conversations.first_time(
        SOURCE, request_id
    ):
        log.info("dropped a replayed Slack request")
        return BoltResponse(status=200, body="")
    await next()
    return None


def register(app: AsyncApp) -> None:
    """Check every request first, as a global middleware."""
    app.middleware(skip_replayed)
