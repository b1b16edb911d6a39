"""The delivery engine: who delivers, and one round of it.

Every process may take orders, but for each chat platform one process at a time delivers:
the one holding that platform's delivery lock (a PostgreSQL advisory lock, or a file lock
beside a SQLite database). So one pacer holds the platform's bot-wide limit, and a second
replica never sends what the first is sending. A process that dies frees its lock at once;
another takes it at its next round and takes over the dead one's jobs as their short
leases run out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping
from datetime import timedelta

from bot.core.accounts import Accounts
from bot.core.clock import Clock
from bot.core.delivery import reconcile as reconciliation
from bot.core.delivery.destinations import Destinations
from bot.core.delivery.leases import LeaseKeeper
from bot.core.delivery.outbox import Outbox
from bot.core.delivery.poller import Poller
from bot.core.delivery.sender import Sender, SizeList
from bot.core.limits.pacing import Priority, paced_as
from bot.core.operations.operations import Operations
from bot.core.platforms import Platforms
from bot.core.ports import Messenger
from bot.core.upstream import Upstream
from storage import Database, Leadership

__all__ = ["LEASE", "Delivery"]

log = logging.getLogger(__name__)

# Long enough for a message or two, short enough that a killed process's jobs move on soon.
LEASE = timedelta(seconds=15)


class Delivery:
    """Leads delivery for the platforms it can, and runs the poller and the sender for them."""

    def __init__(
        self,
        *,
        db: Database,
        api: Upstream,
        accounts: Accounts,
        messengers: Mapping[str, Messenger],
        platforms: Platforms,
        clock: Clock,
        owner: str,
        poll_interval: timedelta,
        job_timeout: timedelta,
        lease_for: timedelta = LEASE,
        default_language: str = "tr",
        create_timeout: timedelta = timedelta(seconds=30),
        reconcile_grace: timedelta = timedelta(minutes=10),
        operations: Operations | None = None,
        sizes: SizeList | None = None,
    ) -> None:
        self._db = db
        self._api = api
        self._accounts = accounts
        self._clock = clock
        self._create_timeout = create_timeout
        self._reconcile_grace = reconcile_grace
        self._operations = operations or Operations(clock=clock)
        self.outbox = Outbox(
            db=db, messengers=messengers, platforms=platforms, default_language=default_language
        )
        self._leases = LeaseKeeper(db=db, clock=clock, owner=owner, lease_for=lease_for)
        self._sender = Sender(
            db=db,
            outbox=self.outbox,
            clock=clock,
            leases=self._leases,
            operations=self._operations,
            retry_interval=poll_interval,
            job_timeout=job_timeout,
            sizes=sizes,
        )
        self._poller = Poller(
            db=db,
            api=api,
            accounts=accounts,
            outbox=self.outbox,
            clock=clock,
            leases=self._leases,
            operations=self._operations,
            poll_interval=poll_interval,
            job_timeout=job_timeout,
            hand_over=self._sender,
        )
        # Clients' sites and the like: kinds registered at start-up, rounds a job of their own.
        self.destinations = Destinations(db=db, clock=clock, owner=owner)
        self._locks: dict[str, Leadership] = {}
        self._led: frozenset[str] = frozenset()
        self._round = asyncio.Lock()
        self._heartbeat: asyncio.Task[None] | None = None
        self._scheduled: set[asyncio.Task[None]] = set()
        self._stopping = False

    @property
    def leads(self) -> frozenset[str]:
        """The platforms this process delivers for, as of its last round."""
        return self._led

    async def run_round(self) -> None:
        """One round: take the lead where free, reconcile, poll, and hand finished jobs over.

        The sender goes on in the background; the scheduler runs this every poll interval.
        Its messages, and the sender's, yield to interactive answers.
        """
        with paced_as(Priority.ARTICLE):
            await self._one_round()

    async def _one_round(self, *, scheduled: bool = False) -> None:
        async with self._round:
            if scheduled and self._stopping:
                # It waited for the round before it, and a stop began meanwhile.
                return
            await self._lead()
            if self._led:
                # Articles already finished (a dead process's among them) go out while the
                # upstream is asked about the rest, whose progress lines take their turn too.
                await self._sender.fill(self._led)
                await self._reconcile()
                await self._poller.poll(self._led)
                await self._sender.fill(self._led)
            self._operations.round_done()

    async def scheduled_round(self) -> None:
        """The scheduler's round, in a task of its own that only ``stop`` may cut short.

        A tick that comes while a round runs waits for it (the scheduler lets two in) and
        runs right after: a round that ran long is followed at once, not an interval later.
        Cut short, it ends quietly: the scheduler would log a round cancelled under it as an
        error, and a scheduler's shutdown cancels whatever runs.
        """
        if self._stopping:
            return
        with paced_as(Priority.ARTICLE):
            task = asyncio.create_task(self._one_round(scheduled=True), name="delivery round")
        self._scheduled.add(task)
        task.add_done_callback(self._scheduled.discard)
        await asyncio.wait({task})
        if not task.cancelled():
            task.result()

    async def poll_once(self) -> None:
        """A round, then the wait for everything it handed to the sender to be sent."""
        await self.run_round()
        await self._sender.idle()

    def start(self) -> None:
        """Keep the leases in hand alive between rounds (a group's article can take minutes),
        and the sender fed."""
        self._stopping = False
        self._poller.halt(False)
        self.destinations.start()
        if self._heartbeat is None:
            self._heartbeat = asyncio.create_task(self._keep_leases(), name="lease heartbeat")

    async def stop(self, grace: float) -> None:
        """Let a round under way finish (within ``grace``, asking no further user), and the
        destinations' round beside it, stop sending, hand back every lease (the destination
        records' among them) and lock, then give queued notices ``grace``."""
        self._stopping = True
        self._poller.halt()
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._heartbeat
            self._heartbeat = None
        await asyncio.gather(self._end_round(grace), self.destinations.stop(grace))
        async with self._round:
            await self._sender.stop(grace)
            try:
                await self._leases.release_all()
            # A database gone at the stop: the leases, short, run out by themselves.
            except Exception as err:  # noqa: BLE001
                log.warning("could not hand the leases back at the stop: %r", err)
            for lock in self._locks.values():
                await asyncio.to_thread(lock.release)
            self._locks.clear()
            self._led = frozenset()
        # Only then the notices a slow chat still holds get their grace: another replica
        # takes the lead and the articles meanwhile.
        await self.outbox.notices.close(grace)

    async def _end_round(self, grace: float) -> None:
        """Wait for the scheduled rounds under way; cut them short after ``grace`` seconds."""
        running = set(self._scheduled)
        if not running:
            return
        _, late = await asyncio.wait(running, timeout=grace)
        if late:
            log.info("stopping: the round under way is cut short, its leases handed back")
            for task in late:
                task.cancel()
            await asyncio.wait(late)

    async def _lead(self) -> None:
        """Take or confirm the delivery lock of each platform this process has a messenger for."""
        led = set()
        for platform in self.outbox.messengers.platforms:
            lock = self._locks.get(platform)
            if lock is None:
                lock = self._locks[platform] = self._db.leadership(f"delivery-{platform}")
            if await asyncio.to_thread(lock.acquire):
                led.add(platform)
        if led != self._led:
            log.info("delivering for %s", ", ".join(sorted(led)) or "no platform")
        if self._led - led:
            # Another process may deliver these now; nothing more may go out from here.
            await self._sender.stop()
        self._led = frozenset(led)

    async def _reconcile(self) -> None:
        try:
            await reconciliation.reconcile(
                db=self._db,
                api=self._api,
                accounts=self._accounts,
                outbox=self.outbox,
                platforms=self._led,
                operations=self._operations,
                clock=self._clock,
                min_age=self._create_timeout,
                grace=self._reconcile_grace,
            )
        # A bug met while reconciling one order must not stop every user's delivery; it is
        # logged with its traceback, and the order is looked at again next round.
        except Exception:
            log.exception("reconciling orders failed; delivering anyway")

    async def _keep_leases(self) -> None:
        with paced_as(Priority.ARTICLE):
            await self._renew_leases()

    async def _renew_leases(self) -> None:
        period = self._leases.lease_for.total_seconds() / 3
        while True:
            await asyncio.sleep(period)
            try:
                await self._leases.renew()
                # A dead process's articles are taken as their leases run out, not only when
                # a round (slow while many progress lines wait their turn) comes to it.
                await self._sender.fill(self._led)
            # Both are tried again a third of a lease later; a lease lost meanwhile is fenced.
            except Exception:
                log.exception("renewing leases or taking finished jobs failed")
