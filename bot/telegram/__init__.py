"""The Telegram bot: updates in, the core's screens out as HTML and inline keyboards."""

from bot.telegram.messenger import PLATFORM, TelegramMessenger
from bot.telegram.runtime import TelegramRuntime, running_telegram

__all__ = ["PLATFORM", "TelegramMessenger", "TelegramRuntime", "running_telegram"]
