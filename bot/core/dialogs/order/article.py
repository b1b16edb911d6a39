"""The checkout of /yaz: one article, its title asked alone and paid at once."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.conversation.richtext import Block, bold, paragraph
from bot.core.conversation.screens import Screen
from bot.core.dialogs.order.paid import PaidCheckout
from bot.core.texts import Texts
from bot.core.turn import Turn, text_screen
from storage.models import Draft
from storage.states import Awaiting

__all__ = ["ArticleCheckout"]


class ArticleCheckout(PaidCheckout):
    """An order of one article."""

    awaiting = Awaiting.TITLE

    def titles_prompt(self, turn: Turn) -> Screen:
        """The request for the title."""
        return text_screen(turn.texts.ask_title)

    def heading(
        self, texts: Texts, draft: Draft, own: Sequence[str] | None = None
    ) -> tuple[Block, ...]:
        """The title; a single order has no file, so ``own`` adds nothing."""
        return (paragraph(bold(f"{texts.summary_title}: "), draft.title or ""),)
