"""A TCP relay on loopback in front of a server, that a test can cut: the server seems down."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Relay", "relaying"]

_CHUNK = 65536


@dataclass
class Relay:
    """Forwards connections from its own port to the target until ``cut``."""

    target: tuple[str, int]
    port: int = 0
    _server: asyncio.Server | None = None
    _writers: set[asyncio.StreamWriter] = field(default_factory=set)
    _forwarding: set[asyncio.Task[Any]] = field(default_factory=set)

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._forward, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        """Refuse new connections and drop the open ones, as a stopped server does."""
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        for writer in list(self._writers):
            writer.close()
        # Each forwarding ends once its sockets are closed; none is left for the loop to cancel.
        await asyncio.gather(*self._forwarding, return_exceptions=True)

    async def _forward(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._forwarding.add(task)
        task.add_done_callback(self._forwarding.discard)
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self._writers |= {writer, upstream_writer}
        await asyncio.gather(
            _pipe(reader, upstream_writer), _pipe(upstream_reader, writer), return_exceptions=True
        )
        self._writers -= {writer, upstream_writer}


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while chunk := await reader.read(_CHUNK):
            writer.write(chunk)
            await writer.drain()
    finally:
        writer.close()


@contextlib.asynccontextmanager
async def relaying(host: str, port: int) -> AsyncIterator[Relay]:
    """A relay to ``host:port`` for the block."""
    relay = Relay((host, port))
    await relay.start()
    try:
        yield relay
    finally:
        await relay.cut()
