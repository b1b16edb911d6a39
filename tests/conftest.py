"""Database fixtures shared by every test folder: SQLite always, PostgreSQL when one is there."""

from __future__ import annotations

import gc
import logging
import os
import secrets
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from sqlalchemy import make_url

from storage import ChatUser, Database, TokenCipher, generate_key, users
from tests.real_wordpress import real_wordpress  # noqa: F401  (a fixture: any test may ask)
from tests.schema import keep_templates_in, migrated_sqlite

_LOCAL_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
# Each test folder is a tier with a marker of its name: `pytest -m unit` runs in seconds.
_TIERS = ("unit", "integration", "e2e")
_HERE = Path(__file__).parent

# What is imported by now (pytest, SQLAlchemy, hypothesis) lives as long as the process:
# the garbage collector need not walk it again while the test modules are imported.
gc.freeze()


def pytest_configure(config: pytest.Config) -> None:
    """Keep the migrated schema in pytest's cache (when on) for the runs after this one."""
    cache = getattr(config, "cache", None)
    if cache is not None:
        keep_templates_in(cache.mkdir("migrated-schema"))


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With ``-m`` naming one tier alone, leave the other tiers' folders unread: importing
    their servers and platforms would take longer than the unit tier runs."""
    wanted = config.getoption("markexpr")
    if wanted in _TIERS and collection_path.parent == _HERE and collection_path.name in _TIERS:
        return collection_path.name != wanted
    return None


def pytest_collection_finish() -> None:
    """Leave what collection imported out of the garbage collector's rounds."""
    # As above, for the test modules and what they import: thousands of modules' functions
    # and classes that every full collection walked again, a second of the unit tier.
    gc.freeze()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with the tier of its folder."""
    for item in items:
        tier = next((part for part in item.path.parts if part in _TIERS), None)
        if tier is not None:
            item.add_marker(getattr(pytest.mark, tier))


# Property tests: "ci" (the default) runs a fixed, bounded set of examples, the same on every
# run; HYPOTHESIS_PROFILE=thorough searches at random, twenty times as long.
settings.register_profile(
    "ci",
    derandomize=True,
    max_examples=100,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=2000,
    stateful_step_count=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def _libpq_url(url: str) -> str:
    """The URL without SQLAlchemy's driver suffix, as psycopg itself takes it."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def postgres_server_url() -> str:
    """The PostgreSQL server of the tests: ``TEST_DATABASE_URL``, else the local ``test`` one.

    The local server is probed once per session with a 1 s timeout and the tests skipped when
    it is not there; a server named by ``TEST_DATABASE_URL`` must be there.
    """
    configured = os.environ.get("TEST_DATABASE_URL")
    if configured:
        return configured
    # Imported by the fixtures that use it: the unit tier, which never does, is spared it.
    import psycopg

    try:
        socket.create_connection(("127.0.0.1", 5432), timeout=1).close()
        psycopg.connect(_LOCAL_POSTGRES, connect_timeout=2).close()
    except (OSError, psycopg.OperationalError) as err:
        pytest.skip(f"no PostgreSQL at {_LOCAL_POSTGRES} and no TEST_DATABASE_URL ({err})")
    return _LOCAL_POSTGRES


@contextmanager
def _schema_of_its_own(server_url: str) -> Iterator[str]:
    """The URL of a new, empty schema (``test_<random>``) on the server, put first on the
    search path through the URL's ``options``; dropped with everything in it afterwards."""
    import psycopg
    from psycopg import sql

    name = f"test_{secrets.token_hex(6)}"
    schema = sql.Identifier(name)
    with psycopg.connect(_libpq_url(server_url), autocommit=True) as connection:
        connection.execute(sql.SQL("CREATE SCHEMA {}").format(schema))
    try:
        options = {"options": f"-csearch_path={name}"}
        yield make_url(server_url).update_query_dict(options).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(_libpq_url(server_url), autocommit=True) as connection:
            connection.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(schema))


@pytest.fixture(scope="session")
def migrated_postgres_url(postgres_server_url: str) -> Iterator[str]:
    """A schema of this worker's, migrated once: the tests that take ``database`` share it,
    emptied before each (migrating a schema per test took a second or more each)."""
    with _schema_of_its_own(postgres_server_url) as url:
        database = Database.connect(url)
        try:
            database.migrate()
        finally:
            database.dispose()
        yield url


def _emptied(url: str) -> str:
    """``url``'s schema with every table but alembic's emptied and its counters reset."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(_libpq_url(url), autocommit=True) as connection:
        names = connection.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            " AND tablename <> 'alembic_version'"
        ).fetchall()
        tables = sql.SQL(", ").join(sql.Identifier(name) for (name,) in names)
        connection.execute(sql.SQL("TRUNCATE {} RESTART IDENTITY CASCADE").format(tables))
    return url


@pytest.fixture(
    params=[pytest.param("sqlite"), pytest.param("postgres", marks=pytest.mark.postgres)]
)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database for one test: a SQLite file, or a PostgreSQL schema of its own.

    On PostgreSQL each test gets a fresh schema (``test_<random>``) in the server's database.
    A schema takes milliseconds where ``CREATE DATABASE`` takes far longer, and tests running
    in parallel never see each other's tables. A test that takes ``database`` too gets the
    worker's migrated schema instead, emptied.
    """
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'bot.db'}"
        return
    if "database" in request.fixturenames:
        yield _emptied(request.getfixturevalue("migrated_postgres_url"))
        return
    with _schema_of_its_own(request.getfixturevalue("postgres_server_url")) as url:
        yield url


def _migrated(url: str) -> Iterator[Database]:
    """The database at ``url`` migrated: on SQLite a copy of the process's migrated template,
    on PostgreSQL the worker's schema, migrated already."""
    sqlite_file = make_url(url).database if url.startswith("sqlite:///") else None
    if sqlite_file:
        url = migrated_sqlite(Path(sqlite_file))
    database = Database.connect(url)
    try:
        yield database
    finally:
        database.dispose()


@pytest.fixture
def database(database_url: str) -> Iterator[Database]:
    """A migrated database, once on SQLite and once on PostgreSQL; disposed after the test.

    ``database_url`` names the same database, for processes the test starts.
    """
    yield from _migrated(database_url)


@pytest.fixture
def sqlite_database(tmp_path: Path) -> Iterator[Database]:
    """A migrated SQLite database, for tests with nothing to prove on PostgreSQL."""
    yield from _migrated(f"sqlite:///{tmp_path / 'bot.db'}")


@pytest.fixture
def logging_restored() -> Iterator[None]:
    """Whatever the test does to logging's set-up (handlers, levels) is undone after it."""
    root = logging.getLogger()
    levels = {name: logging.getLogger(name).level for name in logging.root.manager.loggerDict}
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for name in list(logging.root.manager.loggerDict):
        logging.getLogger(name).setLevel(levels.get(name, logging.NOTSET))


@pytest.fixture
def cipher() -> TokenCipher:
    """A token cipher with a fresh key."""
    return TokenCipher(generate_key())


@pytest.fixture
def chat_user(database: Database) -> ChatUser:
    """A Telegram user stored in ``database``."""
    return database.run_sync(
        lambda session: users.get_or_create_user(
            session, platform="telegram", workspace="", external_id="1001"
        )
    )
