"""A workspace removing the app (``app_uninstalled``, ``tokens_revoked``): forgotten at once.

Either event, in any order or alone, removes the installation; the second finds nothing.
"""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_bolt.context.async_context import AsyncBoltContext

from bot.slack.context import deps_of

__all__ = ["register", "workspace_left"]

log = logging.getLogger(__name__)

_REVOKED = "tokens_revoked"


async def workspace_left(
    body: dict[str, Any], event: dict[str, Any], context: AsyncBoltContext
) -> None:
    """Forget the workspace: its token, its users' sessions; its unfinished jobs expire."""
    installations = deps_of(context).installations
    team = context.team_id or str(body.get("team_id") or "")
    # One workspace's app (a bot token): nothing to forget.
    if installations is None or not team:
        return
    # A user token revoked leaves the bot's; this app asks for none, but Slack may say so.
    if event.get("type") == _REVOKED and not (event.get("tokens") or {}).get("bot"):
        return
    removed = await installations.remove(context.enterprise_id, team)
    if not (removed.installations or removed.expired_jobs or removed.sessions):
        return
    jobs = ", ".join(f"{job_id} ({request})" for job_id, request in removed.expired_jobs)
    log.warning(
        "Slack team %s removed the app (%s): expired its unfinished jobs [%s], ended %d"
        " upstream session(s)",
        team,
        event.get("type"),
        jobs,
        removed.sessions,
    )


def register(app: AsyncApp) -> None:
    """Route both events to ``workspace_left``."""
    app.event("app_uninstalled")(workspace_left)
    app.event(_REVOKED)(workspace_left)
