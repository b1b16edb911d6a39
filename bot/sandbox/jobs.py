"""Article orders and the generation jobs they start, which progress over sandbox time."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import IntEnum

from bot.sandbox.catalog import Size, Tone

__all__ = ["Job", "JobProgress", "JobStatus", "Order"]

# A job waits in the queue for this share of its duration before it is worked on.
_QUEUED_SHARE = 0.1


class JobStatus(IntEnum):
    """The states of a job; the value is its `durumId`, the lower-case name its `durum`."""

    BEKLEMEDE = 1
    ISLENIYOR = 2
    TAMAMLANDI = 3
    BASARISIZ = 4

    @property
    def word(self) -> str:
        """The Turkish status word the service answers with."""
        return self.name.lower()


@dataclass(frozen=True)
class Order:
    """What a caller asked to be written, already validated."""

    title: str
    tone: Tone
    size: Size


@dataclass(frozen=True)
class JobProgress:
    """Where a job stands at one moment."""

    status: JobStatus
    percent: int


@dataclass(frozen=True)
class Job:
    """One accepted and charged order; its outcome is fixed at creation, revealed over time."""

    request_id: str
    owner: str
    order: Order
    created_at: datetime
    duration: timedelta
    content: str | None
    failure: str | None

    def progress_at(self, now: datetime) -> JobProgress:
        """The job's status and progress at sandbox time `now`."""
        elapsed = (now - self.created_at) / self.duration
        if elapsed >= 1:
            done = JobStatus.BASARISIZ if self.failure else JobStatus.TAMAMLANDI
            return JobProgress(done, 100)
        if elapsed < _QUEUED_SHARE:
            return JobProgress(JobStatus.BEKLEMEDE, 0)
        share = (elapsed - _QUEUED_SHARE) / (1 - _QUEUED_SHARE)
        return JobProgress(JobStatus.ISLENIYOR, min(99, math.floor(100 * share)))
