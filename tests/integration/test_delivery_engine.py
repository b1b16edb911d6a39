"""The delivery engine's own promises: chats side by side, fenced leases, one deliverer."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta

import pytest
from sqlalchemy import event, update
from sqlalchemy.engine import Engine
from sqlmodel import col

from bot.core.conversation.events import ChatAddress
from bot.core.conversation.screens import Screen
from bot.core.delivery import MAX_SEND_FAILURES
from bot.core.delivery.leases import LeaseKeeper
from bot.core.texts import texts_for
from storage import Database, Job, JobStatus, jobs
from tests.fakes import DeliveryRig, RecordingMessenger, delivery_rig, wait_until

TR = texts_for("tr")
# A stop's grace, as deployed: long enough for what a test holds to be seen held.
GRACE = 5.0
TITLE = "Uzaktan Çalışmanın Verimliliğe Etkisi"


class GatedMessenger(RecordingMessenger):
    """Holds sends to the chats whose gate is closed; runs a hook after each send."""

    def __init__(self) -> None:
        super().__init__()
        self.gates: dict[str, asyncio.Event] = {}
        self.after_send: Callable[[int], Awaitable[None]] | None = None

    async def send(self, chat: ChatAddress, screen: Screen) -> str | None:
        """Wait for the chat's gate, then record the message."""
        gate = self.gates.get(chat.chat_id)
        if gate is not None:
            await gate.wait()
        message_id = await super().send(chat, screen)
        if self.after_send is not None:
            await self.after_send(len(self.sent))
        return message_id


@pytest.fixture
async def rig(database: Database) -> AsyncIterator[DeliveryRig]:
    async with delivery_rig(database) as rig:
        yield rig


async def finished(rig: DeliveryRig, *jobs: Job) -> None:
    """Let the sandbox finish the jobs and the bot's clock reach their polls."""
    rig.advance(max(rig.upstream_seconds(job.request_id) for job in jobs) + 1)


async def test_a_slow_chat_holds_no_other_chat_back_and_each_keeps_its_order(
    rig: DeliveryRig,
) -> None:
    messenger = GatedMessenger()
    messenger.gates["slow"] = asyncio.Event()
    delivery = await rig.delivery(messenger=messenger)
    slow = await rig.order(TITLE, size=3, chat_id="slow")
    fast = await rig.order(TITLE, size=3, chat_id="fast")
    await finished(rig, slow, fast)

    await delivery.run_round()
    await wait_until(lambda: len(messenger.of_kind("send_document")) == 2)
    assert {call.chat.chat_id for call in messenger.calls} == {"fast"}
    messenger.gates["slow"].set()
    await delivery.poll_once()

    for chat in ("slow", "fast"):
        texts = [call.text for call in messenger.sent if call.chat.chat_id == chat]
        content = rig.upstream_content((slow if chat == "slow" else fast).request_id)
        assert len(texts) >= 3
        assert texts[0].startswith(TITLE), "the parts of one chat arrive in order"
        assert sum(map(len, texts)) >= len(content) * 0.9
    assert messenger.file_kinds == ["md", "html"] * 2


async def test_a_sender_whose_lease_was_taken_stops_before_its_next_message(
    rig: DeliveryRig,
) -> None:
    messenger = GatedMessenger()
    delivery = await rig.delivery(messenger=messenger, owner="first")
    job = await rig.order(TITLE, size=3)
    await finished(rig, job)

    async def taken_over(sent: int) -> None:
        if sent == 1:
            # Another replica took the job, as after a lease that ran out unrenewed.
            await rig.db.run(
                lambda s: s.exec(
                    update(Job).where(col(Job.id) == job.id).values(lease_owner="second")
                )
            )

    messenger.after_send = taken_over
    await delivery.poll_once()

    stored = await rig.job(job.id)
    assert len(messenger.sent) == 1, "nothing after the lease was lost"
    assert messenger.documents == []
    assert (stored.status, stored.parts_sent, stored.lease_owner) == (
        JobStatus.FINISHED,
        0,
        "second",
    ), "the first sender wrote nothing over the new owner's lease"


async def test_each_part_is_recorded_as_it_goes_and_renews_the_lease(rig: DeliveryRig) -> None:
    messenger = GatedMessenger()
    delivery = await rig.delivery(messenger=messenger, lease_for=timedelta(seconds=30))
    job = await rig.order(TITLE, size=3)
    await finished(rig, job)
    seen: list[tuple[int, object]] = []

    async def look(sent: int) -> None:
        stored = await rig.job(job.id)
        seen.append((stored.parts_sent, stored.lease_until))

    messenger.after_send = look
    await delivery.poll_once()

    # Each look happens after a send and before its record: one part behind, lease held.
    assert [parts for parts, _ in seen[:3]] == [0, 1, 2]
    assert all(until is not None for _, until in seen[:3])
    assert (await rig.job(job.id)).lease_owner is None, "handed back once delivered"


async def test_an_article_that_cannot_be_sent_is_given_up_and_the_user_told(
    rig: DeliveryRig,
) -> None:
    delivery = await rig.delivery()
    job = await rig.order(TITLE)
    await finished(rig, job)
    # Not a chat error: something about this article breaks every time it is sent.
    rig.messenger.fail_next(MAX_SEND_FAILURES, error=RuntimeError)

    for _ in range(MAX_SEND_FAILURES):
        await delivery.poll_once()
        stored = await rig.job(job.id)
        rig.clock.now = max(rig.clock(), stored.next_poll_at)

    stored = await rig.job(job.id)
    assert stored.status is JobStatus.UNSENDABLE
    assert stored.failures == MAX_SEND_FAILURES
    (told,) = rig.messenger.sent
    assert told.text == TR.article_unsendable.format(title=TITLE)
    await delivery.poll_once()
    assert len(rig.messenger.calls) == 1, "given up: nothing more is tried"


async def test_a_clean_stop_hands_its_leases_back_at_once(rig: DeliveryRig) -> None:
    messenger = GatedMessenger()
    messenger.gates["chat-1"] = asyncio.Event()
    delivery = await rig.delivery(messenger=messenger, owner="stopping")
    job = await rig.order(TITLE, size=3)
    await finished(rig, job)
    await delivery.run_round()
    assert (await rig.job(job.id)).lease_owner == "stopping"

    # The worker held in its send is cancelled after the grace: a short one will do.
    await delivery.stop(grace=0.5)

    stored = await rig.job(job.id)
    assert (stored.lease_owner, stored.lease_until) == (None, None)
    assert stored.status is JobStatus.FINISHED
    successor = await rig.delivery(owner="successor")
    await successor.poll_once()
    assert (await rig.job(job.id)).status is JobStatus.DELIVERED


async def test_one_process_delivers_for_a_platform_and_another_takes_over_when_it_stops(
    rig: DeliveryRig,
) -> None:
    first = await rig.delivery(owner="first")
    second = await rig.delivery(owner="second", messenger=RecordingMessenger())
    await first.run_round()
    await second.run_round()
    assert first.leads == {"telegram", "slack"}
    assert second.leads == frozenset()

    await first.stop(GRACE)
    await second.run_round()

    assert second.leads == {"telegram", "slack"}
    await second.stop(GRACE)


async def test_a_notice_a_slow_chat_still_holds_does_not_keep_the_lead_from_another(
    rig: DeliveryRig,
) -> None:
    first = await rig.delivery(owner="first")
    second = await rig.delivery(owner="second", messenger=RecordingMessenger())
    await first.run_round()
    held = asyncio.Event()
    await first.outbox.notices.post(ChatAddress("telegram", "slow-chat"), held.wait)

    stopping = asyncio.create_task(first.stop(GRACE))

    async def taken_over() -> bool:
        await second.run_round()
        return second.leads == {"telegram", "slack"}

    # The notice gets its grace, but the lead is handed back before it, not after.
    await wait_until(taken_over)
    assert not stopping.done(), "the slow chat's notice is still held"
    held.set()
    await stopping
    await second.stop(GRACE)


class SlowFirstSend(RecordingMessenger):
    """Holds its first send (the order's announcement) until released."""

    def __init__(self) -> None:
        super().__init__()
        self.held = asyncio.Event()
        self.release = asyncio.Event()

    async def send(self, chat: ChatAddress, screen: Screen) -> str | None:
        """The first call waits for ``release``; the rest go through."""
        if not self.held.is_set():
            self.held.set()
            await self.release.wait()
        return await super().send(chat, screen)


async def test_an_announcement_that_lands_after_the_article_becomes_its_ready_line(
    rig: DeliveryRig,
) -> None:
    messenger = SlowFirstSend()
    delivery = await rig.delivery(messenger=messenger)
    job = await rig.order(TITLE)
    announcing = asyncio.create_task(delivery.outbox.progress.announce(job))
    await wait_until(messenger.held.is_set)
    await finished(rig, job)
    await delivery.poll_once()
    assert (await rig.job(job.id)).status is JobStatus.DELIVERED

    messenger.release.set()
    await announcing

    announced = messenger.sent[-1]
    assert announced.text == TR.progress_unknown.format(title=TITLE)
    (ended,) = messenger.edits
    assert (ended.message_id, ended.text) == (
        announced.message_id,
        TR.article_ready.format(title=TITLE),
    ), "no progress line is left saying the article is on its way"


@pytest.mark.parametrize(
    "database_url", [pytest.param("postgres", marks=pytest.mark.postgres)], indirect=True
)
async def test_a_job_handed_back_while_its_lease_is_renewed_is_not_called_taken(
    rig: DeliveryRig, caplog: pytest.LogCaptureFixture
) -> None:
    job = await rig.order(TITLE)
    assert job.id is not None
    job_id = job.id
    keeper = LeaseKeeper(db=rig.db, clock=rig.clock, owner="mine", lease_for=timedelta(seconds=30))
    # Due at its first poll.
    rig.advance(3600)
    claimed = await rig.db.run(
        lambda s: jobs.claim_jobs(
            s,
            owner="mine",
            now=rig.clock(),
            lease_for=keeper.lease_for,
            statuses=[JobStatus.PENDING],
            platforms=["telegram"],
            limit=1,
        )
    )
    assert [c.id for c in claimed] == [job_id]
    keeper.hold(claimed)
    renewing, go_on = threading.Event(), threading.Event()

    def hold_the_renewal(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        # The renewal's UPDATE waits, on its own connection, while the job's work ends.
        if "lease_until" in statement and not renewing.is_set():
            renewing.set()
            go_on.wait(5)

    event.listen(Engine, "before_cursor_execute", hold_the_renewal)
    try:
        renewal = asyncio.create_task(keeper.renew())
        assert await asyncio.to_thread(renewing.wait, 5)
        await keeper.release([job_id])
        go_on.set()
        await renewal
    finally:
        go_on.set()
        event.remove(Engine, "before_cursor_execute", hold_the_renewal)

    assert keeper.held == frozenset()
    assert "taken by another process" not in caplog.text
