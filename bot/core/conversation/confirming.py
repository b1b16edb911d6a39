"""The question asked before anything is deleted: a removal happens only on "Evet, sil"."""

from __future__ import annotations

from bot.core.conversation.richtext import paragraph
from bot.core.conversation.screens import Button, Screen
from bot.core.texts import Texts, in_every_language

__all__ = ["removal_question"]


def removal_question(texts: Texts, question: str, *, sure: str, keep: str) -> Screen:
    """The question with "Evet, sil" (button data ``sure``) and "Vazgeç" (``keep``)."""
    buttons = (
        Button(
            texts.button_yes_remove, sure, aliases=in_every_language(lambda t: t.button_yes_remove)
        ),
        Button(texts.button_keep, keep, aliases=in_every_language(lambda t: t.button_keep)),
    )
    return Screen((paragraph(question),), (buttons,))
