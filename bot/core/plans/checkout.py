"""The checkout of a plan's draft: its summary (runs, target, what the balance pays) with
``Onayla`` saving the plan, which charges nothing now (each run is an order of its own)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.conversation.richtext import Block
from bot.core.conversation.screens import Screen
from bot.core.dialogs.order import Summary, list_prompt, titles_heading
from bot.core.plans import summary as plan_summary
from bot.core.texts import Texts
from bot.core.turn import Turn
from storage.models import Draft
from storage.states import Awaiting

__all__ = ["PlanCheckout"]


class PlanCheckout:
    """A plan written with /takvim, its titles ordered at the times of its rhythm."""

    awaiting = Awaiting.PLAN_TITLES

    def titles_prompt(self, turn: Turn) -> Screen:
        """The request for the plan's titles."""
        return list_prompt(turn.texts.calendar.ask_titles)

    def heading(
        self, texts: Texts, draft: Draft, own: Sequence[str] | None = None
    ) -> tuple[Block, ...]:
        """The plan's titles, and those of a file that were refused."""
        return titles_heading(texts, draft, own)

    async def priced(self, turn: Turn, draft: Draft) -> None:
        """Nothing is kept: the plan's summary asks the balance each time it is shown."""

    async def show(
        self, turn: Turn, draft: Draft, summary: Summary, *, message_id: str | None
    ) -> None:
        """The plan's summary below the order's, where its target was asked first."""
        await plan_summary.show(
            turn, draft, summary.blocks, summary.cancel, summary.change, message_id=message_id
        )

    def cancelled(self, texts: Texts) -> str:
        """The plan is dropped."""
        return texts.calendar.cancelled
