"""Telegram's limits, kept before each request instead of learnt from 429 answers.

python-telegram-bot's ``AIORateLimiter`` paces the bot and groups but not private chats, and
a 429 stops every request of the bot. So this rate limiter stands in front of it: every
request that posts or changes a message first waits for the core's pacer (per chat and per
bot), then goes through the inner limiter, kept as a safety net; a 429 holds only its chat
(or, without a chat, the bot) for its ``retry_after`` before the request is tried again, and
the refused request counts for nothing. Only a chat refused again soon after is slowed.

Telegram's limits, read at their strictest: a private chat takes a burst of 3, then about
one message a second (so one person's four actions 0.7 s apart are all answered at once);
the bot no more than 30 in any one second, as they arrive; a group 20 in any minute.
"""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import Callable, Coroutine
from datetime import timedelta
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter
from telegram.warnings import PTBDeprecationWarning

from bot.core.limits.pacing import Bucket, Limit, Pacer, Window

__all__ = ["BOT_LIMITS", "GROUP_LIMITS", "PRIVATE_LIMITS", "PacedRateLimiter"]

log = logging.getLogger(__name__)

# Telegram "will not allow more than 30 messages per second" per bot: read at its strictest,
# no more than 30 in any one second as they arrive (the window counts each send from its
# answer, the latest it can have arrived). The bucket under it paces a long
# run at 29 a second, and is what the rest of the articles leave to first messages
# (``REST_RESERVE``).
BOT_LIMITS: tuple[Limit, ...] = (Window(30, 1.0), Bucket(30, 29.0))
# About one a second in a private chat after a short burst of 3.
PRIVATE_LIMITS: tuple[Limit, ...] = (Bucket(3, 1.0),)
# 20 a minute in a group or channel.
GROUP_LIMITS: tuple[Limit, ...] = (Window(20, 61.0),)
# A 429 is waited out this many times before its error reaches the caller.
RETRIES = 5

_JSONResult = bool | dict[str, Any] | list[dict[str, Any]]


def _counted(endpoint: str) -> bool:
    """Whether the request posts or changes a message, which is what Telegram limits."""
    return endpoint.startswith(("send", "edit", "copy", "forward")) and endpoint != "sendChatAction"


def _seconds(err: RetryAfter) -> float:
    # Whole seconds or a timedelta, by an environment switch of python-telegram-bot's that
    # warns while unset; either way the wait is the same.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        wait = err.retry_after
    return wait.total_seconds() if isinstance(wait, timedelta) else float(wait)


class PacedRateLimiter(BaseRateLimiter[None]):
    """Paces message requests per chat and per bot; waits out and retries 429 answers."""

    def __init__(
        self, pacer: Pacer | None = None, inner: BaseRateLimiter[Any] | None = None
    ) -> None:
        self._pacer = pacer or Pacer(BOT_LIMITS)
        self._inner = inner

    async def initialize(self) -> None:
        """Set up the inner limiter."""
        if self._inner is not None:
            await self._inner.initialize()

    async def shutdown(self) -> None:
        """Tear down the inner limiter."""
        if self._inner is not None:
            await self._inner.shutdown()

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, _JSONResult]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: None,
    ) -> _JSONResult:
        """Wait for the chat's slot, make the request, and retry it after a 429."""
        chat = data.get("chat_id") if _counted(endpoint) else None
        limits = _limits(chat) if chat is not None else ()
        retries = 0
        while True:
            slot = await self._pacer.wait(chat, limits) if chat is not None else None
            try:
                if self._inner is None:
                    result = await callback(*args, **kwargs)
                else:
                    result = await self._inner.process_request(
                        callback, args, kwargs, endpoint, data, rate_limit_args
                    )
            except RetryAfter as err:
                seconds = _seconds(err)
                log.warning("%s to chat %s: 429, waiting %.1f s", endpoint, chat, seconds)
                if slot is not None:
                    self._pacer.refused(chat, limits, seconds, slot)
                    await self._pacer.share_refusal(chat, limits, seconds)
                retries += 1
                if retries > RETRIES:
                    raise
                if slot is None:
                    await asyncio.sleep(seconds)
                continue
            except BaseException:
                # No answer (a timeout, a lost connection): it may have reached Telegram.
                if slot is not None:
                    self._pacer.reached(chat, limits, slot)
                raise
            if slot is not None:
                self._pacer.reached(chat, limits, slot)
            return result


def _limits(chat: object) -> tuple[Limit, ...]:
    """A group's or channel's limit (negative ids, @names), else a private chat's."""
    if isinstance(chat, str) and not chat.lstrip("-").isdigit():
        return GROUP_LIMITS
    return GROUP_LIMITS if int(str(chat)) < 0 else PRIVATE_LIMITS
