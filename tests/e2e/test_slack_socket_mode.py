"""The Slack app over Socket Mode: it connects out, takes envelopes and acks them."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.order_labels import SHORT, TITLE
from tests.e2e.slack_rig import ALICE, CHANNEL, SlackRig, buttons_of, slack_rig, text_of


async def _summary(rig: SlackRig) -> dict[str, object]:
    tones = await rig.says("/yaz", TITLE, "Yazım tonunu seçin")
    sizes = await rig.presses(tones, "Profesyonel", "Makale boyutunu seçin")
    return await rig.presses(sizes, SHORT, "Bakiyeniz")


async def _delivered(rig: SlackRig) -> None:
    """Wait for the article's file, and for the order's post in the channel to say so."""
    await rig.slack.wait_for(lambda: rig.slack.files, timeout=60)
    await rig.slack.wait_for(
        lambda: "Makaleniz hazır" in text_of(rig.slack.messages(CHANNEL)[0]), timeout=60
    )


async def test_a_login_an_order_and_a_delivery_over_socket_mode(tmp_path: Path) -> None:
    async with slack_rig(tmp_path, socket_mode=True) as rig:
        health = (await rig.http.get(f"{rig.base_url}/health")).json()
        assert health["chats"] == {"slack": {"connected": True}}
        assert rig.slack.calls_to("apps.connections.open")
        await rig.log_in()
        summary = await _summary(rig)
        await rig.presses(summary, "Onayla", "Siparişiniz alındı")
        rig.sandbox.state.clock.advance(600)
        await _delivered(rig)
        assert rig.sandbox.state.create_count == 1
        [post] = rig.slack.messages(CHANNEL)
        assert TITLE in text_of(post)


async def test_a_dropped_socket_is_reopened_and_the_order_completes_once(tmp_path: Path) -> None:
    async with slack_rig(tmp_path, socket_mode=True) as rig:
        await rig.log_in()
        summary = await _summary(rig)
        await rig.slack.socket_mode.drop()
        await rig.slack.wait_for(
            lambda: rig.slack.socket_mode.connections == 2 and rig.slack.socket_mode.connected
        )
        assert len(rig.slack.calls_to("apps.connections.open")) == 2, "a fresh URL each time"
        action_id, value = buttons_of(summary)["Onayla"]
        press = rig.slack.block_action(
            action_id, value, user_id=ALICE, channel_id=CHANNEL, message_ts=summary["ts"]
        )
        await rig.post(press)
        # Slack sends an envelope again when its ack was lost; the same press twice.
        await rig.post(press)
        await rig.until(ALICE, "Siparişiniz alındı")
        rig.sandbox.state.clock.advance(600)
        await _delivered(rig)
        assert rig.sandbox.state.create_count == 1, "charged once"
        assert len(rig.slack.messages(CHANNEL)) == 1, "one order post"
        assert sorted(f.filename.rsplit(".", 1)[1] for f in rig.slack.files) == ["html", "md"], (
            "delivered once"
        )
