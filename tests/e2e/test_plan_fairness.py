"""One user's plans never delay another's: with one user's 50 plans due at a minute, another
user's run at that minute orders within 10 s, the bot's clock moved by the test."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from sqlmodel import Session, select

from storage import Database, plans
from storage.models import ChatUser, Plan, PlanStatus
from tests.e2e.telegram_rig import ALICE, BOB, Rig, telegram_rig
from tests.fakes import ManualClock

PLANS = 50
BOBS_TITLE = "Bob'un takvimdeki tek başlığı"


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    start = datetime.now(UTC).replace(second=0, microsecond=0)
    async with telegram_rig(tmp_path, clock=ManualClock(start, ticking=True)) as rig:
        yield rig


def add_plans(session: Session, telegram_id: int, titles: list[str], at: datetime) -> None:
    """One-time plans of one title each at ``at``, for the Telegram user, written as saved."""
    user = session.exec(select(ChatUser).where(ChatUser.external_id == str(telegram_id))).one()
    assert user.id is not None
    for title in titles:
        plan = Plan(
            chat_user_id=user.id,
            status=PlanStatus.ACTIVE,
            rhythm=f"once {at:%Y-%m-%dT%H:%M}",
            time_zone="UTC",
            titles=[title],
            tone=1,
            size=1,
            platform="telegram",
            chat_id=str(telegram_id),
            next_run_at=at,
        )
        plans.start_plan(session, plan=plan)


async def test_fifty_plans_of_one_user_delay_another_users_run_by_seconds_at_most(
    rig: Rig,
) -> None:
    await rig.log_in(ALICE)
    await rig.log_in(BOB, email="az@example.com", password="Az123456")
    rig.sandbox.state.set_balance("demo@example.com", Decimal(10_000))
    assert isinstance(rig.clock, ManualClock)
    at = rig.clock.now.replace(second=0, microsecond=0) + timedelta(minutes=2)
    db = Database.connect(rig.settings.effective_database_url)
    try:
        # Alice's first: a planner that takes the due runs in the order they were saved
        # comes to Bob's last.
        titles = [f"Alice'in takvim başlığı {n}" for n in range(PLANS)]
        await db.run(lambda s: add_plans(s, ALICE, titles, at))
        await db.run(lambda s: add_plans(s, BOB, [BOBS_TITLE], at))
    finally:
        db.dispose()
    bobs = rig.sandbox.state.account("az@example.com")
    assert bobs is not None
    rig.clock.now = at
    moved = time.monotonic()
    await rig.telegram.wait_for(lambda: len(rig.sandbox.state.jobs_of(bobs)) == 1, timeout=10)
    assert time.monotonic() - moved < 10
    await rig.until(BOB, "Takvim", timeout=10)
    # Alice's runs go on meanwhile, not one by one behind her notices.
    await rig.telegram.wait_for(lambda: rig.sandbox.state.create_count == PLANS + 1, timeout=30)
