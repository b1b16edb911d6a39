"""The summary of a ready draft: its titles, client, tone, size and cost, priced once, then
shown by the draft's checkout."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from bot.api import Size, Tone
from bot.core.clients import picker as clients
from bot.core.conversation.richtext import Block, bold, paragraph
from bot.core.dialogs.order.checkout import Summary, checkout_of
from bot.core.dialogs.order.drafting import pressed_draft, save
from bot.core.dialogs.order.screens import (
    cancel_button,
    change_row,
    own_sizes_cost,
    size_cost,
    title_count,
)
from bot.core.turn import Turn
from storage.models import Draft
from storage.states import DraftStep

__all__ = ["show_summary", "summary_again"]


async def show_summary(
    turn: Turn, draft: Draft, tone: Tone | None, size: Size | None, *, message_id: str | None
) -> None:
    """The order as it will be charged; ``tone`` and ``size`` are None where every title of a
    file named its own. The draft's checkout shows it with what confirming does."""
    checkout = checkout_of(draft)
    sizes = await turn.services.catalog.sizes(turn.user_id)
    fixed = own_sizes_cost(draft, sizes)
    draft.size = size.id if size is not None else None
    draft.cost = fixed + (size_cost(size, title_count(draft)) if size is not None else Decimal(0))
    draft.step = DraftStep.READY
    await checkout.priced(turn, draft)
    await save(turn, draft)
    blocks = await _summary_blocks(turn, draft, tone, size, sizes)
    cancel = cancel_button(turn.texts, draft)
    change = change_row(turn.texts, draft) if tone is not None and draft.client_id else ()
    await checkout.show(turn, draft, Summary(blocks, cancel, change, sizes), message_id=message_id)


async def summary_again(turn: Turn, draft_id: str, message_id: str | None) -> None:
    """Show a ready draft's summary anew (a plan's target was chosen meanwhile)."""
    draft = await pressed_draft(turn, draft_id, frozenset({DraftStep.READY}))
    if draft is None:
        return
    catalog = turn.services.catalog
    tone = await catalog.tone(turn.user_id, draft.tone) if draft.tone is not None else None
    size = await catalog.size(turn.user_id, draft.size) if draft.size is not None else None
    await show_summary(turn, draft, tone, size, message_id=message_id)


async def _summary_blocks(
    turn: Turn, draft: Draft, tone: Tone | None, size: Size | None, sizes: Sequence[Size]
) -> list[Block]:
    """The summary's title(s), tone, size and cost."""
    texts = turn.texts
    own = await _own_choices(turn, draft, sizes)
    blocks = [*checkout_of(draft).heading(texts, draft, own)]
    blocks += await _client_line(turn, draft)
    if tone is not None:
        blocks.append(paragraph(bold(f"{texts.summary_tone}: "), texts.tone_name(tone)))
    if size is not None:
        words = f"{texts.size_name(size)} ({size.words})"
        blocks.append(paragraph(bold(f"{texts.summary_size}: "), words))
    blocks.append(paragraph(bold(f"{texts.summary_cost}: "), texts.money(draft.cost or Decimal(0))))
    return blocks


async def _client_line(turn: Turn, draft: Draft) -> list[Block]:
    """The client the order is for, in its summary; nothing for an order without one."""
    client = await clients.client_by_id(turn, draft.client_id)
    if client is None:
        return []
    return [
        paragraph(bold(f"{turn.texts.summary_client}: "), clients.shown_name(turn.texts, client))
    ]


async def _own_choices(turn: Turn, draft: Draft, sizes: Sequence[Size]) -> list[str] | None:
    """Beside each title of a file, the tone and size its row named; None without a file."""
    if not draft.title_choices:
        return None
    tones = {
        tone.id: turn.texts.tone_name(tone)
        for tone in await turn.services.catalog.tones(turn.user_id)
    }
    named = {size.id: turn.texts.size_name(size) for size in sizes}
    labels = []
    for tone, size in draft.title_choices:
        own = [name for name in (tones.get(tone or 0), named.get(size or 0)) if name]
        labels.append(f" ({', '.join(own)})" if own else "")
    return labels
