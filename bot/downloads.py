"""Fetching a file people sent without ever holding more of it than a limit and one byte."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import httpx

from bot.http_clients import http_client

__all__ = ["Download", "download_capped"]

_TIMEOUT = httpx.Timeout(10.0)
_IDENTITY = {"Accept-Encoding": "identity"}


@dataclass(frozen=True, slots=True)
class Download:
    """What a download brought: its status, its type, and its bytes (None: over the limit)."""

    status: int
    content_type: str
    content: bytes | None


async def download_capped(
    url: str, *, limit: int, headers: Mapping[str, str] | None = None
) -> Download:
    """GET ``url``, streamed: refused by its ``Content-Length`` or at byte ``limit + 1``."""
    async with (
        http_client(timeout=_TIMEOUT, follow_redirects=False) as http,
        # Raw bytes, asked for uncompressed: a small gzip must not unpack into gigabytes.
        http.stream("GET", url, headers={**(headers or {}), **_IDENTITY}) as answer,
    ):
        kind = answer.headers.get("content-type", "")
        announced = answer.headers.get("content-length", "")
        if announced.isdigit() and int(announced) > limit:
            return Download(answer.status_code, kind, None)
        body = bytearray()
        async for chunk in answer.aiter_raw():
            body += chunk
            if len(body) > limit:
                return Download(answer.status_code, kind, None)
        return Download(answer.status_code, kind, bytes(body))
