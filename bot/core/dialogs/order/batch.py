"""The checkout of /toplu and of a file of titles: a batch of articles paid at once."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.conversation.richtext import Block
from bot.core.conversation.screens import Screen
from bot.core.dialogs.order.paid import PaidCheckout
from bot.core.dialogs.order.screens import list_prompt, titles_heading
from bot.core.texts import Texts
from bot.core.turn import Turn
from storage.models import Draft
from storage.states import Awaiting

__all__ = ["BatchCheckout"]


class BatchCheckout(PaidCheckout):
    """An order of many articles, their titles typed as a list or sent as a file."""

    awaiting = Awaiting.BULK_TITLES

    def titles_prompt(self, turn: Turn) -> Screen:
        """The request for the list, written for the chat's way of typing lines."""
        texts = turn.texts
        return list_prompt(
            texts.ask_bulk_titles_lines if turn.origin.line_by_line else texts.ask_bulk_titles
        )

    def heading(
        self, texts: Texts, draft: Draft, own: Sequence[str] | None = None
    ) -> tuple[Block, ...]:
        """The list of titles, and those of a file that were refused."""
        return titles_heading(texts, draft, own)
