"""``GET /health``: whether this process can do its work, for the host's health check.

The body holds states and ages only: no secret, no user, no address.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from bot.core.clock import Clock
from bot.core.operations.operations import Operations
from storage import Database, stats

__all__ = ["DATABASE_PATIENCE", "OVERDUE_ROUNDS", "HealthCheck"]

log = logging.getLogger(__name__)

# A database that does not answer a trivial query this fast counts as down.
DATABASE_PATIENCE = 3.0
# Delivery is stuck when its last round ended this many intervals ago (and at least a minute).
OVERDUE_ROUNDS = 5
_OVERDUE_FLOOR = timedelta(minutes=1)

Connected = Callable[[], Awaitable[bool]]


@dataclass(frozen=True, slots=True)
class HealthCheck:
    """Checks the database, the delivery rounds (where this process delivers) and the chats."""

    db: Database
    operations: Operations
    clock: Clock
    poll_interval: timedelta
    delivers: Callable[[], bool]
    chats: Mapping[str, Connected]

    async def __call__(self) -> tuple[bool, dict[str, Any]]:
        """Whether the process is healthy, and the body that says why."""
        database = await self._database_answers()
        chats = {name: {"connected": await connected()} for name, connected in self.chats.items()}
        body: dict[str, Any] = {"database": database, "chats": chats}
        healthy = database
        if self.delivers():
            last = self.operations.last_round_at or self.operations.started_at
            age = self.clock() - last
            overdue = age > max(self.poll_interval * OVERDUE_ROUNDS, _OVERDUE_FLOOR)
            body["delivery"] = {
                "last_round_seconds_ago": round(age.total_seconds(), 1),
                "overdue": overdue,
            }
            healthy = healthy and not overdue
        body["status"] = "ok" if healthy else "unavailable"
        return healthy, body

    async def _database_answers(self) -> bool:
        try:
            return await asyncio.wait_for(self.db.run(stats.ping), DATABASE_PATIENCE)
        # Whatever the driver raises (refused, reset, timed out) means the same here.
        except Exception as err:  # noqa: BLE001
            log.warning("health: the database does not answer: %r", err)
            return False
