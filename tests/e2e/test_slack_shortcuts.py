"""Slack shortcuts through signed requests: "Makale sipariş et" on a message and "Yeni makale"
from anywhere, both opening the order form; and /makalelerim with a word."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.service_articles import written
from tests.e2e.slack_rig import (
    ALICE,
    BOB,
    CHANNEL,
    SlackRig,
    buttons_of,
    input_values,
    slack_rig,
    text_of,
)

pytestmark = pytest.mark.e2e

ORDER_FROM_MESSAGE, NEW_ARTICLE = "order_from_message", "new_article"


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[SlackRig]:
    async with slack_rig(tmp_path) as running:
        yield running


def title_field(view: dict[str, Any]) -> dict[str, Any]:
    (block,) = [b for b in view["blocks"] if b.get("block_id") == "title"]
    element: dict[str, Any] = block["element"]
    return element


def manifest_shortcuts() -> str:
    return (Path(__file__).parents[2] / "slack" / "manifest.yml").read_text()


async def test_a_message_shortcut_opens_the_order_form_titled_with_its_first_line(
    rig: SlackRig,
) -> None:
    await rig.log_in()
    since = len(rig.slack.ephemerals(ALICE))
    text = "Bulut & kenar bilişimin   kısa tarihi\nAyrıntılar ikinci satırda."
    shortcut = rig.slack.message_shortcut(
        ORDER_FROM_MESSAGE, text, user_id=ALICE, channel_id=CHANNEL, author_id=BOB
    )
    answer = await rig.post(shortcut)
    assert answer.status_code == 200, answer.text
    form = await rig.opened("order")
    assert title_field(form)["initial_value"] == "Bulut & kenar bilişimin kısa tarihi"
    values = input_values(title="Bulut & kenar bilişimin kısa tarihi", tone=1, size=1)
    assert await rig.submits("order", values) is None
    summary = await rig.until(ALICE, "Bakiyeniz: 500,00 TL", since=since)
    assert "Başlık: Bulut &amp; kenar bilişimin kısa tarihi" in text_of(summary)
    assert set(buttons_of(summary)) == {"Onayla", "İptal"}


async def test_a_message_over_255_characters_is_cut_and_one_under_10_refused(
    rig: SlackRig,
) -> None:
    await rig.log_in()
    long_line = " ".join(["Yapay zekâ ile içerik üretiminin uzun bir başlığı"] * 8)
    assert len(long_line) > 255
    await rig.post(
        rig.slack.message_shortcut(ORDER_FROM_MESSAGE, long_line, user_id=ALICE, channel_id=CHANNEL)
    )
    form = await rig.opened("order")
    given = title_field(form)["initial_value"]
    assert len(given) <= 255
    assert long_line.startswith(given)
    assert len(given) > 240

    since = len(rig.slack.ephemerals(ALICE))
    await rig.post(
        rig.slack.message_shortcut(
            ORDER_FROM_MESSAGE,
            "Kısa\nikinci satır uzun ama başlık olmaz",
            user_id=ALICE,
            channel_id=CHANNEL,
        )
    )
    refused = await rig.until(ALICE, "en az 10 karakter", since=since)
    assert "Başlık" in text_of(refused)
    assert len([v for v in rig.slack.views if v.view["callback_id"] == "order"]) == 1


async def test_the_global_shortcut_opens_the_order_form_and_answers_in_the_dm(
    rig: SlackRig,
) -> None:
    await rig.log_in()
    await rig.post(rig.slack.global_shortcut(NEW_ARTICLE, user_id=ALICE))
    form = await rig.opened("order")
    assert "initial_value" not in title_field(form)
    values = input_values(title="Yeni makale kısayolundan gelen başlık", tone=2, size=1)
    assert await rig.submits("order", values) is None
    dm = rig.slack.dm_channel(ALICE)
    await rig.slack.wait_for(lambda: any("Bakiyeniz" in text_of(m) for m in rig.slack.messages(dm)))
    (summary,) = [m for m in rig.slack.messages(dm) if "Bakiyeniz" in text_of(m)]
    action_id, value = buttons_of(summary)["Onayla"]
    pressed = rig.slack.block_action(
        action_id, value, user_id=ALICE, channel_id=dm, message_ts=summary["ts"]
    )
    assert (await rig.post(pressed)).status_code == 200
    await rig.slack.wait_for(
        lambda: any("Siparişiniz alındı" in text_of(m) for m in rig.slack.messages(dm))
    )


async def test_a_shortcut_before_logging_in_says_to_log_in_first(rig: SlackRig) -> None:
    await rig.post(rig.slack.global_shortcut(NEW_ARTICLE, user_id=BOB))
    shown = await rig.opened("order")
    assert "Önce giriş yapmalısınız" in str(shown["blocks"])
    since = len(rig.slack.ephemerals(BOB))
    await rig.post(
        rig.slack.message_shortcut(
            ORDER_FROM_MESSAGE, "Yeterince uzun bir başlık", user_id=BOB, channel_id=CHANNEL
        )
    )
    await rig.until(BOB, "Önce giriş yapmalısınız", since=since)


def test_the_manifest_declares_both_shortcuts() -> None:
    manifest = manifest_shortcuts()
    assert f"callback_id: {ORDER_FROM_MESSAGE}\n" in manifest
    assert f"callback_id: {NEW_ARTICLE}\n" in manifest
    assert "name: Makale sipariş et\n      type: message\n" in manifest
    assert "name: Yeni makale\n      type: global\n" in manifest


async def test_makalelerim_with_a_word_finds_articles_in_slack(rig: SlackRig) -> None:
    await rig.log_in()
    written(
        rig.sandbox, "demo@example.com", ["İstanbul'da bulut altyapısı", "Yapay zekâ ve eğitim"]
    )
    found = await rig.says("/makalelerim", "BULUT", "için 1 makale bulundu")
    assert "İstanbul'da bulut altyapısı" in text_of(found)
    assert "Yapay" not in text_of(found)
    assert {"Aç 1", "Tekrar sipariş · 1", "Başka ton · 1"} <= set(buttons_of(found))
    await rig.says("/makalelerim", "kuantum", "için makale bulunamadı")
