"""A client's WordPress site through the fake Slack: a form (a modal), since a password typed
in a Slack message could not be deleted; its answer shows to the user alone."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests import wordpress_fixtures as shared
from tests.e2e.slack_rig import ALICE, SlackRig, dm_message, input_values, slack_rig, text_of
from tests.fake_wordpress import FakeWordPress

# The shared fixture these tests take.
wordpress = shared.wordpress

pytestmark = pytest.mark.e2e


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[SlackRig]:
    async with slack_rig(tmp_path) as running:
        yield running


async def test_a_site_is_connected_through_a_form(rig: SlackRig, wordpress: FakeWordPress) -> None:
    await rig.log_in()
    empty = await rig.says("/musteriler", "", "Henüz müşteri eklemediniz")
    await rig.presses(empty, "Müşteri ekle", "Müşterinin adını yazın")
    assert (await rig.post(rig.slack.event(dm_message(rig, "Acme Blog")))).status_code == 200
    dm = rig.slack.dm_channel(ALICE)

    def in_dm(text: str) -> dict[str, Any] | None:
        return next((m for m in rig.slack.messages(dm) if text in text_of(m)), None)

    await rig.slack.wait_for(lambda: in_dm("Acme Blog eklendi") is not None)
    listing = await rig.says("/musteriler", "", "Acme Blog")
    none = await rig.presses(listing, "Web sitesi · Acme Blog", "bağlı bir WordPress sitesi yok")
    action_id, value = next(
        (b["action_id"], b["value"])
        for block in none["blocks"]
        for b in block.get("elements", ())
        if b.get("text", {}).get("text") == "Siteyi bağla"
    )
    since = len(rig.slack.ephemerals(ALICE))
    pressed = rig.slack.block_action(
        action_id, value, user_id=ALICE, channel_id=none["channel"], message_ts=none["ts"]
    )
    assert (await rig.post(pressed)).status_code == 200
    form = await rig.opened("site")
    assert [block["block_id"] for block in form["blocks"]] == [
        "site_url",
        "site_username",
        "site_password",
    ]
    values = input_values(
        site_url=wordpress.base_url,
        site_username=wordpress.username,
        site_password=wordpress.app_password,
    )
    assert await rig.submits("site", values) is None
    answer = await rig.until(ALICE, "Bağlandı: Örnek Blog", since=since)
    assert wordpress.app_password not in text_of(answer)
    assert "🌐 Örnek Blog" in text_of(await rig.says("/musteriler", "", "Acme Blog"))
