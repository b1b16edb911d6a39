"""The time source the core asks, so tests and the sandbox can move it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

__all__ = ["Clock", "system_clock"]

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    """The current time, timezone-aware in UTC."""
    return datetime.now(UTC)
