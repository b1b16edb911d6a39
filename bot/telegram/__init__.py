"""The Telegram bot: updates in, the core's screens out as HTML and inline keyboards.

``bot.telegram.runtime`` starts it. It is not imported here: python-telegram-bot takes a fair
part of a second to load, which a process without Telegram, and the core's tests, need not pay.
"""

from bot.telegram.ids import PLATFORM

__all__ = ["PLATFORM"]
