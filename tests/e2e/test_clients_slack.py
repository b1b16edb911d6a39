"""Clients through the fake Slack: /musteriler, the client question of /yaz, and the order
modal's client, which the order keeps."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.core.clients.picker import MOST_CLIENTS
from storage import Database
from tests.client_seeds import add_clients
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


async def test_a_full_list_of_clients_fits_a_slack_message_and_the_cap_is_said(
    rig: SlackRig,
) -> None:
    await rig.log_in()
    names = [f"Müşteri {number:02}" for number in range(1, MOST_CLIENTS + 1)]
    db = Database.connect(rig.settings.effective_database_url)
    try:
        now = datetime.now(UTC)
        db.run_sync(lambda s: add_clients(s, external_id=ALICE, names=names, now=now))
    finally:
        db.dispose()

    # The fake refuses a message of over 50 blocks, as Slack does.
    listing = await rig.says("/musteriler", "", "Müşteri 20")
    assert len(buttons_of(listing)) == 3 * MOST_CLIENTS + 1
    assert len(listing["blocks"]) <= 50
    await rig.presses(listing, "Müşteri ekle", f"En çok {MOST_CLIENTS} müşteriniz")
    question = await rig.says("/yaz", TITLE, "Hangi müşteri için?")
    assert len(buttons_of(question)) == MOST_CLIENTS + 2
