"""The bot's HTTP clients, which share one TLS context."""

from __future__ import annotations

import ssl
from functools import cache
from typing import Any

import httpx

__all__ = ["http_client"]


@cache
def _tls() -> ssl.SSLContext:
    # A client built without a context loads certifi's whole bundle of CAs again: tens of
    # milliseconds of CPU for each, where a bot builds several and a download one more.
    return httpx.create_ssl_context()


def http_client(**options: Any) -> httpx.AsyncClient:
    """An ``httpx.AsyncClient`` with ``options``, verifying TLS with the process's context."""
    return httpx.AsyncClient(verify=_tls(), **options)
