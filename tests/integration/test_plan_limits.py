"""Plans are bounded: at most 50 a user (saving one more answers with the cap), and a plan
whose first run the balance cannot pay says so in its summary, and may still be saved."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlmodel import Session

from storage import plans
from tests.dialog_harness import harness, texts
from tests.integration.test_plan_owners import user_id_of
from tests.integration.test_plans import FIRST, SECOND, minute_ahead, plan, wall
from tests.plan_rows import saved_plan

pytestmark = pytest.mark.integration


async def test_the_fifty_first_plan_is_not_saved_and_the_cap_is_named(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat()
        await chat.login()
        user_id = await user_id_of(h, chat.user)
        at = minute_ahead(h, 5)

        def fifty(session: Session) -> None:
            for number in range(50):
                title = f"Kayıtlı plan başlığı {number}"
                row = saved_plan(user_id, title, at, platform="test", chat_id="chat-u1")
                plans.start_plan(session, plan=row)

        await h.bot.services.db.run(fifty)
        await chat.say(f"/takvim {wall(at)}: {FIRST}")
        await chat.press("Samimi")
        await chat.press("Kısa")
        answer = texts(await chat.press("Onayla"))
        assert "Plan kaydedildi" not in answer
        assert "en çok 50" in answer, answer
        listed = await h.bot.services.db.run(lambda s: plans.plans_of_user(s, user_id=user_id))
        assert len(listed) == 50


async def test_a_plan_the_balance_cannot_pay_says_so_and_is_still_saved(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat()
        await chat.login("az@example.com", "Az123456")
        at = minute_ahead(h, 5)
        # Two short titles at once cost 30 TL; the account has 20.
        summary = await plan(chat, f"/takvim {wall(at)}: {FIRST}; {SECOND}")
        assert "Bakiyeniz (20,00 TL)" in summary, summary
        assert "karşılamıyor" in summary, summary

        # A daily plan's first run (one title, 15 TL) is paid, though not the whole plan.
        daily = await plan(chat, f"/takvim her gün 09:00: {FIRST}; {SECOND}")
        assert "ilk çalışma" not in daily, daily
        assert "tümünü" in daily, daily
