"""A recording fake of the upstream port: it keeps what was asked and answers what a test says.

Each operation answers, in this order, with the next answer a test scripted for it (an
exception is raised), with ``fallback`` (say, the real client against the sandbox) when one
is given, or from a small world of its own: one account, its balance, the interface's
tones and sizes, and orders that finish when the test says so.
"""

from __future__ import annotations

import itertools
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any, TypeVar, cast

from bot.api import (
    DEFAULT_SIZES,
    DEFAULT_TONES,
    Article,
    ArticleStatus,
    CreatedJob,
    InsufficientBalance,
    LoginRejected,
    Size,
    TokenPair,
    TokenRejected,
    Tone,
    Topic,
)
from bot.core.upstream import Upstream

__all__ = ["EMAIL", "PASSWORD", "Asked", "FakeUpstream"]

T = TypeVar("T")

EMAIL = "yazar@example.com"
PASSWORD = "Gizli12345"


@dataclass(frozen=True, slots=True)
class Asked:
    """One call the fake received."""

    operation: str
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)


class FakeUpstream(Upstream):
    """See the module docstring."""

    def __init__(
        self, fallback: Upstream | None = None, *, balance: Decimal = Decimal("100.00")
    ) -> None:
        self.asked: list[Asked] = []
        self.balance_left = balance
        self.orders: list[Article] = []
        self._fallback = fallback
        self._script: defaultdict[str, deque[object]] = defaultdict(deque)
        self._tokens = itertools.count(1)

    def script(self, operation: str, *answers: object) -> None:
        """Answer the next calls of ``operation`` with these, in order (exceptions are raised)."""
        self._script[operation].extend(answers)

    def of(self, operation: str) -> list[Asked]:
        """The calls of one operation, in order."""
        return [asked for asked in self.asked if asked.operation == operation]

    def finish(self, request_id: str, content: str) -> None:
        """Let one of the fake's own orders finish with ``content``."""
        self.orders = [
            Article(order.request_id, ArticleStatus.FINISHED, order.title, 100, content)
            if order.request_id == request_id
            else order
            for order in self.orders
        ]

    @property
    def base_url(self) -> str:
        """The fallback's address, or the fake's own."""
        return self._fallback.base_url if self._fallback else "http://upstream.test"

    async def login(self, email: str, password: str) -> TokenPair:
        """A fresh token pair for the one account."""
        return await self._answer("login", self._login, email, password)

    async def refresh(self, refresh_token: str) -> TokenPair:
        """A fresh token pair for any refresh token the fake gave out."""
        return await self._answer("refresh", self._refresh, refresh_token)

    async def balance(self, token: str) -> Decimal:
        """What is left of the balance."""
        return await self._answer("balance", self._balance, token)

    async def tones(self, token: str) -> list[Tone]:
        """The interface's tones."""
        return await self._answer("tones", self._tones, token)

    async def sizes(self, token: str) -> list[Size]:
        """The interface's sizes."""
        return await self._answer("sizes", self._sizes, token)

    async def create(self, token: str, *, title: str, tone: int, size: int) -> CreatedJob:
        """Charge and start one order."""
        return await self._answer("create", self._create, token, title=title, tone=tone, size=size)

    async def articles(
        self,
        token: str,
        *,
        request_id: str | None = None,
        page_size: int | None = None,
        status_id: int | None = None,
    ) -> list[Article]:
        """The orders, newest first."""
        return await self._answer(
            "articles",
            self._articles,
            token,
            request_id=request_id,
            page_size=page_size,
            status_id=status_id,
        )

    async def add_topic(self, token: str, topic: str) -> Topic:
        """Accept any topic."""
        return await self._answer("add_topic", self._add_topic, token, topic)

    async def bulk_create(
        self, token: str, items: Sequence[tuple[str, int, int]]
    ) -> list[CreatedJob]:
        """Charge and start several orders at once."""
        return await self._answer("bulk_create", self._bulk_create, token, items)

    async def _answer(
        self, operation: str, own: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any
    ) -> T:
        self.asked.append(Asked(operation, args, kwargs))
        script = self._script[operation]
        if script:
            answer = script.popleft()
            if isinstance(answer, BaseException):
                raise answer
            return cast(T, answer)
        if self._fallback is not None:
            method: Callable[..., Awaitable[T]] = getattr(self._fallback, operation)
            return await method(*args, **kwargs)
        return await own(*args, **kwargs)

    # The fake's own world.

    async def _login(self, email: str, password: str) -> TokenPair:
        if (email, password) != (EMAIL, PASSWORD):
            raise LoginRejected("login: 401 invalid credentials")
        return self._pair()

    async def _refresh(self, refresh_token: str) -> TokenPair:
        if not refresh_token.startswith("refresh-"):
            raise TokenRejected("refresh: 401")
        return self._pair()

    async def _balance(self, token: str) -> Decimal:
        return self.balance_left

    async def _tones(self, token: str) -> list[Tone]:
        return list(DEFAULT_TONES)

    async def _sizes(self, token: str) -> list[Size]:
        return list(DEFAULT_SIZES)

    async def _create(self, token: str, *, title: str, tone: int, size: int) -> CreatedJob:
        (created,) = await self._bulk_create(token, [(title, tone, size)])
        return created

    async def _articles(self, token: str, **filters: Any) -> list[Article]:
        wanted = filters.get("request_id")
        newest_first = list(reversed(self.orders))
        return [order for order in newest_first if wanted in (None, order.request_id)]

    async def _add_topic(self, token: str, topic: str) -> Topic:
        return Topic("1", topic)

    async def _bulk_create(
        self, token: str, items: Sequence[tuple[str, int, int]]
    ) -> list[CreatedJob]:
        costs = [DEFAULT_SIZES[size - 1].cost or Decimal(0) for _, _, size in items]
        if sum(costs) > self.balance_left:
            raise InsufficientBalance(
                "create: 403", required=Decimal(sum(costs)), current=self.balance_left
            )
        self.balance_left -= Decimal(sum(costs))
        created = []
        for (title, _, _), cost in zip(items, costs, strict=True):
            request_id = f"job-{len(self.orders) + 1}"
            self.orders.append(
                Article(request_id, ArticleStatus.PENDING, title, 0, created_at=datetime.now(UTC))
            )
            created.append(CreatedJob(request_id, "5 saniye", cost))
        return created

    def _pair(self) -> TokenPair:
        number = next(self._tokens)
        expires = datetime.now(UTC) + timedelta(hours=1)
        return TokenPair(f"access-{number}", expires, f"refresh-{number}")
