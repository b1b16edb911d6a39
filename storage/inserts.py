"""INSERT ... ON CONFLICT for SQLite and PostgreSQL, the two dialects the bot runs on."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from sqlalchemy import ColumnClause, ColumnElement, column
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Session, SQLModel

from storage.prepared import Prepared, Transaction, on_driver

__all__ = ["dialect_insert", "dialect_insert_for", "insert_if_absent", "insert_values_if_absent"]


def dialect_insert(session: Session, model: type[SQLModel]) -> sqlite.Insert | postgresql.Insert:
    """An INSERT into the model's table that can say what to do on a conflict."""
    return dialect_insert_for(session.get_bind().dialect.name, model)


def dialect_insert_for(dialect: str, model: type[SQLModel]) -> sqlite.Insert | postgresql.Insert:
    """``dialect_insert`` for a dialect named (``sqlite`` or ``postgresql``)."""
    return sqlite.insert(model) if dialect == "sqlite" else postgresql.insert(model)


def insert_if_absent(
    session: Session,
    row: SQLModel,
    *,
    key: Sequence[str],
    where: ColumnElement[bool] | None = None,
) -> bool:
    """Insert the row unless one with the same ``key`` columns exists; whether it was inserted.

    ``where`` names the rows a partial unique index covers (e.g. clients not removed).

    One statement, so two transactions racing for one key never fail: the loser waits for
    the winner and then inserts nothing.
    """
    values = row.model_dump(exclude={"id"} if getattr(row, "id", None) is None else set())
    # RETURNING rather than rowcount, which an INSERT does not report through psycopg here.
    returning: list[ColumnClause[Any]] = [column(name) for name in key]
    statement = (
        dialect_insert(session, type(row))
        .values(values)
        .on_conflict_do_nothing(index_elements=key, index_where=where)
        .returning(*returning)
    )
    return session.exec(statement).first() is not None


def insert_values_if_absent(
    transaction: Transaction,
    model: type[SQLModel],
    values: Mapping[str, Any],
    *,
    key: tuple[str, ...],
) -> bool:
    """``insert_if_absent`` for a row given as its column values (every one, defaults too),
    for the rows written on every update: its statement is compiled once, and it runs past
    the ORM (so it flushes nothing pending) and past SQLAlchemy's execution."""
    driver = on_driver(transaction)
    statement = _insert_if_absent(driver.dialect.name, model, key)
    return statement.first(driver, values) is not None


@cache
def _insert_if_absent(dialect: str, model: type[SQLModel], key: tuple[str, ...]) -> Prepared:
    returning: list[ColumnClause[Any]] = [column(name) for name in key]
    return Prepared(
        dialect_insert_for(dialect, model)
        .on_conflict_do_nothing(index_elements=key)
        .returning(*returning)
    )
