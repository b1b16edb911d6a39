"""A client's site on a real WordPress (the slow tier's ``real_wordpress``), reached through the
dialogs as a user reaches it: connected from /musteriler, diagnosed when the host strips the
header, and a delivered article written as one draft post in blocks however often it is pressed."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.core.events import Press
from storage.models import Job
from tests import wordpress_fixtures as shared
from tests.dialog_harness import Harness, texts
from tests.fake_upstream import FakeUpstream
from tests.wordpress_fixtures import (
    client_chat,
    connect,
    delivered,
    delivered_buttons,
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
    stored = h.bot.db.run_sync(lambda s: s.get(Job, job.id))
    assert stored is not None
    assert stored.site_post_id == post["id"]
