"""A SQLite connection that never waits, for the transactions an update's answer waits for."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import Engine
from sqlalchemy.pool import PoolProxiedConnection

from storage.prepared import DriverTransaction

__all__ = ["UnwaitingConnection"]

T = TypeVar("T")


class UnwaitingConnection:
    """The one connection of ``engine``, held open, on which transactions begin and end on the
    driver itself.

    ``engine``'s connections must never wait: not for the write lock (``busy_timeout=0``, so a
    BEGIN another connection holds the lock against fails at once) nor for the disk (unsynced
    commits, and no checkpoints: they wait for it, and the pooled connections run them). It
    is not thread-safe: its owner uses it while it holds the process's write turn.
    """

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._held: PoolProxiedConnection | None = None

    def run(self, work: Callable[[DriverTransaction], T]) -> T:
        """Run ``work`` in one transaction: committed when it returns, rolled back when it
        raises; a BEGIN refused for a lock raises ``sqlite3.OperationalError`` (busy)."""
        if self._held is None:
            self._held = self._engine.raw_connection()
        connection = self._held.driver_connection
        assert connection is not None, "held open until closed"
        cursor = connection.cursor()
        try:
            cursor.execute("BEGIN IMMEDIATE")
            try:
                result = work(DriverTransaction(self._engine.dialect, connection))
                cursor.execute("COMMIT")
            except BaseException:
                connection.rollback()
                raise
            return result
        finally:
            cursor.close()

    def close(self) -> None:
        """Close the connection; a later ``run`` opens it again."""
        if self._held is not None:
            self._held.close()
            self._held = None
        self._engine.dispose()
