"""A plan's runs: each claimed in the database before it orders, then ordered through the
purchase path like any order, so it is charged once and delivered and reconciled as any.

A run is claimed by one statement (``storage.plans.claim_run``); its order is a draft linked
to the run before it is submitted, and submitting is the purchase's own conditional step. So a
claimer that dies anywhere leaves either no order (the next claimer, after the lease, orders)
or a submitted one (the next claimer only moves the plan on): never none, never two.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

from bot.core import purchase
from bot.core.errors import NotLoggedIn
from bot.core.events import ChatAddress, Origin, UserKey
from bot.core.plans.rhythm import Rhythm
from bot.core.plans.targets import refusal
from bot.core.plans.words import local_time
from bot.core.turn import CoreServices, Turn
from storage import drafts, plans, users
from storage.models import Plan, PlanRun
from storage.states import RunStatus

__all__ = ["LATE", "Planner"]

log = logging.getLogger(__name__)

# A run later than this (no replica was up) is skipped, and the user told.
LATE = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class Planner:
    """Runs the plans that are due; every replica ticks it, the database picks one per run."""

    services: CoreServices
    owner: str
    lease: timedelta = timedelta(seconds=30)

    async def run_due(self) -> None:
        """Claim and run every due run; one plan's failure does not hold up the others."""
        now = self.services.clock()
        due = await self.services.db.run(lambda s: plans.due_plans(s, now=now))
        for plan in due:
            try:
                await self._run(plan, now)
            except Exception:
                log.exception("run of plan %s at %s failed", plan.id, plan.next_run_at)

    async def _run(self, plan: Plan, now: datetime) -> None:
        run = await self.services.db.run(
            lambda s: plans.claim_run(s, plan=plan, owner=self.owner, now=now, lease=self.lease)
        )
        if run is None:
            return
        turn = await self._turn(plan)
        draft_id = run.draft_id
        if draft_id is None:
            if now - run.run_at > LATE:
                await self._skip(turn, plan, run, now)
                return
            draft_id = await self._prepare(turn, plan, run)
            if draft_id is None:
                return
        try:
            await self._order(turn, plan, run, draft_id)
        except NotLoggedIn:
            await self._stop(turn, plan, run, "login", turn.texts.need_login)

    async def _turn(self, plan: Plan) -> Turn:
        user = await self.services.db.run(lambda s: users.get_user(s, user_id=plan.chat_user_id))
        assert user is not None, "a plan is deleted with its user"
        chat_id, thread_id = plans.run_chat(plan)
        target = ChatAddress(plan.platform, chat_id, thread_id, user.external_id, user.workspace)
        key = UserKey(user.platform, user.external_id, user.workspace)
        return Turn(self.services, Origin(key, target, private=False), user)

    async def _prepare(self, turn: Turn, plan: Plan, run: PlanRun) -> str | None:
        """Check that the balance pays for the run, then link its order; the order's draft id,
        or None when the run stopped (told) or is another claimer's now."""
        if await self._target_lost(turn, plan, run):
            return None
        titles = _titles_of_run(plan)
        cost = await _cost(turn, plan, titles)
        balance = await turn.upstream(self.services.api.balance)
        if balance < cost:
            calendar, texts = turn.texts.calendar, turn.texts
            zone = ZoneInfo(plan.time_zone)
            text = calendar.run_low_balance.format(
                time=local_time(run.run_at, zone, calendar),
                balance=texts.money(balance),
                count=len(titles),
                cost=texts.money(cost),
            )
            await self._stop(turn, plan, run, "balance", text)
            return None
        owner = self.services.outbox.addresses.owner_chat(plan, turn.user)
        draft = await turn.store(
            lambda s: plans.link_run_draft(
                s,
                run=run,
                user_id=turn.user_id,
                titles=titles,
                cost=cost,
                plan=plan,
                owner_chat_id=owner.chat_id,
            )
        )
        return draft.id if draft is not None else None

    async def _target_lost(self, turn: Turn, plan: Plan, run: PlanRun) -> bool:
        """Whether the bot may no longer post to the plan's channel or group, or its owner left
        it; then the run stops, the plan pauses, and the owner is told why."""
        if plan.target_chat_id is None:
            return False
        user = turn.user
        target = ChatAddress(plan.platform, plan.target_chat_id, workspace=user.workspace)
        why = await refusal(self.services, target, user.external_id)
        if why is None:
            return False
        calendar = turn.texts.calendar
        text = calendar.run_target_lost.format(
            target=plan.target_title or calendar.plan_chat, reason=calendar.refusal(why)
        )
        await self._stop(turn, plan, run, "target", text)
        return True

    async def _order(self, turn: Turn, plan: Plan, run: PlanRun, draft_id: str) -> None:
        """Submit and place the run's order, and record the run as ordered before the owner is
        told; unless nothing was charged and it is to be tried again (the run stays claimed
        until its lease ends)."""
        placed = await purchase.buy(turn, draft_id)
        if isinstance(placed, purchase.NotBought):
            # An earlier claimer submitted it: the purchase path owns it now.
            await self._ordered(plan, run)
            return
        if not placed.retry:
            # Recorded first, so a plan listed while its owner is being told shows its next run.
            await self._ordered(plan, run)
        calendar = turn.texts.calendar
        when = local_time(run.run_at, ZoneInfo(plan.time_zone), calendar)
        text = calendar.run_placed.format(time=when, placed=placed.text)
        if plan.target_chat_id:
            target = plan.target_title or calendar.plan_chat
            text = calendar.run_placed_to.format(time=when, target=target, placed=placed.text)
        if placed.refused:
            # Refused by the service: skipped, and named, so the plan goes on with the next.
            titles = ", ".join(drafts.draft_titles(placed.draft))
            text = calendar.run_title_refused.format(title=titles, reason=placed.text)
        await self._tell(turn, plan, text)
        for job in placed.jobs:
            await self.services.outbox.progress.announce(job)

    async def _ordered(self, plan: Plan, run: PlanRun) -> None:
        titles = _titles_of_run(plan)
        await self._finish(plan, run, RunStatus.ORDERED, plan.next_title + len(titles))

    async def _skip(self, turn: Turn, plan: Plan, run: PlanRun, now: datetime) -> None:
        """Skip a run missed by over an hour; a repeating plan goes on at its next time."""
        calendar = turn.texts.calendar
        zone = ZoneInfo(plan.time_zone)
        rhythm = Rhythm.decode(plan.rhythm)
        next_at = rhythm.next_run(zone, now) if rhythm.repeats else None
        if await self.services.db.run(
            lambda s: plans.finish_run(
                s,
                run=run,
                status=RunStatus.SKIPPED,
                next_title=plan.next_title,
                next_run_at=next_at,
            )
        ):
            await self._tell(
                turn, plan, calendar.run_skipped.format(time=local_time(run.run_at, zone, calendar))
            )

    async def _stop(self, turn: Turn, plan: Plan, run: PlanRun, reason: str, text: str) -> None:
        """Order nothing, pause the plan, and tell the owner once."""
        if await self.services.db.run(lambda s: plans.stop_run(s, run=run, reason=reason)):
            await self._tell(turn, plan, text)

    async def _finish(self, plan: Plan, run: PlanRun, status: RunStatus, next_title: int) -> None:
        rhythm = Rhythm.decode(plan.rhythm)
        more = rhythm.repeats and next_title < len(plan.titles)
        next_at = rhythm.next_run(ZoneInfo(plan.time_zone), run.run_at) if more else None
        await self.services.db.run(
            lambda s: plans.finish_run(
                s, run=run, status=status, next_title=next_title, next_run_at=next_at
            )
        )

    async def _tell(self, turn: Turn, plan: Plan, text: str) -> None:
        owner = self.services.outbox.addresses.owner_chat(plan, turn.user)
        await self.services.outbox.tell(turn.user, owner, lambda _: text)


def _titles_of_run(plan: Plan) -> list[str]:
    """A one-time plan orders all its titles left; a repeating one the next."""
    left = plan.titles[plan.next_title :]
    return left if not Rhythm.decode(plan.rhythm).repeats else left[:1]


async def _cost(turn: Turn, plan: Plan, titles: list[str]) -> Decimal:
    """What the run's titles cost: each at its file row's size, else the plan's."""
    sizes = {
        size.id: size.cost or Decimal(0) for size in await turn.services.catalog.sizes(turn.user_id)
    }
    own = dict(zip(plan.titles, plan.title_choices or [], strict=False))
    return sum(
        (
            sizes.get((own.get(title) or [None, None])[1] or plan.size or 0, Decimal(0))
            for title in titles
        ),
        Decimal(0),
    )
