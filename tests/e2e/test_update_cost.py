"""What one update costs the database: the chat user and their stored session are read with
the replay check. Counted by SQLite itself (its trace of each statement a connection runs),
so a transaction begun past SQLAlchemy counts as much as one begun through it."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import event
from sqlalchemy.pool import ConnectionPoolEntry, Pool

from tests.e2e.order_labels import SHORT
from tests.e2e.telegram_rig import ALICE, telegram_rig
from tests.e2e.test_telegram import order


@dataclass(frozen=True)
class Traced:
    """A statement as SQLite ran it: on which connection, in which thread."""

    statement: str
    connection: int
    thread: int


@pytest.fixture
def traced() -> Iterator[list[Traced]]:
    """Each statement every SQLite connection opened meanwhile runs."""
    statements: list[Traced] = []

    def trace(connection: sqlite3.Connection, _: ConnectionPoolEntry) -> None:
        connection.set_trace_callback(
            lambda statement: statements.append(
                Traced(statement, id(connection), threading.get_ident())
            )
        )

    event.listen(Pool, "connect", trace)
    try:
        yield statements
    finally:
        event.remove(Pool, "connect", trace)


def transactions(statements: list[Traced]) -> list[list[Traced]]:
    """The transactions the statements ran in, each from its BEGIN to its end; a statement
    run outside one (SQLite commits it on its own) is a transaction of its own, but for a
    connection's settings (PRAGMA)."""
    ended: list[list[Traced]] = []
    open_on: dict[int, list[Traced]] = {}
    for traced in statements:
        under_way = open_on.get(traced.connection)
        if traced.statement.startswith("BEGIN"):
            open_on[traced.connection] = [traced]
        elif under_way is None:
            if not traced.statement.startswith("PRAGMA"):
                ended.append([traced])
        else:
            under_way.append(traced)
            if traced.statement in {"COMMIT", "ROLLBACK"}:
                ended.append(open_on.pop(traced.connection))
    return ended + list(open_on.values())


def writes(statements: list[Traced]) -> list[list[Traced]]:
    """The committed transactions that wrote."""
    return [
        transaction
        for transaction in transactions(statements)
        if transaction[-1].statement == "COMMIT"
        and any(t.statement.startswith(("INSERT", "UPDATE", "DELETE")) for t in transaction)
    ]


async def test_a_balance_asked_costs_one_transaction(tmp_path: Path, traced: list[Traced]) -> None:
    # No delivery round nor lease renewal during the answer.
    async with telegram_rig(
        tmp_path, poll_interval_seconds=600.0, delivery_lease_seconds=600.0
    ) as rig:
        await rig.log_in()
        before = len(traced)
        await rig.says(ALICE, "/bakiye", "Bakiyeniz")
        during = traced[before:]

    # The replay check, with the chat user and the stored session for the upstream call.
    found = transactions(during)
    assert len(found) == 1, during
    (check,) = found
    # On the event loop's own thread: a worker thread would cost it more than its work.
    assert {t.thread for t in check} == {threading.get_ident()}
    assert check[-1].statement == "COMMIT"


async def test_a_confirm_press_buys_in_one_call_and_asks_no_balance_while_plenty(
    tmp_path: Path, traced: list[Traced]
) -> None:
    async with telegram_rig(
        tmp_path, poll_interval_seconds=600.0, delivery_lease_seconds=600.0
    ) as rig:
        await rig.log_in()
        summary = await order(rig, SHORT)
        log = rig.sandbox.state.request_log
        calls_before = len(log)
        before = len(traced)
        await rig.presses(ALICE, summary, "Onayla", "Siparişiniz alındı")
        # The press's last work: the progress line's message recorded with its job.
        await rig.telegram.wait_for(
            lambda: any(
                t.statement.startswith("UPDATE job SET progress_message_id")
                for t in traced[before:]
            )
        )
        during = traced[before:]
        called = [path.rsplit("/", 1)[-1] for _, path in log[calls_before:]]

    assert rig.sandbox.state.create_count == 1
    # One create call; the summary's balance (500 TL) plainly pays for more: no balance call.
    assert called == ["makale-olustur"]
    # The replay check (with the session for the create call), the submission, the job
    # recorded; then the progress line's three.
    assert len(transactions(during)) == 6, during


async def test_a_new_users_first_update_is_marked_in_the_transaction_that_makes_their_row(
    tmp_path: Path, traced: list[Traced]
) -> None:
    async with telegram_rig(tmp_path) as rig:
        before = len(traced)
        await rig.says(ALICE, "/yardim", "/makalelerim")
        during = traced[before:]

    made = [
        transaction
        for transaction in writes(during)
        if any(t.statement.startswith("INSERT INTO chat_user") for t in transaction)
    ]
    # Apart, a failure between them would leave the update marked and never answered.
    assert len(made) == 1, during
    assert any(t.statement.startswith("INSERT INTO processed_update") for t in made[0])
    marks = [
        transaction
        for transaction in writes(during)
        if any(t.statement.startswith("INSERT INTO processed_update") for t in transaction)
    ]
    assert marks == made, "the update's mark is committed once, with the row"
