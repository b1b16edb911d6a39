"""What one update costs the database: the chat user is read with the replay check."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Connection, Engine, event

from tests.e2e.telegram_rig import ALICE, telegram_rig


async def test_a_balance_asked_costs_two_transactions(tmp_path: Path) -> None:
    # No delivery round nor lease renewal during the answer.
    async with telegram_rig(
        tmp_path, poll_interval_seconds=600.0, delivery_lease_seconds=600.0
    ) as rig:
        await rig.log_in()
        begun: list[str | None] = []

        def on_begin(connection: Connection) -> None:
            begun.append(connection.engine.url.database)

        event.listen(Engine, "begin", on_begin)
        try:
            await rig.says(ALICE, "/bakiye", "Bakiyeniz")
        finally:
            event.remove(Engine, "begin", on_begin)

    # The replay check with the chat user, then the stored session for the upstream call.
    assert len(begun) == 2, begun
