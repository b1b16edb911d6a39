"""Builds Bolt's AsyncApp: our Web API URL, the rate-limit retries, the deps and the listeners."""

from __future__ import annotations

from slack_bolt.async_app import AsyncApp
from slack_sdk.http_retry.builtin_async_handlers import AsyncRateLimitErrorRetryHandler
from slack_sdk.web.async_client import AsyncWebClient

from bot.core.routing.conversations import Conversations
from bot.slack.context import SlackDeps, providing
from bot.slack.counting import CountingRetryHandler
from bot.slack.home import HomeTab
from bot.slack.install import InstallFlow, ManyWorkspaces
from bot.slack.installations import token_lookup
from bot.slack.listeners import register_listeners
from bot.slack.messenger import SlackMessenger
from bot.slack.texts import slack_texts
from bot.slack.verification import QuietRequestVerification

__all__ = ["APP_NAME", "RATE_LIMIT_RETRIES", "build_app"]

APP_NAME = "makale-bot"
# A 429 is waited out (Retry-After), never dropped; Slack allows about one post a second a channel.
RATE_LIMIT_RETRIES = 5


def _point(client: AsyncWebClient, api_url: str) -> AsyncWebClient:
    """Point the client at SLACK_API_URL, counting every answer and waiting out 429s."""
    client.base_url = api_url if api_url.endswith("/") else f"{api_url}/"
    # The counter sees every answer first; it never retries, so the others still decide.
    client.retry_handlers.insert(0, CountingRetryHandler())
    client.retry_handlers.append(
        AsyncRateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES)
    )
    return client


def _many_workspaces_app(
    many: ManyWorkspaces, signing_secret: str, api_url: str, language: str
) -> AsyncApp:
    # One client for Bolt, the install flow (oauth.v2.access, apps.uninstall) and delivery;
    # each request's and each delivery's token is its workspace's.
    client = _point(AsyncWebClient(), api_url)
    flow = InstallFlow(client=client, many=many)
    return AsyncApp(
        name=APP_NAME,
        client=client,
        signing_secret=signing_secret,
        request_verification_enabled=False,
        before_authorize=QuietRequestVerification(signing_secret),
        # Both, so that Bolt never builds default settings (files in $HOME) from the environment.
        oauth_flow=flow,
        oauth_settings=flow.settings,
        installation_store_bot_only=True,
        user_facing_authorize_error_message=slack_texts(language).not_installed,
    )


def build_app(
    *,
    token: str | None,
    signing_secret: str,
    api_url: str,
    conversations: Conversations,
    language: str,
    many: ManyWorkspaces | None = None,
) -> tuple[AsyncApp, SlackMessenger, HomeTab]:
    """The app with every listener, the messenger that shares its Web API client, and the
    Home tab (to be closed with the app).

    With ``many``, the app serves every workspace that installed it; else the one of ``token``.
    """
    if many is not None:
        app = _many_workspaces_app(many, signing_secret, api_url, language)
        messenger = SlackMessenger(
            app.client, slack_texts(language), token_lookup(many.installations)
        )
    else:
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
        messenger = SlackMessenger(_point(app.client, api_url), slack_texts(language))
    installations = many.installations if many is not None else None
    home = HomeTab(conversations, messenger)
    messenger.file_sent = home.refresh
    app.use(providing(SlackDeps(conversations, messenger, language, home, installations)))
    register_listeners(app)
    return app, messenger, home
