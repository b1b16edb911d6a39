"""The sender: posts finished articles, many chats at once, each chat's messages in order.

Each chat with work has one worker that sends its jobs one after another; workers of
different chats run side by side, and the messengers pace every message under the
platform's limits. Each part, then each file (Markdown, HTML), is recorded as it goes out,
fenced on the lease: a write that finds the lease gone stops the worker before its next
message, so an article is never sent twice, and after a crash only what was not yet
recorded is sent.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from datetime import timedelta
from functools import partial
from typing import TypeVar

from bot.api import DEFAULT_SIZES, Size
from bot.core.articles.again import again_row
from bot.core.articles.article import article_blocks
from bot.core.articles.export import article_documents
from bot.core.articles.quality import card_screen, measure
from bot.core.clock import Clock
from bot.core.conversation.events import ChatAddress
from bot.core.conversation.richtext import Block
from bot.core.conversation.screens import Button, Screen
from bot.core.delivery.leases import LeaseKeeper, LeaseLost
from bot.core.delivery.outbox import Outbox
from bot.core.delivery.waits import UNTIL_THEY_WRITE, failure_wait, unreachable_for_good
from bot.core.limits.pacing import Priority, paced_as
from bot.core.operations.operations import Operations
from bot.core.ports import ChatUnreachable, FailsLater, MessengerError
from bot.core.texts import Texts
from storage import Database, jobs, sent_messages, sites
from storage.models import ChatUser, Job
from storage.states import JobStatus

__all__ = ["MAX_SEND_FAILURES", "Sender", "SizeList"]

log = logging.getLogger(__name__)

# Jobs in hand at once: chats enough to keep the bot-wide limit busy (each takes about one
# message a second), few enough that articles finish one after another, not all at the end.
_CAPACITY = 60
# A job whose sending fails for a reason other than the chat this many times in a row is
# given up: the user is told to open it from /makalelerim, which reads it from the upstream.
MAX_SEND_FAILURES = 5
# The longest wait before a failed send is tried again.
_MAX_WAIT = timedelta(minutes=5)
# How long a stop waits for the messages in flight before it cancels what still waits, where
# the caller gives no grace of its own (a lead lost to another replica).
_STOP_GRACE = 5.0

_ChatKey = tuple[str, str]
T = TypeVar("T")
SizeList = Callable[[], Sequence[Size]]


def _interface_sizes() -> Sequence[Size]:
    return DEFAULT_SIZES


class _Halted(Exception):
    """The sender is stopping: the job's next message is left to whoever delivers next."""


class Sender:
    """Claims finished jobs and delivers them; see the module docstring."""

    def __init__(
        self,
        *,
        db: Database,
        outbox: Outbox,
        clock: Clock,
        leases: LeaseKeeper,
        operations: Operations,
        retry_interval: timedelta,
        job_timeout: timedelta,
        sizes: SizeList | None = None,
    ) -> None:
        self._db = db
        self._outbox = outbox
        self._clock = clock
        self._leases = leases
        self._operations = operations
        self._retry_interval = retry_interval
        self._job_timeout = job_timeout
        # The sizes the service last listed, for the quality card's word range; no call.
        self._sizes = sizes or _interface_sizes
        # Each job with its user where the poller handed it over, else None (loaded to send).
        self._queues: dict[_ChatKey, deque[tuple[Job, ChatUser | None]]] = {}
        self._workers: dict[_ChatKey, asyncio.Task[None]] = {}
        self._platforms: frozenset[str] = frozenset()
        self._refill: asyncio.Task[None] | None = None
        self._claiming = asyncio.Lock()
        self._halting = False
        # Made on first use and shut at stop: importing starts nothing (STYLE.md).
        self._preparing: ThreadPoolExecutor | None = None
        # Whether the last claim took all the room: more may be due in the rows then, and
        # they go first, in the rows' order (an article half sent first), not a handed job.
        self._backlog = False

    async def fill(self, platforms: Collection[str]) -> None:
        """Claim the finished jobs of ``platforms`` that are due, and start their chats' workers."""
        self._platforms = frozenset(platforms)
        if not self._platforms:
            return
        async with self._claiming:
            in_hand = self._leases.held
            room = self._room()
            if room <= 0:
                return
            now = self._clock()
            claimed = await self._db.run(
                lambda s: jobs.claim_jobs(
                    s,
                    owner=self._leases.owner,
                    now=now,
                    lease_for=self._leases.lease_for,
                    statuses=(JobStatus.FINISHED,),
                    platforms=self._platforms,
                    limit=room,
                    skip=in_hand,
                )
            )
            self._leases.hold(claimed)
            self._backlog = len(claimed) == room
        for job in claimed:
            self._enqueue(job, None)

    def take(self, job: Job, user: ChatUser) -> bool:
        """Take a job the poller just found finished, with the lease it holds and its user:
        no second claim, no second load. False when there is no room, or more may be due in
        the rows, or no sending now; the job is then claimed like any other once its lease is
        handed back."""
        if not self.takes(job):
            return False
        self._enqueue(job, user)
        return True

    def takes(self, job: Job) -> bool:
        """Whether ``take`` would take the job now."""
        sending = not self._halting and job.platform in self._platforms
        return sending and not self._backlog and self._room() > 0

    def wake(self) -> None:
        """A job just finished and went back to the rows: claim it now, not next round."""
        self._refill_soon()

    def _room(self) -> int:
        """How many more jobs may be taken in hand.

        Only the sender's own jobs count: the poller's (pending, in a round) are not sent
        from here, and must not keep a job the poller just found finished waiting.
        """
        return _CAPACITY - sum(map(len, self._queues.values())) - len(self._workers)

    def _enqueue(self, job: Job, user: ChatUser | None) -> None:
        key = (job.platform, job.chat_id)
        self._queues.setdefault(key, deque()).append((job, user))
        if key not in self._workers:
            self._workers[key] = asyncio.create_task(self._work(key), name=f"send {key}")

    async def idle(self) -> None:
        """Return once every job in hand is delivered or put back."""
        while self._workers or self._refill is not None:
            await asyncio.gather(
                *self._workers.values(),
                *((self._refill,) if self._refill else ()),
                return_exceptions=True,
            )

    async def stop(self, grace: float = _STOP_GRACE) -> None:
        """Stop every worker after its message in flight, and hand their leases back.

        A worker still waiting after ``grace`` seconds (for a group's slot, say) is
        cancelled: it has nothing in flight that a successor could send twice.
        """
        self._platforms = frozenset()
        self._halting = True
        try:
            tasks = [*self._workers.values(), *((self._refill,) if self._refill else ())]
            _, late = await asyncio.wait(tasks, timeout=grace) if tasks else ((), ())
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
            self._queues.clear()
            await self._leases.release(self._leases.held)
        finally:
            self._halting = False
            pool, self._preparing = self._preparing, None
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)

    async def _prepared(self, work: Callable[[], T]) -> T:
        """What ``work`` (CPU work on an article) returns, computed off the event loop."""
        if self._preparing is None:
            # One at a time in a thread of their own: in the default pool, many articles at
            # once would hold up the database work of every answer.
            self._preparing = ThreadPoolExecutor(max_workers=1, thread_name_prefix="article")
        return await asyncio.get_running_loop().run_in_executor(self._preparing, work)

    async def _work(self, key: _ChatKey) -> None:
        queue = self._queues[key]
        try:
            while queue and not self._halting:
                await self._deliver_one(*queue.popleft())
        finally:
            # No await since the loop's last look at the queue: nothing was added meanwhile.
            del self._workers[key]
            if not queue:
                del self._queues[key]
            self._refill_soon()

    def _refill_soon(self) -> None:
        """Take more work as soon as there is room, instead of waiting for the next round."""
        if self._refill is None and self._platforms:
            self._refill = asyncio.create_task(self._refilled(), name="refill")

    async def _refilled(self) -> None:
        try:
            await self.fill(self._platforms)
        except Exception:
            log.exception("claiming finished jobs failed; the next round tries again")
        finally:
            self._refill = None

    async def _deliver_one(self, job: Job, user: ChatUser | None) -> None:
        assert job.id is not None
        try:
            await self._deliver(
                job,
                user if user is not None else await self._outbox.recipients.user(job.chat_user_id),
            )
        except LeaseLost:
            log.warning(
                "job %s (%s): lease lost, leaving it to its new owner", job.id, job.request_id
            )
            self._leases.drop(job.id)
        except _Halted:
            # Its lease is handed back with the others'; the rest goes out from the next round.
            log.info("job %s (%s): left for the next round", job.id, job.request_id)
        except MessengerError as err:
            await self._put_back(job, err)
        # The boundary between jobs: one job's bug must not stop every chat's delivery.
        except Exception as err:
            log.exception("sending job %s (%s) failed unexpectedly", job.id, job.request_id)
            await self._put_back(job, err)

    async def _again(self, texts: Texts, job: Job) -> tuple[Button, ...]:
        """The buttons under a delivered article: order it again, and to its client's site."""
        user_id, request_id = job.chat_user_id, job.request_id
        to_site = request_id in await self._db.run(
            lambda s: sites.with_site(s, user_id=user_id, request_ids=(request_id,))
        )
        return again_row(texts, user_id, request_id, to_site=to_site)

    async def _deliver(self, job: Job, user: ChatUser) -> None:
        """Send the article from its first unsent part on, then its file; then DELIVERED."""
        assert job.id is not None
        assert job.content is not None, "a finished job has its content stored"
        job_id = job.id
        texts = self._outbox.recipients.texts(user)
        messenger = self._outbox.messengers[job.platform]
        chat = self._outbox.addresses.article_chat(job, user)
        # The same content always splits the same way, so parts_sent stays valid after a restart.
        # A plan's channel gets the article alone: its readers must not order it again.
        again = () if job.owner_chat_id else await self._again(texts, job)
        # Parsing and splitting an article is CPU work: in a worker thread, so that answers
        # do not wait behind many articles prepared at once (as for its files and its card).
        blocks = partial(article_blocks, job.content, job.title, table_note=texts.table_note)
        parts = await self._prepared(partial(self._parts, job.platform, blocks, again))
        first = job.parts_sent
        for index in range(first, len(parts)):
            # What an article's reader waits for goes ahead of the rest of those under way.
            with paced_as(Priority.ARTICLE if index == first else Priority.REST, part=index):
                await self._next_message(job_id)
                message_id = await messenger.send(chat, parts[index])
            await self._fenced(job_id, self._recording(job, index, message_id))
            job.parts_sent = index + 1
        ready = texts.article_ready.format(title=job.title)
        # Taken over (or restarted) after its last part, its files are what its reader waits
        # for now: they go ahead as a first message would.
        with paced_as(Priority.ARTICLE if first == len(parts) else Priority.REST):
            if not job.file_sent:
                await self._send_files(job, chat, len(parts), texts)
        with paced_as(Priority.REST):
            # The card is for whoever ordered: in a plan's channel, its owner privately.
            card_chat = (
                self._outbox.addresses.progress_chat(job, user) if job.owner_chat_id else chat
            )
            await self._send_card(job, card_chat, len(parts), texts)
            await self._outbox.progress.finish(job, user, ready)
        known = job.progress_message_id
        job.status, job.delivered_at, job.failures = JobStatus.DELIVERED, self._clock(), 0
        stored = await self._done(job)
        if known is None and stored.progress_message_id is not None:
            # The order's announcement was recorded while the article went out.
            await self._outbox.progress.finish(stored, user, ready)
        log.info("delivered job %s (%s) in %d parts", job.id, job.request_id, len(parts))
        await self._operations.article_ended(JobStatus.DELIVERED, str(job_id))

    def _parts(
        self, platform: str, blocks: Callable[[], tuple[Block, ...]], again: tuple[Button, ...]
    ) -> list[Screen]:
        """The article's messages, each fitting the platform (the last with ``again``)."""
        return self._outbox.messengers.article_screens(platform, blocks(), again)

    async def _send_files(self, job: Job, chat: ChatAddress, parts: int, texts: Texts) -> None:
        """The Markdown and HTML files after the parts, each counted as one more part once out."""
        assert job.id is not None
        assert job.content is not None
        job_id, owner = job.id, self._leases.owner
        messenger = self._outbox.messengers[job.platform]
        files = await self._prepared(partial(article_documents, job.title, job.content))
        captions = (texts.article_file_caption, texts.article_html_caption)
        for index in range(max(job.parts_sent - parts, 0), len(files)):
            await self._next_message(job_id)
            caption = captions[index].format(title=job.title)
            sent = parts + index
            with paced_as(part=sent):
                document = replace(files[index], caption=caption)
                message_id = await messenger.send_document(chat, document)
            await self._fenced(job_id, self._recording(job, sent, message_id))
            job.parts_sent = sent + 1
        await self._fenced(job_id, partial(jobs.record_file, job_id=job_id, owner=owner))
        job.file_sent = True

    async def _send_card(self, job: Job, chat: ChatAddress, parts: int, texts: Texts) -> None:
        """The quality card after the files, counted as one more part once out."""
        assert job.id is not None
        assert job.content is not None
        job_id = job.id
        index = parts + len(article_documents(job.title, job.content))
        if job.parts_sent > index:
            return
        size = next((size for size in self._sizes() if size.id == job.size), None)
        quality = await self._prepared(partial(measure, job.content, job.title))
        card = card_screen(texts, quality, size)
        await self._next_message(job_id)
        with paced_as(part=index):
            message_id = await self._outbox.messengers[job.platform].send(chat, card)
        await self._fenced(job_id, self._recording(job, index, message_id))
        job.parts_sent = index + 1

    def _recording(self, job: Job, index: int, message_id: str | None) -> Callable[..., bool]:
        """How part ``index`` is recorded: with the message it went as, which a failure told
        later (WhatsApp's window) takes the article back to."""
        assert job.id is not None
        # Other platforms' ids need not be unique (Telegram's are per chat), nor kept.
        fails_later = isinstance(self._outbox.messengers[job.platform], FailsLater)
        now = self._clock()
        return partial(
            sent_messages.record_sent_part,
            job_id=job.id,
            owner=self._leases.owner,
            parts_sent=index,
            platform=job.platform,
            message_id=message_id if fails_later else None,
            later=now + UNTIL_THEY_WRITE,
            at=now,
        )

    async def _next_message(self, job_id: int) -> None:
        """Go on only while not stopping and while the job is still this process's."""
        if self._halting:
            raise _Halted(job_id)
        await self._leases.ensure(job_id)

    async def _fenced(self, job_id: int, record: Callable[..., bool]) -> None:
        """Record what was just sent, renewing the lease; a lost lease stops the worker."""
        until = self._leases.extended(job_id)
        if not await self._db.run(lambda s: record(s, until=until)):
            raise LeaseLost(job_id)

    async def _put_back(self, job: Job, err: Exception) -> None:
        """Try the job again later; give it up when its chat is gone or it keeps failing."""
        job_id = job.id
        assert job_id is not None
        now = self._clock()
        if isinstance(err, ChatUnreachable) and job.owner_chat_id is not None:
            # A plan's channel that no longer takes it: the paid article goes to its owner.
            self._leases.drop(job_id)
            owner = self._leases.owner
            await self._db.run(
                lambda s: jobs.redirect_to_owner(s, job_id=job_id, owner=owner, now=now)
            )
            log.warning("job %s (%s) goes to its owner: %r", job.id, job.request_id, err)
            return
        failures, status, due = job.failures + 1, JobStatus.FINISHED, now
        if unreachable_for_good(err, job, now, self._job_timeout):
            # Nobody can be told; the article stays readable upstream (/makalelerim).
            status = JobStatus.EXPIRED
            log.warning("gave up job %s (%s): its chat is unreachable", job.id, job.request_id)
        elif not isinstance(err, MessengerError) and failures >= MAX_SEND_FAILURES:
            await self._give_up(job)
            status = JobStatus.UNSENDABLE
        else:
            due = now + failure_wait(self._retry_interval, failures, _MAX_WAIT)
            log.warning("job %s (%s) put back until %s: %r", job.id, job.request_id, due, err)
        self._leases.drop(job_id)
        owner = self._leases.owner
        settled = await self._db.run(
            lambda s: jobs.settle_job(
                s, job_id=job_id, owner=owner, status=status, failures=failures, next_poll_at=due
            )
        )
        if settled and status is not JobStatus.FINISHED:
            await self._operations.article_ended(status, str(job_id))

    async def _give_up(self, job: Job) -> None:
        """Tell the user the article cannot be posted, and where to get it instead."""
        user: ChatUser = await self._outbox.recipients.user(job.chat_user_id)
        text = self._outbox.recipients.texts(user).article_unsendable.format(title=job.title)
        try:
            await self._outbox.report(job, user, text)
        except MessengerError as err:
            log.warning("could not tell the user job %s is unsendable: %r", job.id, err)
        log.error("gave up sending job %s (%s)", job.id, job.request_id)

    async def _done(self, job: Job) -> Job:
        """Store the job and hand its lease back, fenced on the lease; the stored row."""
        assert job.id is not None
        owner = self._leases.owner
        job.lease_owner = job.lease_until = None
        self._leases.drop(job.id)
        stored = await self._db.run(lambda s: jobs.save_leased_job(s, job=job, owner=owner))
        if stored is None:
            raise LeaseLost(job.id)
        return stored
