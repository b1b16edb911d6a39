"""The pacer against Telegram's limits at their strictest reading: no more than 30 messages
reach Telegram in any one second (a sliding window, judged on arrival, with the network's
jitter), and a bucket 3 deep refilled one a second per private chat. Telegram's side is the
model of ``tests/telegram_limits.py``; the pacer's answers come back as they would."""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field

import pytest

from bot.core.limits.pacing import Pacer, Priority
from bot.telegram.pacing import BOT_LIMITS, PRIVATE_LIMITS
from tests.telegram_limits import TELEGRAM_LIMITS, Throttle

# A call is judged by Telegram up to this long after it left, at random; its answer comes
# back this long after it was judged.
JITTER = 0.05
ANSWER = 0.005


@dataclass
class Run:
    """What Telegram accepted (arrival times) and refused, and the pacer's clock."""

    accepted: list[float] = field(default_factory=list)
    refused: list[tuple[float, int]] = field(default_factory=list)
    now: float = 0.0


def delivered(messages: dict[int, list[Priority]], seed: int) -> Run:
    """Each chat's messages sent one after another (the next once the last was answered),
    every chat at once, the way the sender does; every call judged by Telegram on arrival."""
    draw = random.Random(seed)
    run = Run()
    pacer = Pacer(BOT_LIMITS, clock=lambda: run.now)
    telegram = Throttle(TELEGRAM_LIMITS, clock=lambda: run.now)
    # (time, order, what, chat, slot): "ask" for a slot, "arrive" at Telegram, "answer" back.
    events: list[tuple[float, int, str, int, float]] = []
    order = 0

    def at(time: float, what: str, chat: int, slot: float = 0.0) -> None:
        nonlocal order
        order += 1
        heapq.heappush(events, (time, order, what, chat, slot))

    for chat in messages:
        at(0.0, "ask", chat)
    while events:
        run.now, _, what, chat, slot = heapq.heappop(events)
        if what == "ask":
            with_priority = messages[chat][0]
            got = pacer.reserve(chat, PRIVATE_LIMITS, run.now, priority=with_priority)
            if got.reserved:
                at(got.at + draw.uniform(0, JITTER), "arrive", chat, got.at)
            else:
                at(got.at, "ask", chat)
        elif what == "arrive":
            retry_after = telegram.admit(chat)
            if retry_after is None:
                run.accepted.append(run.now)
            else:
                run.refused.append((round(run.now, 3), chat))
            answer = "answer" if retry_after is None else f"429 {retry_after}"
            at(run.now + ANSWER, answer, chat, slot)
        elif what == "answer":
            pacer.reached(chat, PRIVATE_LIMITS, slot)
            messages[chat].pop(0)
            if messages[chat]:
                at(run.now, "ask", chat)
        else:
            pacer.refused(chat, PRIVATE_LIMITS, float(what.split()[1]), slot)
            at(run.now, "ask", chat)
    return run


def articles(count: int, parts: int) -> dict[int, list[Priority]]:
    """``count`` articles finished at once, each in a chat of its own: the first message,
    then its other parts, its two files and its card."""
    return {100 + n: [Priority.ARTICLE] + [Priority.REST] * (parts - 1 + 3) for n in range(count)}


@pytest.mark.parametrize("seed", range(3))
def test_a_burst_of_sixty_articles_is_never_refused_under_the_strict_window(seed: int) -> None:
    run = delivered(articles(60, parts=2), seed)

    assert run.refused == []
    assert len(run.accepted) == 60 * 5


@pytest.mark.parametrize("seed", range(3))
def test_a_burst_of_sixty_articles_runs_at_28_to_30_a_second_from_its_first(seed: int) -> None:
    run = delivered(articles(60, parts=2), seed)

    first = run.accepted[0]
    per_second = [sum(1 for t in run.accepted if first + n <= t < first + n + 1) for n in range(8)]
    assert all(28 <= sent <= 30 for sent in per_second), per_second
    assert len(run.accepted) / (run.accepted[-1] - first) >= 27
