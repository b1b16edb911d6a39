"""Every Slack listener, registered by kind."""

from __future__ import annotations

from slack_bolt.async_app import AsyncApp

from bot.slack.listeners import actions, commands, errors, events, replays, views

__all__ = ["register_listeners"]


def register_listeners(app: AsyncApp) -> None:
    """Register every listener kind on the app; replays are dropped before any of them."""
    for kind in (replays, commands, actions, views, events, errors):
        kind.register(app)
