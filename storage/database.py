"""The database: engine setup for SQLite and PostgreSQL, migrations, and transactions."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import Connection, Engine, create_engine, event, make_url
from sqlalchemy.engine import URL
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import ArgumentError, OperationalError
from sqlalchemy.pool import ConnectionPoolEntry, StaticPool
from sqlmodel import Session

from storage.leadership import Leadership, leadership_for
from storage.prepared import DriverTransaction
from storage.unwaiting import Busy, UnwaitingConnection

if TYPE_CHECKING:
    from alembic.config import Config

__all__ = ["Database", "DatabaseUnusable", "MigrationError"]

T = TypeVar("T")

_MIGRATIONS = Path(__file__).with_name("migrations")
# Any constant works; it only has to be the same for every replica migrating one database.
_MIGRATION_LOCK_ID = 0x6D616B616C65
_BACKENDS = frozenset({"sqlite", "postgresql"})
_SQLITE_PRAGMAS = ("journal_mode=WAL", "busy_timeout=5000", "foreign_keys=ON")
# The execution options of the engines that ``Database.read`` and an unsynced run use.
_READER = "makale_reader"
_UNSYNCED = "makale_unsynced"
# Where a SQLite connection's info remembers the synchronous pragma it was last given.
_SYNCHRONOUS = "makale_synchronous"
# ``run_brief``'s connection never waits for a lock, nor for the disk: its commits are
# unsynced, and checkpoints (which wait for the disk) are left to the other connections.
_UNWAITING_PRAGMAS = ("busy_timeout=0", "synchronous=NORMAL", "wal_autocheckpoint=0")


class DatabaseUnusable(Exception):
    """The database URL names no database this bot can use, or its server does not answer.

    The message never quotes the URL: it may hold a password.
    """


class MigrationError(Exception):
    """Migrating left the database inconsistent; nothing was committed."""


class Database:
    """One engine, and the one way to use it: a unit of work in one transaction."""

    def __init__(self, engine: Engine, unwaiting: UnwaitingConnection | None = None) -> None:
        self._engine = engine
        self._unwaiting = unwaiting
        # Held on connections of their own, which the pool's dispose would not close.
        self._leaderships: list[Leadership] = []
        # SQLite has one writer at a time and every transaction here begins IMMEDIATE, so
        # threads of this process queue on a lock instead of SQLite's busy handler, which
        # sleeps in growing steps (up to 100 ms) while it waits.
        self._turn = threading.Lock() if engine.dialect.name == "sqlite" else None
        # Its transactions begin deferred on SQLite: a reader takes no write lock. Not where
        # one connection serves every thread (":memory:"): there a read waits its turn.
        shared = isinstance(engine.pool, StaticPool)
        self._reader = None if shared else engine.execution_options(**{_READER: True})
        self._unsynced = engine.execution_options(**{_UNSYNCED: True})

    @classmethod
    def connect(cls, url: str) -> Database:
        """An engine for the URL; ``postgresql://`` means psycopg 3, SQLite gets its pragmas."""
        try:
            parsed = _normalised_url(url)
        except ArgumentError:
            raise DatabaseUnusable("is not a database URL") from None
        if parsed.get_backend_name() not in _BACKENDS:
            raise DatabaseUnusable("must be a sqlite:/// or postgresql:// URL") from None
        if parsed.get_backend_name() != "sqlite":
            try:
                # Replicas keep connections for hours; the server or a proxy may drop them.
                engine = create_engine(parsed, pool_pre_ping=True)
            except ModuleNotFoundError:
                raise DatabaseUnusable(
                    f"names the driver {parsed.get_driver_name()}, which is not installed:"
                    " write postgresql:// (the bot uses psycopg 3)"
                ) from None
            event.listen(engine, "begin", _begin_postgresql)
            return cls(engine)
        if not parsed.database or parsed.database == ":memory:":
            # Every pooled connection to ":memory:" would be a database of its own.
            return cls(
                _sqlite_engine(parsed, StaticPool, _prepare_sqlite_connection, _begin_immediate)
            )
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = _sqlite_engine(parsed, None, _prepare_sqlite_connection, _begin_immediate)
        unwaiting = _sqlite_engine(parsed, StaticPool, _prepare_unwaiting_connection)
        return cls(engine, UnwaitingConnection(unwaiting))

    @property
    def url(self) -> str:
        """The database's URL, password included (a secret: never log it)."""
        return self._engine.url.render_as_string(hide_password=False)

    @property
    def is_sqlite(self) -> bool:
        """Whether this is a SQLite database."""
        return self._engine.dialect.name == "sqlite"

    def migrate(self) -> bool | None:
        """Bring the schema to the newest migration, in one transaction: True when it created
        the schema in an empty database, False when it upgraded one, None when it was current."""
        # Alembic (and Mako, Pygments) is imported by migrating alone: a process handed a
        # migrated database, as the tests are, never needs it.
        from alembic import command
        from alembic.runtime.migration import MigrationContext

        with self.migration_connection() as connection:
            # Alembic reads every script again on each upgrade, which costs each start
            # milliseconds; a database at the newest revision needs none of it.
            current = frozenset(MigrationContext.configure(connection).get_current_heads())
            if current == _heads():
                return None
            config = _alembic_config()
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
            return not current

    @contextmanager
    def migration_connection(self) -> Iterator[Connection]:
        """A connection in a transaction that is safe to migrate in; committed on exit."""
        with self._connection() as connection:
            fk_paused = _foreign_keys_off(connection) if self.is_sqlite else nullcontext()
            with fk_paused, connection.begin():
                if not self.is_sqlite:
                    # Replicas starting together would otherwise each create the tables.
                    connection.exec_driver_sql(
                        f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK_ID})"
                    )
                yield connection
                if self.is_sqlite:
                    _check_foreign_keys(connection)

    @contextmanager
    def _connection(self) -> Iterator[Connection]:
        try:
            connection = self._engine.connect()
        except OperationalError as err:
            raise DatabaseUnusable(_unconnected(err)) from None
        with connection:
            yield connection

    async def run(self, work: Callable[[Session], T], *, synced: bool = True) -> T:
        """Run ``work`` in a worker thread, in one transaction (see ``run_sync``).

        Cancelling the caller does not stop ``work``: it still commits or rolls back in its
        thread, so a cancelled caller cannot tell which; the database is left consistent.
        """
        return await asyncio.to_thread(self.run_sync, work, synced=synced)

    async def read(self, work: Callable[[Session], T]) -> T:
        """Run ``work``, which only reads, in a worker thread, in one transaction that waits
        for no write under way: SQLite's WAL lets a reader see the last commit meanwhile."""
        return await asyncio.to_thread(self._read_sync, work)

    def _read_sync(self, work: Callable[[Session], T]) -> T:
        if self._reader is None:
            return self.run_sync(work)
        with (
            Session(self._reader, expire_on_commit=False) as session,
            session.begin(),
        ):
            return work(session)

    async def run_brief(self, work: Callable[[DriverTransaction], T]) -> T:
        """Run ``work`` in one transaction whose commit does not wait for the disk, as
        ``run(work, synced=False)`` does, in this thread when it can start at once: an
        update's first, which its answer waits for.

        ``work`` runs prepared statements alone. A worker thread costs such a transaction
        more than its work (about a millisecond, mostly spent waiting for the event loop to
        let go of the GIL), and an ORM session as much again. On a SQLite file it runs here,
        on a connection of its own that never waits: not for the write lock (another
        process's write sends the work to a worker thread after all) nor for the disk. A
        PostgreSQL transaction is a network round trip: always a worker thread's.

        ``work`` may so start twice: the refused start is refused at its BEGIN.
        """
        turn = self._turn
        if self._unwaiting is None or turn is None or not turn.acquire(blocking=False):
            return await asyncio.to_thread(self._brief_sync, work)
        try:
            return self._unwaiting.run(work)
        except Busy:
            pass
        finally:
            turn.release()
        return await asyncio.to_thread(self._brief_sync, work)

    def _brief_sync(self, work: Callable[[DriverTransaction], T]) -> T:
        with (
            self._turn or nullcontext(),
            self._unsynced.connect() as connection,
            connection.begin(),
        ):
            return work(DriverTransaction(connection.dialect, connection.connection))

    def run_sync(self, work: Callable[[Session], T], *, synced: bool = True) -> T:
        """Run ``work`` in one transaction: commit when it returns, roll back when it raises.

        Unless ``synced``, the commit does not wait for the disk. The database's log is
        written in order, so it is on the disk with the next commit that waits: a power cut
        can lose it only together with everything committed after it.
        """
        # Rows stay readable after the commit, so work can return them to async callers.
        with (
            self._turn or nullcontext(),
            Session(self._engine if synced else self._unsynced, expire_on_commit=False) as session,
            session.begin(),
        ):
            return work(session)

    def leadership(self, name: str) -> Leadership:
        """A lock named ``name`` that one process of this database holds at a time."""
        lock = leadership_for(self._engine, name)
        self._leaderships.append(lock)
        return lock

    def dispose(self) -> None:
        """Let go of every lock, and close every pooled connection."""
        for lock in self._leaderships:
            lock.release()
        self._leaderships.clear()
        self._engine.dispose()
        if self._unwaiting is not None:
            self._unwaiting.close()


def _alembic_config() -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    config.set_main_option("path_separator", "os")
    return config


def _unconnected(err: OperationalError) -> str:
    """Why no connection was made: the server refused it (a role or database that does not
    exist, a wrong password), or no server answered."""
    # The driver's first line says why ("Connection refused"); the rest is advice.
    reason = str(err.orig or err).strip().splitlines()[0]
    refusal = reason.partition("FATAL:")[2]
    if refusal:
        # A server that answers FATAL answered: the role, the database or the password is
        # what is wrong, not the network.
        return f"was refused by its server: {' '.join(refusal.split())}"
    return f"names a server that does not answer: {reason}"


@cache
def _heads() -> frozenset[str]:
    """The newest revisions of the scripts, read once: they do not change under a process."""
    from alembic.script import ScriptDirectory

    return frozenset(ScriptDirectory.from_config(_alembic_config()).get_heads())


def _normalised_url(url: str) -> URL:
    parsed = make_url(url)
    if parsed.drivername in {"postgres", "postgresql"}:
        return parsed.set(drivername="postgresql+psycopg")
    return parsed


def _run_pragmas(dbapi_connection: DBAPIConnection, *pragmas: str) -> None:
    cursor = dbapi_connection.cursor()
    try:
        for pragma in pragmas:
            cursor.execute(f"PRAGMA {pragma}")
    finally:
        cursor.close()


def _sqlite_engine(
    url: URL,
    pool: type[StaticPool] | None,
    prepare: Callable[[DBAPIConnection, ConnectionPoolEntry], None],
    begin: Callable[[Connection], None] | None = None,
) -> Engine:
    pooling: dict[str, Any] = {} if pool is None else {"poolclass": pool}
    engine = create_engine(url, connect_args={"check_same_thread": False}, **pooling)
    event.listen(engine, "connect", prepare)
    if begin is not None:
        event.listen(engine, "begin", begin)
    return engine


def _prepare_sqlite_connection(dbapi_connection: DBAPIConnection, _: ConnectionPoolEntry) -> None:
    # sqlite3 would otherwise start transactions itself, lazily and only before writes.
    dbapi_connection.isolation_level = None
    _run_pragmas(dbapi_connection, *_SQLITE_PRAGMAS)


def _prepare_unwaiting_connection(
    dbapi_connection: DBAPIConnection, entry: ConnectionPoolEntry
) -> None:
    _prepare_sqlite_connection(dbapi_connection, entry)
    _run_pragmas(dbapi_connection, *_UNWAITING_PRAGMAS)


def _begin_immediate(connection: Connection) -> None:
    # Taking the write lock up front lets busy_timeout queue writers; a deferred transaction
    # that reads, then writes, fails at once with "database is locked" under WAL. A reader's
    # never writes, so it need not queue behind the writers.
    options = connection.get_execution_options()
    if options.get(_READER, False):
        connection.exec_driver_sql("BEGIN")
        return
    # Set before a write that needs another than the connection keeps from its last one
    # (a statement less for most); SQLite refuses it inside a transaction.
    synchronous = "NORMAL" if options.get(_UNSYNCED, False) else "FULL"
    if connection.info.get(_SYNCHRONOUS) != synchronous:
        connection.exec_driver_sql(f"PRAGMA synchronous={synchronous}")
        connection.info[_SYNCHRONOUS] = synchronous
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def _begin_postgresql(connection: Connection) -> None:
    if connection.get_execution_options().get(_UNSYNCED, False):
        connection.exec_driver_sql("SET LOCAL synchronous_commit TO OFF")


@contextmanager
def _foreign_keys_off(connection: Connection) -> Iterator[None]:
    # Batch migrations rebuild a table by dropping it; with foreign keys on, that drop would
    # cascade into every child row. The pragma is ignored inside a transaction, so it is
    # set on the raw connection before the migration's transaction begins.
    dbapi_connection = connection.connection.dbapi_connection
    assert dbapi_connection is not None
    _run_pragmas(dbapi_connection, "foreign_keys=OFF")
    try:
        yield
    finally:
        _run_pragmas(dbapi_connection, "foreign_keys=ON")


def _check_foreign_keys(connection: Connection) -> None:
    broken: list[Any] = list(connection.exec_driver_sql("PRAGMA foreign_key_check"))
    if broken:
        raise MigrationError(f"migration broke foreign keys: {broken[:5]}")
