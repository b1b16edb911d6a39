"""The poller: asks the upstream about pending jobs, once per user, and moves them on.

A finished job's content is stored with its new state in one write and, while the sender
has room, the job is handed to it with its lease and its user: one claim and one load per
delivery. The row is the hand-off all the same: if the process dies before the sender is
done, the lease runs out and whoever delivers next claims the finished row; and a sender
without room claims it later, in the rows' order. A failed or expired job is reported
here, since its report is all there is to send.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import Protocol

from bot.api import NEWEST_ARTICLES, Article, ArticleApiError, RateLimited
from bot.core.accounts import Accounts
from bot.core.clock import Clock
from bot.core.delivery.leases import LeaseKeeper, LeaseLost
from bot.core.delivery.outbox import Outbox
from bot.core.delivery.polling import MAX_POLL_WAIT, PollPolicy
from bot.core.delivery.waits import failure_wait, unreachable_for_good
from bot.core.errors import NotLoggedIn, SessionExpired
from bot.core.limits.pacing import NoRoom, Priority, paced_as
from bot.core.operations.operations import Operations
from bot.core.ports import MessengerError
from bot.core.upstream import Upstream
from storage import Database, jobs
from storage.models import ChatUser, Job
from storage.states import JobStatus

__all__ = ["MAX_POLL_WAIT", "MISSING_GRACE", "Poller"]

log = logging.getLogger(__name__)

# A job listed before may drop out of a list for a moment; missing this long means gone.
MISSING_GRACE = timedelta(minutes=10)
_REASON_LIMIT = 500
# Users asked about at once: enough to hide the upstream's latency, few enough to be polite.
_USERS_AT_ONCE = 8
# Pending jobs claimed per round; the rest wait for the next round.
_BATCH = 500
_Failure = MessengerError | ArticleApiError | NotLoggedIn


class HandOver(Protocol):
    """Where finished jobs go to be sent (the sender)."""

    def takes(self, job: Job) -> bool:
        """Whether ``take`` would take the job now."""
        ...

    def take(self, job: Job, user: ChatUser) -> bool:
        """Take the job, its lease and its user; False when it no longer would."""
        ...

    def wake(self) -> None:
        """Claim the finished jobs that are due now, not at the next round."""
        ...


class Poller:
    """Claims the pending jobs that are due and moves each on by what the upstream says."""

    def __init__(
        self,
        *,
        db: Database,
        api: Upstream,
        accounts: Accounts,
        outbox: Outbox,
        clock: Clock,
        leases: LeaseKeeper,
        operations: Operations,
        poll_interval: timedelta,
        job_timeout: timedelta,
        hand_over: HandOver,
    ) -> None:
        self._db = db
        # The sender: takes a finished job with its lease and user while it has room.
        self._hand_over = hand_over
        self._api = api
        self._accounts = accounts
        self._outbox = outbox
        self._clock = clock
        self._leases = leases
        self._operations = operations
        self._poll_interval = poll_interval
        self._policy = PollPolicy(poll_interval)
        self._job_timeout = job_timeout
        # Who a chat user is never changes; their locale may, so the cache lives for one round.
        self._users: dict[int, ChatUser] = {}
        # The progress lines to show once every user of the round is asked: a line waiting
        # for its turn at the platform must not hold back another user's finished article.
        self._lines: list[tuple[ChatUser, Job, datetime]] = []
        # Jobs of the round handed to the sender: their leases are the sender's now.
        self._handed: set[int] = set()
        # Jobs still pending after their poll: stored together once their lines are shown.
        self._pending: list[Job] = []
        self._halted = False

    def halt(self, halted: bool = True) -> None:
        """While halted, a round asks about no further user: a stop need not wait for them.
        Their jobs stay due, and their leases are handed back with the round's."""
        self._halted = halted

    async def poll(self, platforms: Collection[str]) -> None:
        """One round over the pending jobs of ``platforms`` that are due."""
        self._users.clear()
        self._lines.clear()
        self._handed.clear()
        self._pending.clear()
        now = self._clock()
        claimed = await self._db.run(
            lambda s: jobs.claim_jobs(
                s,
                owner=self._leases.owner,
                now=now,
                lease_for=self._leases.lease_for,
                statuses=(JobStatus.PENDING,),
                platforms=platforms,
                limit=_BATCH,
                due_by=self._policy.due_by(now),
            )
        )
        self._leases.hold(claimed)
        by_user: defaultdict[int, list[Job]] = defaultdict(list)
        for job in claimed:
            by_user[job.chat_user_id].append(job)
        gate = asyncio.Semaphore(_USERS_AT_ONCE)

        async def one_user(user_id: int, batch: list[Job]) -> None:
            async with gate:
                if not self._halted:
                    await self._poll_user_safely(user_id, batch, now)

        async def one_line(user: ChatUser, job: Job, at: datetime) -> None:
            async with gate:
                if not self._halted:
                    await self._show_line(user, job, at)

        try:
            await asyncio.gather(*(one_user(uid, batch) for uid, batch in by_user.items()))
            await asyncio.gather(*(one_line(*line) for line in self._lines))
            await self._store_pending()
        finally:
            # Not the finished jobs: the sender has their leases, or may have claimed them
            # since under the same owner, and a release here would take those from under it.
            await self._leases.release(
                job.id for job in claimed if job.id is not None and job.id not in self._handed
            )

    async def _poll_user_safely(self, user_id: int, batch: list[Job], now: datetime) -> None:
        try:
            await self._poll_user(user_id, batch, now)
        # A bug met before the user's jobs are looked at one by one must not stop the others.
        except Exception:
            log.exception("polling the jobs of chat user %s failed", user_id)
            for job in batch:
                await self._postpone(job, now)

    async def _poll_user(self, user_id: int, batch: Sequence[Job], now: datetime) -> None:
        user = await self._user(user_id)
        listed = await self._listed(user, batch, now)
        if listed is None:
            return
        for job in batch:
            try:
                article = listed.get(job.request_id) or await self._look_up(job)
                await self._advance(user, job, article, now)
            except LeaseLost:
                log.warning("job %s (%s): lease lost mid-round", job.id, job.request_id)
            except (MessengerError, ArticleApiError, NotLoggedIn) as err:
                await self._back_off(job, now, err)
            # This is the boundary between jobs: one job's bug must not stop every user's
            # delivery, nor come first again each round and starve the rest. It is logged
            # with its traceback, and only that job waits, as after any other failure.
            except Exception:
                log.exception("job %s (%s) failed unexpectedly", job.id, job.request_id)
                await self._postpone(job, now)

    async def _listed(
        self, user: ChatUser, pending: Sequence[Job], now: datetime
    ) -> dict[str, Article] | None:
        """The user's articles by request id; None (and the jobs postponed) when unavailable."""
        assert user.id is not None
        try:
            articles = await self._accounts.call(
                user.id,
                lambda token: self._api.articles(token, page_size=NEWEST_ARTICLES),
            )
        except SessionExpired as err:
            await self._outbox.session_ended(
                user, self._outbox.addresses.progress_chat(pending[0], user)
            )
            failure: _Failure = err
        except (NotLoggedIn, ArticleApiError) as err:
            failure = err
        else:
            return {article.request_id: article for article in articles}
        for job in pending:
            await self._back_off(job, now, failure)
        return None

    async def _look_up(self, job: Job) -> Article | None:
        """The one job asked by its request id, for a job beyond the first page of the list."""
        found = await self._accounts.call(
            job.chat_user_id, lambda token: self._api.articles(token, request_id=job.request_id)
        )
        return next((article for article in found if article.request_id == job.request_id), None)

    async def _advance(
        self, user: ChatUser, job: Job, article: Article | None, now: datetime
    ) -> None:
        """Move a pending job on by what the upstream says about it."""
        texts = self._outbox.recipients.texts(user)
        if article is not None:
            job.last_seen_at = now
        # A job never listed may just be slow to appear; it waits for the timeout.
        gone = (
            article is None
            and job.last_seen_at is not None
            and now - job.last_seen_at >= MISSING_GRACE
        )
        if article is not None and article.finished:
            await self._finish(user, job, article, now)
        elif article is not None and article.failed:
            reason = (article.failure_reason or "").strip()
            job.failure_reason = reason[:_REASON_LIMIT] or None
            failed = texts.article_failed.format(
                title=job.title, reason=reason or texts.status_unknown
            )
            await self._end(job, user, JobStatus.FAILED, failed)
        elif now - job.created_at >= self._job_timeout or gone:
            why = "is gone from the upstream" if gone else "timed out"
            log.warning("job %s (%s) %s", job.id, job.request_id, why)
            await self._end(
                job, user, JobStatus.EXPIRED, texts.article_expired.format(title=job.title)
            )
        else:
            if article is not None:
                shown, job.progress = job.progress, article.progress
                # Polled every interval near its estimate, a job's line changes each time:
                # shown per tenth, so that 60 lines do not take the bot's whole pace. Its text
                # is unknown until shown, so a line the pace had no room for comes next poll.
                if job.progress_text is None or _tenth(shown) != _tenth(job.progress):
                    job.progress_text = None
                    self._lines.append((user, job, now))
            job.failures = 0
            job.next_poll_at = self._policy.due(
                now=now,
                created_at=job.created_at,
                expected_at=job.expected_at,
                progress=job.progress,
            )
            self._pending.append(job)

    async def _finish(self, user: ChatUser, job: Job, article: Article, now: datetime) -> None:
        """Store the finished job, due at once, and hand it to the sender with its lease and
        user. Where the sender has no room, the lease goes back in the same write, for the
        sender to claim the job in the rows' order (an article half sent first)."""
        job.status, job.content, job.progress = JobStatus.FINISHED, article.content, 100
        job.finished_at, job.failures, job.next_poll_at = now, 0, now
        keep = self._hand_over.takes(job)
        if keep:
            job.lease_until = self._leases.extended(_id(job))
        else:
            job.lease_owner = job.lease_until = None
        await self._store(job)
        # Either way no longer the poller's: the sender may claim it under the same owner, and
        # the round's end must not take that lease from under it.
        self._handed.add(_id(job))
        log.info("job %s (%s) finished", job.id, job.request_id)
        if not keep:
            self._leases.drop(_id(job))
            self._hand_over.wake()
        elif not self._hand_over.take(job, user):
            # The room went meanwhile: the lease goes back after all.
            await self._leases.release([_id(job)])

    async def _show_line(self, user: ChatUser, job: Job, now: datetime) -> None:
        """Show a pending job's progress line (stored with the job's state after the round).

        Only when the pace has room now: the round must not wait for a line, and the line
        not for the articles going out; the next poll shows a fresher one.
        """
        try:
            await self._leases.ensure(_id(job))
            text = self._outbox.progress.text(user, job)
            with paced_as(Priority.IF_FREE):
                await self._outbox.progress.show(job, user, text)
        except NoRoom:
            log.debug("job %s (%s): no room for its progress line now", job.id, job.request_id)
        except LeaseLost:
            log.warning("job %s (%s): lease lost mid-round", job.id, job.request_id)
        except (MessengerError, ArticleApiError, NotLoggedIn) as err:
            await self._back_off(job, now, err)
        # As between jobs: one line's bug must not stop the others'.
        except Exception:
            log.exception("job %s (%s): its progress line failed", job.id, job.request_id)

    async def _end(self, job: Job, user: ChatUser, status: JobStatus, text: str) -> None:
        """Report how the job ended and store that; the report goes out once, fenced."""
        await self._leases.ensure(_id(job))
        await self._outbox.report(job, user, text)
        job.status = status
        await self._store(job)
        log.info("job %s (%s) reported %s", job.id, job.request_id, status)
        await self._operations.article_ended(status, str(job.id))

    async def _back_off(self, job: Job, now: datetime, err: _Failure) -> None:
        """Postpone the job with a wait that doubles with each failure in a row, up to a cap."""
        job.failures += 1
        if unreachable_for_good(err, job, now, self._job_timeout):
            # Nobody can be told; the article stays readable upstream (/makalelerim).
            job.status = JobStatus.EXPIRED
            log.warning("gave up job %s (%s): its chat is unreachable", job.id, job.request_id)
            await self._operations.article_ended(JobStatus.EXPIRED, str(job.id))
        else:
            retry_after = err.retry_after if isinstance(err, RateLimited) else None
            wait = failure_wait(self._poll_interval, job.failures, MAX_POLL_WAIT, retry_after)
            job.next_poll_at = now + wait
            # Without a session the job just waits for the next login.
            level = logging.INFO if isinstance(err, NotLoggedIn) else logging.WARNING
            log.log(level, "job %s (%s) postponed %s: %r", job.id, job.request_id, wait, err)
        await self._store(job)

    async def _postpone(self, job: Job, now: datetime) -> None:
        """Postpone the job after a bug, changing nothing else: its row may be what broke."""
        job_id = _id(job)
        until = now + failure_wait(self._poll_interval, job.failures + 1, MAX_POLL_WAIT)
        await self._db.run(lambda s: jobs.postpone_job(s, job_id=job_id, until=until))

    async def _user(self, user_id: int) -> ChatUser:
        if user_id not in self._users:
            self._users[user_id] = await self._outbox.recipients.user(user_id)
        return self._users[user_id]

    async def _store_pending(self) -> None:
        """Store the round's still pending jobs in one write, each while its lease holds."""
        pending, owner = list(self._pending), self._leases.owner
        if not pending:
            return
        lost = await self._db.run(lambda s: jobs.save_leased_jobs(s, jobs=pending, owner=owner))
        for job_id in lost:
            log.warning("job %s: lease lost mid-round", job_id)

    async def _store(self, job: Job) -> None:
        """Store the job's changes while this process still holds its lease."""
        owner = self._leases.owner
        if await self._db.run(lambda s: jobs.save_leased_job(s, job=job, owner=owner)) is None:
            raise LeaseLost(job.id)


def _tenth(progress: int | None) -> int | None:
    return None if progress is None else progress // 10


def _id(job: Job) -> int:
    assert job.id is not None
    return job.id
