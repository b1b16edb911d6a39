"""The one HTTP app of a process: health, metrics, and whatever routes the chat adapters need."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import math
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Generator
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from bot import metrics

__all__ = ["ALL_INTERFACES", "HEALTH_PATH", "METRICS_PATH", "Health", "serving_http", "web_app"]

HEALTH_PATH = "/health"
METRICS_PATH = "/metrics"
# Webhooks and Slack reach the process through the host's router, on any interface.
ALL_INTERFACES = "0.0.0.0"  # noqa: S104


# Whether the process is healthy, and the JSON body that says why.
Health = Callable[[], Awaitable[tuple[bool, dict[str, Any]]]]
_UNAVAILABLE = 503
_NOT_FOUND, _UNAUTHORIZED = 404, 401
# How long the gauges read from the database (the backlog) serve scrapes before a recount.
SCRAPE_REFRESH_SECONDS = 5.0


def _bearer_is(request: Request, token: str) -> bool:
    """Whether the request carries ``token`` as its bearer token (compared in constant time)."""
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.encode(), token.encode())


def web_app(
    routes: list[BaseRoute],
    *,
    health: Health,
    before_scrape: Callable[[], Awaitable[None]],
    metrics_token: str | None = None,
) -> Starlette:
    """The app serving ``/health``, ``/metrics`` (to ``metrics_token`` alone, and to no one
    without it) and the adapters' routes."""

    async def health_route(request: Request) -> JSONResponse:
        healthy, body = await health()
        return JSONResponse(body, status_code=200 if healthy else _UNAVAILABLE)

    refreshed_at = -math.inf

    async def metrics_route(request: Request) -> Response:
        nonlocal refreshed_at
        if metrics_token is None:
            return Response(status_code=_NOT_FOUND)
        if not _bearer_is(request, metrics_token):
            return Response(status_code=_UNAUTHORIZED, headers={"WWW-Authenticate": "Bearer"})
        # Scrapes from several scrapers need not each query the database.
        if time.monotonic() - refreshed_at >= SCRAPE_REFRESH_SECONDS:
            refreshed_at = time.monotonic()
            await before_scrape()
        return Response(metrics.exposition(), media_type=metrics.CONTENT_TYPE)

    return Starlette(
        routes=[
            Route(HEALTH_PATH, health_route, methods=["GET"]),
            Route(METRICS_PATH, metrics_route, methods=["GET"]),
            *routes,
        ]
    )


class _EmbeddedServer(uvicorn.Server):
    """A uvicorn server that leaves signal handling to the program it runs in."""

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield


@contextlib.asynccontextmanager
async def serving_http(
    app: Starlette, *, port: int, host: str = ALL_INTERFACES
) -> AsyncIterator[None]:
    """Serve the app on the port for the duration of the block; it listens once the block starts."""
    # IPPROTO_TCP makes asyncio set TCP_NODELAY; without it every answer waits ~40 ms.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    # log_config=None: uvicorn's own handlers would bypass the redacting formatter.
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, lifespan="off", log_config=None
    )
    server = _EmbeddedServer(config)
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            if serving.done():
                serving.result()
            # uvicorn offers no event for this; its start takes a few milliseconds.
            await asyncio.sleep(0.01)
        yield
    finally:
        server.should_exit = True
        await serving
        sock.close()
