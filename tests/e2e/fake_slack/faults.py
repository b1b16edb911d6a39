"""Failures queued by tests for the next calls of a Web API method."""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass
from typing import Any

__all__ = ["Fault", "Faults"]


@dataclass(frozen=True)
class Fault:
    """An answer to give instead of the real one: an error code, an HTTP status, a Retry-After."""

    error: str
    status: int
    retry_after: int | None

    def headers(self) -> dict[str, str]:
        """The HTTP headers of the answer."""
        return {} if self.retry_after is None else {"Retry-After": str(self.retry_after)}

    def body(self) -> dict[str, Any]:
        """The JSON body of the answer."""
        return {"ok": False, "error": self.error}


class Faults:
    """Per method, the queue of failures its next calls get, oldest first."""

    def __init__(self) -> None:
        self._queued: defaultdict[str, deque[Fault]] = defaultdict(deque)

    def add(self, method: str, fault: Fault, count: int) -> None:
        """Make the next `count` calls of `method` fail with `fault`."""
        self._queued[method].extend([fault] * count)

    def take(self, method: str) -> Fault | None:
        """The failure the current call of `method` gets, if one is queued."""
        queue = self._queued.get(method)
        return queue.popleft() if queue else None
