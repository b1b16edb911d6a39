"""Destinations besides the chat: the port each kind implements, and the runner of their
delivery records with its registry of kinds.

Each place a job's article goes besides its chat (a client's site) is one delivery record
(``storage.deliveries``) with its own progress, failures in a row, next try and lease. The
runner claims the due records of the kinds registered with it and hands each to its kind's
``Destination``; it knows no kind itself. A target's records go one after another (a host
locks up when many posts arrive at once), different targets side by side, so one that is
down holds back neither the chat nor any other target. Its rounds are a scheduler job of
their own, so a target that hangs holds back nothing else either (the calendar's runs among
them). Every write is fenced on the lease, and a clean stop hands the leases back.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Protocol

from bot.core.clock import Clock
from bot.core.delivery.waits import failure_wait
from storage import Database, deliveries
from storage.models import DeliveryRecord, Job

__all__ = [
    "MAX_WAIT",
    "RECORD_LEASE",
    "RETRY",
    "Delivered",
    "Destination",
    "Destinations",
    "Halted",
    "Later",
    "Outcome",
]

log = logging.getLogger(__name__)

# Records claimed in one round; the rest are taken in the next.
_PER_ROUND = 100
# A record's lease: one write to a slow host, with its adapter's retries, fits in it.
RECORD_LEASE = timedelta(minutes=5)
# How long a destination that did not answer is left alone before the record is tried again;
# the wait doubles with each failure in a row, up to ``MAX_WAIT``.
RETRY = timedelta(minutes=5)
MAX_WAIT = timedelta(hours=2)


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
        retry: timedelta = RETRY,
        max_wait: timedelta = MAX_WAIT,
        lease_for: timedelta = RECORD_LEASE,
    ) -> None:
        self._db = db
        self._clock = clock
        self._owner = owner
        self._registry: dict[str, Destination] = {}
        self._retry = retry
        self._max_wait = max_wait
        self._lease_for = lease_for
        # The records leased here and not yet settled: handed back at a clean stop.
        self._held: set[int] = set()
        self._rounds: set[asyncio.Task[None]] = set()
        self._stopping = False

    def register(self, kind: str, destination: Destination) -> None:
        """Deliver the records of ``kind`` through ``destination`` from the next round on."""
        self._registry[kind] = destination

    async def scheduled_round(self) -> None:
        """The scheduler's round, in a task of its own that only ``stop`` may cut short (a
        scheduler's shutdown cancels whatever runs, which would leave its leases held)."""
        if self._stopping:
            return
        task = asyncio.create_task(self.run_due(), name="destinations round")
        self._rounds.add(task)
        task.add_done_callback(self._rounds.discard)
        await asyncio.wait({task})
        if not task.cancelled():
            task.result()

    def start(self) -> None:
        """Let the scheduler's rounds run again after a stop."""
        self._stopping = False

    async def stop(self, grace: float) -> None:
        """Let a round under way finish within ``grace`` seconds, cut it short after, and hand
        back the leases of the records it held, so another process resumes them at once."""
        self._stopping = True
        running = set(self._rounds)
        if running:
            _, late = await asyncio.wait(running, timeout=grace)
            for task in late:
                task.cancel()
            if late:
                await asyncio.wait(late)
        held, owner = sorted(self._held), self._owner
        self._held.clear()
        if not held:
            return
        try:
            await self._db.run(lambda s: deliveries.release_all(s, record_ids=held, owner=owner))
        # A database gone at the stop: the leases run out by themselves.
        except Exception as err:  # noqa: BLE001
            log.warning("could not hand the delivery records' leases back: %r", err)

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
        self._held.update(record.id for record, _ in claimed if record.id is not None)
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
            self._held.discard(record_id)
            return
        try:
            outcome = await self._registry[record.kind].deliver(record, job)
        # The boundary between records: one's bug must not stop every other's delivery.
        except Exception:
            log.exception("delivery record %s of job %s failed unexpectedly", record.id, job.id)
            outcome = Later()
        await self._settle(record, outcome)
        # Settled or lost: either way no longer ours to hand back. A round cut short leaves it.
        self._held.discard(record_id)

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
