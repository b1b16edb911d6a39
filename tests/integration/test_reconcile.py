"""Orders left submitted without a job, reconciled against the sandbox's own-articles list."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from datetime import timedelta
from decimal import Decimal

import httpx
import pytest
from sqlmodel import Session

from bot.api import ArticleApi, OutcomeUnknown
from bot.core.texts import texts_for
from storage import Database, Draft, DraftKind, DraftStep, Job, JobStatus, drafts, jobs
from tests.fakes import CHAT_ID, DeliveryRig, delivery_rig

TR = texts_for("tr")
TITLE = "Kurumsal Bloglar İçin İçerik Takvimi"
OTHER_TITLE = "E-Ticarette Ürün Açıklaması Yazmanın Yolları"
CREATE_TIMEOUT = 30.0
GRACE = 600.0


@pytest.fixture
async def rig(sqlite_database: Database) -> AsyncIterator[DeliveryRig]:
    async with delivery_rig(sqlite_database) as rig:
        yield rig


async def submit(rig: DeliveryRig, *titles: str) -> Draft:
    """A confirmed draft for the titles (bulk when several), submitted now on the bot's clock."""
    now = rig.clock()
    kind = DraftKind.BULK if len(titles) > 1 else DraftKind.SINGLE

    def confirm(session: Session) -> Draft:
        draft = drafts.create_draft(
            session, user_id=rig.user_id, chat_id=CHAT_ID, thread_id=None, kind=kind
        )
        draft.title, draft.titles = (titles[0], None) if len(titles) == 1 else (None, list(titles))
        draft.tone, draft.size, draft.cost = 1, 1, Decimal(15 * len(titles))
        draft.step = DraftStep.READY
        drafts.save_draft(session, draft=draft)
        claimed = drafts.claim_for_submission(
            session, draft_id=draft.id, user_id=rig.user_id, now=now
        )
        assert claimed is not None
        return claimed

    return await rig.db.run(confirm)


async def order_timing_out(rig: DeliveryRig, titles: Sequence[str]) -> None:
    """Order upstream with a client that gives up before the slow sandbox answers."""
    faults = rig.sandbox.state.faults
    # It holds back the answer, not the work: the order is taken, then the client gives up.
    faults.latency = 0.8
    try:
        # Connected surely, then no answer in time: sent, and maybe charged. The patience leaves
        # a loaded machine time to read the request before the client hangs up.
        async with httpx.AsyncClient(timeout=httpx.Timeout(5.0, read=0.4)) as http:
            impatient = ArticleApi(http, base_url=rig.sandbox.url)
            items = [(title, 1, 1) for title in titles]
            with pytest.raises(OutcomeUnknown):
                await rig.accounts.call(
                    rig.user_id, lambda token: impatient.bulk_create(token, items)
                )
    finally:
        faults.latency = 0.0


async def upstream_request_id(rig: DeliveryRig, title: str) -> str:
    """The request id of the user's upstream job of this title."""
    listed = await rig.accounts.call(rig.user_id, lambda token: rig.api.articles(token))
    (request_id,) = [article.request_id for article in listed if article.title == title]
    return request_id


async def draft_of(rig: DeliveryRig, draft: Draft) -> Draft:
    stored = await rig.db.run(lambda s: drafts.get_draft(s, draft_id=draft.id))
    assert stored is not None
    return stored


async def jobs_of(rig: DeliveryRig) -> list[Job]:
    return await rig.db.run(lambda s: jobs.jobs_of_user(s, user_id=rig.user_id))


async def test_an_order_whose_create_timed_out_is_adopted_and_delivered(
    rig: DeliveryRig,
) -> None:
    delivery = await rig.delivery(create_timeout=CREATE_TIMEOUT, reconcile_grace=GRACE)
    draft = await submit(rig, TITLE)
    await order_timing_out(rig, [TITLE])
    assert rig.sandbox.state.create_count == 1

    await delivery.poll_once()
    assert (await draft_of(rig, draft)).step is DraftStep.SUBMITTED, "the create may still run"
    assert rig.messenger.calls == []

    rig.clock.advance(CREATE_TIMEOUT)
    await delivery.poll_once()

    assert (await draft_of(rig, draft)).step is DraftStep.DONE
    (job,) = await jobs_of(rig)
    assert (job.draft_id, job.title, job.cost) == (draft.id, TITLE, Decimal(15))
    adopted, progress = rig.messenger.sent[:2]
    assert adopted.text == TR.order_adopted.format(title=TITLE)
    assert progress.message_id == job.progress_message_id

    rig.advance(rig.upstream_seconds(job.request_id) + 300)
    await delivery.poll_once()

    assert (await rig.job(job.id)).status is JobStatus.DELIVERED
    assert rig.messenger.file_kinds == ["md", "html"]
    assert rig.sandbox.state.create_count == 1, "never ordered twice"


async def test_a_bulk_order_is_adopted_title_by_title(rig: DeliveryRig) -> None:
    delivery = await rig.delivery(create_timeout=CREATE_TIMEOUT, reconcile_grace=GRACE)
    draft = await submit(rig, TITLE, OTHER_TITLE)
    await order_timing_out(rig, [TITLE, OTHER_TITLE])
    rig.clock.advance(CREATE_TIMEOUT)

    await delivery.poll_once()

    assert (await draft_of(rig, draft)).step is DraftStep.DONE
    adopted = await jobs_of(rig)
    assert sorted(job.title for job in adopted) == sorted([TITLE, OTHER_TITLE])
    assert len({job.request_id for job in adopted}) == 2
    assert {job.cost for job in adopted} == {Decimal(15)}
    assert rig.messenger.sent[0].text == TR.order_adopted.format(title=f"{TITLE}, {OTHER_TITLE}")


async def test_an_order_that_never_arrived_is_reported_lost_after_the_grace(
    rig: DeliveryRig,
) -> None:
    delivery = await rig.delivery(create_timeout=CREATE_TIMEOUT, reconcile_grace=GRACE)
    draft = await submit(rig, TITLE)

    rig.clock.advance(CREATE_TIMEOUT)
    await delivery.poll_once()
    assert (await draft_of(rig, draft)).step is DraftStep.SUBMITTED, "it may still appear"
    assert rig.messenger.calls == []

    rig.clock.advance(GRACE)
    await delivery.poll_once()
    await delivery.poll_once()

    assert (await draft_of(rig, draft)).step is DraftStep.FAILED
    assert [call.text for call in rig.messenger.calls] == [TR.order_lost.format(title=TITLE)]
    assert await jobs_of(rig) == []


async def test_an_older_article_of_the_same_title_is_not_adopted(rig: DeliveryRig) -> None:
    delivery = await rig.delivery(create_timeout=CREATE_TIMEOUT, reconcile_grace=GRACE)
    # Ordered earlier, outside this bot: the same title, long before the draft.
    await rig.accounts.call(
        rig.user_id, lambda token: rig.api.create(token, title=TITLE, tone=1, size=1)
    )
    rig.advance(3600)
    draft = await submit(rig, TITLE)

    rig.clock.advance(GRACE)
    await delivery.poll_once()

    assert (await draft_of(rig, draft)).step is DraftStep.FAILED
    assert await jobs_of(rig) == []


async def test_an_unavailable_upstream_leaves_the_draft_for_the_next_round(
    rig: DeliveryRig,
) -> None:
    delivery = await rig.delivery(create_timeout=CREATE_TIMEOUT, reconcile_grace=GRACE)
    draft = await submit(rig, TITLE)
    await order_timing_out(rig, [TITLE])
    rig.clock.advance(GRACE)
    rig.sandbox.state.faults.fail_next(1, status=503)

    await delivery.poll_once()
    assert (await draft_of(rig, draft)).step is DraftStep.SUBMITTED
    assert rig.messenger.calls == []

    await delivery.poll_once()
    assert (await draft_of(rig, draft)).step is DraftStep.DONE
    assert len(await jobs_of(rig)) == 1


async def test_a_bulk_order_partly_recorded_adopts_only_the_titles_without_a_job(
    rig: DeliveryRig,
) -> None:
    delivery = await rig.delivery(create_timeout=CREATE_TIMEOUT, reconcile_grace=GRACE)
    draft = await submit(rig, TITLE, OTHER_TITLE)
    await order_timing_out(rig, [TITLE, OTHER_TITLE])
    # The order dialog recorded the job of the first title before the answers stopped.
    recorded = Job(
        request_id=await upstream_request_id(rig, TITLE),
        chat_user_id=rig.user_id,
        draft_id=draft.id,
        platform="telegram",
        chat_id=CHAT_ID,
        title=TITLE,
        tone=1,
        size=1,
        next_poll_at=rig.clock() + timedelta(hours=1),
        created_at=rig.clock(),
    )
    await rig.db.run(lambda s: jobs.add_job(s, job=recorded))
    rig.clock.advance(CREATE_TIMEOUT)

    await delivery.poll_once()

    assert (await draft_of(rig, draft)).step is DraftStep.DONE
    assert sorted(job.title for job in await jobs_of(rig)) == sorted([TITLE, OTHER_TITLE])
    assert rig.messenger.sent[0].text == TR.order_adopted.format(title=OTHER_TITLE)


async def test_without_titles_in_the_list_the_articles_made_at_the_submission_are_adopted(
    rig: DeliveryRig,
) -> None:
    rig.sandbox.state.faults.hidden_article_fields = {"baslik"}
    delivery = await rig.delivery(create_timeout=CREATE_TIMEOUT, reconcile_grace=GRACE)
    # Ordered long before, outside this bot: not part of the draft.
    await rig.accounts.call(
        rig.user_id, lambda token: rig.api.create(token, title=TITLE, tone=1, size=1)
    )
    rig.advance(3600)
    draft = await submit(rig, TITLE, OTHER_TITLE)
    await order_timing_out(rig, [TITLE, OTHER_TITLE])
    rig.clock.advance(CREATE_TIMEOUT)

    await delivery.poll_once()

    assert (await draft_of(rig, draft)).step is DraftStep.DONE
    adopted = await jobs_of(rig)
    assert sorted(job.title for job in adopted) == sorted([TITLE, OTHER_TITLE])
    old = await rig.accounts.call(rig.user_id, lambda token: rig.api.articles(token))
    assert {job.request_id for job in adopted} == {a.request_id for a in old[:2]}


async def test_a_list_without_titles_or_times_is_not_taken_for_a_lost_order(
    rig: DeliveryRig,
) -> None:
    rig.sandbox.state.faults.hidden_article_fields = {"baslik", "createdAt"}
    delivery = await rig.delivery(create_timeout=CREATE_TIMEOUT, reconcile_grace=GRACE)
    await rig.accounts.call(
        rig.user_id, lambda token: rig.api.create(token, title=OTHER_TITLE, tone=1, size=1)
    )
    draft = await submit(rig, TITLE)

    rig.clock.advance(CREATE_TIMEOUT)
    await delivery.poll_once()
    assert (await draft_of(rig, draft)).step is DraftStep.SUBMITTED
    rig.clock.advance(GRACE)
    await delivery.poll_once()

    assert (await draft_of(rig, draft)).step is DraftStep.FAILED
    assert [call.text for call in rig.messenger.calls] == [TR.order_unconfirmed.format(title=TITLE)]
    assert await jobs_of(rig) == []


async def test_drafts_of_a_platform_not_served_here_are_left_for_later(
    rig: DeliveryRig,
) -> None:
    slack_only = await rig.delivery(
        create_timeout=CREATE_TIMEOUT, reconcile_grace=GRACE, platforms=("slack",)
    )
    draft = await submit(rig, TITLE)
    await order_timing_out(rig, [TITLE])
    rig.clock.advance(GRACE)

    await slack_only.poll_once()

    assert (await draft_of(rig, draft)).step is DraftStep.SUBMITTED
    assert await jobs_of(rig) == []
    assert rig.messenger.calls == []

    delivery = await rig.delivery(create_timeout=CREATE_TIMEOUT, reconcile_grace=GRACE)
    await delivery.poll_once()
    assert (await draft_of(rig, draft)).step is DraftStep.DONE


async def test_an_unexpected_error_while_reconciling_does_not_stop_delivery(
    rig: DeliveryRig, caplog: pytest.LogCaptureFixture
) -> None:
    delivery = await rig.delivery(create_timeout=CREATE_TIMEOUT, reconcile_grace=GRACE)
    job = await rig.order(OTHER_TITLE)
    await submit(rig, TITLE)
    await order_timing_out(rig, [TITLE])
    rig.advance(3600)
    # The first message of the round is reconciling's notice; it hits a bug.
    rig.messenger.fail_next(1, error=RuntimeError)

    with caplog.at_level(logging.ERROR, logger="bot.core.delivery"):
        await delivery.poll_once()

    assert (await rig.job(job.id)).status is JobStatus.DELIVERED
    assert any(record.exc_info is not None for record in caplog.records)
