"""The poller: watches created jobs, shows their progress, and posts finished articles.

Each round claims the jobs that are due with a lease (so replicas never poll one job
together), asks the upstream once per user, and moves each job on:

    PENDING ──finished──▶ FINISHED (content stored) ──all parts and the file sent──▶ DELIVERED
       │                      ▲ a crash or a send error resumes from the first unsent part
       ├──failed──────────▶ FAILED (reported with its reason)
       └──too old, or gone from the upstream──▶ EXPIRED (reported)

An error of the upstream or of a chat only postpones that one job, with a growing wait; so
does a bug met while handling one job, so that it cannot stop every other job's delivery.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from sqlmodel import Session

from bot.api import NEWEST_ARTICLES, Article, ArticleApi, ArticleApiError, RateLimited
from bot.core import reconcile as reconciliation
from bot.core.accounts import Accounts
from bot.core.article import article_blocks, article_document, split_into_screens
from bot.core.clock import Clock
from bot.core.errors import NotLoggedIn, SessionExpired
from bot.core.events import ChatAddress
from bot.core.operations import Operations
from bot.core.ports import ChatUnreachable, Messenger, MessengerError
from bot.core.richtext import Block, paragraph
from bot.core.screens import Screen
from bot.core.texts import Texts, texts_for
from storage import Database, jobs, users
from storage.models import ChatUser, Job, JobStatus

__all__ = ["LEASE", "MAX_POLL_WAIT", "MISSING_GRACE", "Delivery"]

log = logging.getLogger(__name__)

# Far longer than a round normally takes, so no other replica claims a job being sent;
# a round that overruns it may see a job polled twice, never charged twice.
LEASE = timedelta(minutes=5)
# The longest wait between two polls of a job, after errors or for a long-running job.
MAX_POLL_WAIT = timedelta(minutes=5)
# A job listed before may drop out of a list for a moment; missing this long means gone.
MISSING_GRACE = timedelta(minutes=10)
# Each wait is this share of the job's age, so waits grow ×1.25 per poll for long jobs.
_AGE_SHARE = 0.25
# 2**10 intervals is far past the cap; the exponent stops there so the timedelta stays small.
_MAX_BACKOFF_EXPONENT = 10
_REASON_LIMIT = 500
_Failure = MessengerError | ArticleApiError | NotLoggedIn


class Delivery:
    """Polls the upstream for due jobs and posts progress and finished articles to their chats."""

    def __init__(
        self,
        *,
        db: Database,
        api: ArticleApi,
        accounts: Accounts,
        messengers: Mapping[str, Messenger],
        clock: Clock,
        owner: str,
        poll_interval: timedelta,
        job_timeout: timedelta,
        default_language: str = "tr",
        threaded_platforms: frozenset[str] = frozenset({"slack"}),
        create_timeout: timedelta = timedelta(seconds=30),
        reconcile_grace: timedelta = timedelta(minutes=10),
        operations: Operations | None = None,
    ) -> None:
        self._db = db
        self._api = api
        self._accounts = accounts
        self._messengers = messengers
        self._clock = clock
        self._owner = owner
        self._poll_interval = poll_interval
        self._job_timeout = job_timeout
        self._default_language = default_language
        self._threaded = threaded_platforms
        self._create_timeout = create_timeout
        self._reconcile_grace = reconcile_grace
        self._operations = operations or Operations(clock=clock)
        # Who a chat user is never changes; their locale may, so the cache lives for one round.
        self._users: dict[int, ChatUser] = {}
        self._round = asyncio.Lock()

    async def announce(self, job: Job) -> None:
        """Post the job's progress message right after the order, so the user sees it at once.

        Only the message is recorded: the poller may have moved the job on meanwhile, and
        what it stored must stay.
        """
        assert job.id is not None
        job_id = job.id
        messenger = self._messengers.get(job.platform)
        if messenger is None:
            log.warning("job %s (%s): no %s messenger here", job.id, job.request_id, job.platform)
            return
        current = await self._db.run(lambda s: jobs.get_job(s, job_id=job_id))
        if current is None or current.status is not JobStatus.PENDING:
            return
        if current.progress_message_id is not None:
            return
        text = self._progress_text(self._texts(await self._user(job.chat_user_id)), current)
        chat = await self._progress_chat(current)
        try:
            message_id = await messenger.send(chat, _screen(text))
        except MessengerError as err:
            # The next poll posts it instead.
            log.warning("could not announce job %s (%s): %r", job.id, job.request_id, err)
            return
        if message_id is None:
            return
        recorded = await self._db.run(
            lambda s: jobs.set_progress_message(s, job_id=job_id, message_id=message_id, text=text)
        )
        if recorded:
            return
        # The poller posted one first and edits that one; ours would only go stale.
        try:
            await messenger.delete(chat, message_id)
        except MessengerError as err:
            log.info("could not delete a second progress message of job %s: %r", job.id, err)

    async def poll_once(self) -> None:
        """One round: reconcile lost orders, then poll, deliver and release the jobs due."""
        async with self._round:
            await self._poll()
            self._operations.round_done()

    async def finish_round(self) -> None:
        """Wait for a round under way to end (at shutdown, before the messengers go)."""
        async with self._round:
            return

    async def _poll(self) -> None:
        self._users.clear()
        try:
            await self.reconcile()
        # A bug met while reconciling one order must not stop every user's delivery; it is
        # logged with its traceback, and the order is looked at again next round.
        except Exception:
            log.exception("reconciling orders failed; delivering anyway")
        now = self._clock()
        claimed = await self._db.run(
            lambda s: jobs.claim_due_jobs(s, owner=self._owner, now=now, lease_for=LEASE)
        )
        try:
            by_user: defaultdict[int, list[Job]] = defaultdict(list)
            for job in claimed:
                if job.platform in self._messengers:
                    by_user[job.chat_user_id].append(job)
                else:
                    await self._defer_foreign(job, now)
            for user_id, batch in by_user.items():
                try:
                    await self._poll_user(user_id, batch, now)
                # The same boundary as for one job (see _poll_user), for a bug met before
                # the user's jobs are looked at one by one.
                except Exception:
                    log.exception("polling the jobs of chat user %s failed", user_id)
                    for job in batch:
                        await self._postpone(job, now)
        finally:
            await self._db.run(lambda s: self._release(s, claimed))

    async def reconcile(self) -> None:
        """Adopt or report the orders left submitted without a job (at start and every round)."""
        await reconciliation.reconcile(
            db=self._db,
            api=self._api,
            accounts=self._accounts,
            outbox=self,
            clock=self._clock,
            min_age=self._create_timeout,
            grace=self._reconcile_grace,
            operations=self._operations,
        )

    def serves(self, platform: str) -> bool:
        """Whether a messenger for ``platform`` is registered in this process (so far)."""
        return platform in self._messengers

    def article_screens(self, platform: str, blocks: Sequence[Block]) -> list[Screen]:
        """An article's blocks as messages that each fit the platform's limit."""
        return split_into_screens(blocks, self._messengers[platform].fits)

    async def tell(self, user: ChatUser, chat: ChatAddress, say: Callable[[Texts], str]) -> None:
        """Post a short notice in the user's language; a failed send is logged, not raised."""
        messenger = self._messengers.get(chat.platform)
        if messenger is None:
            log.warning("no %s messenger here for a notice to chat user %s", chat.platform, user.id)
            return
        try:
            await messenger.send(chat, _screen(say(self._texts(user))))
        except MessengerError as err:
            log.warning("could not post a notice to chat user %s: %r", user.id, err)

    async def session_ended(self, user: ChatUser, chat: ChatAddress) -> None:
        """Tell the user their session ended; their jobs wait for the next login."""
        await self.tell(user, chat, lambda t: f"{t.session_expired} {t.deliver_after_login}")

    # One user's jobs.

    async def _poll_user(self, user_id: int, batch: Sequence[Job], now: datetime) -> None:
        user = await self._user(user_id)
        pending = [job for job in batch if job.status is JobStatus.PENDING]
        listed = await self._listed(user, pending, now) if pending else {}
        if listed is None:
            # The upstream could not be asked; the pending jobs were postponed.
            batch = [job for job in batch if job.status is not JobStatus.PENDING]
        found = listed or {}
        for job in batch:
            try:
                if job.status is JobStatus.FINISHED:
                    await self._deliver(user, job, now)
                else:
                    article = found.get(job.request_id) or await self._look_up(job)
                    await self._advance(user, job, article, now)
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
            await self.session_ended(user, await self._progress_chat(pending[0]))
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

    # One job.

    async def _advance(
        self, user: ChatUser, job: Job, article: Article | None, now: datetime
    ) -> None:
        """Move a pending job on by what the upstream says about it."""
        texts = self._texts(user)
        age = now - job.created_at
        if article is not None:
            job.last_seen_at = now
        # A job never listed may just be slow to appear; it waits for the timeout.
        gone = (
            article is None
            and job.last_seen_at is not None
            and now - job.last_seen_at >= MISSING_GRACE
        )
        if article is not None and article.finished:
            job.status, job.content, job.progress = JobStatus.FINISHED, article.content, 100
            job.finished_at, job.failures = now, 0
            await self._store(job)
            log.info("job %s (%s) finished", job.id, job.request_id)
            await self._deliver(user, job, now)
        elif article is not None and article.failed:
            reason = (article.failure_reason or "").strip()
            job.failure_reason = reason[:_REASON_LIMIT] or None
            failed = texts.article_failed.format(
                title=job.title, reason=reason or texts.status_unknown
            )
            await self._report(job, JobStatus.FAILED, failed)
        elif age >= self._job_timeout or gone:
            why = "is gone from the upstream" if gone else "timed out"
            log.warning("job %s (%s) %s", job.id, job.request_id, why)
            expired = texts.article_expired.format(title=job.title)
            await self._report(job, JobStatus.EXPIRED, expired)
        else:
            if article is not None:
                job.progress = article.progress
                await self._show_progress(job, self._progress_text(texts, job))
            job.failures = 0
            job.next_poll_at = now + self._poll_wait(job, now)
            await self._store(job)

    async def _deliver(self, user: ChatUser, job: Job, now: datetime) -> None:
        """Send the stored article from its first unsent part on, then its file; then DELIVERED."""
        assert job.content is not None, "a finished job has its content stored"
        messenger = self._messengers[job.platform]
        texts = self._texts(user)
        chat = await self._article_chat(job)
        # The same content always splits the same way, so parts_sent stays valid after a restart.
        parts = self.article_screens(job.platform, article_blocks(job.content, job.title))
        for index in range(job.parts_sent, len(parts)):
            await messenger.send(chat, parts[index])
            # Recorded after each part, so a crash resends only the parts not yet sent.
            job.parts_sent = index + 1
            await self._store(job)
        if not job.file_sent:
            document = article_document(job.title, job.content)
            caption = texts.article_file_caption.format(title=job.title)
            await messenger.send_document(chat, replace(document, caption=caption))
            job.file_sent = True
        await self._finish_line(job, texts.article_ready.format(title=job.title))
        job.status, job.delivered_at, job.failures = JobStatus.DELIVERED, now, 0
        await self._store(job)
        await self._operations.article_ended(JobStatus.DELIVERED, str(job.id))
        log.info("delivered job %s (%s) in %d parts", job.id, job.request_id, len(parts))

    async def _report(self, job: Job, status: JobStatus, text: str) -> None:
        """Tell the user how the job ended, with a new message that notifies them."""
        await self._messengers[job.platform].send(await self._article_chat(job), _screen(text))
        await self._finish_line(job, text)
        job.status = status
        await self._store(job)
        await self._operations.article_ended(status, str(job.id))
        log.info("job %s (%s) reported %s", job.id, job.request_id, status)

    async def _back_off(self, job: Job, now: datetime, err: _Failure) -> None:
        """Postpone the job with a wait that doubles with each failure in a row, up to a cap."""
        job.failures += 1
        if isinstance(err, ChatUnreachable) and now - job.created_at >= self._job_timeout:
            # Nobody can be told; the article stays readable upstream (/makalelerim).
            job.status = JobStatus.EXPIRED
            log.warning("gave up job %s (%s): its chat is unreachable", job.id, job.request_id)
            await self._operations.article_ended(JobStatus.EXPIRED, str(job.id))
        else:
            retry_after = err.retry_after if isinstance(err, RateLimited) else None
            wait = self._failure_wait(job.failures, retry_after)
            job.next_poll_at = now + wait
            # Without a session the job just waits for the next login.
            level = logging.INFO if isinstance(err, NotLoggedIn) else logging.WARNING
            log.log(level, "job %s (%s) postponed %s: %r", job.id, job.request_id, wait, err)
        await self._store(job)

    async def _postpone(self, job: Job, now: datetime) -> None:
        """Postpone the job after a bug, changing nothing else: its row may be what broke."""
        assert job.id is not None
        job_id, until = job.id, now + self._failure_wait(job.failures + 1)
        await self._db.run(lambda s: jobs.postpone_job(s, job_id=job_id, until=until))

    def _failure_wait(self, failures: int, retry_after: float | None = None) -> timedelta:
        """The upstream's ``retry_after`` if given, else twice the last wait; never over the cap."""
        cap = max(MAX_POLL_WAIT, self._poll_interval)
        if retry_after is not None:
            return min(timedelta(seconds=max(retry_after, 0.0)), cap)
        doubled: int = 2 ** min(failures, _MAX_BACKOFF_EXPONENT)
        return min(self._poll_interval * doubled, cap)

    async def _defer_foreign(self, job: Job, now: datetime) -> None:
        """Leave a job of a chat platform this process does not serve to the process that does."""
        log.info("job %s (%s): no %s messenger here", job.id, job.request_id, job.platform)
        job.next_poll_at = now + MAX_POLL_WAIT
        await self._store(job)

    # The progress message.

    async def _show_progress(self, job: Job, text: str) -> None:
        """Show the text in the job's progress message: edited when it changed, posted when none."""
        if text == job.progress_text:
            return
        messenger = self._messengers[job.platform]
        chat = await self._progress_chat(job)
        if job.progress_message_id is None:
            job.progress_message_id = await messenger.send(chat, _screen(text))
        else:
            await messenger.edit(chat, job.progress_message_id, _screen(text))
        job.progress_text = text

    async def _finish_line(self, job: Job, text: str) -> None:
        """Put the job's final state into its progress message, if it has one; best effort."""
        if job.progress_message_id is None or text == job.progress_text:
            return
        try:
            await self._show_progress(job, text)
        except MessengerError as err:
            # The outcome itself was sent; a stale progress line is all that is left.
            log.info(
                "could not update the progress of job %s (%s): %r", job.id, job.request_id, err
            )

    def _progress_text(self, texts: Texts, job: Job) -> str:
        if job.progress is None:
            return texts.progress_unknown.format(title=job.title)
        return texts.progress.format(title=job.title, progress=job.progress)

    # Helpers.

    async def _progress_chat(self, job: Job) -> ChatAddress:
        """Where the job's progress message is: the chat, and thread, the order came from."""
        user = await self._user(job.chat_user_id)
        return ChatAddress(job.platform, job.chat_id, job.thread_id, user.external_id)

    async def _article_chat(self, job: Job) -> ChatAddress:
        """Where the article goes: on threaded platforms, the progress message's thread."""
        chat = await self._progress_chat(job)
        if chat.thread_id is None and job.platform in self._threaded:
            return replace(chat, thread_id=job.progress_message_id)
        return chat

    def _poll_wait(self, job: Job, now: datetime) -> timedelta:
        """The interval at first, then a share of the job's age, never over the cap."""
        grown = min((now - job.created_at) * _AGE_SHARE, MAX_POLL_WAIT)
        return max(self._poll_interval, grown)

    def _texts(self, user: ChatUser) -> Texts:
        return texts_for(user.locale or self._default_language)

    async def _user(self, user_id: int) -> ChatUser:
        if user_id not in self._users:
            user = await self._db.run(lambda s: users.get_user(s, user_id=user_id))
            assert user is not None, "a job's user is deleted only with the job"
            self._users[user_id] = user
        return self._users[user_id]

    async def _store(self, job: Job) -> None:
        await self._db.run(lambda s: jobs.save_job(s, job=job))

    def _release(self, session: Session, claimed: Sequence[Job]) -> None:
        for job in claimed:
            assert job.id is not None
            jobs.release_job(session, job_id=job.id, owner=self._owner)


def _screen(text: str) -> Screen:
    return Screen((paragraph(text),))
