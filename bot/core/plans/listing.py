"""The plans listed by /takvim, each with its next run, titles left and target, and the
buttons that pause, resume and delete it."""

from __future__ import annotations

from datetime import datetime

from bot.core.conversation.actions import PlanAction
from bot.core.conversation.confirming import removal_question
from bot.core.conversation.events import Press
from bot.core.conversation.richtext import bold, paragraph
from bot.core.conversation.screens import Button, Screen
from bot.core.plans.words import describe, examples, local_time
from bot.core.texts import Texts
from bot.core.turn import Turn
from storage import plans
from storage.models import Plan
from storage.states import PlanStatus

__all__ = ["plan_pressed", "resumed_at", "show_plans"]

_PAUSE, _RESUME, _DELETE, _SURE, _KEEP = "p", "r", "d", "y", "n"
# Buttons a row: two plans' (pause or resume, and delete).
_ROW = 4


async def show_plans(turn: Turn, *, message_id: str | None = None) -> None:
    """The user's plans, or how to write one."""
    listed = await turn.store(lambda s: plans.plans_of_user(s, user_id=turn.user_id))
    calendar = turn.texts.calendar
    if not listed:
        how = examples(turn.services.clock(), turn.services.zone, calendar)
        turn.replace(message_id, Screen((paragraph(f"{calendar.none_yet}\n{how}"),)))
        return
    lines = [paragraph(bold(calendar.heading))]
    buttons: list[Button] = []
    for number, plan in enumerate(listed, 1):
        lines.append(paragraph(_line(turn.texts, plan, number)))
        buttons += _buttons(turn, plan, number)
    # Two plans a row: a cap's worth of plans stays within Slack's 50 blocks a message.
    rows = tuple(tuple(buttons[at : at + _ROW]) for at in range(0, len(buttons), _ROW))
    turn.replace(message_id, Screen(tuple(lines), rows))


def _line(texts: Texts, plan: Plan, number: int) -> str:
    calendar = texts.calendar
    zone = plan.schedule.zone
    at = local_time(plan.next_run_at, zone, calendar) if plan.next_run_at else "-"
    line = calendar.line.format(
        number=number,
        rhythm=describe(plan.schedule, calendar),
        next=at,
        left=len(plan.titles) - plan.next_title,
        target=plan.target_title or calendar.here,
    )
    if plan.status is PlanStatus.PAUSED:
        line += " · " + calendar.paused.format(reason=calendar.reason(plan.paused_reason))
    return line


def _buttons(turn: Turn, plan: Plan, number: int) -> tuple[Button, ...]:
    assert plan.id is not None
    calendar = turn.texts.calendar

    def button(label: str, operation: str) -> Button:
        assert plan.id is not None
        action = PlanAction(turn.user_id, plan.id, operation)
        return Button(label.format(number=number), action.encode())

    if plan.status is PlanStatus.PAUSED:
        first = button(calendar.button_resume, _RESUME)
    else:
        first = button(calendar.button_pause, _PAUSE)
    return (first, button(calendar.button_delete, _DELETE))


def resumed_at(plan: Plan, now: datetime) -> datetime | None:
    """When a resumed plan runs next: a repeating plan at its next time, a one-time plan at its
    time, or at once when that has passed while it was paused."""
    if plan.schedule.repeats:
        return plan.schedule.next_after(now)
    stored = plan.next_run_at
    return stored if stored is not None and stored > now else now.replace(microsecond=0)


async def plan_pressed(turn: Turn, action: PlanAction, press: Press) -> None:
    """Pause, resume or delete the plan, then show the list again."""
    calendar = turn.texts.calendar
    now = turn.services.clock()
    plan = await turn.store(lambda s: plans.get_plan(s, plan_id=action.plan))
    if plan is None or plan.chat_user_id != turn.user_id or plan.status not in plans.LISTED:
        turn.notice(turn.texts.stale_button)
        return
    if action.operation == _DELETE:
        # Asked first: a number typed or a button tapped by mistake must not delete a plan.
        await _ask_delete(turn, plan, press)
        return
    if action.operation == _KEEP:
        await show_plans(turn, message_id=press.message_id)
        return
    if action.operation == _PAUSE:
        moved = await _move(turn, plan, PlanStatus.PAUSED, (PlanStatus.ACTIVE,), "user")
        done = calendar.paused_done
    elif action.operation == _RESUME:
        at = resumed_at(plan, now)
        moved = at is not None and await _move(
            turn, plan, PlanStatus.ACTIVE, (PlanStatus.PAUSED,), None, at
        )
        shown = local_time(at, plan.schedule.zone, calendar) if at else "-"
        done = calendar.resumed.format(next=shown)
    else:
        moved = await _move(turn, plan, PlanStatus.DELETED, plans.LISTED, None)
        done = calendar.deleted
    turn.notice(done if moved else turn.texts.stale_button)
    await show_plans(turn, message_id=press.message_id)


async def _move(
    turn: Turn,
    plan: Plan,
    status: PlanStatus,
    since: tuple[PlanStatus, ...],
    reason: str | None,
    next_run_at: datetime | None = None,
) -> bool:
    assert plan.id is not None
    plan_id = plan.id
    return await turn.store(
        lambda s: plans.set_status(
            s,
            plan_id=plan_id,
            user_id=turn.user_id,
            status=status,
            since=since,
            reason=reason,
            next_run_at=next_run_at,
        )
    )


async def _ask_delete(turn: Turn, plan: Plan, press: Press) -> None:
    assert plan.id is not None
    listed = await turn.store(lambda s: plans.plans_of_user(s, user_id=turn.user_id))
    number = next((n for n, p in enumerate(listed, 1) if p.id == plan.id), 1)
    calendar = turn.texts.calendar
    question = calendar.confirm_delete.format(
        number=number,
        rhythm=describe(plan.schedule, calendar),
        left=len(plan.titles) - plan.next_title,
    )
    sure = PlanAction(turn.user_id, plan.id, _SURE).encode()
    keep = PlanAction(turn.user_id, plan.id, _KEEP).encode()
    screen = removal_question(turn.texts, question, sure=sure, keep=keep)
    turn.replace(press.message_id, screen)
