"""Slack as one of the bot's chat platforms: its rules for the core, and how it starts."""

from __future__ import annotations

from collections.abc import Callable, Collection
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.chat_platform import ChatHost
from bot.config import Settings
from bot.core.conversation.events import ChatAddress, Origin
from bot.core.platforms import listed
from bot.slack.admin_chat import slack_admin_chat
from bot.slack.ids import PLATFORM
from bot.slack.settings import required

if TYPE_CHECKING:
    from bot.slack.installations import Installations
    from bot.slack.runtime import SlackRuntime

__all__ = ["SlackPlatform", "SlackRules"]


@dataclass(frozen=True, slots=True)
class SlackRules:
    """Allow lists of workspaces and user ids; an empty list lets everyone in."""

    teams: Collection[str] = ()
    users: Collection[str] = ()
    name: str = PLATFORM
    # An article is a reply in its progress message's thread, so a channel stays readable.
    threads_articles: bool = True
    # A user's id opens a direct message with them.
    user_is_chat: bool = True
    # A password typed in the chat is deleted at once (in a Slack modal, never posted).
    login_in_chat: bool = True

    def admits(self, origin: Origin) -> bool:
        """Whether the user's workspace and the user are listed."""
        user = origin.user
        return listed(self.teams, user.workspace) and listed(self.users, user.external_id)

    def admin_chat(self, setting: str) -> ChatAddress | None:
        """``slack:C…`` names a channel; ``slack:T…/C…`` its workspace too, where one
        deployment serves many."""
        return slack_admin_chat(setting)


@dataclass(frozen=True, slots=True)
class SlackPlatform:
    """The Slack app: one workspace with ``SLACK_BOT_TOKEN``, many with ``SLACK_CLIENT_ID``.

    ``installations`` keeps what each workspace installed, on the host's database.
    """

    installations: Callable[[ChatHost], Installations]
    name: str = PLATFORM
    summary: str = "the Slack app"
    service: bool = True

    def rules(self, settings: Settings) -> SlackRules:
        """The allow lists of ``ALLOWED_SLACK_TEAMS`` and ``ALLOWED_SLACK_USERS``."""
        return SlackRules(settings.allowed_slack_teams, settings.allowed_slack_users)

    def configured(self, settings: Settings) -> bool:
        """Whether a bot token, or the client id of many workspaces, is set."""
        return settings.slack_multi_workspace or bool(settings.slack_bot_token)

    def require(self, settings: Settings) -> None:
        """Fail naming what the chosen mode still needs."""
        required(settings)

    def running(self, host: ChatHost) -> AbstractAsyncContextManager[SlackRuntime]:
        """The app started for the block (Socket Mode, or HTTP on the shared app)."""
        # Imported here: a process that runs no Slack app need not load Bolt and aiohttp.
        from bot.slack.runtime import running_slack

        return running_slack(
            host.settings,
            host.conversations,
            host.messengers,
            self.installations(host),
            host.stop,
        )
