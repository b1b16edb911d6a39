"""A loopback port nobody listens on, for the servers a test or a benchmark starts."""

from __future__ import annotations

import socket

__all__ = ["free_port"]


def free_port() -> int:
    """A port free on 127.0.0.1 now (the OS picks it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port
