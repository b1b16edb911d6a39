"""What comes before Bolt on ``/slack/events``: a body cap, then Slack's signature.

Bolt reads a request's whole body and parses it before it checks the signature, so anyone
could make the process hold hundreds of megabytes, or parse JSON nested deep enough to
raise ``RecursionError``. Here a body is read up to a cap (its ``Content-Length`` first,
then the bytes as they come, chunked or not), and only a signed one reaches Bolt.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import time
from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Message

from bot.bodies import MAX_BODY_BYTES, capped_body

__all__ = ["guarded", "signed"]

log = logging.getLogger(__name__)
_TOO_LARGE, _UNSIGNED = 413, 401
_LEEWAY_SECONDS = 5 * 60

Handler = Callable[[Request], Awaitable[Response]]


def _replaying(request: Request, body: bytes) -> Request:
    """The request again, its body already read, for a handler that reads it once more."""

    async def receive() -> Message:
        return {"type": "http.request", "body": body, "more_body": False}

    return Request(request.scope, receive)


def signed(body: bytes, timestamp: str, signature: str, secret: bytes, now: float) -> bool:
    """Whether Slack signed these bytes lately (v0, HMAC-SHA256, five minutes' leeway).

    Over the bytes as they came: slack_sdk's verifier decodes them first, and raises on
    bytes that are no UTF-8.
    """
    if not timestamp.isdigit() or abs(now - int(timestamp)) > _LEEWAY_SECONDS:
        return False
    base = b"v0:" + timestamp.encode() + b":" + body
    expected = "v0=" + hmac.new(secret, base, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected.encode(), signature.encode())


def guarded(handler: Handler, signing_secret: str) -> Handler:
    """``handler`` behind the cap (413) and the signature check (401)."""
    secret = signing_secret.encode()

    async def receive(request: Request) -> Response:
        body = await capped_body(request, MAX_BODY_BYTES)
        if body is None:
            return Response(status_code=_TOO_LARGE)
        headers = request.headers
        timestamp = headers.get("x-slack-request-timestamp", "")
        signature = headers.get("x-slack-signature", "")
        if not signed(body, timestamp, signature, secret, time.time()):
            # Never the body: a login form with a stale timestamp would hold a password.
            log.warning(
                "refused a request without a valid Slack signature (timestamp %s)", timestamp
            )
            return Response(status_code=_UNSIGNED)
        return await handler(_replaying(request, body))

    return receive
