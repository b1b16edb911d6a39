"""Plans at /cikis: a logged-out owner's plans cannot order, so they pause there, named."""

from __future__ import annotations

from bot.core.conversation.richtext import Block, BulletList, Span, paragraph
from bot.core.plans.words import describe
from bot.core.turn import Turn
from storage import plans

__all__ = ["LOGGED_OUT", "pause_at_logout"]

# The reason a plan is paused with when its owner is logged out.
LOGGED_OUT = "login"


async def pause_at_logout(turn: Turn) -> list[Block]:
    """Pause the user's running plans; the lines that name them, none where none ran."""
    paused = await turn.store(
        lambda s: plans.pause_plans_of_user(s, user_id=turn.user_id, reason=LOGGED_OUT)
    )
    if not paused:
        return []
    calendar = turn.texts.calendar
    lines = tuple(
        (
            Span(
                calendar.logout_paused_line.format(
                    rhythm=describe(plan.schedule, calendar),
                    left=len(plan.titles) - plan.next_title,
                    target=plan.target_title or calendar.plan_chat,
                )
            ),
        )
        for plan in paused
    )
    return [paragraph(calendar.logout_paused), BulletList(lines)]
