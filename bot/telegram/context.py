"""The typed context every Telegram callback receives: the core and the messenger, by name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from telegram.ext import Application, CallbackContext, ContextTypes, ExtBot

from bot.core.routing.conversations import Admission, Conversations
from bot.telegram.messenger import TelegramMessenger

__all__ = ["CONTEXT_TYPES", "BotContext", "TelegramApp", "TelegramDeps"]


@dataclass
class TelegramDeps:
    """What the callbacks need, set once the application is built (PTB creates it empty)."""

    conversations: Conversations | None = None
    messenger: TelegramMessenger | None = None
    # Webhook mode: how long an update is claimed while it is handled (see ``webhook.py``);
    # None while polling, where an update is marked handled as it comes.
    claim: float | None = None


class BotContext(CallbackContext[ExtBot[None], dict[Any, Any], dict[Any, Any], TelegramDeps]):
    """A callback context with typed access to the core and the messenger."""

    # What the update's replay check read, for its answer: PTB makes one context per update
    # and hands it to the handler of every group.
    admission: Admission | None = None

    @property
    def conversations(self) -> Conversations:
        """The core's entry point."""
        assert self.bot_data.conversations is not None, "set when the application is built"
        return self.bot_data.conversations

    @property
    def messenger(self) -> TelegramMessenger:
        """Telegram as the core's messenger."""
        assert self.bot_data.messenger is not None, "set when the application is built"
        return self.bot_data.messenger


CONTEXT_TYPES = ContextTypes(context=BotContext, bot_data=TelegramDeps)

# The application as this bot builds it: typed context and deps, no job queue.
TelegramApp = Application[
    ExtBot[None], BotContext, dict[Any, Any], dict[Any, Any], TelegramDeps, None
]
