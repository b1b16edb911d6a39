"""Starts and stops the Telegram bot: long polling, or a webhook served by the shared HTTP app."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, MutableMapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from starlette.routing import Route
from telegram import Update
from telegram.error import InvalidToken

from bot.config import ConfigError, Settings
from bot.core.limits.pacing import SharedPace
from bot.core.ports import Messenger
from bot.core.retries import best_effort
from bot.core.routing.conversations import Conversations
from bot.telegram.application import build_application
from bot.telegram.context import TelegramApp
from bot.telegram.ids import PLATFORM
from bot.telegram.menu import publish_commands
from bot.telegram.reaching import until_answered
from bot.telegram.webhook import webhook_route

__all__ = ["ALLOWED_UPDATES", "TelegramRuntime", "running_telegram"]

log = logging.getLogger(__name__)
# The update kinds the handlers take; Telegram sends no others (reactions, polls, members).
ALLOWED_UPDATES = [
    Update.MESSAGE,
    Update.EDITED_MESSAGE,
    Update.CALLBACK_QUERY,
    # Sent only once inline mode is switched on at BotFather (/setinline).
    Update.INLINE_QUERY,
    # The bot's own membership tells which channels and groups a user added it to.
    Update.MY_CHAT_MEMBER,
]
# Tries of the updater's own deleteWebhook, just after ours passed, against a Bot API
# answering 5xx or 429 for a moment.
START_ATTEMPTS = 6


@dataclass(frozen=True)
class TelegramRuntime:
    """The started bot, the HTTP routes it needs served, and how it starts taking updates."""

    application: TelegramApp
    webhook: tuple[str, str, str] | None
    routes: list[Route] = field(default_factory=list)
    api_url: str = ""
    # The process's stop: set while a call waits for the Bot API, the start is given up.
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    platform: str = PLATFORM

    async def connected(self) -> bool:
        """Whether updates come in: the poller runs, or (webhook) the application does."""
        updater = self.application.updater
        if self.webhook is None:
            return updater is not None and updater.running
        return self.application.running

    async def go_live(self) -> None:
        """Start taking updates: long polling, or the webhook (once its route is served)."""
        bot = self.application.bot
        if self.webhook is None:
            assert self.application.updater is not None
            # Polling starts by deleting a webhook left over from an earlier deployment (it
            # would make getUpdates fail): here until the Bot API answers, then once more by
            # the updater, retried through a Bot API's passing failures.
            await until_answered(
                "deleteWebhook", bot.delete_webhook, api_url=self.api_url, stop=self.stop
            )
            await self.application.updater.start_polling(
                allowed_updates=ALLOWED_UPDATES, bootstrap_retries=START_ATTEMPTS
            )
            log.info("Telegram bot @%s is polling", bot.username)
            return
        url, path, secret = self.webhook
        await until_answered(
            "setWebhook",
            lambda: bot.set_webhook(url, secret_token=secret, allowed_updates=ALLOWED_UPDATES),
            api_url=self.api_url,
            stop=self.stop,
        )
        log.info("Telegram bot @%s takes its updates at %s", bot.username, path)


def _webhook(settings: Settings) -> tuple[str, str, str] | None:
    if settings.telegram_webhook_url is None:
        return None
    if settings.telegram_webhook_secret is None:
        raise ConfigError("TELEGRAM_WEBHOOK_SECRET is required with TELEGRAM_WEBHOOK_URL")
    url = settings.telegram_webhook_url
    return url, urlsplit(url).path or "/", settings.telegram_webhook_secret.get_secret_value()


@asynccontextmanager
async def _initialized(
    application: TelegramApp, api_url: str, stop: asyncio.Event
) -> AsyncIterator[TelegramApp]:
    """The application initialized (getMe, until the Bot API answers); a refused token is a
    configuration error."""
    try:
        await until_answered("getMe", application.initialize, api_url=api_url, stop=stop)
    except BaseException as err:
        # The bot's connections are open by its getMe and stay open when getMe fails; left
        # to the end of the process, they are reported there as errors.
        await application.bot.request.shutdown()
        if isinstance(err, InvalidToken):
            # Its message quotes the token, and it would reach stderr without redaction.
            raise ConfigError(
                "TELEGRAM_BOT_TOKEN was refused (or TELEGRAM_API_URL is not a Bot API server)"
            ) from None
        raise
    try:
        yield application
    finally:
        await application.shutdown()


@asynccontextmanager
async def running_telegram(
    settings: Settings,
    conversations: Conversations,
    messengers: MutableMapping[str, Messenger],
    stop: asyncio.Event | None = None,
    shared: SharedPace | None = None,
) -> AsyncIterator[TelegramRuntime]:
    """Start the bot for the block (``go_live`` lets updates in); its messenger serves delivery."""
    settings.require("telegram_bot_token")
    assert settings.telegram_bot_token is not None
    webhook = _webhook(settings)
    application = build_application(
        token=settings.telegram_bot_token.get_secret_value(),
        api_url=settings.telegram_api_url,
        conversations=conversations,
        polling=webhook is None,
        shared=shared,
    )
    stop = stop or asyncio.Event()
    async with _initialized(application, settings.telegram_api_url, stop):
        messenger = application.bot_data.messenger
        assert messenger is not None
        messengers[PLATFORM] = messenger
        # The command menu is nice to have: a Bot API failing it never stops the bot.
        menu = await best_effort("setMyCommands", lambda: publish_commands(application.bot))
        await application.start()
        routes = []
        if webhook is not None:
            _, path, secret = webhook
            routes.append(webhook_route(application, path=path, secret=secret))
        try:
            yield TelegramRuntime(application, webhook, routes, settings.telegram_api_url, stop)
        finally:
            if menu is not None:
                menu.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await menu
            if application.updater is not None and application.updater.running:
                await application.updater.stop()
            await application.stop()
            messengers.pop(PLATFORM, None)
