"""WhatsApp end to end: the bot as users start it, people writing through the fake Cloud API."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.whatsapp_rig import ALICE, VERIFY_TOKEN, WhatsAppRig, whatsapp_rig

pytestmark = pytest.mark.e2e


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[WhatsAppRig]:
    async with whatsapp_rig(tmp_path) as started:
        yield started


async def test_meta_verifies_the_webhook_with_the_token_alone(rig: WhatsAppRig) -> None:
    url = f"{rig.base_url}/whatsapp/webhook"
    asked = {"hub.mode": "subscribe", "hub.challenge": "1158201444"}
    right = await rig.http.get(url, params={**asked, "hub.verify_token": VERIFY_TOKEN})
    wrong = await rig.http.get(url, params={**asked, "hub.verify_token": "guess"})
    assert (right.status_code, right.text) == (200, "1158201444")
    assert wrong.status_code == 403


async def test_a_command_without_the_slash_is_answered(rig: WhatsAppRig) -> None:
    await rig.log_in()
    await rig.wa.user_says(ALICE, "bakiye")
    answer = await rig.wa.until(ALICE, "TL")
    assert answer.type == "text"
