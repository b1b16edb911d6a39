"""Starts and stops the Slack app: Socket Mode with an app token, else HTTP on the shared app."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, MutableMapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import aiohttp
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_bolt.adapter.starlette.async_handler import AsyncSlackRequestHandler
from slack_bolt.async_app import AsyncApp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_slack_response import AsyncSlackResponse
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.config import ConfigError, Settings
from bot.core.ports import Messenger
from bot.core.retries import retried_until_stop
from bot.core.routing.conversations import Conversations
from bot.slack.application import build_app
from bot.slack.ids import PLATFORM
from bot.slack.install import INSTALL_PATH, REDIRECT_PATH, ManyWorkspaces
from bot.slack.installations import Installations
from bot.slack.intake import guarded
from bot.slack.settings import required

__all__ = ["EVENTS_PATH", "SlackRuntime", "events_route", "running_slack"]

EVENTS_PATH = "/slack/events"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SlackRuntime:
    """The app, the HTTP routes it needs served, and how it starts taking requests."""

    app: AsyncApp
    routes: list[Route] = field(default_factory=list)
    socket_mode: AsyncSocketModeHandler | None = None
    platform: str = PLATFORM

    async def connected(self) -> bool:
        """Whether requests can come in: the Socket Mode connection is up (HTTP always is)."""
        if self.socket_mode is None:
            return True
        return await self.socket_mode.client.is_connected()

    async def go_live(self) -> None:
        """Start taking requests: connect Socket Mode, or (over HTTP) just say where they go."""
        if self.socket_mode is None:
            log.info("Slack app takes its requests at %s", EVENTS_PATH)
            if self.app.oauth_flow is not None:
                log.info("Slack app takes installs at %s", INSTALL_PATH)
            return
        # slack_bolt's Socket Mode handler is not annotated.
        await self.socket_mode.connect_async()  # type: ignore[no-untyped-call]
        log.info("Slack app takes its requests over Socket Mode")


def events_route(app: AsyncApp, signing_secret: str) -> Route:
    """``POST /slack/events``: commands, interactions and events, capped and signature-checked
    before Bolt reads them."""
    return _routes(app, signing_secret)[0]


def _routes(app: AsyncApp, signing_secret: str) -> list[Route]:
    """The events route, and with an install flow its two pages (``GET``, nothing to sign)."""
    handler = AsyncSlackRequestHandler(app)

    async def receive(request: Request) -> Response:
        try:
            return await handler.handle(request)
        except (ValueError, RecursionError):
            # Signed, yet malformed (JSON nested too deep for the parser too): never a 500.
            return Response(status_code=400)

    routes = [Route(EVENTS_PATH, guarded(receive, signing_secret), methods=["POST"])]
    if app.oauth_flow is not None:
        routes += [Route(INSTALL_PATH, receive, methods=["GET"])]
        routes += [Route(REDIRECT_PATH, receive, methods=["GET"])]
    return routes


def _many(settings: Settings, installations: Installations | None) -> ManyWorkspaces | None:
    """What serving many workspaces takes, where the settings ask for it."""
    if not settings.slack_multi_workspace:
        return None
    assert settings.slack_client_id is not None
    assert settings.slack_client_secret is not None
    assert installations is not None, "bootstrap hands the installations in"
    return ManyWorkspaces(
        client_id=settings.slack_client_id,
        client_secret=settings.slack_client_secret.get_secret_value(),
        redirect_uri=settings.slack_redirect_uri,
        allowed_teams=settings.allowed_slack_teams,
        installations=installations,
    )


async def _introduce(app: AsyncApp, api_url: str, stop: asyncio.Event) -> None:
    """Check the bot token once at start, so a wrong one fails now and not at the first post;
    while Slack cannot be reached, one line a try says so and the check waits and is tried
    again (a stop during the waits gives the start up)."""
    answers: list[AsyncSlackResponse] = []

    async def check() -> None:
        answers.append(await app.client.auth_test())

    host = urlsplit(api_url).netloc or api_url
    try:
        await retried_until_stop(
            f"auth.test to Slack at {host}",
            check,
            stop=stop,
            passing=(aiohttp.ClientError, TimeoutError),
        )
    except SlackApiError as err:
        raise ConfigError(f"SLACK_BOT_TOKEN was refused: {err.response.get('error')}") from None
    me = answers[-1]
    log.info("Slack app @%s of team %s is ready", me.get("user"), me.get("team_id"))


@asynccontextmanager
async def running_slack(
    settings: Settings,
    conversations: Conversations,
    messengers: MutableMapping[str, Messenger],
    installations: Installations | None = None,
    stop: asyncio.Event | None = None,
) -> AsyncIterator[SlackRuntime]:
    """Build the app for the block (``go_live`` lets requests in); its messenger serves delivery.

    With SLACK_CLIENT_ID (many workspaces), ``installations`` keeps what each one installed.
    """
    required(settings)
    many = _many(settings, installations)
    bot_token, app_token = settings.slack_bot_token, settings.slack_app_token
    if app_token is None:
        # Socket Mode is signed by its connection; HTTP requests must carry Slack's signature.
        settings.require("slack_signing_secret")
    secret = settings.slack_signing_secret
    signing_secret = secret.get_secret_value() if secret else ""
    app, messenger, home = build_app(
        token=bot_token.get_secret_value() if bot_token else None,
        signing_secret=signing_secret,
        api_url=settings.slack_api_url,
        conversations=conversations,
        language=settings.bot_language,
        many=many,
    )
    if many is None:
        await _introduce(app, settings.slack_api_url, stop or asyncio.Event())
    socket_mode = (
        None if app_token is None else AsyncSocketModeHandler(app, app_token.get_secret_value())
    )
    routes = _routes(app, signing_secret) if socket_mode is None else []
    messengers[PLATFORM] = messenger
    try:
        yield SlackRuntime(app, routes, socket_mode)
    finally:
        messengers.pop(PLATFORM, None)
        await home.close()
        if socket_mode is not None:
            await socket_mode.close_async()  # type: ignore[no-untyped-call]
