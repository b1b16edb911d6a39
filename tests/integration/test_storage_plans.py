"""Due plans are taken round-robin by owner and bounded, on SQLite and PostgreSQL alike."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlmodel import Session

from storage import Database, plans, users
from tests.plan_rows import saved_plan

AT = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)


def _plans_of(session: Session, external_id: str, count: int, at: datetime) -> int:
    user = users.get_or_create_user(
        session, platform="telegram", workspace="", external_id=external_id
    )
    assert user.id is not None
    for number in range(count):
        title = f"Başlık {external_id} {number}"
        row = saved_plan(user.id, title, at, platform="telegram", chat_id=external_id)
        plans.start_plan(session, plan=row)
    return user.id


def test_due_plans_take_one_of_each_owner_in_turn_and_at_most_the_limit(
    database: Database,
) -> None:
    many = database.run_sync(lambda s: _plans_of(s, "1", 5, AT))
    # Another owner's plans, saved after and due later, still come second.
    other = database.run_sync(lambda s: _plans_of(s, "2", 2, AT + timedelta(seconds=30)))
    due = database.run_sync(lambda s: plans.due_plans(s, now=AT + timedelta(minutes=1), limit=5))
    assert [plan.chat_user_id for plan in due] == [many, other, many, other, many]
    assert len(database.run_sync(lambda s: plans.due_plans(s, now=AT, limit=10))) == 5, (
        "not the plans due later"
    )
