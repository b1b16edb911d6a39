"""Every Slack listener, registered by kind."""

from __future__ import annotations

from slack_bolt.async_app import AsyncApp

from bot.slack.listeners import (
    actions,
    admission,
    commands,
    errors,
    events,
    home,
    installs,
    replays,
    shortcuts,
    views,
)

__all__ = ["register_listeners"]


def register_listeners(app: AsyncApp) -> None:
    """Register every listener kind on the app; strangers and replays are stopped first."""
    for kind in (
        admission,
        replays,
        commands,
        actions,
        shortcuts,
        views,
        events,
        home,
        installs,
        errors,
    ):
        kind.register(app)
