"""Slack's Socket Mode: ``apps.connections.open`` hands out a ``ws://`` URL on loopback, requests
go out over it as envelopes, and the app's acks (with any response payload) come back on it.

Served with aiohttp's websocket server, on a port of its own beside the Web API.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import AsyncIterator, Mapping
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import WSMsgType, web

from tests.e2e.fake_slack.errors import SlackError
from tests.e2e.fake_slack.ids import APP_ID, Ids

__all__ = ["SocketMode"]

_ACK_TIMEOUT = 10.0
# Envelope types by what the request would have been over HTTP.
_EVENTS, _INTERACTIVE, _COMMANDS = "events_api", "interactive", "slash_commands"


class SocketMode:
    """One app's Socket Mode link: at most one connection at a time, as the app opens it."""

    def __init__(self, ids: Ids, app_token: str, changed: asyncio.Condition) -> None:
        self._ids = ids
        self._app_token = app_token
        self._changed = changed
        self._tickets: set[str] = set()
        self._socket: web.WebSocketResponse | None = None
        self._acks: dict[str, asyncio.Future[dict[str, Any] | None]] = {}
        self._base = ""
        self.connections = 0

    @contextlib.asynccontextmanager
    async def serving(self) -> AsyncIterator[None]:
        """Listen for the app's websocket on a free port of 127.0.0.1 for the block."""
        app = web.Application()
        app.router.add_get("/link", self._link)
        runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=0.1)
        await runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        host, port = sock.getsockname()
        await web.SockSite(runner, sock).start()
        self._base = f"ws://{host}:{port}/link"
        try:
            yield
        finally:
            await self.drop()
            await runner.cleanup()
            sock.close()

    def open(self, token: str | None) -> dict[str, Any]:
        """``apps.connections.open``: a one-time URL for the app-level token, as Slack's."""
        if not token:
            raise SlackError("not_authed")
        if token != self._app_token:
            raise SlackError("invalid_auth")
        ticket = self._ids.secret()
        self._tickets.add(ticket)
        return {"url": f"{self._base}?ticket={ticket}"}

    @property
    def connected(self) -> bool:
        """Whether the app holds an open connection."""
        return self._socket is not None and not self._socket.closed

    async def drop(self) -> None:
        """Close the connection from Slack's side, as Slack does now and then."""
        if self._socket is not None:
            await self._socket.close()

    async def deliver(self, body: bytes, headers: Mapping[str, str]) -> dict[str, Any] | None:
        """Send what would have been the HTTP request as an envelope; the ack's payload."""
        kind, payload = _envelope_of(body, headers)
        envelope_id = self._ids.secret()
        acked = asyncio.get_running_loop().create_future()
        self._acks[envelope_id] = acked
        socket = self._socket
        assert socket is not None, "the app never connected"
        assert not socket.closed, "the app's connection is closed"
        envelope = {
            "envelope_id": envelope_id,
            "type": kind,
            "payload": payload,
            "accepts_response_payload": kind != _EVENTS,
            "retry_attempt": 0,
            "retry_reason": "",
        }
        await socket.send_str(json.dumps(envelope))
        try:
            async with asyncio.timeout(_ACK_TIMEOUT):
                return await acked
        finally:
            self._acks.pop(envelope_id, None)

    async def _link(self, request: web.Request) -> web.WebSocketResponse:
        ticket = request.query.get("ticket", "")
        if ticket not in self._tickets:
            raise web.HTTPUnauthorized
        self._tickets.discard(ticket)
        socket = web.WebSocketResponse(autoping=True)
        await socket.prepare(request)
        self._socket = socket
        self.connections += 1
        await socket.send_json(
            {
                "type": "hello",
                "num_connections": 1,
                "debug_info": {"host": "fake-slack", "approximate_connection_time": 3600},
                "connection_info": {"app_id": APP_ID},
            }
        )
        await self._notify()
        async for message in socket:
            if message.type == WSMsgType.TEXT:
                self._acknowledged(json.loads(message.data))
                await self._notify()
        await self._notify()
        return socket

    def _acknowledged(self, ack: dict[str, Any]) -> None:
        waiting = self._acks.get(str(ack.get("envelope_id")))
        if waiting is not None and not waiting.done():
            waiting.set_result(ack.get("payload") or None)

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()


def _envelope_of(body: bytes, headers: Mapping[str, str]) -> tuple[str, dict[str, Any]]:
    """The envelope type and payload of a request built for ``/slack/events``."""
    if headers.get("Content-Type", "").startswith("application/json"):
        return _EVENTS, json.loads(body)
    fields = dict(parse_qsl(body.decode(), keep_blank_values=True))
    if "payload" in fields:
        return _INTERACTIVE, json.loads(fields["payload"])
    return _COMMANDS, fields
