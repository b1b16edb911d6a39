"""``Tekrar sipariş`` and ``Başka ton``: a new order from an earlier article of the user.

The new order is an ordinary draft, so it goes through the same summary, ``Onayla`` and
once-only purchase as ``/yaz``.
"""

from __future__ import annotations

from bot.core.conversation.actions import OrderAgain, OtherTone
from bot.core.conversation.events import Press
from bot.core.conversation.forms import title_problem
from bot.core.conversation.inputs import one_line
from bot.core.dialogs import articles, low_balance, order
from bot.core.turn import Turn
from storage import jobs

__all__ = ["again_pressed"]


async def again_pressed(turn: Turn, action: OrderAgain | OtherTone, press: Press) -> None:
    """Start the new order: straight to its summary, or to the tone when another is wanted;
    then warn of a low balance."""
    await turn.services.accounts.require(turn.user_id)
    earlier = await turn.store(lambda s: jobs.job_by_request_id(s, request_id=action.request_id))
    if earlier is not None and earlier.chat_user_id == turn.user_id:
        title, tone, size = earlier.title, earlier.tone, earlier.size
        client_id = earlier.client_id
    else:
        # Ordered elsewhere (the service's own site): its title is known, its tone and size not.
        title, tone, size = await _upstream_title(turn, action.request_id), None, None
        client_id = None
    if not title or title_problem(turn.texts, title):
        turn.notice(turn.texts.stale_button)
        await low_balance.warn(turn)
        return
    other_tone = isinstance(action, OtherTone)
    draft = await order.start_again(turn, title, None if other_tone else tone, size, client_id)
    await low_balance.warn(turn, balance=draft.balance_seen, exact=True)


async def _upstream_title(turn: Turn, request_id: str) -> str:
    found = await articles.article_by_id(turn, request_id)
    return one_line(found.title or "") if found else ""
