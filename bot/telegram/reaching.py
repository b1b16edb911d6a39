"""The calls a Telegram start cannot do without (getMe, deleteWebhook, setWebhook), made until
the Bot API answers them.

While the Bot API cannot be reached, or answers 5xx or 429, one warning line a try says so, and
the call waits (from a second, doubling, or as long as a 429 asks) and is tried again: a network
that comes up after the bot, or a Telegram outage, needs no restart. A refused token or request
is told at once, and a stop (SIGTERM) during the waits gives the start up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from urllib.parse import urlsplit

from telegram.error import BadRequest, NetworkError, RetryAfter

from bot.core.retries import retried_until_stop

__all__ = ["until_answered"]


async def until_answered(
    what: str, call: Callable[[], Awaitable[object]], *, api_url: str, stop: asyncio.Event
) -> None:
    """Make the call until the Bot API at ``api_url`` answers it, or ``stop`` is set."""
    # The host alone: the URL of a call holds the bot token.
    host = urlsplit(api_url).netloc or api_url
    await retried_until_stop(
        f"{what} to the Telegram Bot API at {host}",
        call,
        stop=stop,
        passing=(NetworkError, RetryAfter),
        refused=(BadRequest,),
    )
