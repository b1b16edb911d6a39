"""Destinations besides the chat: the port each kind implements, and the runner of their
delivery records.

Each place a job's article goes besides its chat (a client's site) is one delivery record
(``storage.deliveries``) with its own progress, failures in a row, next try and lease. The
runner claims the due records of the kinds registered with it and hands each to its kind's
``Destination``; it knows no kind itself. A target's records go one after another (a host
locks up when many posts arrive at once), different targets side by side, so one that is
down holds back neither the chat nor any other target. Every write is fenced on the lease.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Protocol

from bot.core.clock import Clock
from bot.core.delivery.waits import failure_wait
from storage import Database, deliveries
from storage.models import DeliveryRecord, Job

__all__ = ["Delivered", "Destination", "Destinations", "Halted", "Later", "Outcome"]

log = logging.getLogger(__name__)

# Records claimed in one round; the rest are taken in the next.
_PER_ROUND = 100


@dataclass(frozen=True, slots=True)
class Delivered:
    """The article is there; ``progress`` is what the destination keeps of it (a post's id)."""

    progress: str


@dataclass(frozen=True, slots=True)
class Later:
    """Not now (the destination did not answer): tried again after a wait that grows."""


@dataclass(frozen=True, slots=True)
class Halted:
    """Not until its owner acts (a refusal, a paused plan): due again when they have."""


Outcome = Delivered | Later | Halted


class Destination(Protocol):
    """One kind of place an article goes besides its chat (a client's site)."""

    async def deliver(self, record: DeliveryRecord, job: Job) -> Outcome:
        """Write the job's article there, from the record's progress on."""


class Destinations:
    """Claims the due delivery records of the registered kinds and delivers each once."""

    def __init__(
        self,
        *,
        db: Database,
        clock: Clock,
        owner: str,
        registry: Mapping[str, Destination],
        retry: timedelta,
        max_wait: timedelta,
        lease_for: timedelta,
    ) -> None:
        self._db = db
        self._clock = clock
        self._owner = owner
        self._registry = registry
        self._retry = retry
        self._max_wait = max_wait
        self._lease_for = lease_for

    async def run_due(self) -> None:
        """Deliver every due record: a target's one after another, targets side by side."""
        if not self._registry:
            return
        now, kinds = self._clock(), list(self._registry)
        claimed = await self._db.run(
            lambda s: deliveries.claim_due(
                s,
                kinds=kinds,
                owner=self._owner,
                now=now,
                until=now + self._lease_for,
                limit=_PER_ROUND,
            )
        )
        by_target: dict[tuple[str, str], list[tuple[DeliveryRecord, Job]]] = {}
        for record, job in claimed:
            by_target.setdefault((record.kind, record.target), []).append((record, job))
        await asyncio.gather(*(self._in_turn(records) for records in by_target.values()))

    async def _in_turn(self, records: list[tuple[DeliveryRecord, Job]]) -> None:
        for record, job in records:
            await self._one(record, job)

    async def _one(self, record: DeliveryRecord, job: Job) -> None:
        assert record.id is not None
        record_id, until = record.id, self._clock() + self._lease_for
        # Its turn may come late behind its target's others: still ours, for a whole write.
        if not await self._db.run(
            lambda s: deliveries.extend(s, record_id=record_id, owner=self._owner, until=until)
        ):
            return
        try:
            outcome = await self._registry[record.kind].deliver(record, job)
        # The boundary between records: one's bug must not stop every other's delivery.
        except Exception:
            log.exception("delivery record %s of job %s failed unexpectedly", record.id, job.id)
            outcome = Later()
        await self._settle(record, outcome)

    async def _settle(self, record: DeliveryRecord, outcome: Outcome) -> None:
        """Keep the outcome and hand the lease back, fenced on it."""
        assert record.id is not None
        progress, done, failures, next_try = record.progress, False, 0, None
        match outcome:
            case Delivered():
                progress, done = outcome.progress, True
            case Later():
                failures = record.failures + 1
                wait = failure_wait(self._retry, record.failures, self._max_wait)
                next_try = self._clock() + wait
                log.warning("delivery record %s put off until %s", record.id, next_try)
            case Halted():
                failures = record.failures
        record_id = record.id
        settled = await self._db.run(
            lambda s: deliveries.settle(
                s,
                record_id=record_id,
                owner=self._owner,
                progress=progress,
                done=done,
                failures=failures,
                next_try_at=next_try,
            )
        )
        if not settled:
            log.warning("delivery record %s: lease lost, left to its new owner", record.id)
