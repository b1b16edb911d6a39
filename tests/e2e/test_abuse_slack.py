"""Slack under abuse: bodies too large or too deep, and one user's flood, hold no one up."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.slack_rig import ALICE, SlackRig, slack_rig, text_of

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


async def test_one_users_flood_runs_ten_at_a_time_and_the_rest_are_told_once(
    rig: SlackRig,
) -> None:
    await rig.log_in()
    # A login republishes the Home tab, which asks for the balance too: let that one pass.
    await rig.slack.wait_for(lambda: rig.slack.calls_to("views.publish"))
    since = len(rig.slack.ephemerals(ALICE))
    log = rig.sandbox.state.request_log
    asked = len([path for _, path in log if path.endswith("guncel-bakiye")])
    rig.sandbox.state.faults.latency = 0.5

    await asyncio.gather(*(rig.command("/bakiye") for _ in range(15)))
    await rig.slack.wait_for(
        lambda: sum("Bakiyeniz" in text_of(m) for m in rig.slack.ephemerals(ALICE)[since:]) == 10
    )

    shown = [text_of(m) for m in rig.slack.ephemerals(ALICE)[since:]]
    assert sum("Çok hızlı" in text for text in shown) == 1
    assert len([path for _, path in log if path.endswith("guncel-bakiye")]) - asked == 10
    rig.sandbox.state.faults.latency = 0.0
    # The flood is over: the next request is answered again.
    await rig.says("/bakiye", "", "Bakiyeniz")
