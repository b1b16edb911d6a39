"""Clients through the fake Slack: /musteriler, the client question of /yaz, and the order
modal's client, which the order keeps."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.order_labels import SHORT, TITLE
from tests.e2e.slack_rig import (
    ALICE,
    SlackRig,
    buttons_of,
    dm_message,
    input_values,
    slack_rig,
    text_of,
)

pytestmark = pytest.mark.e2e


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[SlackRig]:
    async with slack_rig(tmp_path) as running:
        yield running


async def test_a_client_added_in_slack_is_asked_for_and_kept_by_the_order_modal(
    rig: SlackRig,
) -> None:
    await rig.log_in()
    empty = await rig.says("/musteriler", "", "Henüz müşteri eklemediniz")
    await rig.presses(empty, "Müşteri ekle", "Müşterinin adını yazın")
    # The name is typed in the DM, where a dialog's replies go.
    assert (await rig.post(rig.slack.event(dm_message(rig, "Acme Blog")))).status_code == 200
    dm = rig.slack.dm_channel(ALICE)

    def in_dm(text: str) -> dict[str, Any] | None:
        return next((m for m in rig.slack.messages(dm) if text in text_of(m)), None)

    await rig.slack.wait_for(lambda: in_dm("Acme Blog eklendi") is not None)

    question = await rig.says("/yaz", TITLE, "Hangi müşteri için?")
    assert list(buttons_of(question)) == ["Acme Blog", "Müşterisiz", "İptal"]
    await rig.presses(question, "Acme Blog", "Yazım tonunu seçin")

    await rig.command("/yaz")
    form = await rig.opened("order")
    client = next(block for block in form["blocks"] if block["block_id"] == "client")
    options = {o["text"]["text"]: o["value"] for o in client["element"]["options"]}
    assert list(options) == ["Müşterisiz", "Acme Blog"]
    since = len(rig.slack.ephemerals(ALICE))
    values = input_values(title=TITLE, tone=1, size=1, client=int(options["Acme Blog"]))
    assert await rig.submits("order", values) is None
    summary = await rig.until(ALICE, "Bakiyeniz", since=since)
    assert "Müşteri: Acme Blog" in text_of(summary)
    assert SHORT.split(" · ")[0] in text_of(summary)
    await rig.presses(summary, "Onayla", "Siparişiniz alındı")

    spent = await rig.says("/harcamalar", "", "Müşteriye göre")
    assert "Acme Blog: 15,00 TL / 0,00 TL" in text_of(spent)
