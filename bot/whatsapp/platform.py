"""WhatsApp as one of the bot's chat platforms: its rules for the core, and how it starts."""

from __future__ import annotations

from collections.abc import Callable, Collection
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.chat_platform import ChatHost
from bot.config import Settings
from bot.core.conversation.events import ChatAddress, Origin
from bot.core.limits.pacing import Pacer
from bot.core.platforms import listed
from bot.whatsapp.admin_chat import whatsapp_admin_chat
from bot.whatsapp.ids import PLATFORM, REQUIRED

if TYPE_CHECKING:
    from bot.whatsapp.runtime import WhatsAppRuntime

__all__ = ["WhatsAppPlatform", "WhatsAppRules"]


@dataclass(frozen=True, slots=True)
class WhatsAppRules:
    """An allow list of phone numbers; an empty list lets everyone in. Groups are out: the
    Cloud API serves one-to-one chats, whose id is the person's number."""

    users: Collection[str] = ()
    name: str = PLATFORM
    threads_articles: bool = False
    user_is_chat: bool = True
    # No message can be deleted: /giris answers a one-time link to the login page instead.
    login_in_chat: bool = False

    def admits(self, origin: Origin) -> bool:
        """Whether the person's number is listed."""
        return listed(self.users, origin.user.external_id)

    def admin_chat(self, setting: str) -> ChatAddress | None:
        """``whatsapp:<number>`` names that person's chat with the number."""
        return whatsapp_admin_chat(setting)


@dataclass(frozen=True, slots=True)
class WhatsAppPlatform:
    """The WhatsApp number, served with ``WHATSAPP_ACCESS_TOKEN`` and its webhook settings.

    ``pacer`` makes the pacer of its sends; a test hands in one on its own clock.
    """

    pacer: Callable[[], Pacer] | None = None
    name: str = PLATFORM
    summary: str = "the WhatsApp number (Cloud API)"
    service: bool = True

    def rules(self, settings: Settings) -> WhatsAppRules:
        """The allow list of ``ALLOWED_WHATSAPP_USERS``."""
        return WhatsAppRules(settings.allowed_whatsapp_users)

    def configured(self, settings: Settings) -> bool:
        """Whether the access token is set."""
        return bool(settings.whatsapp_access_token)

    def require(self, settings: Settings) -> None:
        """Fail naming what the number and its webhook still need."""
        settings.require(*REQUIRED)

    def running(self, host: ChatHost) -> AbstractAsyncContextManager[WhatsAppRuntime]:
        """The number served for the block: its webhook routes and its messenger."""
        # Imported here: a process that serves no WhatsApp number need not load pywa.
        from bot.whatsapp.runtime import running_whatsapp

        pacer = self.pacer() if self.pacer is not None else None
        return running_whatsapp(host.settings, host.conversations, host.messengers, pacer=pacer)
