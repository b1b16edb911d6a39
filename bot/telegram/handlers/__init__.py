"""Every Telegram listener, registered by kind."""

from __future__ import annotations

from bot.telegram.context import TelegramApp
from bot.telegram.handlers import (
    admission,
    callbacks,
    commands,
    errors,
    inline,
    membership,
    messages,
    replays,
)

__all__ = ["register_handlers"]


def register_handlers(app: TelegramApp) -> None:
    """Register every listener kind on the application."""
    for kind in (admission, replays, commands, messages, callbacks, inline, membership, errors):
        kind.register(app)
