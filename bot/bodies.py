"""A request's body read up to a cap, before anything parses it or checks its signature.

Starlette and uvicorn have no limit of their own: a webhook that read any body whole would
let anyone make the process hold hundreds of megabytes. Slack's events and WhatsApp's
webhook both read through here.
"""

from __future__ import annotations

from starlette.requests import Request

__all__ = ["MAX_BODY_BYTES", "capped_body"]

# The platforms' payloads are a few kilobytes; a form's values stay far below this.
MAX_BODY_BYTES = 1024 * 1024


async def capped_body(request: Request, limit: int = MAX_BODY_BYTES) -> bytes | None:
    """The body, or None once it is known to be longer than ``limit`` bytes."""
    announced = request.headers.get("content-length", "")
    if announced.isdigit() and int(announced) > limit:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            return None
    return bytes(body)
