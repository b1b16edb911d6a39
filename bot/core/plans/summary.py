"""A plan's summary (its runs, titles and what they cost, charged when each runs) and its
saving; the titles, tone and size were taken by the order dialog in the plan's draft."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from sqlmodel import Session

from bot.core.actions import SavePlan
from bot.core.events import Press
from bot.core.plans import targets as plan_targets
from bot.core.plans.rhythm import Rhythm, next_runs
from bot.core.plans.words import describe, local_time
from bot.core.richtext import Block, BulletList, Span, bold, paragraph
from bot.core.screens import Button, Screen
from bot.core.texts import in_every_language
from bot.core.turn import Turn, text_screen
from storage import drafts, plans
from storage.models import Draft, Plan
from storage.states import DraftKind, DraftStep

__all__ = ["SHOWN_RUNS", "plan_saved", "show"]

# The runs a summary lists; the rest are counted.
SHOWN_RUNS = 5


def zone_of(turn: Turn) -> ZoneInfo:
    """The zone of the calendar's times (BOT_TIMEZONE)."""
    return ZoneInfo(str(turn.services.zone))


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
    rhythm = Rhythm.decode(plan.rhythm)
    zone = ZoneInfo(plan.time_zone)
    count = len(draft.titles or [])
    runs = next_runs(rhythm, zone, turn.services.clock(), 1 if not rhythm.repeats else count)
    shown = tuple((Span(local_time(at, zone, calendar)),) for at in runs[:SHOWN_RUNS])
    blocks += [
        paragraph(bold(f"{calendar.summary_rhythm}: "), describe(rhythm, calendar)),
        paragraph(bold(f"{calendar.summary_target}: "), plan.target_title or calendar.here),
        paragraph(bold(f"{calendar.summary_runs}:")),
        BulletList(shown),
    ]
    if len(runs) > SHOWN_RUNS:
        blocks.append(paragraph(calendar.summary_more_runs.format(count=len(runs) - SHOWN_RUNS)))
    blocks.append(paragraph(calendar.summary_charged_when_run))
    save = Button(
        texts.button_confirm,
        SavePlan(draft.id).encode(),
        aliases=in_every_language(lambda t: t.button_confirm),
    )
    turn.replace(message_id, Screen(tuple(blocks), ((save, cancel), *change)))


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
        first = Rhythm.decode(plan.rhythm).next_run(ZoneInfo(plan.time_zone), now)
        if first is None:
            return turn.texts.calendar.in_the_past.format(
                time=describe(Rhythm.decode(plan.rhythm), turn.texts.calendar)
            )
        if not plans.save_plan(session, plan=plan, draft=draft, next_run_at=first):
            return turn.texts.stale_button
        plan.next_run_at = first
        return plan, local_time(first, ZoneInfo(plan.time_zone), turn.texts.calendar)

    saved = await turn.store(save)
    if isinstance(saved, str):
        turn.notice(saved)
        return
    _, first = saved
    turn.replace(press.message_id, text_screen(turn.texts.calendar.saved.format(next=first)))
