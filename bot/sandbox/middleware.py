"""ASGI middleware: the request log, and the injected failures and latency."""

from __future__ import annotations

import asyncio
from http import HTTPStatus
from urllib.parse import quote

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from bot.sandbox.errors import error_response
from bot.sandbox.faults import Faults

__all__ = ["FaultMiddleware", "RequestLogMiddleware"]


class RequestLogMiddleware:
    """Appends (method, path exactly as sent, still percent-encoded) for every request."""

    def __init__(self, app: ASGIApp, log: list[tuple[str, str]]) -> None:
        self.app = app
        self.log = log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            raw = scope.get("raw_path")
            path = raw.decode("latin-1") if raw else quote(scope["path"])
            self.log.append((scope["method"], path))
        await self.app(scope, receive, send)


class FaultMiddleware:
    """Fails queued requests before they take effect, delays the others after."""

    def __init__(self, app: ASGIApp, faults: Faults) -> None:
        self.app = app
        self.faults = faults

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = self.faults.take_failure()
        if status is not None:
            phrase = HTTPStatus(status).phrase
            response = error_response(status, phrase, "Sandbox tarafından üretilen hata.")
            if status == HTTPStatus.TOO_MANY_REQUESTS:
                response.headers["Retry-After"] = "1"
            await response(scope, receive, send)
            return

        latency = self.faults.latency_of(scope["method"], scope["path"])

        async def send_late(message: Message) -> None:
            # The operation has already taken effect when its answer starts.
            if message["type"] == "http.response.start" and latency > 0:
                await asyncio.sleep(latency)
            await send(message)

        await self.app(scope, receive, send_late)
