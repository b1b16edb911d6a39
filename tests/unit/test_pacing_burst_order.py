"""A burst of articles finished at once keeps the bot's pace full to its end: each chat's
earlier parts go ahead of other chats' later ones, so no chat is left with a queue of its own
to send at one a second while the others are done."""

from __future__ import annotations

import heapq

from bot.core.pacing import Pacer, Priority
from bot.telegram.pacing import BOT_LIMITS, PRIVATE_LIMITS
from tests.telegram_limits import TELEGRAM_LIMITS, Throttle

CHATS = 60
# A long article: its first message, three more parts, two files and its card.
SENDS = 7
# A send's answer comes back this long after it left; the chat's next send asks this long
# after that (its part recorded, the next one prepared).
ANSWER = 0.01
BETWEEN = 0.005


def delivered() -> list[tuple[float, int]]:
    """Every chat's article sent the way the delivery sends it, one send after the answer to
    the one before: (send time, chat) of each."""
    clock = [0.0]
    pacer = Pacer(BOT_LIMITS, clock=lambda: clock[0])
    sent = []
    # (when, its order, chat, how many it sent already, the slot of the send answered then)
    events: list[tuple[float, int, int, int, float | None]] = [
        (0.0, chat, chat, 0, None) for chat in range(1, CHATS + 1)
    ]
    while events:
        now, order, chat, done, answered = heapq.heappop(events)
        clock[0] = now
        if answered is not None:
            pacer.reached(chat, PRIVATE_LIMITS, answered)
            if done < SENDS:
                heapq.heappush(events, (now + BETWEEN, order, chat, done, None))
            continue
        priority = Priority.ARTICLE if done == 0 else Priority.REST
        slot = pacer.reserve(chat, PRIVATE_LIMITS, now, priority=priority, later=done)
        if slot.reserved:
            sent.append((slot.at, chat))
            heapq.heappush(events, (slot.at + ANSWER, order, chat, done + 1, slot.at))
        else:
            heapq.heappush(events, (slot.at, order, chat, done, None))
    return sent


def test_sixty_articles_at_once_keep_the_bots_pace_to_the_end() -> None:
    sent = delivered()
    times = sorted(at for at, _ in sent)
    clock = [0.0]
    telegram = Throttle(TELEGRAM_LIMITS, clock=lambda: clock[0])
    for at, chat in sorted(sent):
        clock[0] = at
        assert telegram.admit(chat) is None

    # Counted as the bench counts: sends over the time from the first to the last.
    share = (len(times) - 1) / (times[-1] - times[0]) / 30
    assert len(times) == CHATS * SENDS
    assert share >= 0.9, f"{share:.3f} of 30 a second"
