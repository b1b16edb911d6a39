"""Switches that make the sandbox misbehave the ways the real service may."""

from __future__ import annotations

from collections import deque

__all__ = ["Faults"]


class Faults:
    """Injected failures, latency and the interface's conflicting variants."""

    def __init__(self) -> None:
        self.latency = 0.0
        # Extra seconds the answer of an order (one article or several) is held after it took
        # effect: a client that dies meanwhile has been charged without knowing it.
        self.order_latency = 0.0
        self.wrong_password_status = 401
        self.bulk_enabled = True
        # Titles refused with a 400 naming the field, as the service's content rules may.
        self.refused_titles: set[str] = set()
        # Fields the own-articles list leaves out: the interface promises none of them.
        self.hidden_article_fields: set[str] = set()
        self._pending: deque[int] = deque()

    def fail_next(self, count: int, status: int = 503) -> None:
        """Answer the next `count` requests, whatever they are, with `status`."""
        if count < 0 or not 400 <= status <= 599:
            raise ValueError("fail_next needs a count >= 0 and an error status")
        self._pending.extend([status] * count)

    def latency_of(self, method: str, path: str) -> float:
        """How long the answer of this request is held after it took effect."""
        ordering = method == "POST" and path.endswith("makale-olustur")
        return self.latency + (self.order_latency if ordering else 0.0)

    def take_failure(self) -> int | None:
        """The status the current request must fail with, if one is queued."""
        return self._pending.popleft() if self._pending else None
