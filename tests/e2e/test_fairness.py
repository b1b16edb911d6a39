"""One user's burst of updates neither delays the others nor queues without end."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.telegram_rig import ALICE, BOB, Rig, telegram_rig

BURST = 30
TOO_FAST = "Çok hızlı"


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    async with telegram_rig(tmp_path) as running:
        yield running


def balances(rig: Rig) -> int:
    return sum("Bakiyeniz" in (m.text or "") for m in rig.bot_messages(ALICE))


async def test_a_burst_of_one_user_delays_another_by_one_upstream_call_at_most(
    rig: Rig,
) -> None:
    await rig.log_in(ALICE)
    before = balances(rig)
    rig.sandbox.state.faults.latency = 0.5
    for _ in range(BURST):
        rig.telegram.user_says(ALICE, "/bakiye")
    rig.telegram.user_says(BOB, "/yardim")
    await rig.until(BOB, "giriş yapmadınız")

    assert balances(rig) - before <= 1, "Bob waited for Alice's second balance"
    await rig.until(ALICE, TOO_FAST)
    rig.sandbox.state.faults.latency = 0.0
    await rig.telegram.wait_for(lambda: balances(rig) - before >= 1)
    assert sum(TOO_FAST in (m.text or "") for m in rig.bot_messages(ALICE)) == 1
