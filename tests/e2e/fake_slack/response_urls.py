"""The ``response_url`` of slash commands and actions, and what posting to one does."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from tests.e2e.fake_slack.conversations import Conversations
from tests.e2e.fake_slack.errors import SlackError
from tests.e2e.fake_slack.ids import Ids
from tests.e2e.fake_slack.limits import accepted_content
from tests.e2e.fake_slack.records import ResponsePost

__all__ = ["ResponseUrls"]

# Slack accepts five posts to one response_url.
MAX_USES = 5


@dataclass
class _Hook:
    user_id: str
    channel_id: str
    message_ts: str | None
    ephemeral: bool
    uses_left: int = MAX_USES


class ResponseUrls:
    """Issues response URLs and applies posts to them to the conversations, as Slack does."""

    def __init__(self, ids: Ids, base_url: str, conversations: Conversations) -> None:
        self._ids = ids
        self._base_url = base_url
        self._conversations = conversations
        self._hooks: dict[str, _Hook] = {}
        self.posts: list[ResponsePost] = []

    def issue(
        self,
        *,
        user_id: str,
        channel_id: str,
        message_ts: str | None = None,
        ephemeral: bool = False,
    ) -> str:
        """A response URL for an interaction of a user in a channel, on a message or not."""
        hook_id = self._ids.secret()
        self._hooks[hook_id] = _Hook(user_id, channel_id, message_ts, ephemeral)
        return f"{self._base_url}/respond/{hook_id}"

    def respond(self, hook_id: str, body: Any) -> None:
        """Apply one post: delete or replace the original, or add an in-channel or ephemeral one."""
        hook = self._hooks.get(hook_id)
        if hook is None or hook.uses_left == 0:
            raise SlackError("expired_url")
        if not isinstance(body, dict):
            raise SlackError("invalid_payload")
        if _flag(body.get("delete_original")):
            self._conversations.remove(hook.channel_id, hook.message_ts, ephemeral=hook.ephemeral)
        else:
            self._add(hook, body)
        hook.uses_left -= 1
        self.posts.append(ResponsePost(hook.user_id, hook.channel_id, body, time.monotonic()))

    def _add(self, hook: _Hook, body: dict[str, Any]) -> None:
        content = accepted_content(body.get("text"), body.get("blocks"), body.get("markdown_text"))
        thread_ts = body.get("thread_ts")
        # A response URL reaches the channel even when the bot is not a member of it.
        if _flag(body.get("replace_original")) and hook.message_ts is not None:
            self._conversations.replace(
                hook.channel_id, hook.message_ts, content, ephemeral=hook.ephemeral
            )
        elif body.get("response_type") == "in_channel":
            self._conversations.post(
                hook.channel_id, content, thread_ts=thread_ts, member_required=False
            )
        else:
            self._conversations.post_ephemeral(
                hook.channel_id, hook.user_id, content, thread_ts=thread_ts, member_required=False
            )


def _flag(value: Any) -> bool:
    return value is True or value == "true"
