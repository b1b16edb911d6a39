"""A plan's summary (its runs, titles and what they cost, charged when each runs) and its
saving; the titles, tone and size were taken by the order dialog in the plan's draft."""

from __future__ import annotations

import logging
from decimal import Decimal

from sqlmodel import Session

from bot.api import ArticleApiError
from bot.core.conversation.actions import PickSitePost, SavePlan
from bot.core.conversation.events import Press
from bot.core.conversation.richtext import Block, BulletList, Span, bold, paragraph
from bot.core.conversation.screens import Button, Screen
from bot.core.plans import targets as plan_targets
from bot.core.plans.costs import titles_cost
from bot.core.plans.words import describe, local_time, tomorrow
from bot.core.texts import in_every_language
from bot.core.turn import Turn, text_screen
from storage import drafts, plans
from storage.models import Draft, Plan
from storage.schedule import Schedule
from storage.states import DraftKind, DraftStep

__all__ = ["MAX_PLANS", "SHOWN_RUNS", "plan_saved", "show"]

log = logging.getLogger(__name__)

# The runs a summary lists; the rest are counted.
SHOWN_RUNS = 5
# The plans a user may have (running or paused): each is a run at its minute, so they are a
# load on the service and the chats; and /takvim's buttons, two a plan, stay within 100.
MAX_PLANS = 50


async def _target(turn: Turn, plan: Plan, draft: Draft) -> tuple[str, tuple[Button, ...]]:
    """Where the plan's articles go, its client's site named too with how posts go there;
    and for a site, the buttons that choose it (scheduled posts, or drafts)."""
    target = plan.target_title or turn.texts.calendar.here
    sites, texts = turn.services.sites, turn.texts.sites
    site = await sites.site(turn.user_id, draft.client_id) if sites and plan.to_site else None
    if site is None:
        return target, ()
    how = texts.as_drafts if plan.site_draft else texts.as_scheduled
    choices = (
        Button(
            _chosen(texts.button_scheduled, not plan.site_draft), PickSitePost(draft.id, 0).encode()
        ),
        Button(_chosen(texts.button_draft, plan.site_draft), PickSitePost(draft.id, 1).encode()),
    )
    return texts.plan_target.format(target=target, site=site.name, how=how), choices


def _chosen(label: str, chosen: bool) -> str:
    return f"✓ {label}" if chosen else label


async def show(
    turn: Turn,
    draft: Draft,
    blocks: list[Block],
    cancel: Button,
    change: tuple[tuple[Button, ...], ...],
    *,
    message_id: str | None,
) -> None:
    """The plan's summary after the order's (titles, tone, size, cost), with ``Onayla`` and
    ``cancel``, and ``change`` (the client's defaults' "Değiştir") under them."""
    plan = await turn.store(lambda s: plans.plan_of_draft(s, draft_id=draft.id))
    if plan is None:
        turn.notice(turn.texts.stale_button)
        return
    if await plan_targets.offer(turn, plan, draft, message_id=message_id):
        return
    texts, calendar = turn.texts, turn.texts.calendar
    schedule = plan.schedule
    count = len(draft.titles or []) if schedule.repeats else 1
    runs = schedule.next_times(turn.services.clock(), count)
    shown = tuple((Span(local_time(at, schedule.zone, calendar)),) for at in runs[:SHOWN_RUNS])
    target, site_choices = await _target(turn, plan, draft)
    blocks += [
        paragraph(bold(f"{calendar.summary_rhythm}: "), describe(schedule, calendar)),
        paragraph(bold(f"{calendar.summary_target}: "), target),
        paragraph(bold(f"{calendar.summary_runs}:")),
        BulletList(shown),
    ]
    if len(runs) > SHOWN_RUNS:
        blocks.append(paragraph(calendar.summary_more_runs.format(count=len(runs) - SHOWN_RUNS)))
    blocks += await _unpaid(turn, draft, schedule)
    blocks.append(paragraph(calendar.summary_charged_when_run))
    save = Button(
        texts.button_confirm,
        SavePlan(draft.id).encode(),
        aliases=in_every_language(lambda t: t.button_confirm),
    )
    rows = ((save, cancel), *((site_choices,) if site_choices else ()), *change)
    turn.replace(message_id, Screen(tuple(blocks), rows))


async def _unpaid(turn: Turn, draft: Draft, schedule: Schedule) -> list[Block]:
    """What the balance now cannot pay, said in the summary: the first run, or the plan's
    titles all; nothing where it pays them. Saving is allowed either way."""
    texts, calendar = turn.texts, turn.texts.calendar
    titles = draft.titles or []
    total = draft.cost or Decimal(0)
    first = await titles_cost(
        turn,
        titles[:1] if schedule.repeats else titles,
        every_title=titles,
        choices=draft.title_choices,
        size=draft.size,
    )
    try:
        balance = await turn.upstream(turn.services.api.balance)
    except ArticleApiError as err:
        # Nothing is charged now: the summary goes on without the warning.
        log.info("no balance for the summary of plan draft %s: %r", draft.id, err)
        return []
    if balance < first:
        told = calendar.summary_first_unpaid.format(
            balance=texts.money(balance), cost=texts.money(first)
        )
    elif balance < total:
        told = calendar.summary_all_unpaid.format(
            balance=texts.money(balance), cost=texts.money(total)
        )
    else:
        return []
    return [paragraph(told)]


async def plan_saved(turn: Turn, action: SavePlan, press: Press) -> None:
    """Save the plan of the draft, once; its first run is its next time from now."""
    now = turn.services.clock()

    def save(session: Session) -> tuple[Plan, str] | str:
        draft = drafts.get_draft(session, draft_id=action.draft_id)
        if draft is not None and draft.chat_user_id != turn.user_id:
            return turn.texts.not_your_button
        plan = plans.plan_of_draft(session, draft_id=action.draft_id)
        if draft is None or plan is None or draft.kind is not DraftKind.PLAN:
            return turn.texts.stale_button
        if draft.step is not DraftStep.READY:
            return turn.texts.stale_button
        if plans.count_plans(session, user_id=turn.user_id) >= MAX_PLANS:
            return turn.texts.calendar.plan_cap.format(limit=MAX_PLANS)
        schedule, calendar = plan.schedule, turn.texts.calendar
        first = schedule.next_after(now)
        if first is None:
            return calendar.in_the_past.format(
                time=describe(schedule, calendar), tomorrow=tomorrow(now, schedule.zone, calendar)
            )
        if not plans.save_plan(session, plan=plan, draft=draft, next_run_at=first):
            return turn.texts.stale_button
        plan.next_run_at = first
        return plan, local_time(first, schedule.zone, calendar)

    saved = await turn.store(save)
    if isinstance(saved, str):
        turn.notice(saved)
        return
    _, first = saved
    turn.replace(press.message_id, text_screen(turn.texts.calendar.saved.format(next=first)))
