"""Counts the messages sent to Telegram and the 429s it answers, around any rate limiter."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from bot import metrics
from bot.telegram.ids import PLATFORM

__all__ = ["CountingRateLimiter"]

_Result = bool | dict[str, Any] | list[dict[str, Any]]
_Callback = Callable[..., Coroutine[Any, Any, _Result]]


class CountingRateLimiter(BaseRateLimiter[int]):
    """Passes every request to the limiter it wraps, counting each try's sends and 429s."""

    def __init__(self, inner: BaseRateLimiter[int]) -> None:
        self._inner = inner

    async def initialize(self) -> None:
        """Initialize the wrapped limiter."""
        await self._inner.initialize()

    async def shutdown(self) -> None:
        """Shut the wrapped limiter down."""
        await self._inner.shutdown()

    async def process_request(
        self,
        callback: _Callback,
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> _Result:
        """Run the request through the wrapped limiter; each try is counted as it ends."""

        async def counted(*call_args: Any, **call_kwargs: Any) -> _Result:
            try:
                result = await callback(*call_args, **call_kwargs)
            except RetryAfter:
                metrics.CHAT_RATE_LIMITED.labels(PLATFORM).inc()
                raise
            if endpoint.startswith("send"):
                metrics.CHAT_MESSAGES.labels(PLATFORM).inc()
            return result

        return await self._inner.process_request(
            counted, args, kwargs, endpoint, data, rate_limit_args
        )
