"""The order form (Slack's): its tones, sizes and clients, and an order taken from it whole."""

from __future__ import annotations

from bot.core.clients import picker as clients
from bot.core.conversation.events import OrderForm
from bot.core.conversation.forms import OrderChoices, title_problem
from bot.core.conversation.inputs import one_line
from bot.core.dialogs.order.drafting import new_draft
from bot.core.dialogs.order.screens import size_label
from bot.core.dialogs.order.summary import show_summary
from bot.core.turn import Turn
from storage.states import DraftKind

__all__ = ["choices", "form_submitted"]


async def choices(turn: Turn) -> OrderChoices:
    """The tones and sizes the user can order, labelled in their language."""
    await turn.services.accounts.require(turn.user_id)
    tones = await turn.services.catalog.tones(turn.user_id)
    sizes = await turn.services.catalog.sizes(turn.user_id)
    live = [(c.id, c.name) for c in await clients.live_clients(turn) if c.id is not None]
    return OrderChoices(
        tones=tuple((tone.id, turn.texts.tone_name(tone)) for tone in tones),
        sizes=tuple((size.id, size_label(turn.texts, size, 1)) for size in sizes),
        clients=((clients.NO_CLIENT, turn.texts.button_no_client), *live) if live else (),
    )


async def form_submitted(turn: Turn, form: OrderForm) -> None:
    """Take title, tone and size from one form and show the summary."""
    await turn.services.accounts.require(turn.user_id)
    title = one_line(form.title)
    problem = title_problem(turn.texts, title)
    tone = await turn.services.catalog.tone(turn.user_id, form.tone)
    size = await turn.services.catalog.size(turn.user_id, form.size)
    client = await clients.client_by_id(turn, form.client)
    gone = bool(form.client) and (client is None or client.removed_at is not None)
    if problem or tone is None or size is None or gone:
        turn.say(problem or turn.texts.stale_button)
        return
    draft = await new_draft(turn, DraftKind.SINGLE)
    draft.title, draft.tone = title, tone.id
    draft.client_id, draft.client_chosen = (client.id if client else None), True
    await show_summary(turn, draft, tone, size, message_id=None)
