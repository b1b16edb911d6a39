"""Telegram's rate limiter: message requests paced per chat and bot, 429s held and retried."""

from __future__ import annotations

from typing import Any

from telegram.error import RetryAfter

from bot.core.limits.pacing import Bucket, Pacer
from bot.telegram.pacing import BOT_LIMITS, PRIVATE_LIMITS, PacedRateLimiter


class Timeline:
    """A clock that moves only when the limiter sleeps."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


def limiter_on(timeline: Timeline) -> PacedRateLimiter:
    return PacedRateLimiter(Pacer(BOT_LIMITS, clock=timeline, sleep=timeline.sleep))


async def request(
    limiter: PacedRateLimiter, endpoint: str, data: dict[str, Any], answers: list[Any]
) -> Any:
    """One request whose callback gives (or raises) the next of ``answers``."""

    async def callback() -> Any:
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    return await limiter.process_request(callback, (), {}, endpoint, data, None)


async def test_a_private_chat_gets_its_burst_then_waits() -> None:
    timeline = Timeline()
    limiter = limiter_on(timeline)
    (bucket,) = PRIVATE_LIMITS
    assert isinstance(bucket, Bucket)
    sent_at = []
    for _ in range(bucket.burst + 2):
        await request(limiter, "sendMessage", {"chat_id": 7}, [{"ok": True}])
        sent_at.append(timeline.now)

    # The burst, spread over the margin kept for the network's jitter; then one a second.
    assert sent_at[bucket.burst - 1] <= 0.2
    assert sent_at[-1] - sent_at[-2] == 1 / bucket.per_second


async def test_a_429_holds_the_chat_and_the_request_is_tried_again() -> None:
    timeline = Timeline()
    limiter = limiter_on(timeline)
    answers: list[Any] = [RetryAfter(4), {"ok": True}]

    result = await request(limiter, "sendMessage", {"chat_id": 7}, answers)

    assert result == {"ok": True}
    assert timeline.now >= 4.0, "the retry waited out retry_after"


async def test_requests_that_post_nothing_are_not_paced() -> None:
    timeline = Timeline()
    limiter = limiter_on(timeline)
    for _ in range(50):
        await request(limiter, "answerCallbackQuery", {"callback_query_id": "1"}, [True])
        await request(limiter, "deleteMessage", {"chat_id": 7, "message_id": 1}, [True])

    assert timeline.now == 0.0
