"""The sandbox's clock: the wall clock plus an offset that tests move forward."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

__all__ = ["DEMO_SPEED", "SandboxClock"]

# Short articles then take 2-5 seconds instead of 1-2 minutes.
DEMO_SPEED = 24.0


class SandboxClock:
    """Wall-clock time shifted by everything passed to `advance`."""

    def __init__(self) -> None:
        self._offset = timedelta()

    def now(self) -> datetime:
        """The current sandbox time, timezone-aware UTC."""
        return datetime.now(UTC) + self._offset

    def advance(self, seconds: float) -> None:
        """Jump forward, so tokens expire and jobs progress without waiting."""
        if seconds < 0:
            raise ValueError("the sandbox clock only moves forward")
        self._offset += timedelta(seconds=seconds)
