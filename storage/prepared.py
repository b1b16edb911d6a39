"""Statements compiled once per database and run on its driver's own cursor.

For the few that every update waits for: SQLAlchemy's execution (a context, events, a
result object per statement) costs them more than the database takes to run them, most of
all on the cold caches an update finds; so does an ORM session around them, which is why
they also run in a ``DriverTransaction`` (``Database.run_brief``). The statements are still
SQLAlchemy's, compiled by it for the transaction's dialect, and each value still goes
through its column's type both ways, so a row read here equals the same row read through
SQLAlchemy.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from sqlalchemy import Dialect, inspect
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.orm import configure_mappers
from sqlalchemy.orm.instrumentation import ClassManager
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.dml import ReturningInsert, Update
from sqlalchemy.sql.selectable import Select
from sqlmodel import Session, SQLModel

__all__ = ["DriverTransaction", "Prepared", "Transaction", "loaded", "on_driver"]

_Processor = Callable[[Any], Any] | None
M = TypeVar("M", bound=SQLModel)


@dataclass(frozen=True, slots=True)
class DriverTransaction:
    """A transaction under way on a driver's own connection, begun and ended by its owner:
    prepared statements run in it, and nothing else does (no ORM, no SQLAlchemy execution)."""

    dialect: Dialect
    connection: DBAPIConnection


# Where a prepared statement runs: an ORM session's transaction, or a driver's own.
Transaction = Session | DriverTransaction


def on_driver(transaction: Transaction) -> DriverTransaction:
    """The transaction as its driver's: the dialect and the connection it runs on."""
    if isinstance(transaction, DriverTransaction):
        return transaction
    connection = transaction.connection()
    return DriverTransaction(connection.dialect, connection.connection)


@dataclass(frozen=True, slots=True)
class _Compiled:
    sql: str
    # The parameters' names in their order, for a positional paramstyle (SQLite's "?").
    positions: tuple[str, ...] | None
    binds: Mapping[str, _Processor]
    results: tuple[_Processor, ...]
    row: Callable[..., tuple[Any, ...]]

    def parameters(self, values: Mapping[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        processed = {
            name: value if process is None else process(value)
            for name, process in self.binds.items()
            for value in (values[name],)
        }
        if self.positions is None:
            return processed
        return tuple(processed[name] for name in self.positions)

    def read(self, raw: tuple[Any, ...]) -> tuple[Any, ...]:
        pairs = zip(self.results, raw, strict=True)
        return self.row(*(v if process is None else process(v) for process, v in pairs))


class Prepared:
    """A statement run past SQLAlchemy's execution; the columns of a row it returns are read
    by name (``row.access_token``)."""

    def __init__(self, statement: Select[Any] | ReturningInsert[Any] | Update) -> None:
        self._statement = statement
        self._by_dialect: dict[str, _Compiled] = {}

    def first(self, transaction: Transaction, values: Mapping[str, Any]) -> Any | None:
        """The statement's first row with these values bound, in the transaction."""
        return self._run(transaction, values, fetch=True)

    def execute(self, transaction: Transaction, values: Mapping[str, Any]) -> None:
        """Run the statement, which returns no rows, with these values bound."""
        self._run(transaction, values, fetch=False)

    def _run(self, transaction: Transaction, values: Mapping[str, Any], *, fetch: bool) -> Any:
        driver = on_driver(transaction)
        compiled = self._compiled(driver.dialect)
        cursor = driver.connection.cursor()
        try:
            cursor.execute(compiled.sql, compiled.parameters(values))
            raw = cursor.fetchone() if fetch else None
        finally:
            cursor.close()
        return None if raw is None else compiled.read(raw)

    def _compiled(self, dialect: Dialect) -> _Compiled:
        found = self._by_dialect.get(dialect.name)
        if found is None:
            found = self._by_dialect[dialect.name] = _compile(self._statement, dialect)
        return found


def loaded(model: type[M], values: Mapping[str, Any]) -> M:
    """The object of a row read here, made as the ORM makes the rows it loads: past the
    model's constructor, which fills in defaults, fires events and validates, and costs an
    update's answer more than reading the row did. ``values`` holds every column."""
    instance: M = _class_manager(model).new_instance()
    instance.__dict__.update(values)
    return instance


@cache
def _class_manager(model: type[SQLModel]) -> ClassManager[Any]:
    configure_mappers()
    manager: ClassManager[Any] = inspect(model).class_manager
    return manager


def _compile(statement: Select[Any] | ReturningInsert[Any] | Update, dialect: Dialect) -> _Compiled:
    compiled = statement.compile(dialect=dialect)
    assert isinstance(compiled, SQLCompiler)
    columns = list(statement.exported_columns)
    binds = {
        name: bind.type.dialect_impl(dialect).bind_processor(dialect)
        for name, bind in compiled.binds.items()
    }
    results = tuple(
        column.type.dialect_impl(dialect).result_processor(dialect, None) for column in columns
    )
    row = namedtuple("Row", [column.key for column in columns])  # type: ignore[misc]
    positions = None if compiled.positiontup is None else tuple(compiled.positiontup)
    return _Compiled(compiled.string, positions, binds, results, row)
