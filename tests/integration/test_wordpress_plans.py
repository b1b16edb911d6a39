"""A plan for a client with a site: the site is offered as a target, and each finished
article goes there once as a post at the run's time, its owner told with the link; a site
that refuses pauses the plan and says why."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import stamina
from sqlmodel import Session, select

from bot.core.plans.posts import RETRY
from bot.core.publishing.client_sites import CLAIM
from storage.models import Job
from tests import wordpress_fixtures as shared
from tests.dialog_harness import Chat, Harness, labels, texts
from tests.fake_upstream import FakeUpstream
from tests.fake_wordpress import FakeWordPress
from tests.wordpress_fixtures import (
    ARTICLE,
    CLIENT,
    TITLE,
    client_chat,
    connect,
)

# The shared fixtures these tests take.
h, upstream, wordpress = shared.h, shared.upstream, shared.wordpress

ISTANBUL = ZoneInfo("Europe/Istanbul")


async def planned_and_finished(h: Harness, chat: Chat, upstream: FakeUpstream) -> tuple[Job, str]:
    """A one-time plan for the client with its site as target, run and its article finished;
    the job and the plan's summary."""
    at = h.clock.now.replace(second=0, microsecond=0) + timedelta(minutes=2)
    wall = at.astimezone(ISTANBUL).strftime("%d.%m.%Y %H:%M")
    await chat.say(f"/takvim {wall}: {TITLE}")
    await chat.press(CLIENT)
    await chat.press("Samimi")
    where = await chat.press("Kısa")
    assert labels(where)[:2] == ["Bu sohbet", "🌐 Örnek Blog"], texts(where)
    summary = texts(await chat.press("🌐 Örnek Blog"))
    assert "Plan kaydedildi" in texts(await chat.press("Onayla"))
    h.clock.now = at
    await h.bot.planner.run_due()
    (order,) = upstream.orders
    upstream.finish(order.request_id, ARTICLE)
    job = h.bot.db.run_sync(lambda s: s.exec(select(Job)).one())
    h.clock.now = max(at, job.next_poll_at)
    await h.bot.delivery.poll_once()
    return job, summary


async def test_a_planned_article_goes_to_the_site_once_at_its_time(
    h: Harness, upstream: FakeUpstream, wordpress: FakeWordPress
) -> None:
    chat = await client_chat(h)
    await connect(chat, wordpress.base_url, wordpress.username, wordpress.app_password)
    job, summary = await planned_and_finished(h, chat, upstream)
    assert "Hedef: bu sohbet ve Örnek Blog sitesi" in summary

    await h.bot.planner.run_due()
    await h.bot.planner.run_due()

    (post,) = wordpress.site.posts.values()
    run_at = h.bot.db.run_sync(lambda s: s.get(Job, job.id))
    assert run_at is not None
    assert run_at.site_post_id == post.id
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

    await h.bot.planner.run_due()
    await h.bot.planner.run_due()

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
        await h.bot.planner.run_due()
        held = h.bot.db.run_sync(lambda s: s.get(Job, job.id))
        await h.bot.planner.run_due()
    assert wordpress.site.posts == {}
    assert held is not None
    assert held.site_claim_until == h.clock.now + RETRY
    assert wordpress.site.faults == [503] * 2, "left alone until the wait is over"
    assert not [call for call in h.messenger.sent if "Takvim durduruldu" in call.text]

    wordpress.site.faults = []
    h.clock.advance(RETRY.total_seconds())
    await h.bot.planner.run_due()
    assert len(wordpress.site.posts) == 1


async def test_a_site_that_is_down_does_not_hold_back_the_chats_article(
    h: Harness, upstream: FakeUpstream, wordpress: FakeWordPress
) -> None:
    chat = await client_chat(h)
    await connect(chat, wordpress.base_url, wordpress.username, wordpress.app_password)
    wordpress.site.faults = [503] * 50

    with stamina.set_testing(True, attempts=1):
        job, _ = await planned_and_finished(h, chat, upstream)
        await h.bot.planner.run_due()

    stored = h.bot.db.run_sync(lambda s: s.get(Job, job.id))
    assert stored is not None
    assert stored.status == "delivered", "the chat's article went out while the site was down"
    assert stored.site_post_id is None
    assert wordpress.site.posts == {}
    assert any(TITLE in call.text for call in h.messenger.sent)


async def test_a_restart_before_the_post_was_recorded_writes_it_once(
    h: Harness, upstream: FakeUpstream, wordpress: FakeWordPress
) -> None:
    chat = await client_chat(h)
    await connect(chat, wordpress.base_url, wordpress.username, wordpress.app_password)
    job, _ = await planned_and_finished(h, chat, upstream)
    await h.bot.planner.run_due()
    (post,) = wordpress.site.posts.values()
    # The process died after the site took the post and before its id was kept.
    until = h.clock.now + CLAIM
    h.bot.db.run_sync(lambda s: _forget_post(s, job.id, until))

    await h.bot.planner.run_due()
    held = h.bot.db.run_sync(lambda s: s.get(Job, job.id))
    assert held is not None
    assert held.site_post_id is None, "left alone while another's claim holds"
    h.clock.advance(CLAIM.total_seconds())
    await h.bot.planner.run_due()
    await h.bot.planner.run_due()

    assert list(wordpress.site.posts) == [post.id], "found again by its slug, not written twice"
    stored = h.bot.db.run_sync(lambda s: s.get(Job, job.id))
    assert stored is not None
    assert stored.site_post_id == post.id


def _forget_post(session: Session, job_id: int | None, until: datetime) -> None:
    """What a crash between the write and its record leaves: a claim, and no post id."""
    row = session.get(Job, job_id)
    assert row is not None
    row.site_post_id = None
    row.site_claim_until = until
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
            await h.bot.planner.run_due()
            held = h.bot.db.run_sync(lambda s: s.get(Job, job.id))
            assert held is not None
            assert held.site_claim_until is not None
            waits.append(held.site_claim_until - h.clock.now)
            h.clock.now = held.site_claim_until
    assert waits == [RETRY, RETRY * 2, RETRY * 4]
    assert wordpress.site.faults == [503] * 7

    wordpress.site.faults = []
    await h.bot.planner.run_due()
    stored = h.bot.db.run_sync(lambda s: s.get(Job, job.id))
    assert stored is not None
    assert stored.site_post_id is not None
    assert stored.site_failures == 0
