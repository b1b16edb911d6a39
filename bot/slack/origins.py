"""Who did something where, from the fields of a Slack request."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.core.conversation.events import ChatAddress, Origin, UserKey
from bot.slack.ids import PLATFORM, is_direct

__all__ = ["interaction_origin", "origin"]


def origin(*, team_id: str, user_id: str, channel_id: str) -> Origin:
    """A Slack user (of a workspace) in a channel; the language is the user's /dil choice.

    The user's own id as the channel means their DM with the bot (a global shortcut has no
    channel), as the messenger takes it.
    """
    return Origin(
        user=UserKey(PLATFORM, user_id, workspace=team_id),
        chat=ChatAddress(PLATFORM, channel_id, user_id=user_id, workspace=team_id),
        private=is_direct(channel_id) or channel_id == user_id,
        language_hint=None,
    )


def interaction_origin(body: Mapping[str, Any], channel_id: str) -> Origin:
    """The origin of a button press or a form submission, whose channel is known apart."""
    user = body["user"]
    team = (body.get("team") or {}).get("id") or user.get("team_id", "")
    return origin(team_id=team, user_id=user["id"], channel_id=channel_id)
