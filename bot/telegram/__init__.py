"""The Telegram bot: updates in, the core's screens out as HTML and inline keyboards."""

from bot.telegram.messenger import PLATFORM, TelegramMessenger
from bot.telegram.platform import TelegramPlatform, TelegramRules
from bot.telegram.runtime import TelegramRuntime, running_telegram

__all__ = [
    "PLATFORM",
    "TelegramMessenger",
    "TelegramPlatform",
    "TelegramRules",
    "TelegramRuntime",
    "running_telegram",
]
