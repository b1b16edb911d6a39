"""The time source the core asks, so tests and the sandbox can move it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

__all__ = ["DEFAULT_ZONE", "Clock", "system_clock"]

Clock = Callable[[], datetime]
# Where the bot's users are, unless BOT_TIMEZONE says otherwise: their dates and months.
DEFAULT_ZONE = ZoneInfo("Europe/Istanbul")


def system_clock() -> datetime:
    """The current time, timezone-aware in UTC."""
    return datetime.now(UTC)
