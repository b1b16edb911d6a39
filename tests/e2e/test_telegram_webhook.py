"""Telegram's webhook: Telegram hears 200 only once an update is handled, and an update whose
handler died with its replica is handled when Telegram sends it again."""

from __future__ import annotations

from pathlib import Path

import httpx

from storage import Database, bookkeeping
from tests.e2e.telegram_rig import ALICE, Rig, telegram_rig


async def _post(rig: Rig, update: dict[str, object]) -> httpx.Response:
    hook = f"http://127.0.0.1:{rig.settings.port}/telegram/hook"
    secret = rig.settings.telegram_webhook_secret
    assert secret is not None
    headers = {"X-Telegram-Bot-Api-Secret-Token": secret.get_secret_value()}
    async with httpx.AsyncClient(timeout=30.0) as client:
        return await client.post(hook, json=update, headers=headers)


async def test_telegram_hears_200_only_once_the_answer_is_in_the_chat(tmp_path: Path) -> None:
    async with telegram_rig(tmp_path, webhook=True) as rig:
        update = rig.telegram.webhook_update(rig.telegram.user_says(ALICE, "/yardim"))
        answered = await _post(rig, update)
        assert answered.status_code == 200
        # Had it answered on arrival, a replica killed meanwhile would lose the update.
        assert rig.shown(ALICE, "/makalelerim") is not None


async def test_an_update_a_dead_replica_had_claimed_is_handled_when_sent_again(
    tmp_path: Path,
) -> None:
    async with telegram_rig(tmp_path, webhook=True) as rig:
        update = rig.telegram.webhook_update(rig.telegram.user_says(ALICE, "/yardim"))
        db = Database.connect(rig.settings.effective_database_url)
        try:
            # What a replica leaves when it is killed while it handles the update.
            claimed = db.run_sync(
                lambda session: bookkeeping.claim_update(
                    session, source="telegram", update_id=str(update["update_id"]), seconds=60
                )
            )
        finally:
            db.dispose()
        assert claimed
        assert (await _post(rig, update)).status_code == 200
        assert rig.shown(ALICE, "/makalelerim") is not None
        # Handled now: sent once more, it is a replay.
        assert (await _post(rig, update)).status_code == 200
        helps = [m for m in rig.bot_messages(ALICE) if "/makalelerim" in (m.text or "")]
        assert len(helps) == 1
