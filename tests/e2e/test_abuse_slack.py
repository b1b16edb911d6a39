"""Slack under abuse: bodies too large or too deep, and one user's flood, hold no one up."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.slack_rig import ALICE, SlackRig, slack_rig

MEGABYTE = 1024 * 1024
# JSON nested deeper than Python's parser can follow.
DEEP = b"[" * 50_000 + b"]" * 50_000


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[SlackRig]:
    async with slack_rig(tmp_path) as running:
        yield running


def events_url(rig: SlackRig) -> str:
    return f"{rig.base_url}/slack/events"


async def test_a_body_over_a_megabyte_is_refused_whether_announced_or_chunked(
    rig: SlackRig,
) -> None:
    announced = await rig.http.post(events_url(rig), content=b"x" * (5 * MEGABYTE))

    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(40):
            yield b"x" * (MEGABYTE // 8)

    chunked = await rig.http.post(events_url(rig), content=chunks())

    assert (announced.status_code, chunked.status_code) == (413, 413)
    assert "content-length" not in chunked.request.headers
    await rig.says("/yardim", "", "/makalelerim")


async def test_a_body_nested_too_deep_is_refused_unsigned_with_401_and_signed_with_400(
    rig: SlackRig, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    json_body = {"Content-Type": "application/json"}

    unsigned = await rig.http.post(events_url(rig), content=DEEP, headers=json_body)
    signed = await rig.http.post(
        events_url(rig), content=DEEP, headers={**json_body, **rig.slack.sign(DEEP)}
    )

    assert (unsigned.status_code, signed.status_code) == (401, 400)
    assert not [record for record in caplog.records if record.levelno >= logging.ERROR]
    await rig.says("/yardim", "", "/makalelerim", user=ALICE)
