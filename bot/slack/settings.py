"""What the Slack app needs from the settings, apart from its wiring and its runtime."""

from __future__ import annotations

from bot.config import Settings

__all__ = ["required"]


def required(settings: Settings) -> None:
    """Fail naming what Slack still needs to start, in the mode the settings choose."""
    if settings.slack_multi_workspace:
        # Slack signs every HTTP request; the secret checks it, the client exchanges codes.
        settings.require("slack_client_id", "slack_client_secret", "slack_signing_secret")
    else:
        settings.require("slack_bot_token")
