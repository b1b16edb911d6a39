"""What the Slack app needs from the settings, apart from its wiring and its runtime."""

from __future__ import annotations

from bot.config import ConfigError, Settings

__all__ = ["required"]


def required(settings: Settings) -> None:
    """Fail naming what Slack still needs to start, in the mode the settings choose."""
    if not settings.slack_bot_token and not settings.slack_client_id:
        raise ConfigError(
            "set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET for one workspace, or SLACK_CLIENT_ID,"
            " SLACK_CLIENT_SECRET and SLACK_SIGNING_SECRET for many (see .env.example)"
        )
    if settings.slack_multi_workspace:
        # Slack signs every HTTP request; the secret checks it, the client exchanges codes.
        settings.require("slack_client_id", "slack_client_secret", "slack_signing_secret")
    else:
        settings.require("slack_bot_token")
