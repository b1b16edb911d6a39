"""The Slack form of ``ADMIN_CHAT``: read once here, for the settings' check and the platform."""

from __future__ import annotations

import re

from bot.core.conversation.events import ChatAddress
from bot.slack.ids import PLATFORM

__all__ = ["ADMIN_PREFIX", "slack_admin_chat"]

# ADMIN_CHAT names a Slack channel with this prefix: slack:C…, or slack:T…/C… with its workspace.
ADMIN_PREFIX = "slack:"
_FORMAT = re.compile(rf"^{ADMIN_PREFIX}(?:[TE][A-Z0-9]+/)?C[A-Z0-9]+$")


def slack_admin_chat(setting: str) -> ChatAddress | None:
    """The channel ``slack:C…`` names, with its workspace for ``slack:T…/C…``; else None."""
    if not _FORMAT.match(setting):
        return None
    workspace, _, channel = setting.removeprefix(ADMIN_PREFIX).rpartition("/")
    return ChatAddress(PLATFORM, channel, workspace=workspace)
