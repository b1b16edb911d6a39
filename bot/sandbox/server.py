"""Serving the sandbox with uvicorn: inside a running event loop, or on its own."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
from collections.abc import AsyncIterator, Generator
from dataclasses import dataclass
from typing import TextIO

import uvicorn

from bot.sandbox.app import DOCS_PATH, create_app
from bot.sandbox.clock import DEMO_SPEED
from bot.sandbox.state import SandboxState

__all__ = ["RunningSandbox", "running_sandbox", "serve_forever"]

_START_TIMEOUT = 10.0
_START_POLL = 0.005


@dataclass(frozen=True)
class RunningSandbox:
    """A sandbox being served: its base URL (no trailing slash) and its state."""

    url: str
    state: SandboxState


class _EmbeddedServer(uvicorn.Server):
    """A uvicorn server that leaves signal handling to the program it runs in."""

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield


@contextlib.asynccontextmanager
async def running_sandbox(
    speed: float = 1.0,
    seed: int = 0,
    failure_rate: float = 0.0,
    host: str = "127.0.0.1",
    port: int = 0,
) -> AsyncIterator[RunningSandbox]:
    """Serve a fresh sandbox in the current event loop until the block ends; port 0 picks one."""
    state = SandboxState(speed=speed, seed=seed, failure_rate=failure_rate)
    sock = _bind(host, port)
    server = _EmbeddedServer(_config(state))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        await _until_started(server, task)
        yield RunningSandbox(_url(sock), state)
    finally:
        server.should_exit = True
        await task
        sock.close()


async def serve_forever(
    host: str = "127.0.0.1",
    port: int = 8081,
    speed: float = DEMO_SPEED,
    seed: int = 0,
    failure_rate: float = 0.0,
    out: TextIO | None = None,
) -> None:
    """Serve a sandbox until SIGINT or SIGTERM, after printing its URL and accounts to `out`."""
    state = SandboxState(speed=speed, seed=seed, failure_rate=failure_rate)
    sock = _bind(host, port)
    out = out or sys.stdout
    out.write(f"Makale sandbox: {_url(sock)} (speed x{speed:g})\n")
    out.write(f"API page: {_url(sock)}{DOCS_PATH}\nAccounts:\n")
    for account in state.accounts:
        out.write(f"  {account.email:<20} {account.password:<12} {account.balance} TL\n")
    out.flush()
    try:
        await uvicorn.Server(_config(state)).serve(sockets=[sock])
    finally:
        sock.close()


def _config(state: SandboxState) -> uvicorn.Config:
    return uvicorn.Config(
        create_app(state),
        log_level="warning",
        access_log=False,
        lifespan="off",
        timeout_graceful_shutdown=2,
    )


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP explicitly: asyncio sets TCP_NODELAY only on sockets that name it, and
    # without it every response waits ~40 ms for a delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def _url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if sock.family == socket.AF_INET6 else f"http://{host}:{port}"


async def _until_started(server: uvicorn.Server, task: asyncio.Task[None]) -> None:
    async with asyncio.timeout(_START_TIMEOUT):
        while not server.started:
            if task.done():
                task.result()
                raise RuntimeError("the sandbox server stopped while starting")
            await asyncio.sleep(_START_POLL)
