"""What one update costs the database: the chat user and their stored session are read with
the replay check."""

from __future__ import annotations

import threading
from pathlib import Path

from sqlalchemy import Connection, Engine, event

from tests.e2e.order_labels import SHORT
from tests.e2e.telegram_rig import ALICE, telegram_rig
from tests.e2e.test_telegram import order


async def test_a_balance_asked_costs_one_transaction(tmp_path: Path) -> None:
    # No delivery round nor lease renewal during the answer.
    async with telegram_rig(
        tmp_path, poll_interval_seconds=600.0, delivery_lease_seconds=600.0
    ) as rig:
        await rig.log_in()
        begun: list[tuple[str | None, int]] = []

        def on_begin(connection: Connection) -> None:
            begun.append((connection.engine.url.database, threading.get_ident()))

        event.listen(Engine, "begin", on_begin)
        try:
            await rig.says(ALICE, "/bakiye", "Bakiyeniz")
        finally:
            event.remove(Engine, "begin", on_begin)

    # The replay check, with the chat user and the stored session for the upstream call.
    assert len(begun) == 1, begun
    # On the event loop's own thread: a worker thread would cost it more than its work.
    assert begun[0][1] == threading.get_ident()


async def test_a_confirm_press_buys_in_one_call_and_asks_no_balance_while_plenty(
    tmp_path: Path,
) -> None:
    async with telegram_rig(
        tmp_path, poll_interval_seconds=600.0, delivery_lease_seconds=600.0
    ) as rig:
        await rig.log_in()
        summary = await order(rig, SHORT)
        log = rig.sandbox.state.request_log
        calls_before = len(log)
        begun: list[str] = []
        statements: list[str] = []

        def on_begin(connection: Connection) -> None:
            begun.append(str(connection.engine.url.database))

        def on_statement(
            connection: Connection, cursor: object, statement: str, *_: object
        ) -> None:
            statements.append(statement)

        event.listen(Engine, "begin", on_begin)
        event.listen(Engine, "before_cursor_execute", on_statement)
        try:
            await rig.presses(ALICE, summary, "Onayla", "Siparişiniz alındı")
            # The press's last work: the progress line's message recorded with its job.
            await rig.telegram.wait_for(
                lambda: any(s.startswith("UPDATE job SET progress_message_id") for s in statements)
            )
        finally:
            event.remove(Engine, "begin", on_begin)
            event.remove(Engine, "before_cursor_execute", on_statement)
        called = [path.rsplit("/", 1)[-1] for _, path in log[calls_before:]]

    assert rig.sandbox.state.create_count == 1
    # One create call; the summary's balance (500 TL) plainly pays for more: no balance call.
    assert called == ["makale-olustur"]
    # The replay check (with the session for the create call), the submission, the job
    # recorded; then the progress line's three.
    assert len(begun) == 6, begun
