"""A plan for a client with a site: the site is offered as a target, and each finished
article goes there once as a post at the run's time, its owner told with the link; a site
that refuses pauses the plan and says why."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import stamina
from sqlmodel import Session, col, select

from bot.core.delivery.destinations import RECORD_LEASE, RETRY, Destinations
from bot.core.plans.posts import register_site_posts
from bot.core.scheduler import DESTINATIONS_JOB_ID
from storage.models import DeliveryRecord, Job
from tests import wordpress_fixtures as shared
from tests.dialog_harness import Chat, Harness, labels, texts
from tests.fake_upstream import FakeUpstream
from tests.fake_wordpress import FakeWordPress
from tests.fakes import wait_until
from tests.wordpress_fixtures import (
    ARTICLE,
    CLIENT,
    TITLE,
    client_chat,
    connect,
    site_record,
)

# The shared fixtures these tests take.
h, upstream, wordpress = shared.h, shared.upstream, shared.wordpress

ISTANBUL = ZoneInfo("Europe/Istanbul")
SECOND = "İkinci Ajans"


async def planned_and_finished(
    h: Harness, chat: Chat, upstream: FakeUpstream, *, draft: bool = False
) -> tuple[Job, str]:
    """A one-time plan for the client with its site as target (drafts there with ``draft``),
    run and its article finished; the job and the plan's summary."""
    at, summary = await make_plan(h, chat, CLIENT, draft=draft)
    (job,) = await run_and_finish(h, upstream, at)
    return job, summary


async def make_plan(
    h: Harness, chat: Chat, client: str, *, draft: bool = False, site: str = "Örnek Blog"
) -> tuple[datetime, str]:
    """A one-time plan two minutes ahead for ``client`` with its site (named ``site``) as
    target; its time and its summary as last shown."""
    at = h.clock.now.replace(second=0, microsecond=0) + timedelta(minutes=2)
    wall = at.astimezone(ISTANBUL).strftime("%d.%m.%Y %H:%M")
    await chat.say(f"/takvim {wall}: {TITLE}")
    await chat.press(client)
    await chat.press("Samimi")
    where = await chat.press("Kısa")
    assert labels(where)[:2] == ["Bu sohbet", f"🌐 {site}"], texts(where)
    summary = await chat.press(f"🌐 {site}")
    if draft:
        summary = await chat.press("Taslak")
    assert "Plan kaydedildi" in texts(await chat.press("Onayla"))
    return at, texts(summary)


async def run_and_finish(h: Harness, upstream: FakeUpstream, at: datetime) -> list[Job]:
    """Run the plans due at ``at``, finish their articles and deliver them to the chat."""
    h.clock.now = at
    await h.bot.planner.run_due()
    for order in upstream.orders:
        upstream.finish(order.request_id, ARTICLE)
    found = h.bot.db.run_sync(lambda s: list(s.exec(select(Job).order_by(col(Job.id)))))
    h.clock.now = max(at, *(job.next_poll_at for job in found))
    await h.bot.delivery.poll_once()
    return h.bot.db.run_sync(lambda s: list(s.exec(select(Job).order_by(col(Job.id)))))


async def tick(h: Harness) -> None:
    """The calendar's tick (which opens the site's records of finished articles), then the
    destinations' round, as their scheduler jobs run them."""
    await h.bot.planner.run_due()
    await h.bot.delivery.destinations.run_due()


async def test_a_planned_article_goes_to_the_site_once_at_its_time(
    h: Harness, upstream: FakeUpstream, wordpress: FakeWordPress
) -> None:
    chat = await client_chat(h)
    await connect(chat, wordpress.base_url, wordpress.username, wordpress.app_password)
    job, summary = await planned_and_finished(h, chat, upstream)
    assert "Hedef: bu sohbet ve Örnek Blog sitesi (planın saatinde yayımlanacak yazı)" in summary

    await tick(h)
    await tick(h)

    (post,) = wordpress.site.posts.values()
    record = site_record(h, job)
    assert record is not None
    assert (record.progress, record.done) == (str(post.id), True)
    assert post.status in ("future", "publish"), "future, published at once when its time passed"
    assert post.slug == "yapay-zeka-ile-icerik-uretimi"
    told = [call.text for call in h.messenger.sent if "sitesine gönderildi" in call.text]
    assert len(told) == 1
    assert f"{wordpress.base_url}/?p={post.id}" in told[0]


async def test_a_site_that_refuses_pauses_the_plan_and_says_why(
    h: Harness, upstream: FakeUpstream, wordpress: FakeWordPress
) -> None:
    chat = await client_chat(h)
    await connect(chat, wordpress.base_url, wordpress.username, wordpress.app_password)
    await planned_and_finished(h, chat, upstream)
    wordpress.revoke_app_passwords()

    await tick(h)
    await tick(h)

    assert wordpress.site.posts == {}
    told = [call.text for call in h.messenger.sent if "Takvim durduruldu" in call.text]
    assert len(told) == 1
    assert "kabul etmedi" in told[0]
    assert "site yazıyı almadı" in texts(await chat.say("/takvim"))


async def test_a_site_that_is_down_is_tried_again_later(
    h: Harness, upstream: FakeUpstream, wordpress: FakeWordPress
) -> None:
    chat = await client_chat(h)
    await connect(chat, wordpress.base_url, wordpress.username, wordpress.app_password)
    job, _ = await planned_and_finished(h, chat, upstream)
    wordpress.site.faults = [503] * 3

    # One attempt a call: the adapter's own backoff is tested with the adapter.
    with stamina.set_testing(True, attempts=1):
        await tick(h)
        held = site_record(h, job)
        await tick(h)
    assert wordpress.site.posts == {}
    assert held is not None
    assert held.next_try_at == h.clock.now + RETRY
    assert wordpress.site.faults == [503] * 2, "left alone until the wait is over"
    assert not [call for call in h.messenger.sent if "Takvim durduruldu" in call.text]

    wordpress.site.faults = []
    h.clock.advance(RETRY.total_seconds())
    await tick(h)
    assert len(wordpress.site.posts) == 1


async def test_a_site_that_is_down_does_not_hold_back_the_chats_article(
    h: Harness, upstream: FakeUpstream, wordpress: FakeWordPress
) -> None:
    chat = await client_chat(h)
    await connect(chat, wordpress.base_url, wordpress.username, wordpress.app_password)
    wordpress.site.faults = [503] * 50

    with stamina.set_testing(True, attempts=1):
        job, _ = await planned_and_finished(h, chat, upstream)
        await tick(h)

    stored = h.bot.db.run_sync(lambda s: s.get(Job, job.id))
    assert stored is not None
    assert stored.status == "delivered", "the chat's article went out while the site was down"
    record = site_record(h, job)
    assert record is not None
    assert not record.done
    assert wordpress.site.posts == {}
    assert any(TITLE in call.text for call in h.messenger.sent)


async def test_a_restart_before_the_post_was_recorded_writes_it_once(
    h: Harness, upstream: FakeUpstream, wordpress: FakeWordPress
) -> None:
    chat = await client_chat(h)
    await connect(chat, wordpress.base_url, wordpress.username, wordpress.app_password)
    job, _ = await planned_and_finished(h, chat, upstream)
    await tick(h)
    (post,) = wordpress.site.posts.values()
    # The process died after the site took the post and before its id was kept.
    until = h.clock.now + RECORD_LEASE
    h.bot.db.run_sync(lambda s: _forget_post(s, job.id, until))

    await tick(h)
    held = site_record(h, job)
    assert held is not None
    assert held.progress is None, "left alone while another's lease holds"
    h.clock.advance(RECORD_LEASE.total_seconds())
    await tick(h)
    await tick(h)

    assert list(wordpress.site.posts) == [post.id], "found again by its slug, not written twice"
    stored = site_record(h, job)
    assert stored is not None
    assert stored.progress == str(post.id)


def _forget_post(session: Session, job_id: int | None, until: datetime) -> None:
    """What a crash between the write and its record leaves: a lease, and no post id."""
    row = session.exec(select(DeliveryRecord).where(DeliveryRecord.job_id == job_id)).one()
    row.progress, row.done = None, False
    row.lease_owner, row.lease_until = "a process that died", until
    row.next_try_at = until - RECORD_LEASE
    session.add(row)
    session.commit()


async def test_a_site_that_stays_down_is_tried_less_and_less_often(
    h: Harness, upstream: FakeUpstream, wordpress: FakeWordPress
) -> None:
    chat = await client_chat(h)
    await connect(chat, wordpress.base_url, wordpress.username, wordpress.app_password)
    job, _ = await planned_and_finished(h, chat, upstream)
    wordpress.site.faults = [503] * 10

    waits = []
    with stamina.set_testing(True, attempts=1):
        for _ in range(3):
            await tick(h)
            held = site_record(h, job)
            assert held is not None
            assert held.next_try_at is not None
            waits.append(held.next_try_at - h.clock.now)
            h.clock.now = held.next_try_at
    assert waits == [RETRY, RETRY * 2, RETRY * 4]
    assert wordpress.site.faults == [503] * 7

    wordpress.site.faults = []
    await tick(h)
    stored = site_record(h, job)
    assert stored is not None
    assert stored.done
    assert stored.failures == 0


async def test_a_plan_may_send_drafts_to_the_site_instead(
    h: Harness, upstream: FakeUpstream, wordpress: FakeWordPress
) -> None:
    chat = await client_chat(h)
    await connect(chat, wordpress.base_url, wordpress.username, wordpress.app_password)
    _, summary = await planned_and_finished(h, chat, upstream, draft=True)
    assert "Hedef: bu sohbet ve Örnek Blog sitesi (taslak)" in summary

    await tick(h)

    (post,) = wordpress.site.posts.values()
    assert (post.status, post.slug) == ("draft", "yapay-zeka-ile-icerik-uretimi")
    told = [call.text for call in h.messenger.sent if "sitesine gönderildi" in call.text]
    assert len(told) == 1
    assert f"post={post.id}&action=edit" in told[0]


async def test_a_site_that_hangs_does_not_hold_back_a_second_site(
    h: Harness, upstream: FakeUpstream, wordpress: FakeWordPress
) -> None:
    chat = await client_chat(h)
    await connect(chat, wordpress.base_url, wordpress.username, wordpress.app_password)
    await chat.say("/musteriler")
    await chat.press("Müşteri ekle")
    await chat.say(SECOND)
    async with FakeWordPress.running() as second:
        await connect(chat, second.base_url, second.username, second.app_password, SECOND)
        at, _ = await make_plan(h, chat, CLIENT)
        await make_plan(h, chat, SECOND)
        jobs = await run_and_finish(h, upstream, at)
        assert [job.status for job in jobs] == ["delivered", "delivered"]
        # The first site takes the post and never answers (a host under load).
        wordpress.site.lost_answers = 1

        writing = asyncio.create_task(tick(h))
        try:
            # Shorter than the site's own timeout: the first site's write holds this long.
            await wait_until(lambda: _done(h, jobs[1]), timeout=15.0)
            assert not writing.done(), "the first site's write is still waiting"
            assert len(second.site.posts) == 1
        finally:
            writing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writing
    told = [call.text for call in h.messenger.sent if "sitesine gönderildi" in call.text]
    assert len(told) == 1


def _done(h: Harness, job: Job) -> bool:
    record = site_record(h, job)
    return record is not None and record.done


async def test_a_new_process_resumes_a_sites_record_without_a_second_post(
    h: Harness, upstream: FakeUpstream, wordpress: FakeWordPress
) -> None:
    chat = await client_chat(h)
    await connect(chat, wordpress.base_url, wordpress.username, wordpress.app_password)
    job, _ = await planned_and_finished(h, chat, upstream)
    wordpress.site.lost_answers = 1
    # The process dies while the site holds its write: the post is made, its answer lost.
    writing = asyncio.create_task(tick(h))
    await wait_until(lambda: bool(wordpress.site.posts))
    writing.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await writing
    (post,) = wordpress.site.posts.values()

    successor = Destinations(db=h.bot.db, clock=h.clock, owner="a process started after")
    register_site_posts(successor, h.bot.services)
    await successor.run_due()
    held = site_record(h, job)
    assert held is not None
    assert not held.done, "left alone while the dead process's lease holds"
    h.clock.advance(RECORD_LEASE.total_seconds())
    await successor.run_due()
    await successor.run_due()

    assert list(wordpress.site.posts) == [post.id], "resumed on the same post, not a second"
    record = site_record(h, job)
    assert record is not None
    assert (record.progress, record.done) == (str(post.id), True)
    told = [call.text for call in h.messenger.sent if "sitesine gönderildi" in call.text]
    assert len(told) == 1


def destinations_job(h: Harness) -> Callable[[], Awaitable[None]]:
    """What the bot's scheduler runs as the destinations' job."""
    job = h.bot.scheduler.get_job(DESTINATIONS_JOB_ID)
    assert job is not None, "the destinations' rounds are a scheduler job of their own"
    round_: Callable[[], Awaitable[None]] = job.func
    return round_


async def test_a_plan_due_while_a_site_hangs_still_orders_on_time(
    h: Harness, upstream: FakeUpstream, wordpress: FakeWordPress
) -> None:
    chat = await client_chat(h)
    await connect(chat, wordpress.base_url, wordpress.username, wordpress.app_password)
    await planned_and_finished(h, chat, upstream)
    later, _ = await make_plan(h, chat, CLIENT)
    # The site takes the post and never answers (a host under load).
    wordpress.site.lost_answers = 1

    # Shorter than the site's own timeout: a tick that waited for the site would outlast it.
    await asyncio.wait_for(h.bot.planner.run_due(), timeout=10.0)
    writing = asyncio.create_task(destinations_job(h)())
    try:
        await wait_until(lambda: bool(wordpress.site.posts))
        h.clock.now = later
        await asyncio.wait_for(h.bot.planner.run_due(), timeout=10.0)
        assert len(upstream.orders) == 2, "the second plan ordered at its time"
        assert not writing.done(), "the site's write is still waiting"
    finally:
        writing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await writing


async def test_a_clean_stop_hands_the_sites_record_back_for_another_process_at_once(
    h: Harness, upstream: FakeUpstream, wordpress: FakeWordPress
) -> None:
    chat = await client_chat(h)
    await connect(chat, wordpress.base_url, wordpress.username, wordpress.app_password)
    job, _ = await planned_and_finished(h, chat, upstream)
    await h.bot.planner.run_due()
    wordpress.site.lost_answers = 1
    writing = asyncio.create_task(destinations_job(h)())
    await wait_until(lambda: bool(wordpress.site.posts))
    (post,) = wordpress.site.posts.values()
    held = site_record(h, job)
    assert held is not None
    assert held.lease_owner is not None

    # The bot's stop: its grace for the write under way, then the write is cut short.
    await h.bot.stop_delivery()
    await writing

    released = site_record(h, job)
    assert released is not None
    assert (released.lease_owner, released.lease_until, released.done) == (None, None, False)
    successor = Destinations(db=h.bot.db, clock=h.clock, owner="a process started after")
    register_site_posts(successor, h.bot.services)
    await successor.run_due()
    assert list(wordpress.site.posts) == [post.id], "resumed on the same post, not a second"
    record = site_record(h, job)
    assert record is not None
    assert (record.progress, record.done) == (str(post.id), True)
