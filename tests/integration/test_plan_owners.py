"""A plan's owner is checked before each run: logged out, the plan pauses (nothing charged, the
owner told once, one log line); /cikis names the plans it pauses; and a run skipped as over an
hour late says truly why."""

from __future__ import annotations

import logging
from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import select

from bot.core.plans.runner import Planner
from storage.models import ChatUser
from tests.dialog_harness import Harness, harness, texts
from tests.integration.test_plans import FIRST, SECOND, minute_ahead, plan, wall

pytestmark = pytest.mark.integration


async def user_id_of(h: Harness, external_id: str) -> int:
    """The chat user's id in our tables."""
    found = await h.bot.services.db.run(
        lambda s: s.exec(select(ChatUser).where(ChatUser.external_id == external_id)).one()
    )
    assert found.id is not None
    return found.id


async def test_cikis_pauses_the_plans_and_names_them(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat()
        await chat.login()
        at = minute_ahead(h)
        await plan(chat, f"/takvim her gün {wall(at)[-5:]}: {FIRST}; {SECOND}")
        answer = texts(await chat.say("/cikis"))
        assert "Çıkış yapıldı" in answer
        assert "duraklatıldı" in answer, answer
        assert f"her gün {wall(at)[-5:]}" in answer, "the paused plan is named"
        h.clock.now = at
        await h.run_plans()
        assert h.sandbox is not None
        assert h.sandbox.state.create_count == 0
        await chat.login()
        listing = texts(await chat.say("/takvim"))
        assert "Duraklatıldı (oturum kapalı)" in listing


async def test_a_logged_out_owners_run_pauses_tells_once_and_logs_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat()
        await chat.login()
        at = minute_ahead(h)
        await plan(chat, f"/takvim {wall(at)}: {FIRST}; {SECOND}")
        # The session ends without /cikis (a refresh refused, a replica of an older version).
        await h.bot.services.accounts.logout(await user_id_of(h, chat.user))
        told = len(h.messenger.sent)
        h.clock.now = at
        with caplog.at_level(logging.INFO, logger="bot.core.plans"):
            for _ in range(5):
                await h.run_plans()
                h.clock.advance(1)
        assert h.sandbox is not None
        assert h.sandbox.state.create_count == 0, "nothing charged"
        notes = [c.text for c in h.messenger.sent][told:]
        assert len(notes) == 1, notes
        assert "oturum" in notes[0], notes
        logged = [r.getMessage() for r in caplog.records if r.name.startswith("bot.core.plans")]
        assert len(logged) <= 1, logged
        await chat.login()
        listing = texts(await chat.say("/takvim"))
        assert "Duraklatıldı (oturum kapalı)" in listing


async def test_a_run_skipped_as_late_says_truly_why(tmp_path: Path) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat()
        await chat.login()
        at = minute_ahead(h)
        await plan(chat, f"/takvim her gün {wall(at)[-5:]}: {FIRST}; {SECOND}")
        await h.run_plans()
        # The bot runs on, and its clock jumps over an hour past the run.
        told = len(h.messenger.sent)
        h.clock.now = at + timedelta(hours=1, minutes=1)
        await h.run_plans()
        notes = [c.text for c in h.messenger.sent][told:]
        assert len(notes) == 1, notes
        assert "bir saatten fazla gecikti" in notes[0]
        assert "çalışmıyordu" not in notes[0], "the bot was running"
        assert "yapılamadı" in notes[0], notes[0]

        # The next day's run, with no process up from before it until over an hour after.
        tomorrow = at + timedelta(days=1)
        h.clock.now = tomorrow + timedelta(hours=1, minutes=1)
        started = Planner(h.bot.services, "a process started late")
        await started.run_due()
        await h.bot.delivery.outbox.notices.drained()
        notes = [c.text for c in h.messenger.sent][told + 1 :]
        assert len(notes) == 1, notes
        assert "bot o sırada çalışmıyordu" in notes[0], notes[0]


async def test_a_run_the_service_keeps_failing_is_logged_once_and_skipped_as_not_made(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with harness(tmp_path) as h:
        chat = h.chat()
        await chat.login()
        at = minute_ahead(h)
        await plan(chat, f"/takvim her gün {wall(at)[-5:]}: {FIRST}; {SECOND}")
        told = len(h.messenger.sent)
        assert h.sandbox is not None
        # The service answers "too many requests" to the run's calls, tick after tick.
        h.sandbox.state.faults.fail_next(3, 429)
        with caplog.at_level(logging.INFO, logger="bot.core.plans"):
            for moved in (0, 1, 2, 31, 62):
                h.clock.now = at + timedelta(seconds=moved)
                await h.run_plans()
        assert h.sandbox.state.create_count == 0
        # Only the planner's own lines: another test may have left the client's at DEBUG.
        logged = [r.getMessage() for r in caplog.records if r.name.startswith("bot.core.plans")]
        assert len(logged) == 1, logged
        assert h.messenger.sent[told:] == [], "nothing to tell while it is tried again"
        h.clock.now = at + timedelta(hours=1, minutes=1)
        await h.run_plans()
        notes = [c.text for c in h.messenger.sent][told:]
        assert len(notes) == 1, notes
        assert "zamanında yapılamadı" in notes[0], notes[0]
        assert h.sandbox.state.create_count == 0
