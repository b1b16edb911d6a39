"""Builds python-telegram-bot's Application: our base URL, rate limiter, context and handlers."""

from __future__ import annotations

from telegram import Update
from telegram.ext import AIORateLimiter, ApplicationBuilder

from bot.core.limits.inflight import InFlight
from bot.core.limits.pacing import Pacer, SharedPace
from bot.core.routing.conversations import Conversations
from bot.telegram.context import CONTEXT_TYPES, TelegramApp
from bot.telegram.counting import CountingRateLimiter
from bot.telegram.handlers import register_handlers
from bot.telegram.messenger import DEFAULTS, TelegramMessenger
from bot.telegram.ordering import PerUserOrder
from bot.telegram.pacing import BOT_LIMITS, PacedRateLimiter
from bot.telegram.transport import AiohttpRequest, Connections
from bot.telegram.updates import tell_too_fast
from bot.telegram.webhook import UPDATE_CLAIM

__all__ = ["build_application"]

# Different users' updates are handled side by side: one slow upstream call holds no one else.
CONCURRENT_UPDATES = 16
# Connections to the Bot API: python-telegram-bot's own default. A long poll takes one.
CONNECTIONS = 256


def build_application(
    *,
    token: str,
    api_url: str,
    conversations: Conversations,
    polling: bool,
    shared: SharedPace | None = None,
) -> TelegramApp:
    """The application with every handler; webhook mode has no updater of its own.

    ``shared`` keeps each chat's pace where every replica draws from it."""
    root = api_url.rstrip("/")

    async def too_fast(update: Update) -> None:
        # Called while the application runs, so long after it is built below.
        messenger = application.bot_data.messenger
        assert messenger is not None, "set when the application is built"
        await tell_too_fast(update, conversations, messenger)

    connections = Connections(limit=CONNECTIONS)
    # A user's updates in flight, their turn come or not: the core's cap, as on every platform.
    order = PerUserOrder(CONCURRENT_UPDATES, in_flight=InFlight(), on_overflow=too_fast)
    builder = (
        ApplicationBuilder()
        .token(token)
        .base_url(f"{root}/bot")
        .base_file_url(f"{root}/file/bot")
        .rate_limiter(
            PacedRateLimiter(
                Pacer(BOT_LIMITS, shared=shared),
                inner=CountingRateLimiter(AIORateLimiter(max_retries=0)),
            )
        )
        .concurrent_updates(order)
        .context_types(CONTEXT_TYPES)
        .defaults(DEFAULTS)
        .request(AiohttpRequest(connections))
    )
    if polling:
        builder = builder.get_updates_request(AiohttpRequest(connections))
    else:
        builder = builder.updater(None)
    application: TelegramApp = builder.build()  # type: ignore[assignment]
    application.bot_data.claim = None if polling else UPDATE_CLAIM
    application.bot_data.conversations = conversations
    application.bot_data.messenger = TelegramMessenger(application.bot)
    register_handlers(application)
    return application
