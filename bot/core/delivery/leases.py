"""The leases this process holds on jobs: renewed while work goes on, checked before each send.

A lease is short (seconds), so a killed process's jobs are taken over soon. The keeper renews
every lease it holds in one statement a few times per lease, and a sender asks it before
each message whether the job is still its own; a job whose lease another process took is
not sent to again.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta

from bot.core.clock import Clock
from storage import Database, jobs
from storage.models import Job

__all__ = ["LeaseKeeper", "LeaseLost"]

log = logging.getLogger(__name__)


class LeaseLost(Exception):
    """Another process took the job's lease: this one must not write to its chat again."""


class LeaseKeeper:
    """Knows until when this process holds each of its jobs, and keeps those leases alive."""

    def __init__(self, *, db: Database, clock: Clock, owner: str, lease_for: timedelta) -> None:
        self._db = db
        self._clock = clock
        self.owner = owner
        self.lease_for = lease_for
        self._until: dict[int, datetime] = {}

    def hold(self, claimed: Iterable[Job]) -> None:
        """Remember freshly claimed jobs."""
        for job in claimed:
            assert job.id is not None
            assert job.lease_until is not None
            self._until[job.id] = job.lease_until

    def drop(self, job_id: int) -> None:
        """Forget a job whose work is over (its lease was released or lost)."""
        self._until.pop(job_id, None)

    @property
    def held(self) -> frozenset[int]:
        """The jobs in hand."""
        return frozenset(self._until)

    def extended(self, job_id: int) -> datetime:
        """A new lease end for a fenced write that also renews the lease; noted here."""
        until = self._clock() + self.lease_for
        self._until[job_id] = until
        return until

    async def renew(self) -> None:
        """Extend every lease held; those another process took are forgotten."""
        held = dict(self._until)
        if not held:
            return
        until = self._clock() + self.lease_for
        kept = await self._db.run(
            lambda s: jobs.renew_leases(s, owner=self.owner, job_ids=held, until=until)
        )
        for job_id, was in held.items():
            # Work that ended, or a fenced write that renewed the lease, meanwhile knows better.
            if self._until.get(job_id) != was:
                continue
            if job_id in kept:
                self._until[job_id] = until
            else:
                log.warning("lease on job %s was taken by another process", job_id)
                del self._until[job_id]

    async def ensure(self, job_id: int) -> None:
        """Raise ``LeaseLost`` unless the job is still this process's for a while yet."""
        until = self._until.get(job_id)
        if until is None:
            raise LeaseLost(job_id)
        if until - self._clock() > self.lease_for / 2:
            return
        renewed = self._clock() + self.lease_for
        kept = await self._db.run(
            lambda s: jobs.renew_leases(s, owner=self.owner, job_ids=[job_id], until=renewed)
        )
        if job_id not in kept:
            self._until.pop(job_id, None)
            raise LeaseLost(job_id)
        self._until[job_id] = renewed

    async def release(self, job_ids: Iterable[int]) -> None:
        """Hand leases back (work ended, or a clean stop), unless another owner has them now."""
        ids = [job_id for job_id in job_ids if self._until.pop(job_id, None) is not None]
        if ids:
            await self._db.run(lambda s: jobs.release_jobs(s, job_ids=ids, owner=self.owner))

    async def release_all(self) -> None:
        """Hand back every lease of this process, those of a round cut short among them (its
        claim may have been committed while the round was cancelled)."""
        self._until.clear()
        await self._db.run(lambda s: jobs.release_owned(s, owner=self.owner))
