"""/takvim: the plans listed, or a plan written in one message (rhythm, then ``: `` and the
titles as /toplu takes them); the order dialog then asks the tone and size in the plan's draft."""

from __future__ import annotations

import re

from bot.core.conversation.actions import PickSite, PickSitePost, PickTarget
from bot.core.conversation.events import Command, Press
from bot.core.dialogs import order
from bot.core.plans import listing
from bot.core.plans.mistakes import unreadable_time
from bot.core.plans.rhythm import read_rhythm
from bot.core.plans.targets import HERE, usable_target
from bot.core.plans.words import describe, tomorrow
from bot.core.turn import Turn
from storage import plans, targets
from storage.models import Plan
from storage.states import Awaiting, DraftKind

__all__ = ["rhythm_and_titles", "site_post_picked", "start_plan", "target_picked"]

# The rhythm ends at the first colon followed by a space or a line, so a title may hold one
# ("Yapay zekâ: 5 yöntem") and the time's own colon ("09:00") never ends it.
_RHYTHM_END = re.compile(r":(?:\s|$)")


async def start_plan(turn: Turn, command: Command) -> None:
    """List the plans, or start the plan the command writes."""
    if not command.args.strip():
        await listing.show_plans(turn)
        return
    await turn.services.accounts.require(turn.user_id)
    calendar = turn.texts.calendar
    head, titles = rhythm_and_titles(command.args.strip())
    now, zone = turn.services.clock(), turn.services.zone
    schedule = read_rhythm(head, zone)
    if schedule is None:
        turn.say(unreadable_time(head, calendar, now, zone))
        return
    if schedule.next_after(now) is None:
        day = tomorrow(now, zone, calendar)
        turn.say(calendar.in_the_past.format(time=describe(schedule, calendar), tomorrow=day))
        return
    draft = await order.new_draft(turn, DraftKind.PLAN)
    chat = turn.origin.chat
    plan = Plan(
        chat_user_id=turn.user_id,
        draft_id=draft.id,
        schedule=schedule,
        platform=chat.platform,
        chat_id=chat.chat_id,
        thread_id=chat.thread_id,
        # A plan made in a channel or group has it as its target: checked before each run,
        # it gets the articles alone, and the rest goes to the owner privately.
        target_chat_id=_shared_chat(turn),
        created_at=turn.services.clock(),
    )
    await turn.store(lambda s: plans.start_plan(s, plan=plan))
    if titles.strip():
        await order.take_bulk_titles(turn, draft, titles)
        return
    await turn.expect(Awaiting.PLAN_TITLES, context=draft.id)
    turn.send(order.list_prompt(calendar.ask_titles))


def _shared_chat(turn: Turn) -> str | None:
    """The chat the user is in, where it is not their private chat with the bot."""
    return None if turn.origin.private else turn.origin.chat.chat_id


def rhythm_and_titles(text: str) -> tuple[str, str]:
    """The rhythm, and the titles after the first ``: `` (or colon ending a line)."""
    parts = _RHYTHM_END.split(text, maxsplit=1)
    return parts[0], parts[1] if len(parts) > 1 else ""


async def target_picked(turn: Turn, action: PickTarget | PickSite, press: Press) -> None:
    """Keep where the plan's articles go (the client's site too), then show its summary."""
    plan = await turn.store(lambda s: plans.plan_of_draft(s, draft_id=action.draft_id))
    if plan is None or plan.chat_user_id != turn.user_id:
        turn.notice(turn.texts.stale_button)
        return
    assert plan.id is not None
    plan_id, chat_id, title = plan.id, _shared_chat(turn), None
    to_site = isinstance(action, PickSite)
    if isinstance(action, PickTarget) and action.target != HERE:
        target = await turn.store(lambda s: targets.get_target(s, target_id=action.target))
        if target is None or not await usable_target(turn, target):
            turn.notice(turn.texts.stale_button)
            return
        chat_id, title = target.chat_id, target.title
    await turn.store(
        lambda s: plans.set_target(
            s, plan_id=plan_id, chat_id=chat_id, title=title, to_site=to_site
        )
    )
    await order.summary_again(turn, action.draft_id, press.message_id)


async def site_post_picked(turn: Turn, action: PickSitePost, press: Press) -> None:
    """Keep whether the plan's posts on its client's site are scheduled or drafts, then show
    its summary again."""
    plan = await turn.store(lambda s: plans.plan_of_draft(s, draft_id=action.draft_id))
    if plan is None or plan.chat_user_id != turn.user_id:
        turn.notice(turn.texts.stale_button)
        return
    assert plan.id is not None
    plan_id, draft = plan.id, bool(action.draft)
    await turn.store(lambda s: plans.set_site_draft(s, plan_id=plan_id, draft=draft))
    await order.summary_again(turn, action.draft_id, press.message_id)
