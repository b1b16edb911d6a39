"""The upstream as the core sees it: a port that ``bot.api.ArticleApi`` implements.

The dialogs and the poller depend on this protocol, not on the HTTP client, so tests can
hand them a fake that records what was asked and answers what the test scripted.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Protocol

from bot.api import Article, CreatedJob, Size, TokenPair, Tone, Topic

__all__ = ["Upstream"]


class Upstream(Protocol):
    """The article service's operations; each failure raises an ``ArticleApiError``."""

    @property
    def base_url(self) -> str:
        """The service's address, which stored sessions are bound to."""

    async def login(self, email: str, password: str) -> TokenPair:
        """A token pair for e-mail and password."""

    async def refresh(self, refresh_token: str) -> TokenPair:
        """A new token pair."""

    async def balance(self, token: str) -> Decimal:
        """The current balance in TL."""

    async def tones(self, token: str) -> list[Tone]:
        """The writing tones the service lists."""

    async def sizes(self, token: str) -> list[Size]:
        """The article sizes the service lists."""

    async def create(self, token: str, *, title: str, tone: int, size: int) -> CreatedJob:
        """Order one article; charged, never re-sent."""

    async def articles(
        self,
        token: str,
        *,
        request_id: str | None = None,
        page_size: int | None = None,
        status_id: int | None = None,
    ) -> list[Article]:
        """The caller's own articles, newest first, optionally filtered."""

    async def add_topic(self, token: str, topic: str) -> Topic:
        """Add a topic to the caller's account."""

    async def bulk_create(
        self, token: str, items: Sequence[tuple[str, int, int]]
    ) -> list[CreatedJob]:
        """Order several articles (title, tone, size) at once; charged, never re-sent."""
