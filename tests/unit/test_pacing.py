"""The pacer on a controlled clock: no chat and no bot ever goes over a window."""

from __future__ import annotations

import heapq
from bisect import bisect_left
from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.limits.pacing import Pacer, Slot, Window

BOT = (Window(30, 1.0),)
PRIVATE = (Window(3, 3.2),)
GROUP = (Window(20, 61.0),)

# A send request: when it arrives (s), which chat, and whether that chat is a group.
requests = st.lists(
    st.tuples(
        st.floats(min_value=0, max_value=120, allow_nan=False),
        st.integers(min_value=0, max_value=40),
        st.booleans(),
    ),
    min_size=1,
    max_size=400,
)


def simulate(pacer: Pacer, arrivals: list[tuple[float, int, bool]]) -> dict[int, list[float]]:
    """Run every request the way ``Pacer.wait`` does, on a clock that jumps between events."""
    sent: dict[int, list[float]] = defaultdict(list)
    events = [(at, order, chat, group) for order, (at, chat, group) in enumerate(arrivals)]
    heapq.heapify(events)
    while events:
        now, order, chat, group = heapq.heappop(events)
        slot = pacer.reserve(chat, GROUP if group else PRIVATE, now)
        if slot.reserved:
            sent[chat].append(slot.at)
        else:
            heapq.heappush(events, (slot.at, order, chat, group))
    return sent


def most_in_any_window(times: list[float], seconds: float) -> int:
    ordered = sorted(times)
    return max(
        (bisect_left(ordered, start + seconds) - index for index, start in enumerate(ordered)),
        default=0,
    )


@settings(max_examples=150, derandomize=True, deadline=None)
@given(requests)
def test_no_chat_and_no_bot_exceeds_a_window(arrivals: list[tuple[float, int, bool]]) -> None:
    pacer = Pacer(BOT, clock=lambda: 0.0)
    # A chat is a group or a private chat for the whole run, as on Telegram.
    kinds = {chat: group for _, chat, group in reversed(arrivals)}
    arrivals = [(at, chat, kinds[chat]) for at, chat, _ in arrivals]

    sent = simulate(pacer, arrivals)

    assert sum(map(len, sent.values())) == len(arrivals), "every request is sent"
    for chat, times in sent.items():
        (window,) = GROUP if kinds[chat] else PRIVATE
        assert most_in_any_window(times, window.seconds) <= window.count
        assert times == sorted(times), "a chat's messages keep their order"
    everything = [at for times in sent.values() for at in times]
    assert most_in_any_window(everything, 1.0) <= 30


def test_a_group_waiting_its_minute_holds_no_private_chat_back() -> None:
    pacer = Pacer(BOT, clock=lambda: 0.0)
    group_times = [pacer.reserve("group", GROUP, 0.0) for _ in range(21)]
    assert group_times[-1].reserved is False
    assert group_times[-1].at >= 61.0

    private = pacer.reserve("private", PRIVATE, 0.0)

    assert private.reserved
    assert private.at < 1.0


def test_a_hold_after_a_429_keeps_that_chat_silent_for_its_retry_after() -> None:
    now = [0.0]
    pacer = Pacer(BOT, clock=lambda: now[0])
    pacer.hold("chat", 5.0)

    held = pacer.reserve("chat", PRIVATE, 0.0)
    other = pacer.reserve("other", PRIVATE, 0.0)

    assert held == Slot(5.0, reserved=False)
    assert other == Slot(0.0, reserved=True)
    pacer.hold(None, 2.0)
    assert pacer.reserve("other", PRIVATE, 0.0).at == 2.0


def test_idle_chats_are_forgotten() -> None:
    pacer = Pacer(BOT, clock=lambda: 0.0)
    for chat in range(2000):
        pacer.reserve(chat, PRIVATE, float(chat))
    # Chats whose last send is beyond every window are swept as reservations go on.
    assert pacer.chats_tracked < 2000
