"""The one place that picks concrete classes and wires them; production and tests both call it."""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from functools import cache
from importlib.metadata import version
from typing import TYPE_CHECKING

import httpx
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from pydantic import SecretStr
from starlette.routing import BaseRoute

from bot.api import ArticleApi
from bot.chat_platform import ChatHost, ChatPlatform, RunningChat
from bot.config import ConfigError, Settings
from bot.core.accounts import Accounts, LoginLimits
from bot.core.accounts.catalog import Catalog
from bot.core.articles.recent import RecentArticles
from bot.core.clock import Clock, system_clock
from bot.core.delivery import Delivery
from bot.core.dialogs.login import stop_at_logout
from bot.core.dialogs.order import ArticleCheckout, BatchCheckout, Checkout, register_checkouts
from bot.core.limits.access import Gate
from bot.core.login_links import LoginLinks
from bot.core.operations.alerts import Alerts
from bot.core.operations.operations import Operations
from bot.core.plans.checkout import PlanCheckout
from bot.core.plans.logout import pause_at_logout
from bot.core.plans.posts import register_site_posts
from bot.core.plans.runner import Planner
from bot.core.platforms import Platforms
from bot.core.ports import Messenger
from bot.core.publishing.client_sites import ClientSites
from bot.core.routing.conversations import Conversations
from bot.core.scheduler import (
    schedule_destinations,
    schedule_housekeeping,
    schedule_plans,
    schedule_polling,
)
from bot.core.turn import CoreServices
from bot.core.upstream import Upstream
from bot.health import Connected, HealthCheck
from bot.http_clients import http_client
from bot.login_page import login_routes
from bot.shell.platform import TerminalPlatform
from bot.sites.wordpress import WordPress
from bot.slack.platform import SlackPlatform
from bot.telegram.platform import TelegramPlatform
from bot.token_keys import token_cipher
from bot.web import serving_http, web_app
from bot.whatsapp.platform import WhatsAppPlatform
from storage import (
    Database,
    SlackInstallations,
    TokenCipher,
    stats,
)
from storage.states import DraftKind

if TYPE_CHECKING:
    from bot.sandbox import RunningSandbox

__all__ = [
    "CHAT_PLATFORMS",
    "CHECKOUTS",
    "Bot",
    "configured_platforms",
    "platforms_named",
    "running_bot",
    "sandboxed",
    "serve_chats",
]

# Every chat platform the bot speaks; a new one is its package and a line here.
CHAT_PLATFORMS: tuple[ChatPlatform, ...] = (
    TelegramPlatform(),
    SlackPlatform(lambda host: SlackInstallations(host.db, host.cipher, host.clock)),
    WhatsAppPlatform(),
    TerminalPlatform(),
)
# Each draft kind's checkout: what its confirm screen shows and what confirming does.
CHECKOUTS: Mapping[DraftKind, Checkout] = {
    DraftKind.SINGLE: ArticleCheckout(),
    DraftKind.BULK: BatchCheckout(),
    DraftKind.PLAN: PlanCheckout(),
}
PACKAGE = "makale-bot"
# Clients' sites answer slower than the service: a host under load takes seconds for a post.
_SITE_TIMEOUT = httpx.Timeout(20.0, connect=5.0)

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Bot:
    """The running core: adapters talk to ``conversations`` and register their messenger."""

    settings: Settings
    services: CoreServices
    conversations: Conversations
    delivery: Delivery
    messengers: dict[str, Messenger]
    scheduler: AsyncIOScheduler
    operations: Operations
    db: Database
    # What encrypts stored tokens: upstream sessions, and the Slack workspaces' bot tokens.
    cipher: TokenCipher
    planner: Planner

    async def stop_delivery(self) -> None:
        """Stop the poller and let a round under way finish, while the messengers are there.

        The scheduler is paused, not shut down, until then: its shutdown cancels a round.
        """
        if self.scheduler.running:
            self.scheduler.pause()
        await self.delivery.stop(self.settings.stop_grace_seconds)
        _stop_scheduler(self.scheduler)

    def start_delivery(self) -> None:
        """Start the poller, once every messenger of this process is registered.

        Its first round reconciles orders left open at the last stop, and tells their
        users: a round before the chats are registered would have no one to tell.
        """
        self.scheduler.start()
        self.delivery.start()

    def health(self, chats: Mapping[str, Connected]) -> HealthCheck:
        """The ``/health`` check of this process, with the chats it runs."""
        return HealthCheck(
            db=self.db,
            operations=self.operations,
            clock=self.conversations.services.clock,
            poll_interval=timedelta(seconds=self.settings.poll_interval_seconds),
            delivers=lambda: bool(self.scheduler.running),
            chats=chats,
        )

    async def count_backlog(self) -> None:
        """Refresh the pending-jobs gauges before a scrape; a database that fails leaves them."""
        try:
            backlog = await self.db.run(stats.backlog)
        # The scrape must still answer; /health is what reports the database.
        except Exception as err:  # noqa: BLE001
            log.warning("metrics: could not count the pending jobs: %r", err)
            return
        self.operations.pending(backlog.count, backlog.oldest)


def login_limits(settings: Settings) -> LoginLimits:
    """The login throttle: a login under way counts until it settles or its call times out."""
    return LoginLimits(reservation=timedelta(seconds=settings.article_api_timeout_seconds))


def _stop_scheduler(scheduler: AsyncIOScheduler) -> None:
    if scheduler.running:
        scheduler.shutdown(wait=False)


@asynccontextmanager
async def running_bot(
    settings: Settings,
    *,
    clock: Clock | None = None,
    http: httpx.AsyncClient | None = None,
    owner: str | None = None,
    api: Upstream | None = None,
    db: Database | None = None,
) -> AsyncIterator[Bot]:
    """Open the database (migrated, or a test's own), the upstream client and the poller."""
    settings.require("article_api_url")
    clock = clock or system_clock
    # Unique per start: a restarted process must not take a dead one's leases for its own.
    owner = owner or f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"
    cipher = token_cipher(settings)
    async with AsyncExitStack() as stack:
        db = await _migrated(settings, db, stack)
        messengers: dict[str, Messenger] = {}
        platforms = Platforms(chat.rules(settings) for chat in CHAT_PLATFORMS)
        operations = _operations(settings, messengers, platforms, clock)
        api = api or await _article_api(settings, stack, http, operations)
        limits = login_limits(settings)
        accounts = Accounts(
            db=db, api=api, cipher=cipher, clock=clock, operations=operations, limits=limits
        )
        catalog = Catalog(api=api, accounts=accounts, clock=clock)
        delivery = _delivery(
            settings, db, api, accounts, messengers, platforms, clock, owner, operations, catalog
        )
        services = CoreServices(
            db=db,
            api=api,
            accounts=accounts,
            catalog=catalog,
            outbox=delivery.outbox,
            clock=clock,
            operations=operations,
            gate=Gate(platforms, clock=clock, default_language=settings.bot_language),
            recent_articles=RecentArticles(clock),
            default_language=settings.bot_language,
            zone=settings.zone,
            platforms=platforms,
            links=_login_links(settings, db, api, accounts, delivery, cipher, clock),
            sites=await _client_sites(db, cipher, clock, stack),
        )
        planner = Planner(services, owner)
        scheduler = _scheduler(settings, db, delivery, planner)
        _stopped_at_the_end(stack, scheduler, delivery, settings.stop_grace_seconds)
        yield Bot(
            settings,
            services,
            _conversations(services),
            delivery,
            messengers,
            scheduler,
            operations,
            db,
            cipher,
            planner,
        )


def _conversations(services: CoreServices) -> Conversations:
    """The dialogs, given the parts that packages above them bring (the plans' among them)."""
    register_checkouts(CHECKOUTS)
    stop_at_logout([pause_at_logout])
    return Conversations(services)


def _stopped_at_the_end(
    stack: AsyncExitStack, scheduler: AsyncIOScheduler, delivery: Delivery, grace: float
) -> None:
    """Stop the scheduler, then delivery (handing its leases back), when the bot stops."""
    stack.callback(_stop_scheduler, scheduler)
    stack.push_async_callback(delivery.stop, grace)


def _login_links(
    settings: Settings,
    db: Database,
    api: Upstream,
    accounts: Accounts,
    delivery: Delivery,
    cipher: TokenCipher,
    clock: Clock,
) -> LoginLinks | None:
    """The login by link, where PUBLIC_URL says where its page is reached."""
    if settings.public_url is None:
        return None
    return LoginLinks(
        db=db,
        accounts=accounts,
        api=api,
        outbox=delivery.outbox,
        cipher=cipher,
        clock=clock,
        public_url=settings.public_url,
        default_language=settings.bot_language,
    )


async def _migrated(settings: Settings, db: Database | None, stack: AsyncExitStack) -> Database:
    """``db`` as it is, else the settings' database, migrated and closed with ``stack``."""
    # A database handed in is its owner's, migrated: the dialog tests' copy of a migrated
    # template, which would otherwise cost each test Alembic's look at its scripts.
    if db is not None:
        return db
    db = Database.connect(settings.effective_database_url)
    stack.callback(db.dispose)
    await asyncio.to_thread(db.migrate)
    return db


def _operations(
    settings: Settings, messengers: dict[str, Messenger], platforms: Platforms, clock: Clock
) -> Operations:
    """What tells the operator: metrics, and alerts in the admin chat once it is registered."""
    alerts = Alerts(
        chat=platforms.admin_chat(settings.admin_chat),
        messengers=messengers,
        clock=clock,
        language=settings.bot_language,
    )
    return Operations(clock=clock, alerts=alerts, version=_version())


@cache
def _version() -> str:
    """The installed package's version; reading the metadata takes milliseconds, once."""
    return version(PACKAGE)


async def _article_api(
    settings: Settings,
    stack: AsyncExitStack,
    http: httpx.AsyncClient | None,
    operations: Operations,
) -> ArticleApi:
    """The article service's client, on ``http`` or on an HTTP client closed with ``stack``;
    each call is reported to the operator's metrics."""
    assert settings.article_api_url is not None
    if http is None:
        timeout = httpx.Timeout(settings.article_api_timeout_seconds, connect=5.0)
        http = await stack.enter_async_context(http_client(timeout=timeout))
    return ArticleApi(
        http,
        base_url=settings.article_api_url,
        bulk_path=settings.article_api_bulk_path,
        topic_field=settings.article_api_topic_field,
        observer=operations.upstream_called,
    )


async def _client_sites(
    db: Database, cipher: TokenCipher, clock: Clock, stack: AsyncExitStack
) -> ClientSites:
    """Clients' WordPress sites, on an HTTP client of their own closed with ``stack``."""
    http = await stack.enter_async_context(http_client(timeout=_SITE_TIMEOUT))
    return ClientSites(db=db, cipher=cipher, publisher=WordPress(http), clock=clock)


def _delivery(
    settings: Settings,
    db: Database,
    api: Upstream,
    accounts: Accounts,
    messengers: dict[str, Messenger],
    platforms: Platforms,
    clock: Clock,
    owner: str,
    operations: Operations,
    catalog: Catalog,
) -> Delivery:
    """The poller and the sender, with the settings' intervals and limits."""
    return Delivery(
        db=db,
        api=api,
        accounts=accounts,
        messengers=messengers,
        platforms=platforms,
        clock=clock,
        owner=owner,
        poll_interval=timedelta(seconds=settings.poll_interval_seconds),
        lease_for=timedelta(seconds=settings.delivery_lease_seconds),
        job_timeout=timedelta(hours=settings.job_timeout_hours),
        default_language=settings.bot_language,
        create_timeout=timedelta(seconds=settings.article_api_timeout_seconds),
        reconcile_grace=timedelta(seconds=settings.reconcile_grace_seconds),
        operations=operations,
        sizes=catalog.known_sizes,
    )


def _scheduler(
    settings: Settings, db: Database, delivery: Delivery, planner: Planner
) -> AsyncIOScheduler:
    """The scheduler with its jobs: the delivery rounds and the destinations' (with the kinds
    they deliver to), housekeeping and the calendar's tick."""
    every = timedelta(seconds=settings.poll_interval_seconds)
    scheduler = AsyncIOScheduler()
    schedule_polling(scheduler, delivery, every)
    register_site_posts(delivery.destinations, planner.services)
    schedule_destinations(scheduler, delivery.destinations, every)
    schedule_housekeeping(scheduler, db, planner.services.clock)
    schedule_plans(scheduler, planner, every)
    return scheduler


@asynccontextmanager
async def sandboxed(
    settings: Settings, *, speed: float
) -> AsyncIterator[tuple[Settings, RunningSandbox]]:
    """Serve the built-in sandbox in this process and point the settings at it.

    The sandbox keeps its world in memory, so its default database starts
    empty each run too: orders of an earlier sandbox would wait forever.
    """
    # Imported here, as the platforms are in _start_chats: the core alone, which the
    # dialog tests start by the hundred, needs none of their libraries.
    from bot.sandbox import running_sandbox

    async with running_sandbox(speed=speed) as sandbox:
        overrides: dict[str, object] = {
            "article_api_url": sandbox.url,
            # The demo's articles take seconds, so their delivery should not wait for minutes.
            "poll_interval_seconds": min(settings.poll_interval_seconds, 1.0),
        }
        if settings.database_url is None:
            database = settings.data_dir / "sandbox.db"
            for stale in database.parent.glob(f"{database.name}*"):
                stale.unlink()
            # model_copy does not validate, so the value goes in as the field's type.
            overrides["database_url"] = SecretStr(f"sqlite:///{database}")
        yield settings.model_copy(update=overrides), sandbox


def configured_platforms(settings: Settings) -> tuple[ChatPlatform, ...]:
    """The chat platforms the settings set up, which ``run`` starts."""
    return tuple(chat for chat in CHAT_PLATFORMS if chat.configured(settings))


def platforms_named(*names: str) -> tuple[ChatPlatform, ...]:
    """The chat platforms of these names."""
    by_name = {chat.name: chat for chat in CHAT_PLATFORMS}
    return tuple(by_name[name] for name in names)


async def serve_chats(
    settings: Settings,
    chats: Sequence[ChatPlatform],
    stop: asyncio.Event,
    *,
    clock: Clock | None = None,
) -> None:
    """Run the core and these chat platforms in this process until ``stop`` is set; ``clock``
    is the core's time (tests move it)."""
    if not chats:
        raise ConfigError(
            "no chat platform is configured: set TELEGRAM_BOT_TOKEN (or SLACK_BOT_TOKEN, "
            "WHATSAPP_ACCESS_TOKEN), "
            "or try `python -m bot shell --sandbox`"
        )
    settings.require("article_api_url")
    for chat in chats:
        chat.require(settings)
    async with running_bot(settings, clock=clock) as bot, AsyncExitStack() as adapters:
        host = ChatHost(
            settings,
            bot.conversations,
            bot.messengers,
            bot.services.clock,
            stop,
            bot.db,
            bot.cipher,
        )
        running = {
            chat.name: await adapters.enter_async_context(chat.running(host)) for chat in chats
        }
        service = any(chat.service for chat in chats)
        await _serve_http(bot, running, adapters, service)
        # Only now that the routes are served may the platforms send updates.
        for started in running.values():
            await started.go_live()
        bot.start_delivery()
        if service:
            await bot.operations.started()
        await stop.wait()
        await bot.stop_delivery()


async def _serve_http(
    bot: Bot, running: Mapping[str, RunningChat], stack: AsyncExitStack, service: bool
) -> None:
    """Serve the chats' routes on ``$PORT`` (the login page too, where a chat logs in by
    link), and ``/health`` too where a service asks for it."""
    routes: list[BaseRoute] = [route for chat in running.values() for route in chat.routes]
    links, platforms = bot.services.links, bot.services.platforms
    if links is not None and not all(platforms[name].login_in_chat for name in running):
        https = (bot.settings.public_url or "").startswith("https:")
        routes += login_routes(links, secure_cookie=https)
    if not routes and not (service and bot.settings.port_set):
        return
    token = bot.settings.metrics_token
    app = web_app(
        routes,
        health=bot.health({name: chat.connected for name, chat in running.items()}),
        before_scrape=bot.count_backlog,
        metrics_token=token.get_secret_value() if token else None,
    )
    await stack.enter_async_context(serving_http(app, port=bot.settings.port))
