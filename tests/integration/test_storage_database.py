"""The database itself: SQLite settings, migrations, transactions, column types."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, Engine, event, make_url
from sqlalchemy.exc import IntegrityError, StatementError
from sqlmodel import Session, SQLModel

from storage import (
    ChatUser,
    Database,
    DraftKind,
    DraftStep,
    DriverTransaction,
    Transaction,
    bookkeeping,
    drafts,
    users,
)
from storage.prepared import on_driver


def _pragma(database: Database, name: str) -> object:
    return database.run_sync(
        lambda session: session.connection().exec_driver_sql(f"PRAGMA {name}").scalar_one()
    )


def test_sqlite_connections_get_wal_foreign_keys_and_a_busy_timeout(
    sqlite_database: Database,
) -> None:
    assert sqlite_database.is_sqlite
    assert _pragma(sqlite_database, "journal_mode") == "wal"
    assert _pragma(sqlite_database, "foreign_keys") == 1
    assert _pragma(sqlite_database, "busy_timeout") == 5000


def test_sqlite_file_gets_its_directory(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "dir" / "bot.db"
    database = Database.connect(f"sqlite:///{path}")
    try:
        database.migrate()
    finally:
        database.dispose()
    assert path.is_file()


def test_an_in_memory_database_is_one_database_for_every_thread() -> None:
    database = Database.connect("sqlite:///:memory:")
    try:
        database.migrate()
        user = asyncio.run(
            database.run(
                lambda session: users.get_or_create_user(
                    session, platform="shell", workspace="", external_id="me"
                )
            )
        )
    finally:
        database.dispose()
    assert user.id == 1


@pytest.mark.postgres
@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
def test_plain_postgresql_urls_mean_psycopg_3(postgres_server_url: str, scheme: str) -> None:
    url = make_url(postgres_server_url).set(drivername=scheme)
    database = Database.connect(url.render_as_string(hide_password=False))
    try:
        driver = database.run_sync(lambda session: session.connection().dialect.driver)
    finally:
        database.dispose()
    assert driver == "psycopg"
    assert not database.is_sqlite


def test_foreign_keys_are_enforced(database: Database) -> None:
    with pytest.raises(IntegrityError):
        database.run_sync(
            lambda session: drafts.create_draft(
                session, user_id=999, chat_id="c", thread_id=None, kind=DraftKind.SINGLE
            )
        )


def test_migrations_build_exactly_the_models(database: Database) -> None:
    def differences(session: Session) -> list[object]:
        context = MigrationContext.configure(session.connection(), opts={"compare_type": True})
        return list(compare_metadata(context, SQLModel.metadata))

    assert database.run_sync(differences) == []


def test_migrating_again_changes_nothing(database: Database) -> None:
    database.migrate()
    version = database.run_sync(
        lambda session: (
            session.connection().exec_driver_sql("SELECT version_num FROM alembic_version").all()
        )
    )
    assert version == [("0021",)]


class Boom(Exception):
    """What a unit of work raised, after it wrote."""


def create_then_fail(session: Session) -> None:
    users.get_or_create_user(session, platform="slack", workspace="T1", external_id="U1")
    raise Boom


def mark_then_fail(transaction: Transaction) -> None:
    bookkeeping.mark_processed(transaction, source="test", update_id="boom")
    raise Boom


def was_first_seen(update_id: str) -> Callable[[Transaction], bool]:
    """A unit of work marking the update processed: whether it was new."""
    return lambda transaction: bookkeeping.mark_processed(
        transaction, source="test", update_id=update_id
    )


def test_run_commits_on_return_and_rolls_back_on_raise(database: Database) -> None:
    with pytest.raises(Boom):
        database.run_sync(create_then_fail)
    assert database.run_sync(lambda session: session.get(ChatUser, 1)) is None

    created = database.run_sync(
        lambda session: users.get_or_create_user(
            session, platform="slack", workspace="T1", external_id="U1"
        )
    )
    # Still readable after the commit closed its session.
    assert created.external_id == "U1"
    assert created.id is not None
    assert database.run_sync(lambda session: session.get(ChatUser, created.id)) is not None


def test_a_sqlite_write_like_the_last_one_sets_no_pragma(sqlite_database: Database) -> None:
    statements: list[str] = []

    def on_statement(connection: Connection, cursor: object, statement: str, *_: object) -> None:
        statements.append(statement)

    sqlite_database.run_sync(commit_waits_for_the_disk, synced=False)
    event.listen(Engine, "before_cursor_execute", on_statement)
    try:
        # Every update's replay check is such a write.
        sqlite_database.run_sync(commit_waits_for_the_disk, synced=False)
    finally:
        event.remove(Engine, "before_cursor_execute", on_statement)
    assert statements[:1] == ["BEGIN IMMEDIATE"], statements


async def test_run_works_in_a_thread_from_async_code(database: Database) -> None:
    user = await database.run(
        lambda session: users.get_or_create_user(
            session, platform="shell", workspace="", external_id="me"
        )
    )
    assert user.platform == "shell"


async def test_a_read_waits_for_no_write_under_way_and_sees_what_was_committed(
    database: Database, chat_user: ChatUser
) -> None:
    writing, release = threading.Event(), threading.Event()

    def slow_write(session: Session) -> None:
        users.set_locale(session, user_id=chat_user.id, locale="en")
        writing.set()
        release.wait(30)

    writer = asyncio.create_task(database.run(slow_write))
    await asyncio.to_thread(writing.wait, 30)
    try:
        read = await asyncio.wait_for(
            database.read(lambda session: session.get(ChatUser, chat_user.id)), 10
        )
    finally:
        release.set()
        await writer

    assert read is not None
    assert read.locale == chat_user.locale, "the write was not committed yet"
    after = await database.read(lambda session: session.get(ChatUser, chat_user.id))
    assert after is not None
    assert after.locale == "en"


async def test_a_brief_transaction_runs_in_this_thread_on_sqlite_only(
    database: Database,
) -> None:
    def work(transaction: DriverTransaction) -> tuple[int, bool]:
        # Past the ORM and SQLAlchemy's execution: on the driver's own connection.
        assert isinstance(transaction, DriverTransaction)
        assert bookkeeping.mark_processed(transaction, source="test", update_id="brief")
        return threading.get_ident(), commit_waits_for_the_disk(transaction)

    thread, waits = await database.run_brief(work)

    # A PostgreSQL transaction is a network round trip: never on the event loop.
    assert (thread == threading.get_ident()) is database.is_sqlite
    assert not waits
    assert not database.run_sync(was_first_seen("brief")), "committed"


async def test_a_brief_transaction_leaves_the_loop_while_another_process_writes(
    sqlite_database: Database, tmp_path: Path
) -> None:
    other = sqlite3.connect(tmp_path / "bot.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    threads: list[int] = []

    def work(transaction: DriverTransaction) -> None:
        bookkeeping.mark_processed(transaction, source="test", update_id="late")
        threads.append(threading.get_ident())

    brief = asyncio.create_task(sqlite_database.run_brief(work))
    try:
        # Had the brief transaction waited for the lock here, this could not run until it
        # gave up.
        await asyncio.sleep(0)
        other.execute("COMMIT")
        await asyncio.wait_for(brief, 30)
    finally:
        other.close()

    assert len(threads) == 1, "the refused attempt did not get past its BEGIN"
    assert threads[0] != threading.get_ident()
    assert not sqlite_database.run_sync(was_first_seen("late")), "committed"


async def test_a_brief_transaction_raises_what_its_work_raises_and_keeps_nothing(
    database: Database,
) -> None:
    with pytest.raises(Boom):
        await database.run_brief(mark_then_fail)
    assert database.run_sync(was_first_seen("boom")), "rolled back"
    # The connection is left with no transaction open: the next one begins as ever.
    assert await database.run_brief(was_first_seen("after"))


def commit_waits_for_the_disk(transaction: Transaction) -> bool:
    """Whether this transaction's commit waits until the disk has it."""
    driver = on_driver(transaction)
    cursor = driver.connection.cursor()
    if driver.dialect.name == "sqlite":
        # In WAL mode, NORMAL (1) syncs at checkpoints only; FULL (2) at every commit.
        cursor.execute("PRAGMA synchronous")
        return int(cursor.fetchone()[0]) >= 2
    cursor.execute("SHOW synchronous_commit")
    return str(cursor.fetchone()[0]) != "off"


def test_a_commit_waits_for_the_disk_unless_asked_not_to_and_only_that_one(
    database: Database,
) -> None:
    assert database.run_sync(commit_waits_for_the_disk)
    assert not database.run_sync(commit_waits_for_the_disk, synced=False)
    assert database.run_sync(commit_waits_for_the_disk), "the next transaction waits again"
    created = database.run_sync(
        lambda session: users.get_or_create_user(
            session, platform="shell", workspace="", external_id="unsynced"
        ),
        synced=False,
    )
    assert database.run_sync(lambda session: session.get(ChatUser, created.id)) is not None


def test_timestamps_come_back_aware_in_utc(database: Database, chat_user: ChatUser) -> None:
    assert chat_user.id is not None
    user_id = chat_user.id
    istanbul = timezone(timedelta(hours=3))
    submitted = datetime(2026, 5, 1, 15, 0, tzinfo=istanbul)

    def submit(session: Session) -> str:
        draft = drafts.create_draft(
            session, user_id=user_id, chat_id="c", thread_id=None, kind=DraftKind.SINGLE
        )
        draft.step = DraftStep.READY
        drafts.save_draft(session, draft=draft)
        drafts.claim_for_submission(session, draft_id=draft.id, user_id=user_id, now=submitted)
        return draft.id

    draft_id = database.run_sync(submit)
    stored = database.run_sync(lambda session: drafts.get_draft(session, draft_id=draft_id))
    assert stored is not None
    assert stored.submitted_at == datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    assert stored.submitted_at.utcoffset() == timedelta(0)
    assert stored.created_at.tzinfo is not None


def test_naive_timestamps_are_refused(database: Database, chat_user: ChatUser) -> None:
    assert chat_user.id is not None
    user_id = chat_user.id
    with pytest.raises(StatementError, match="naive datetime"):
        database.run_sync(
            lambda session: drafts.claim_for_submission(
                session, draft_id="x", user_id=user_id, now=datetime(2026, 5, 1)
            )
        )


def test_enum_columns_come_back_as_members(database: Database, chat_user: ChatUser) -> None:
    assert chat_user.id is not None
    user_id = chat_user.id
    draft = database.run_sync(
        lambda session: drafts.create_draft(
            session, user_id=user_id, chat_id="c", thread_id=None, kind=DraftKind.BULK
        )
    )
    stored = database.run_sync(lambda session: drafts.get_draft(session, draft_id=draft.id))
    assert stored is not None
    assert stored.kind is DraftKind.BULK
    assert stored.step is DraftStep.TITLE
