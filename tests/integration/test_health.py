"""/health's verdict: the database answers, and (where this process delivers) rounds keep coming."""

from __future__ import annotations

from datetime import timedelta

from bot.core.operations.operations import Operations
from bot.health import HealthCheck
from storage import Database
from tests.fakes import ManualClock


async def _connected() -> bool:
    return True


def _check(db: Database, clock: ManualClock, *, delivers: bool = True) -> HealthCheck:
    return HealthCheck(
        db=db,
        operations=Operations(clock=clock),
        clock=clock,
        poll_interval=timedelta(seconds=15),
        delivers=lambda: delivers,
        chats={"telegram": _connected},
    )


async def test_a_delivery_round_overdue_by_five_intervals_is_unhealthy(
    sqlite_database: Database,
) -> None:
    clock = ManualClock()
    check = _check(sqlite_database, clock)
    healthy, body = await check()
    assert healthy
    assert body == {
        "database": True,
        "chats": {"telegram": {"connected": True}},
        "delivery": {"last_round_seconds_ago": 0.0, "overdue": False},
        "status": "ok",
    }
    clock.advance(74)
    assert (await check())[0], "late, but within five intervals"
    clock.advance(2)
    healthy, body = await check()
    assert not healthy
    assert body["delivery"]["overdue"] is True
    check.operations.round_done()
    assert (await check())[0]


async def test_a_process_that_does_not_deliver_has_no_rounds_to_be_late_with(
    sqlite_database: Database,
) -> None:
    clock = ManualClock()
    check = _check(sqlite_database, clock, delivers=False)
    clock.advance(3600)
    healthy, body = await check()
    assert healthy
    assert "delivery" not in body
