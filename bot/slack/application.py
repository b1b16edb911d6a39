"""Builds Bolt's AsyncApp: our Web API URL, the rate-limit retries, the deps and the listeners."""

from __future__ import annotations

from slack_bolt.async_app import AsyncApp
from slack_sdk.http_retry.builtin_async_handlers import AsyncRateLimitErrorRetryHandler

from bot.core.conversation import Conversations
from bot.slack.context import SlackDeps, providing
from bot.slack.counting import CountingRetryHandler
from bot.slack.listeners import register_listeners
from bot.slack.messenger import SlackMessenger
from bot.slack.texts import slack_texts
from bot.slack.verification import QuietRequestVerification

__all__ = ["APP_NAME", "RATE_LIMIT_RETRIES", "build_app"]

APP_NAME = "makale-bot"
# A 429 is waited out (Retry-After), never dropped; Slack allows about one post a second a channel.
RATE_LIMIT_RETRIES = 5


def build_app(
    *,
    token: str,
    signing_secret: str,
    api_url: str,
    conversations: Conversations,
    language: str,
) -> tuple[AsyncApp, SlackMessenger]:
    """The app with every listener, and the messenger that shares its Web API client."""
    app = AsyncApp(
        name=APP_NAME,
        token=token,
        signing_secret=signing_secret,
        # The same check, in the same place (before authorization), without logging bodies.
        request_verification_enabled=False,
        before_authorize=QuietRequestVerification(signing_secret),
    )
    # Bolt builds its client from the token (handing it one makes Bolt warn when the token
    # is also in the environment); it only has to be pointed at SLACK_API_URL.
    client = app.client
    client.base_url = api_url if api_url.endswith("/") else f"{api_url}/"
    # The counter sees every answer first; it never retries, so the others still decide.
    client.retry_handlers.insert(0, CountingRetryHandler())
    client.retry_handlers.append(
        AsyncRateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES)
    )
    messenger = SlackMessenger(client, slack_texts(language))
    app.use(providing(SlackDeps(conversations, messenger, language)))
    register_listeners(app)
    return app, messenger
