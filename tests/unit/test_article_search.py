"""/makalelerim with words: the list the search fetched answers the next searches for a while."""

from __future__ import annotations

from collections.abc import AsyncIterator
from decimal import Decimal

import pytest

from bot.api import Article, ArticleStatus
from tests.dialog_harness import Harness, scripted, texts
from tests.fake_upstream import EMAIL, PASSWORD, FakeUpstream

TITLE = "Bulut bilişimin kısa tarihi"


@pytest.fixture
def upstream() -> FakeUpstream:
    return FakeUpstream(balance=Decimal("100.00"))


@pytest.fixture
async def h(upstream: FakeUpstream) -> AsyncIterator[Harness]:
    async with scripted(upstream) as running:
        yield running


async def test_searches_within_five_seconds_ask_the_service_once(
    h: Harness, upstream: FakeUpstream
) -> None:
    chat = h.chat()
    await chat.login(EMAIL, PASSWORD)
    # The service lists the article once; asked again, it lists nothing (its own orders).
    upstream.script("articles", [Article("r-1", ArticleStatus.FINISHED, TITLE, 100, "Metin.")])

    first = texts(await chat.say("/makalelerim bulut"))
    h.advance(4.9)
    second = texts(await chat.say("/makalelerim TARİHİ"))
    asked_within = len(upstream.of("articles"))
    h.advance(0.2)
    later = texts(await chat.say("/makalelerim bulut"))

    assert TITLE in first
    assert TITLE in second
    assert asked_within == 1
    assert len(upstream.of("articles")) == 2
    assert TITLE not in later
