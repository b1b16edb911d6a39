"""Telegram as one of the bot's chat platforms: its rules for the core, and how it starts."""

from __future__ import annotations

from collections.abc import Collection
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.chat_platform import ChatHost
from bot.config import Settings
from bot.core.conversation.events import ChatAddress, Origin
from bot.core.platforms import listed
from bot.telegram.ids import PLATFORM

if TYPE_CHECKING:
    from bot.telegram.runtime import TelegramRuntime

__all__ = ["TelegramPlatform", "TelegramRules"]


@dataclass(frozen=True, slots=True)
class TelegramRules:
    """Allow lists of user ids and group or channel ids; an empty list lets everyone in."""

    users: Collection[str] = ()
    chats: Collection[str] = ()
    name: str = PLATFORM
    threads_articles: bool = False
    # A user's id is also the id of their private chat with the bot.
    user_is_chat: bool = True
    # A password typed in the chat is deleted at once.
    login_in_chat: bool = True

    def admits(self, origin: Origin) -> bool:
        """Whether the user is listed, and (outside their private chat) the group too."""
        in_chat = origin.private or listed(self.chats, origin.chat.chat_id)
        return listed(self.users, origin.user.external_id) and in_chat

    def admin_chat(self, setting: str) -> ChatAddress | None:
        """A chat id (a group's is negative) names a Telegram chat."""
        return ChatAddress(PLATFORM, setting) if setting.lstrip("-").isdigit() else None


@dataclass(frozen=True, slots=True)
class TelegramPlatform:
    """The Telegram bot, started with ``TELEGRAM_BOT_TOKEN``."""

    name: str = PLATFORM
    summary: str = "the Telegram bot"
    service: bool = True

    def rules(self, settings: Settings) -> TelegramRules:
        """The allow lists of ``ALLOWED_TELEGRAM_USERS`` and ``ALLOWED_TELEGRAM_CHATS``."""
        return TelegramRules(settings.allowed_telegram_users, settings.allowed_telegram_chats)

    def configured(self, settings: Settings) -> bool:
        """Whether the bot token is set."""
        return bool(settings.telegram_bot_token)

    def require(self, settings: Settings) -> None:
        """Fail unless the bot token is set."""
        settings.require("telegram_bot_token")

    def running(self, host: ChatHost) -> AbstractAsyncContextManager[TelegramRuntime]:
        """The bot started for the block (long polling or a webhook)."""
        # Imported here: a process that runs no Telegram bot need not load python-telegram-bot.
        from bot.core.limits.shared_pace import shared_pace_for
        from bot.telegram.runtime import running_telegram

        # Every replica on PostgreSQL draws each chat's sends from one budget.
        shared = shared_pace_for(host.db, PLATFORM)
        return running_telegram(
            host.settings, host.conversations, host.messengers, host.stop, shared
        )
