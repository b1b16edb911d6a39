"""What one update costs the database: the chat user and their stored session are read with
the replay check. Counted by SQLite itself (its trace of each statement a connection runs),
so a transaction begun past SQLAlchemy counts as much as one begun through it."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import event
from sqlalchemy.pool import ConnectionPoolEntry, Pool

from tests.e2e.order_labels import SHORT
from tests.e2e.telegram_rig import ALICE, telegram_rig
from tests.e2e.test_telegram import order


@pytest.fixture
def traced() -> Iterator[list[tuple[str, int]]]:
    """Each statement every SQLite connection opened meanwhile runs, with its thread."""
    statements: list[tuple[str, int]] = []

    def trace(connection: sqlite3.Connection, _: ConnectionPoolEntry) -> None:
        connection.set_trace_callback(
            lambda statement: statements.append((statement, threading.get_ident()))
        )

    event.listen(Pool, "connect", trace)
    try:
        yield statements
    finally:
        event.remove(Pool, "connect", trace)


def begun(statements: list[tuple[str, int]]) -> list[int]:
    """The threads of the transactions begun."""
    return [thread for statement, thread in statements if statement.startswith("BEGIN")]


async def test_a_balance_asked_costs_one_transaction(
    tmp_path: Path, traced: list[tuple[str, int]]
) -> None:
    # No delivery round nor lease renewal during the answer.
    async with telegram_rig(
        tmp_path, poll_interval_seconds=600.0, delivery_lease_seconds=600.0
    ) as rig:
        await rig.log_in()
        before = len(traced)
        await rig.says(ALICE, "/bakiye", "Bakiyeniz")
        during = traced[before:]

    # The replay check, with the chat user and the stored session for the upstream call.
    assert len(begun(during)) == 1, during
    # On the event loop's own thread: a worker thread would cost it more than its work.
    assert begun(during) == [threading.get_ident()]


async def test_a_confirm_press_buys_in_one_call_and_asks_no_balance_while_plenty(
    tmp_path: Path, traced: list[tuple[str, int]]
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
                statement.startswith("UPDATE job SET progress_message_id")
                for statement, _ in traced[before:]
            )
        )
        during = traced[before:]
        called = [path.rsplit("/", 1)[-1] for _, path in log[calls_before:]]

    assert rig.sandbox.state.create_count == 1
    # One create call; the summary's balance (500 TL) plainly pays for more: no balance call.
    assert called == ["makale-olustur"]
    # The replay check (with the session for the create call), the submission, the job
    # recorded; then the progress line's three.
    assert len(begun(during)) == 6, during
