"""The one HTTP app of a process: health, and whatever routes the chat adapters need."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Generator

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

__all__ = ["ALL_INTERFACES", "HEALTH_PATH", "serving_http", "web_app"]

HEALTH_PATH = "/health"
# Webhooks and Slack reach the process through the host's router, on any interface.
ALL_INTERFACES = "0.0.0.0"  # noqa: S104


async def _health(request: Request) -> JSONResponse:
    return JSONResponse({"status": "ok"})


def web_app(routes: list[BaseRoute]) -> Starlette:
    """The app serving ``/health`` and the adapters' routes."""
    return Starlette(routes=[Route(HEALTH_PATH, _health, methods=["GET"]), *routes])


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
