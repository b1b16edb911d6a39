"""The checkout of an order paid at once (/yaz's article, /toplu's batch): the balance under
the summary, and ``Onayla`` buys through ``bot.core.ordering.purchase``, the one place that
charges."""

from __future__ import annotations

from decimal import Decimal
from functools import partial

from bot.core.conversation.actions import Confirm
from bot.core.conversation.events import Press
from bot.core.conversation.richtext import bold, paragraph
from bot.core.conversation.screens import Button, Screen
from bot.core.dialogs import low_balance
from bot.core.dialogs.order.checkout import Summary
from bot.core.dialogs.order.screens import (
    cancel_button,
    own_sizes_cost,
    size_button,
    size_cost,
    title_count,
)
from bot.core.ordering import purchase
from bot.core.texts import Texts, in_every_language
from bot.core.turn import Turn, text_screen
from storage.models import Draft

__all__ = ["PaidCheckout", "confirmed"]


class PaidCheckout:
    """What an order paid at once shows and does at its end; its kind adds how its titles are
    asked for and headed."""

    async def priced(self, turn: Turn, draft: Draft) -> None:
        """Keep the balance with the draft: a confirmed order's warning of a low balance
        starts from it."""
        draft.balance_seen = await turn.upstream(turn.services.api.balance)

    async def show(
        self, turn: Turn, draft: Draft, summary: Summary, *, message_id: str | None
    ) -> None:
        """The summary with the balance and ``Onayla``; a balance short of the cost gets no
        purchase button but the sizes it pays."""
        texts = turn.texts
        balance, cost = draft.balance_seen, draft.cost or Decimal(0)
        assert balance is not None, "a summary to be paid shows the balance"
        blocks = [
            *summary.blocks,
            paragraph(bold(f"{texts.summary_balance}: "), texts.money(balance)),
        ]
        if balance >= cost:
            rows = (_purchase_row(texts, draft), *summary.change)
            turn.replace(message_id, Screen(tuple(blocks), rows))
            return
        # An order the balance cannot pay is refused before any charge.
        blocks.append(
            paragraph(texts.summary_insufficient.format(missing=texts.money(cost - balance)))
        )
        count, fixed = title_count(draft), own_sizes_cost(draft, summary.sizes)
        affordable = [
            size
            for size in summary.sizes
            if count and size.cost is not None and fixed + size_cost(size, count) <= balance
        ]
        if affordable:
            blocks.append(paragraph(texts.summary_pick_affordable))
        sizes = tuple((size_button(texts, draft, size),) for size in affordable)
        turn.replace(message_id, Screen(tuple(blocks), (*sizes, (summary.cancel,))))

    def cancelled(self, texts: Texts) -> str:
        """The order is cancelled."""
        return texts.order_cancelled


async def confirmed(turn: Turn, action: Confirm, press: Press) -> None:
    """Buy the draft (submitted exactly once), say how it went, then warn of a low balance."""
    bought = await purchase.buy(turn, action.draft_id)
    texts = turn.texts
    match bought:
        case purchase.NotBought(why=purchase.Refusal.NOT_YOURS):
            turn.notice(texts.not_your_button)
            return
        case purchase.NotBought(why=purchase.Refusal.ALREADY_PLACED):
            turn.notice(texts.order_already_handled)
            return
        case purchase.NotBought():
            turn.notice(texts.stale_button)
            return
    buttons = (_purchase_row(texts, bought.draft),) if bought.retry else ()
    turn.replace(press.message_id, Screen(text_screen(bought.text).blocks, buttons))
    for job in bought.jobs:
        # After the answer above is shown, so the progress line comes below it.
        turn.afterwards(partial(turn.services.outbox.progress.announce, job))
    if bought.jobs:
        await low_balance.warn(turn, balance=bought.balance_left)


def _purchase_row(texts: Texts, draft: Draft) -> tuple[Button, ...]:
    aliases = in_every_language(lambda t: t.button_confirm)
    confirm = Button(texts.button_confirm, Confirm(draft.id).encode(), aliases=aliases)
    return (confirm, cancel_button(texts, draft))
