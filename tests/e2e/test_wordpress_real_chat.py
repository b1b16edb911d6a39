"""A client's site on a real WordPress (the slow tier's ``real_wordpress``), reached through the
dialogs as a user reaches it: connected from /musteriler, diagnosed when the host strips the
header, a delivered article written as one draft post in blocks however often it is pressed,
and a plan's article written as a draft at its run where the plan asks for drafts."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest

from bot.core.conversation.events import Press
from tests import wordpress_fixtures as shared
from tests.dialog_harness import Harness, texts
from tests.fake_upstream import FakeUpstream
from tests.integration.test_wordpress_plans import make_plan, run_and_finish
from tests.wordpress_fixtures import (
    CLIENT,
    client_chat,
    connect,
    delivered,
    delivered_buttons,
    site_record,
    stored_sites,
)

# The shared fixtures these tests take.
h, upstream = shared.h, shared.upstream

pytestmark = pytest.mark.slow


async def test_a_site_connects_and_a_delivered_article_is_one_draft_in_blocks(
    h: Harness, upstream: FakeUpstream, real_wordpress: Any
) -> None:
    site = real_wordpress
    chat = await client_chat(h)
    with site.mode("strip_authorization"):
        stripped = texts(await connect(chat, site.base_url, site.username, site.app_password))
    assert "Authorization" in stripped
    assert stored_sites(h) == []

    connected = texts(await connect(chat, site.base_url, site.username, site.app_password))
    assert "Bağlandı" in connected
    before = {post["id"] for post in site.posts()}
    job = await delivered(h, chat, upstream)
    publish = delivered_buttons(h)[-1]
    assert publish.label == "WordPress'e taslak"

    first = texts(await chat.send(Press(publish.data, "42")))
    (new,) = [post for post in site.posts() if post["id"] not in before]
    post = site.post(new["id"])
    assert "WordPress'te taslak hazır" in first
    assert f"post={post['id']}&action=edit" in first
    assert (post["status"], post["slug"]) == ("draft", "yapay-zeka-ile-icerik-uretimi")
    assert '<!-- wp:heading {"level":2} -->' in post["content"]["raw"]
    assert '<!-- wp:list {"ordered":true} -->' in post["content"]["raw"]

    answers = await asyncio.gather(*(chat.send(Press(publish.data, "42")) for _ in range(2)))
    assert any("taslak hazır" in texts(answer) for answer in answers)
    assert [p["id"] for p in site.posts() if p["id"] not in before] == [post["id"]]
    record = site_record(h, job)
    assert record is not None
    assert record.progress == str(post["id"])


async def test_a_plan_that_asks_for_drafts_writes_one_at_its_run(
    h: Harness, upstream: FakeUpstream, real_wordpress: Any
) -> None:
    site = real_wordpress
    chat = await client_chat(h)
    assert "Bağlandı" in texts(await connect(chat, site.base_url, site.username, site.app_password))
    at, summary = await make_plan(h, chat, CLIENT, draft=True, site="Makale Test")
    assert "(taslak)" in summary
    (job,) = await run_and_finish(h, upstream, at)

    await h.bot.planner.run_due()
    await h.bot.delivery.destinations.run_due()

    (told,) = [call.text for call in h.messenger.sent if "sitesine gönderildi" in call.text]
    found = re.search(r"post=(\d+)&action=edit", told)
    assert found is not None, told
    post = site.post(int(found[1]))
    assert post["status"] == "draft"
    assert '<!-- wp:heading {"level":2} -->' in post["content"]["raw"]
    record = site_record(h, job)
    assert record is not None
    assert (record.progress, record.done) == (found[1], True)
