"""How long a job waits after a failure, and when a chat that cannot be written to is given up."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.core.ports import ChatUnreachable
from storage.models import Job

__all__ = ["UNTIL_THEY_WRITE", "failure_wait", "unreachable_for_good"]

# An article taken back because its chat takes no more messages until the person writes
# (WhatsApp's 24-hour window) is made due when they write; else tried again after this long.
UNTIL_THEY_WRITE = timedelta(days=1)
# 2**10 intervals is far past any cap; the exponent stops there so the timedelta stays small.
_MAX_BACKOFF_EXPONENT = 10


def failure_wait(
    interval: timedelta, failures: int, cap: timedelta, retry_after: float | None = None
) -> timedelta:
    """The service's ``retry_after`` if given, else the interval doubled per failure; capped."""
    cap = max(cap, interval)
    if retry_after is not None:
        return min(timedelta(seconds=max(retry_after, 0.0)), cap)
    doubled: int = 2 ** min(failures, _MAX_BACKOFF_EXPONENT)
    return min(interval * doubled, cap)


def unreachable_for_good(err: Exception, job: Job, now: datetime, job_timeout: timedelta) -> bool:
    """Whether nobody can be told any more: the chat is gone and the job is past its timeout."""
    return isinstance(err, ChatUnreachable) and now - job.created_at >= job_timeout
