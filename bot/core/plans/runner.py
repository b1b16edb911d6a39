"""A plan's runs: each claimed in the database before it orders, then ordered through the
purchase path like any order, so it is charged once and delivered and reconciled as any.

A run is claimed by one statement (``storage.plans.claim_run``); its order is a draft linked
to the run before it is submitted, and submitting is the purchase's own conditional step. So a
claimer that dies anywhere leaves either no order (the next claimer, after the lease, orders)
or a submitted one (the next claimer only moves the plan on): never none, never two.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from decimal import Decimal

from bot.api import ArticleApiError
from bot.core.conversation.events import ChatAddress, Origin, UserKey
from bot.core.errors import NotLoggedIn
from bot.core.ordering import purchase
from bot.core.plans.costs import titles_cost
from bot.core.plans.logout import LOGGED_OUT
from bot.core.plans.targets import refusal
from bot.core.plans.words import local_time
from bot.core.ports import MessengerError, PostingRefused
from bot.core.turn import CoreServices, Turn
from storage import drafts, plans, sites, users
from storage.models import Job, Plan, PlanRun
from storage.states import RunStatus

__all__ = ["DUE_PER_TICK", "LATE", "RUNS_AT_ONCE", "NotTaken", "Planner"]

log = logging.getLogger(__name__)

# A run later than this (no replica was up) is skipped, and the user told.
LATE = timedelta(hours=1)
# Runs made at once by one process, and due runs taken in one tick (the rest in the next).
RUNS_AT_ONCE = 4
DUE_PER_TICK = 200


class NotTaken(Exception):
    """The service did not take a run's order (busy, down) and charged nothing."""


class Planner:
    """Runs the plans that are due; every replica ticks it, the database picks one per run."""

    def __init__(
        self, services: CoreServices, owner: str, lease: timedelta = timedelta(seconds=30)
    ) -> None:
        self.services = services
        self.owner = owner
        self.lease = lease
        # When this process first ticked: a run due since then was not missed for want of a bot.
        self._since: datetime | None = None
        # Runs that failed here, by plan and time, and when they may be tried again: each is
        # logged once, and rests for its lease rather than failing on every tick.
        self._failed: dict[tuple[int, datetime], datetime] = {}

    async def run_due(self) -> None:
        """Run the due runs, taken round-robin by owner, at most ``RUNS_AT_ONCE`` at a time
        (one owner's runs one after another, so no two of them spend one balance at once),
        then open a record of its client's site for each finished article of a plan that
        publishes there: the destinations' own job posts it, so a site that hangs holds back
        no run."""
        now = self.services.clock()
        if self._since is None:
            self._since = now
        # A run another process settled is not tried here again: forget it once long past.
        self._failed = {key: at for key, at in self._failed.items() if now - key[1] <= 2 * LATE}
        due = await self.services.db.run(lambda s: plans.due_plans(s, now=now, limit=DUE_PER_TICK))
        by_owner: dict[int, list[Plan]] = {}
        for plan in due:
            by_owner.setdefault(plan.chat_user_id, []).append(plan)
        # Waiters get a slot in turn: an owner whose run ended waits behind every other owner.
        slots = asyncio.Semaphore(RUNS_AT_ONCE)

        async def runs_of_owner(runs: list[Plan]) -> None:
            for plan in runs:
                async with slots:
                    await self._attempt(plan, self.services.clock())

        await asyncio.gather(*(runs_of_owner(runs) for runs in by_owner.values()))
        if self.services.sites is not None:
            await self.services.db.run(lambda s: sites.open_planned_posts(s, now=now))

    async def _attempt(self, plan: Plan, now: datetime) -> None:
        """Run the plan's due run; a failure is logged once for that run, which then rests."""
        assert plan.id is not None
        assert plan.next_run_at is not None
        key = (plan.id, plan.next_run_at)
        if now < self._failed.get(key, now):
            return
        try:
            await self._run(plan, now)
        except (ArticleApiError, MessengerError, NotTaken) as err:
            if key not in self._failed:
                log.warning("run of plan %s at %s not made, tried again: %r", *key, err)
        except Exception:
            if key not in self._failed:
                log.exception("run of plan %s at %s failed", *key)
        else:
            self._failed.pop(key, None)
            return
        self._failed[key] = now + self.lease

    async def _run(self, plan: Plan, now: datetime) -> None:
        run = await self.services.db.run(
            lambda s: plans.claim_run(s, plan=plan, owner=self.owner, now=now, lease=self.lease)
        )
        if run is None:
            return
        turn = await self._turn(plan)
        try:
            await self._make(turn, plan, run, now)
        except NotLoggedIn:
            await self._stop(turn, plan, run, LOGGED_OUT, self._logged_out(turn, plan, run))

    async def _make(self, turn: Turn, plan: Plan, run: PlanRun, now: datetime) -> None:
        """Order the claimed run, or skip it as late; its owner must still be logged in, which
        is checked before anything calls the service."""
        draft_id = run.draft_id
        if draft_id is None and not await self.services.accounts.is_logged_in(turn.user_id):
            raise NotLoggedIn
        if now - run.run_at > LATE and await self._withdrawn(draft_id):
            await self._skip(turn, plan, run, now)
            return
        if draft_id is None:
            draft_id = await self._prepare(turn, plan, run)
            if draft_id is None:
                return
        await self._order(turn, plan, run, draft_id)

    async def _withdrawn(self, draft_id: str | None) -> bool:
        """Whether the run's order is not placed and now never will be: none was linked, or
        its draft, linked but never submitted, is withdrawn."""
        if draft_id is None:
            return True
        return await self.services.db.run(lambda s: plans.withdraw_run_draft(s, draft_id=draft_id))

    def _logged_out(self, turn: Turn, plan: Plan, run: PlanRun) -> str:
        calendar = turn.texts.calendar
        when = local_time(run.run_at, plan.schedule.zone, calendar)
        return calendar.run_logged_out.format(time=when)

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
            text = calendar.run_low_balance.format(
                time=local_time(run.run_at, plan.schedule.zone, calendar),
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
        """Whether the bot may no longer post to the plan's channel or group, or its owner may
        not (left it, or lost the right to post); then the run stops, the plan pauses, and the
        owner is told why."""
        if plan.target_chat_id is None:
            return False
        user = turn.user
        target = ChatAddress(plan.platform, plan.target_chat_id, workspace=user.workspace)
        why = await refusal(self.services, target, user.external_id)
        if why is None:
            return False
        calendar = turn.texts.calendar
        owners = why in (PostingRefused.OWNER_LEFT, PostingRefused.OWNER_NO_RIGHTS)
        told = calendar.run_rights_lost if owners else calendar.run_target_lost
        text = told.format(
            target=plan.target_title or calendar.plan_chat, reason=calendar.refusal(why)
        )
        await self._stop(turn, plan, run, "rights" if owners else "target", text)
        return True

    async def _order(self, turn: Turn, plan: Plan, run: PlanRun, draft_id: str) -> None:
        """Submit and place the run's order, and record the run as ordered before the owner is
        told; where nothing was charged and it is to be tried again, raise ``NotTaken`` (the
        run stays claimed, and rests until its lease ends)."""
        placed = await purchase.buy(turn, draft_id)
        if isinstance(placed, purchase.NotBought):
            # An earlier claimer submitted it: the purchase path owns it now.
            await self._ordered(plan, run)
            return
        if placed.retry:
            # Nothing charged: tried again after the run's claim, the owner told once it ends.
            raise NotTaken(placed.text)
        # Recorded first, so a plan listed while its owner is being told shows its next run.
        await self._ordered(plan, run)
        calendar = turn.texts.calendar
        when = local_time(run.run_at, plan.schedule.zone, calendar)
        text = calendar.run_placed.format(time=when, placed=placed.text)
        if plan.target_chat_id:
            target = plan.target_title or calendar.plan_chat
            text = calendar.run_placed_to.format(time=when, target=target, placed=placed.text)
        if placed.refused:
            # Refused by the service: skipped, and named, so the plan goes on with the next.
            titles = ", ".join(drafts.draft_titles(placed.draft))
            text = calendar.run_title_refused.format(title=titles, reason=placed.text)
        await self._tell(turn, plan, text, placed.jobs)

    async def _ordered(self, plan: Plan, run: PlanRun) -> None:
        titles = _titles_of_run(plan)
        await self._finish(plan, run, RunStatus.ORDERED, plan.next_title + len(titles))

    async def _skip(self, turn: Turn, plan: Plan, run: PlanRun, now: datetime) -> None:
        """Skip a run missed by over an hour, saying why: no bot was up to make it, or it could
        not be made (tried and failed, or this bot's clock jumped past it); a repeating plan
        goes on at its next time."""
        calendar = turn.texts.calendar
        tried = run.created_at < now or (plan.id, run.run_at) in self._failed
        running = self._since is not None and self._since <= run.run_at
        told = calendar.run_skipped_failed if tried or running else calendar.run_skipped
        schedule = plan.schedule
        next_at = schedule.next_after(now) if schedule.repeats else None
        if await self.services.db.run(
            lambda s: plans.finish_run(
                s,
                run=run,
                status=RunStatus.SKIPPED,
                next_title=plan.next_title,
                next_run_at=next_at,
            )
        ):
            when = local_time(run.run_at, schedule.zone, calendar)
            await self._tell(turn, plan, told.format(time=when))

    async def _stop(self, turn: Turn, plan: Plan, run: PlanRun, reason: str, text: str) -> None:
        """Order nothing, pause the plan, and tell the owner once."""
        if await self.services.db.run(lambda s: plans.stop_run(s, run=run, reason=reason)):
            await self._tell(turn, plan, text)

    async def _finish(self, plan: Plan, run: PlanRun, status: RunStatus, next_title: int) -> None:
        more = plan.schedule.repeats and next_title < len(plan.titles)
        next_at = plan.schedule.next_after(run.run_at) if more else None
        await self.services.db.run(
            lambda s: plans.finish_run(
                s, run=run, status=status, next_title=next_title, next_run_at=next_at
            )
        )

    async def _tell(self, turn: Turn, plan: Plan, text: str, jobs: Sequence[Job] = ()) -> None:
        """Tell the owner privately, then show the jobs' progress lines: queued, so the next
        run never waits for them to be paced out."""
        outbox = self.services.outbox
        owner = outbox.addresses.owner_chat(plan, turn.user)

        async def post() -> None:
            await outbox.tell(turn.user, owner, lambda _: text)
            for job in jobs:
                await outbox.progress.announce(job)

        await outbox.notices.post(owner, post)


def _titles_of_run(plan: Plan) -> list[str]:
    """A one-time plan orders all its titles left; a repeating one the next."""
    left = plan.titles[plan.next_title :]
    return left if not plan.schedule.repeats else left[:1]


async def _cost(turn: Turn, plan: Plan, titles: list[str]) -> Decimal:
    """What the run's titles cost."""
    return await titles_cost(
        turn, titles, every_title=plan.titles, choices=plan.title_choices, size=plan.size
    )
