"""A plan's schedule in its column: stored as its string form and read back as the value, on
SQLite and PostgreSQL alike; and the migration that joined a plan's rhythm and zone into it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlmodel import Session

import storage
from storage import Database, plans, users
from storage.models import Plan, PlanStatus
from storage.schedule import DAILY, Schedule

SCHEDULES = (
    Schedule.at(datetime(2026, 11, 27, 14, 30), ZoneInfo("Europe/Istanbul")),
    Schedule.every(DAILY, 9, 0, ZoneInfo("Europe/Berlin")),
    Schedule.every("mon,thu", 18, 45, ZoneInfo("America/Argentina/ComodRivadavia")),
)


def _user(session: Session) -> int:
    user = users.get_or_create_user(session, platform="telegram", workspace="", external_id="7")
    assert user.id is not None
    return user.id


def _plan(user_id: int, schedule: Schedule) -> Plan:
    return Plan(
        chat_user_id=user_id,
        status=PlanStatus.ACTIVE,
        schedule=schedule,
        titles=["Başlık"],
        platform="telegram",
        chat_id="7",
    )


def test_a_schedule_is_stored_as_its_string_and_read_back_as_the_value(
    database: Database,
) -> None:
    def save(session: Session) -> list[int]:
        user_id = _user(session)
        saved = [plans.start_plan(session, plan=_plan(user_id, each)) for each in SCHEDULES]
        return [plan.id for plan in saved if plan.id is not None]

    ids = database.run_sync(save)
    stored = database.run_sync(
        lambda s: s.connection().execute(text("SELECT schedule FROM plan ORDER BY id")).all()
    )
    assert [row[0] for row in stored] == [each.encode() for each in SCHEDULES]
    loaded = [database.run_sync(lambda s, i=i: plans.get_plan(s, plan_id=i)) for i in ids]
    assert [plan.schedule if plan else None for plan in loaded] == list(SCHEDULES)
    first = loaded[0]
    assert first is not None
    assert first.schedule.next_after(datetime(2026, 11, 27, 11, 0, tzinfo=UTC)) == datetime(
        2026, 11, 27, 11, 30, tzinfo=UTC
    )


def _migrate(database: Database, revision: str, *, down: bool = False) -> None:
    config = Config()
    config.set_main_option("script_location", str(Path(storage.__file__).with_name("migrations")))
    config.set_main_option("path_separator", "os")
    with database.migration_connection() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)


def test_migrating_joins_a_plans_rhythm_and_zone_and_parts_them_again(database_url: str) -> None:
    database = Database.connect(database_url)
    try:
        _migrate(database, "0017")
        database.run_sync(
            lambda s: s.connection().execute(
                text(
                    "INSERT INTO plan (chat_user_id, status, rhythm, time_zone, titles,"
                    " next_title, platform, chat_id, target_asked, to_site, created_at)"
                    " VALUES (:user, 'active', 'cron mon,thu 09:00', 'Europe/Istanbul', '[]',"
                    " 0, 'telegram', '7', false, false, :now)"
                ),
                {"user": _user(s), "now": datetime(2026, 11, 26, tzinfo=UTC)},
            )
        )
        _migrate(database, "head")
        plan = database.run_sync(lambda s: plans.plans_of_user(s, user_id=_user(s)))[0]
        assert plan.schedule == Schedule.every("mon,thu", 9, 0, ZoneInfo("Europe/Istanbul"))
        _migrate(database, "0017", down=True)
        parted = database.run_sync(
            lambda s: s.connection().execute(text("SELECT rhythm, time_zone FROM plan")).all()
        )
        assert [tuple(row) for row in parted] == [("cron mon,thu 09:00", "Europe/Istanbul")]
    finally:
        database.dispose()
