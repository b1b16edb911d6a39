"""Which process delivers: one lock per name, held by at most one process of a database.

On PostgreSQL the lock is a session-level advisory lock on a connection kept for it: the
server frees it the moment that connection ends, so a killed process hands over at once
and one that lost its connection learns it on the next check. On SQLite, whose processes
share one host, it is an exclusive ``flock`` on a file beside the database, which the
kernel frees when the process dies. An in-memory database belongs to one process only.
"""

from __future__ import annotations

import fcntl
import hashlib
import logging
import os
from pathlib import Path
from typing import Protocol

from sqlalchemy import Connection, Engine, text
from sqlalchemy.exc import DBAPIError

__all__ = ["AdvisoryLock", "FileLock", "Leadership", "OwnLock", "leadership_for"]

log = logging.getLogger(__name__)


class Leadership(Protocol):
    """A lock this process may hold; both calls are cheap when nothing changes."""

    def acquire(self) -> bool:
        """Take the lock if free, or confirm it is still held; whether this process holds it."""

    def release(self) -> None:
        """Let another process take it."""


def _key(name: str) -> int:
    """A stable signed 64-bit advisory lock key for a name."""
    digest = hashlib.blake2b(f"makale-bot:{name}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class AdvisoryLock:
    """A PostgreSQL session advisory lock on a connection of its own.

    Advisory locks belong to a whole database, so the key is made of the schema too: two
    bots in two schemas of one database (or tests side by side) never share a lock.
    """

    def __init__(self, engine: Engine, name: str) -> None:
        self._engine = engine
        self._name = name
        self._connection: Connection | None = None
        self._key: int | None = None

    def acquire(self) -> bool:
        """Take or confirm the lock; a lost connection means it is lost too."""
        if self._connection is not None:
            try:
                self._connection.execute(text("SELECT 1"))
            except DBAPIError as err:
                log.warning("delivery lock lost with its connection: %r", err)
                self._close()
                return False
            return True
        try:
            connection = self._engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        except DBAPIError as err:
            log.warning("no connection for the delivery lock: %r", err)
            return False
        try:
            schema = connection.execute(text("SELECT current_schema()")).scalar_one()
            key = _key(f"{schema}:{self._name}")
            taken = connection.execute(
                text("SELECT pg_try_advisory_lock(:key)"), {"key": key}
            ).scalar_one()
        except DBAPIError as err:
            log.warning("could not ask for the delivery lock: %r", err)
            connection.invalidate()
            connection.close()
            return False
        if not taken:
            connection.close()
            return False
        self._connection, self._key = connection, key
        return True

    def release(self) -> None:
        """Unlock at once; the server would only notice a closed connection a moment later."""
        connection, key = self._connection, self._key
        self._connection = self._key = None
        if connection is None:
            return
        try:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": key})
        except DBAPIError:
            # The connection is gone, and the lock with it.
            connection.invalidate()
        finally:
            connection.close()

    def _close(self) -> None:
        connection, self._connection, self._key = self._connection, None, None
        if connection is not None:
            # Invalidated, not returned to the pool, where a lock could outlive us.
            connection.invalidate()
            connection.close()


class FileLock:
    """An exclusive ``flock`` on a file; the kernel frees it when the process ends."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._fd: int | None = None

    def acquire(self) -> bool:
        """Take the lock unless another process has it."""
        if self._fd is not None:
            return True
        fd = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def release(self) -> None:
        """Unlock (closing the file frees it)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)


class OwnLock:
    """A database no other process can open: this one always leads."""

    def acquire(self) -> bool:
        """Always held."""
        return True

    def release(self) -> None:
        """Nothing to let go."""


def leadership_for(engine: Engine, name: str) -> Leadership:
    """The right lock for the engine's database."""
    if engine.dialect.name != "sqlite":
        return AdvisoryLock(engine, name)
    database = engine.url.database
    if not database or database == ":memory:":
        return OwnLock()
    return FileLock(Path(f"{database}.{name}.lock"))
