"""The pacer against Telegram's limits read as token buckets, judged by the fake Bot API's
own flood model (a bucket per chat and per bot) with the network's jitter on arrival."""

from __future__ import annotations

import heapq
import itertools
import random

import pytest

from bot.core.limits.pacing import RESERVE, SLOWED_FOR, NoRoom, Pacer, Priority, paced_as
from bot.telegram.pacing import BOT_LIMITS, PRIVATE_LIMITS
from tests.telegram_limits import TELEGRAM_LIMITS, Throttle

# The most a send is delayed on its way to Telegram, beyond the others.
JITTER = 0.1


def dispatched(pacer: Pacer, arrivals: list[tuple[float, int]], priority: Priority) -> list[float]:
    """Run every request the way ``Pacer.wait`` does; (send time, chat) of each, in order."""
    sent = []
    events = [(at, order, chat) for order, (at, chat) in enumerate(arrivals)]
    heapq.heapify(events)
    while events:
        now, order, chat = heapq.heappop(events)
        slot = pacer.reserve(chat, PRIVATE_LIMITS, now, priority=priority)
        if slot.reserved:
            sent.append((slot.at, chat))
        else:
            heapq.heappush(events, (slot.at, order, chat))
    return sent


@pytest.mark.parametrize("priority", list(Priority)[:-1])
@pytest.mark.parametrize("seed", range(3))
def test_sends_reaching_telegram_with_jitter_are_never_refused(
    priority: Priority, seed: int
) -> None:
    draw = random.Random(seed)
    # Far more than the chats take: each is paced at its limit most of the time.
    arrivals = [(draw.uniform(0, 20), draw.randint(1, 8)) for _ in range(200)]
    arrivals += [(draw.uniform(0, 20), draw.randint(100, 400)) for _ in range(400)]
    pacer = Pacer(BOT_LIMITS, clock=lambda: 0.0)
    sent = dispatched(pacer, arrivals, priority)
    reaching = sorted((at + draw.uniform(0, JITTER), chat) for at, chat in sent)
    clock = [0.0]
    telegram = Throttle(TELEGRAM_LIMITS, clock=lambda: clock[0])

    refused = []
    for at, chat in reaching:
        clock[0] = at
        if telegram.admit(chat) is not None:
            refused.append((round(at, 3), chat))

    assert refused == []
    assert len(sent) == len(arrivals)


def test_one_persons_four_actions_0_7_s_apart_are_each_answered_at_once() -> None:
    pacer = Pacer(BOT_LIMITS, clock=lambda: 0.0)

    slots = [pacer.reserve(7, PRIVATE_LIMITS, n * 0.7) for n in range(4)]

    assert [slot.at for slot in slots] == [n * 0.7 for n in range(4)]
    assert all(slot.reserved for slot in slots)


def test_background_sends_leave_room_for_an_answer_in_the_chat_and_the_bot() -> None:
    pacer = Pacer(BOT_LIMITS, clock=lambda: 0.0)
    # Delivery takes all it may of the bot, now, over many chats, and of the person's chat.
    taken = sum(
        pacer.reserve(chat, PRIVATE_LIMITS, 0.0, priority=Priority.ARTICLE).reserved
        for chat in range(100, 200)
    )
    while pacer.reserve(7, PRIVATE_LIMITS, 0.0, priority=Priority.ARTICLE).reserved:
        taken += 1

    answer = pacer.reserve(7, PRIVATE_LIMITS, 0.0)

    assert taken > 20
    assert answer == answer.__class__(0.0, reserved=True)
    assert RESERVE >= 1


def gaps_of(pacer: Pacer, start: float, count: int) -> list[float]:
    """The gaps between ``count`` sends to one chat, each asked for as soon as it may go."""
    times = []
    at = start
    for _ in range(count):
        slot = pacer.reserve(7, PRIVATE_LIMITS, at)
        while not slot.reserved:
            at = slot.at
            slot = pacer.reserve(7, PRIVATE_LIMITS, at)
        times.append(slot.at)
    return [b - a for a, b in itertools.pairwise(times)]


def test_one_429_holds_the_chat_for_retry_after_and_does_not_slow_it() -> None:
    now = [0.0]
    pacer = Pacer(BOT_LIMITS, clock=lambda: now[0])
    assert gaps_of(pacer, 0.0, 8)[-1] == 1.0
    now[0] = 10.0

    pacer.refused(7, PRIVATE_LIMITS, retry_after=3.0, slot=10.0)

    assert pacer.reserve(7, PRIVATE_LIMITS, 10.0).at >= 13.0, "silent for retry_after"
    assert gaps_of(pacer, 13.0, 8)[-1] == 1.0, "its pace kept"


def test_a_chat_refused_again_soon_is_slowed_for_a_while_then_it_recovers() -> None:
    now = [10.0]
    pacer = Pacer(BOT_LIMITS, clock=lambda: now[0])
    pacer.refused(7, PRIVATE_LIMITS, retry_after=1.0, slot=10.0)
    now[0] = 20.0

    pacer.refused(7, PRIVATE_LIMITS, retry_after=3.0, slot=20.0)

    assert gaps_of(pacer, 23.0, 8)[-1] == 2.0, "half the pace after a second 429"
    recovered = gaps_of(pacer, 20.0 + 3.0 + SLOWED_FOR + 20.0, 8)
    assert recovered[-1] == 1.0


def test_a_refused_send_counts_for_nothing() -> None:
    now = [0.0]
    pacer = Pacer(BOT_LIMITS, clock=lambda: now[0])
    while pacer.reserve(7, PRIVATE_LIMITS, 0.0).reserved:
        pass
    blocked = pacer.reserve(7, PRIVATE_LIMITS, 0.0).at

    pacer.refused(7, PRIVATE_LIMITS, retry_after=0.0, slot=0.0)

    # The refused send took nothing: the next may go sooner than before it was handed back.
    assert pacer.reserve(7, PRIVATE_LIMITS, 0.0).at < blocked


def test_a_send_counts_from_its_answer_and_slow_answers_widen_the_margin() -> None:
    now = [0.0]
    pacer = Pacer(BOT_LIMITS, clock=lambda: now[0])
    slots = []
    for _ in range(3):
        slot = pacer.reserve(7, PRIVATE_LIMITS, now[0])
        while not slot.reserved:
            slot = pacer.reserve(7, PRIVATE_LIMITS, slot.at)
        slots.append(slot.at)
        # Each answer comes back 0.6 s after its slot: a busy host, a slow network.
        now[0] = slot.at + 0.6
        pacer.reached(7, PRIVATE_LIMITS, slot.at)

    assert pacer.margin == pytest.approx(0.6)
    # The third send counts from its answer at the latest: the fourth cannot reach Telegram
    # before the bucket, judged from then, has a token again.
    fourth = pacer.reserve(7, PRIVATE_LIMITS, now[0])
    assert fourth.at >= slots[-1] + 0.6 + 1.0 - (2.0 - 0.6)


def served_in_order(pacer: Pacer, waiting: list[tuple[int, Priority]]) -> list[tuple[float, int]]:
    """Requests all waiting from time 0, each retried when its slot says, the way
    ``Pacer.wait`` does in the background; (send time, chat) in the order they were sent."""
    order = []
    events = [(0.0, n, chat, priority) for n, (chat, priority) in enumerate(waiting)]
    heapq.heapify(events)
    while events:
        now, n, chat, priority = heapq.heappop(events)
        slot = pacer.reserve(chat, PRIVATE_LIMITS, now, priority=priority)
        if slot.reserved:
            order.append((slot.at, chat))
        else:
            heapq.heappush(events, (slot.at, n, chat, priority))
    return order


# The margin of a good day, and of a busy host whose answers come back a second late.
@pytest.mark.parametrize("margin", [0.1, 1.0])
def test_an_articles_first_message_goes_ahead_of_the_rest_of_the_articles_before_it(
    margin: float,
) -> None:
    pacer = Pacer(BOT_LIMITS, margin=margin, clock=lambda: 0.0)
    # Ninety files and cards of articles already under way, each in a chat of its own, and
    # then the first messages of ten articles just found finished.
    rest = [(chat, Priority.REST) for chat in range(100, 190)]
    first = [(chat, Priority.ARTICLE) for chat in range(200, 210)]

    order = served_in_order(pacer, rest + first)

    chats = [chat for _, chat in order]
    assert len(chats) == 100
    assert max(chats.index(chat) for chat, _ in first) < 30, "within the bot's first second"
    # The rest still goes at the bot's pace: no priority slows it when nothing goes first.
    # Unanswered, each send counts in the bot's window until a margin after it left.
    assert order[-1][0] <= 100 * (1 + margin) / 29


def test_a_send_that_must_not_wait_is_refused_at_once_when_there_is_no_room() -> None:
    pacer = Pacer(BOT_LIMITS, clock=lambda: 0.0)
    while pacer.reserve(7, PRIVATE_LIMITS, 0.0, priority=Priority.REST).reserved:
        pass

    refused = pacer.reserve(7, PRIVATE_LIMITS, 0.0, priority=Priority.IF_FREE)
    other_chat = pacer.reserve(8, PRIVATE_LIMITS, 0.0, priority=Priority.IF_FREE)

    assert not refused.reserved
    assert other_chat.reserved


async def test_waiting_for_a_send_that_must_not_wait_raises_no_room() -> None:
    pacer = Pacer(BOT_LIMITS, clock=lambda: 0.0)
    pacer.hold(7, 60.0)

    with paced_as(Priority.IF_FREE), pytest.raises(NoRoom):
        await pacer.wait(7, PRIVATE_LIMITS)
    with paced_as(Priority.IF_FREE):
        assert await pacer.wait(8, PRIVATE_LIMITS) == 0.0
