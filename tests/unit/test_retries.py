"""Calls retried with a warning: waits doubling up to a cap, or what a 429 asked for."""

from __future__ import annotations

import logging

import pytest

from bot.core.retries import MAX_WAIT, retried


class Flaky:
    """Fails ``failures`` times with ``error``, then passes."""

    def __init__(self, failures: int, error: Exception) -> None:
        self.failures = failures
        self.error = error
        self.calls = 0

    async def __call__(self) -> None:
        self.calls += 1
        if self.calls <= self.failures:
            raise self.error


class Asked(Exception):
    retry_after = 30


async def test_a_failing_call_is_retried_with_doubling_waits_and_warnings(
    caplog: pytest.LogCaptureFixture,
) -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    call = Flaky(12, ConnectionError("502"))
    with caplog.at_level(logging.WARNING):
        await retried("setMyCommands", call, sleep=sleep)

    assert call.calls == 13
    assert waits[:4] == [1.0, 2.0, 4.0, 8.0]
    assert max(waits) == MAX_WAIT
    assert {r.levelno for r in caplog.records} == {logging.WARNING}


async def test_a_429_waits_what_it_asked_and_a_refusal_is_raised_at_once() -> None:
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    await retried("setWebhook", Flaky(1, Asked()), sleep=sleep, attempts=3)
    assert waits == [30.0]

    refused = Flaky(5, ValueError("bad url"))
    with pytest.raises(ValueError, match="bad url"):
        await retried("setWebhook", refused, sleep=sleep, passing=(Asked,), attempts=3)
    assert refused.calls == 1
    with pytest.raises(Asked):
        await retried("setWebhook", Flaky(5, Asked()), sleep=sleep, attempts=3)


async def test_a_refused_kind_of_a_passing_failure_is_raised_at_once() -> None:
    class Refused(ConnectionError):
        """A 400: a kind of the network's errors in python-telegram-bot's tree."""

    async def sleep(seconds: float) -> None:
        raise AssertionError("a refusal is not waited on")

    call = Flaky(5, Refused("bad request"))
    with pytest.raises(Refused):
        await retried(
            "setWebhook", call, sleep=sleep, passing=(ConnectionError,), refused=(Refused,)
        )
    assert call.calls == 1
