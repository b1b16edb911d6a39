"""One workspace of the fake as tests see it: requests signed as its people, what it holds."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from tests.e2e.fake_slack.distribution import Distribution
from tests.e2e.fake_slack.ids import BOT_USER_ID
from tests.e2e.fake_slack.inbound import SignedRequests
from tests.e2e.fake_slack.records import Call, OpenedView, ResponsePost, UploadedFile
from tests.e2e.fake_slack.workspace import Workspace

__all__ = ["FakeTeam"]

T = TypeVar("T")


class FakeTeam(SignedRequests):
    """A workspace: signed requests of its people, its messages, views and files, its token."""

    def __init__(
        self,
        workspace: Workspace,
        signing_secret: str,
        *,
        distribution: Distribution,
        calls: list[Call],
        changed: asyncio.Condition,
    ) -> None:
        super().__init__(workspace, signing_secret)
        self.distribution = distribution
        self.calls = calls
        self._changed = changed

    @property
    def token(self) -> str | None:
        """The workspace's live bot token (None: the app is not installed there)."""
        return self.distribution.token_of(self._workspace.team_id)

    @property
    def bot_user_id(self) -> str:
        """The bot's user id, as auth.test gives it (for mentions in events)."""
        return BOT_USER_ID

    @property
    def team_id(self) -> str:
        """The workspace's team id."""
        return self._workspace.team_id

    def add_channel(self, channel_id: str, *, member: bool = True) -> None:
        """Make a channel exist, with the bot in it (it can post) or not (``not_in_channel``)."""
        self._workspace.conversations.add_channel(channel_id, member=member)

    def archive_channel(self, channel_id: str) -> None:
        """Archive a channel: posts to it are refused with ``is_archived``, as on Slack."""
        self._workspace.conversations.archive(channel_id)

    def user_leaves(self, channel_id: str, user_id: str) -> None:
        """A user leaves a channel: an ephemeral to them there gets ``user_not_in_channel``."""
        self._workspace.conversations.user_leaves(channel_id, user_id)

    def dm_channel(self, user_id: str) -> str:
        """The id of the user's DM with the bot, the one conversations.open gives."""
        return self._workspace.conversations.dm_channel(user_id)

    def calls_to(self, method: str) -> list[Call]:
        """The calls of one Web API method, in order."""
        return [recorded for recorded in self.calls if recorded.method == method]

    def messages(self, channel: str, thread_ts: str | None = None) -> list[dict[str, Any]]:
        """The bot's current messages at the top of `channel`, or in the thread `thread_ts`.

        Updated messages show their latest content, deleted ones are gone, and a completed
        file upload shows as a message with ``files``, as Slack shows them.
        """
        return self._workspace.conversations.messages(channel, thread_ts)

    def ephemerals(self, user: str) -> list[dict[str, Any]]:
        """The ephemeral messages shown to `user`: chat.postEphemeral and response URL posts."""
        return self._workspace.conversations.ephemerals(user)

    @property
    def responses(self) -> list[ResponsePost]:
        """Every accepted post to a response URL, in order."""
        return self._workspace.response_urls.posts

    @property
    def files(self) -> list[UploadedFile]:
        """Every file whose upload was completed, with its bytes and where it was shared."""
        return self._workspace.uploads.completed()

    def user_shares_file(
        self, user: str, filename: str, content: bytes, mimetype: str = "text/plain"
    ) -> dict[str, Any]:
        """A person shares a file; the file object a ``file_share`` message event carries."""
        return self._workspace.uploads.share(user, filename, content, mimetype)

    def home(self, user_id: str) -> dict[str, Any] | None:
        """The user's Home tab as the bot last published it, if it did."""
        return self._workspace.views.home(user_id)

    @property
    def views(self) -> list[OpenedView]:
        """Every modal and Home tab shown, each in its latest form."""
        return self._workspace.views.shown()

    async def wait_for(
        self,
        predicate: Callable[[], T],
        # Generous for a busy machine: it costs nothing when the condition comes.
        timeout: float = 30.0,
    ) -> T:
        """Return `predicate`'s first true value, checked after every request the fake gets.

        Fails the test with the last calls listed when it is not true within `timeout` s.
        """
        try:
            async with asyncio.timeout(timeout), self._changed:
                return await self._changed.wait_for(predicate)
        except TimeoutError:
            seen = ", ".join(f"{c.method}:{c.response.get('error', 'ok')}" for c in self.calls[-9:])
            raise AssertionError(
                f"condition not met within {timeout} s; last calls: {seen or 'none'}"
            ) from None
