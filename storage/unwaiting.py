"""A SQLite connection that never waits, for the transactions an update's answer waits for."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy import Engine
from sqlalchemy.pool import PoolProxiedConnection

from storage.prepared import DriverTransaction

__all__ = ["Busy", "UnwaitingConnection"]

T = TypeVar("T")


class Busy(Exception):
    """Another connection holds SQLite's write lock: the transaction was not begun."""


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
        raises; ``Busy`` when the transaction cannot begin at once."""
        if self._held is None:
            self._held = self._engine.raw_connection()
        connection = self._held.driver_connection
        assert connection is not None, "held open until dropped"
        cursor = connection.cursor()
        try:
            try:
                cursor.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as err:
                if _busy(err):
                    raise Busy from err
                raise
            try:
                result = work(DriverTransaction(self._engine.dialect, connection))
                cursor.execute("COMMIT")
            except BaseException:
                self._roll_back(connection)
                raise
            return result
        finally:
            cursor.close()

    def _roll_back(self, connection: sqlite3.Connection) -> None:
        try:
            connection.rollback()
        finally:
            # A transaction left open would hold the write lock against every process.
            if connection.in_transaction:
                self._drop()

    def _drop(self) -> None:
        if self._held is not None:
            self._held.invalidate()
            self._held = None

    def close(self) -> None:
        """Close the connection; a later ``run`` opens it again."""
        if self._held is not None:
            self._held.close()
            self._held = None
        self._engine.dispose()


def _busy(err: sqlite3.OperationalError) -> bool:
    """Whether SQLite refused because another connection holds a lock."""
    return err.sqlite_errorcode & 0xFF in {sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED}
