"""The Home tab: a way in before login; balance, spending and the latest articles after."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.sandbox import DEMO_EMAIL, DEMO_PASSWORD
from tests.e2e.order_labels import SHORT, TITLE
from tests.e2e.slack_rig import ALICE, CHANNEL, SlackRig, buttons_of, slack_rig, text_of


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[SlackRig]:
    async with slack_rig(tmp_path) as running:
        yield running


def _home_text(home: dict[str, Any]) -> str:
    return text_of({"blocks": home["blocks"]})


async def _home_with(rig: SlackRig, text: str) -> dict[str, Any]:
    def shown() -> dict[str, Any] | None:
        home = rig.slack.home(ALICE)
        return home if home is not None and text in _home_text(home) else None

    await rig.slack.wait_for(lambda: shown() is not None, timeout=15)
    home = shown()
    assert home is not None
    return home


async def _press(rig: SlackRig, home: dict[str, Any], label: str) -> None:
    action_id, value = buttons_of(home)[label]
    answer = await rig.post(rig.slack.home_action(action_id, value, user_id=ALICE))
    assert answer.status_code == 200, answer.text


async def test_the_home_tab_logs_in_then_shows_balance_and_the_delivered_article(
    rig: SlackRig,
) -> None:
    opened = {"type": "app_home_opened", "user": ALICE, "tab": "home"}
    await rig.post(rig.slack.event({**opened, "tab": "messages"}))
    await rig.post(rig.slack.event(opened))
    home = await _home_with(rig, "Başlamak için giriş yapın")
    assert list(buttons_of(home)) == ["Giriş yap"]
    assert len(rig.slack.calls_to("views.publish")) == 1

    await _press(rig, home, "Giriş yap")
    await rig.opened("login")
    values = {
        "email": {"value": {"type": "email_text_input", "value": DEMO_EMAIL}},
        "password": {"value": {"type": "plain_text_input", "value": DEMO_PASSWORD}},
    }
    assert await rig.submits("login", values) is None
    dm = rig.slack.dm_channel(ALICE)
    await rig.slack.wait_for(
        lambda: any("Giriş yapıldı" in text_of(m) for m in rig.slack.messages(dm))
    )
    home = await _home_with(rig, "Bakiyeniz: 500,00 TL")
    assert "Bu ay: 0,00 TL" in _home_text(home)
    assert list(buttons_of(home)) == ["Yeni makale"]

    await _press(rig, home, "Yeni makale")
    await rig.opened("order")
    tones = await rig.says("/yaz", TITLE, "Yazım tonunu seçin")
    sizes = await rig.presses(tones, "Samimi", "Makale boyutunu seçin")
    summary = await rig.presses(sizes, SHORT, "Bakiyeniz")
    await rig.presses(summary, "Onayla", "Siparişiniz alındı")
    await _home_with(rig, "Sırada")
    rig.sandbox.state.clock.advance(600)

    home = await _home_with(rig, "— Hazır")
    shown = _home_text(home)
    assert "Bakiyeniz: 485,00 TL" in shown
    assert "Bu ay: 15,00 TL" in shown
    assert set(buttons_of(home)) == {
        "Yeni makale",
        "Aç 1",
        "Tekrar sipariş · 1",
        "Başka ton · 1",
        "📦 Son 30 gün (.zip)",
    }
    files = len(rig.slack.files)
    await _press(rig, home, "📦 Son 30 gün (.zip)")
    await rig.slack.wait_for(lambda: len(rig.slack.files) > files, timeout=15)
    archive = rig.slack.files[-1]
    assert archive.filename.endswith(".zip")
    assert archive.channel_id == dm
    assert rig.slack.messages(CHANNEL), "the order itself went to the channel"
