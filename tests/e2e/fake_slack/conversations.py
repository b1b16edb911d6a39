"""Channels, direct messages, and what the bot posted in them, as Slack would show it now."""

from __future__ import annotations

from typing import Any

from tests.e2e.fake_slack.errors import SlackError
from tests.e2e.fake_slack.ids import APP_ID, BOT_ID, BOT_USER_ID, Ids
from tests.e2e.fake_slack.limits import accepted_content

__all__ = ["Conversations"]


class Conversations:
    """The channels the bot knows, its messages and ephemeral messages in them, in post order."""

    def __init__(self, ids: Ids, team_id: str) -> None:
        self._ids = ids
        self._team_id = team_id
        self._members: dict[str, bool] = {}  # channel id -> whether the bot is a member
        self._archived: set[str] = set()
        self._left: set[tuple[str, str]] = set()  # (channel id, user id) of users who left
        self._dms: dict[str, str] = {}  # user id -> id of that user's DM with the bot
        self._messages: list[dict[str, Any]] = []
        self._ephemerals: list[dict[str, Any]] = []

    def add_channel(self, channel_id: str, *, member: bool) -> None:
        """Make a channel exist, with the bot in it or not."""
        self._members[channel_id] = member

    def archive(self, channel_id: str) -> None:
        """Archive a channel: every post to it is refused with ``is_archived``."""
        self._archived.add(channel_id)

    def user_leaves(self, channel_id: str, user_id: str) -> None:
        """A user leaves a channel: an ephemeral message to them there is refused."""
        self._left.add((channel_id, user_id))

    def know_channel(self, channel_id: str, user_id: str) -> None:
        """Note a channel a user acted in: a ``D`` id is their DM, else one without the bot."""
        if channel_id in self._members:
            return
        is_dm = channel_id.startswith("D")
        self._members[channel_id] = is_dm
        if is_dm:
            self._dms.setdefault(user_id, channel_id)

    def dm_channel(self, user_id: str) -> str:
        """The id of the user's DM with the bot, opened on first use."""
        if user_id not in self._dms:
            self.add_channel(channel_id := self._ids.new("D"), member=True)
            self._dms[user_id] = channel_id
        return self._dms[user_id]

    def post(
        self,
        channel: str,
        content: dict[str, Any],
        *,
        thread_ts: Any,
        member_required: bool = True,
    ) -> dict[str, Any]:
        """Post accepted content as the bot; a user id as `channel` means that user's DM."""
        channel_id = self._target(channel, member_required=member_required)
        return self._append(channel_id, thread_ts, content)

    def share_files(
        self, channel: str, *, files: list[dict[str, Any]], comment: Any, thread_ts: Any
    ) -> dict[str, Any]:
        """Post the message that shares uploaded files, with the initial comment as its text."""
        channel_id = self._target(channel, member_required=True)
        content = {"text": comment or "", "files": files, "upload": True}
        return self._append(channel_id, thread_ts, content)

    def update(
        self, channel: str, ts: Any, *, text: Any, blocks: Any, markdown_text: Any
    ) -> dict[str, Any]:
        """Change a message's text and/or blocks; what is not given is kept, as chat.update does."""
        message = self._find(self._target(channel, member_required=True), ts, ephemeral=False)
        if markdown_text is None:
            text = message["text"] if text is None else text
            blocks = message.get("blocks") if blocks is None else blocks
        _set_content(message, accepted_content(text, blocks, markdown_text))
        message["edited"] = {"user": BOT_USER_ID, "ts": self._ids.ts()}
        return message

    def replace(
        self, channel_id: str, ts: Any, content: dict[str, Any], *, ephemeral: bool
    ) -> dict[str, Any]:
        """Replace a message's whole content, as a ``replace_original`` response does."""
        message = self._find(channel_id, ts, ephemeral=ephemeral)
        _set_content(message, content)
        return message

    def delete(self, channel: str, ts: Any) -> None:
        """Delete one of the bot's messages (chat.delete)."""
        self.remove(self._target(channel, member_required=True), ts, ephemeral=False)

    def remove(self, channel_id: str, ts: Any, *, ephemeral: bool) -> None:
        """Take a message or ephemeral message away."""
        message = self._find(channel_id, ts, ephemeral=ephemeral)
        (self._ephemerals if ephemeral else self._messages).remove(message)

    def post_ephemeral(
        self,
        channel: str,
        user: Any,
        content: dict[str, Any],
        *,
        thread_ts: Any,
        member_required: bool = True,
    ) -> dict[str, Any]:
        """Show accepted content to one user only; its ``user`` field names that user."""
        channel_id = self._target(channel, member_required=member_required)
        if not user:
            raise SlackError("user_not_found")
        if (channel_id, user) in self._left:
            raise SlackError("user_not_in_channel")
        ephemeral = {"type": "message", "channel": channel_id, "user": user, "ts": self._ids.ts()}
        ephemeral.update(content)
        if thread_ts:
            ephemeral["thread_ts"] = thread_ts
        self._ephemerals.append(ephemeral)
        return ephemeral

    def find(self, channel_id: str, ts: Any, *, ephemeral: bool) -> dict[str, Any] | None:
        """The message (or ephemeral message) with this ts in this channel, if there is one."""
        pool = self._ephemerals if ephemeral else self._messages
        return next((m for m in pool if m["channel"] == channel_id and m["ts"] == ts), None)

    def messages(self, channel_id: str, thread_ts: str | None) -> list[dict[str, Any]]:
        """The channel's top-level messages, or with `thread_ts` the replies in that thread."""
        return [
            dict(m)
            for m in self._messages
            if m["channel"] == channel_id and m.get("thread_ts") == thread_ts
        ]

    def ephemerals(self, user_id: str) -> list[dict[str, Any]]:
        """The ephemeral messages shown to a user, in any channel."""
        return [dict(e) for e in self._ephemerals if e["user"] == user_id]

    def _target(self, channel: str, *, member_required: bool) -> str:
        if channel.startswith(("U", "W")):
            return self.dm_channel(channel)
        member = self._members.get(channel)
        if member is None:
            raise SlackError("channel_not_found")
        if member_required and not member:
            raise SlackError("not_in_channel")
        if channel in self._archived:
            raise SlackError("is_archived")
        return channel

    def _append(self, channel_id: str, thread_ts: Any, content: dict[str, Any]) -> dict[str, Any]:
        thread = self._thread(channel_id, thread_ts) if thread_ts else None
        message: dict[str, Any] = {
            "type": "message",
            "channel": channel_id,
            "ts": self._ids.ts(),
            "user": BOT_USER_ID,
            "bot_id": BOT_ID,
            "app_id": APP_ID,
            "team": self._team_id,
            **content,
        }
        if thread is not None:
            message["thread_ts"] = thread
        self._messages.append(message)
        return message

    def _thread(self, channel_id: str, thread_ts: Any) -> str:
        parent = self.find(channel_id, thread_ts, ephemeral=False)
        if parent is None:
            raise SlackError("thread_not_found")
        # A reply to a reply lands in the same thread, as on Slack.
        return str(parent.get("thread_ts", parent["ts"]))

    def _find(self, channel_id: str, ts: Any, *, ephemeral: bool) -> dict[str, Any]:
        message = self.find(channel_id, ts, ephemeral=ephemeral)
        if message is None:
            raise SlackError("message_not_found")
        return message


def _set_content(message: dict[str, Any], content: dict[str, Any]) -> None:
    message.pop("blocks", None)
    message.update(content)
