"""/dil: Turkish or English."""

from __future__ import annotations

from bot.core.conversation.actions import ChooseLanguage
from bot.core.conversation.events import Command, Press
from bot.core.conversation.screens import Button, Screen
from bot.core.texts import LANGUAGES, texts_for
from bot.core.turn import Turn, text_screen
from storage import users

__all__ = ["choose_language", "language_chosen"]


async def choose_language(turn: Turn, command: Command) -> None:
    """Switch at once when the command names a language, else offer buttons."""
    wanted = command.args.strip().lower()[:2]
    if wanted in LANGUAGES:
        await _switch(turn, wanted, message_id=None)
        return
    buttons = tuple(
        Button(texts.language_name, ChooseLanguage(turn.user_id, code).encode())
        for code, texts in LANGUAGES.items()
    )
    turn.send(Screen(text_screen(turn.texts.pick_language).blocks, (buttons,)))


async def language_chosen(turn: Turn, action: ChooseLanguage, press: Press) -> None:
    """Store the pressed language."""
    await _switch(turn, action.language, message_id=press.message_id)


async def _switch(turn: Turn, language: str, *, message_id: str | None) -> None:
    await turn.store(lambda s: users.set_locale(s, user_id=turn.user_id, locale=language))
    turn.user.locale = language
    turn.texts = texts_for(language)
    turn.replace(message_id, text_screen(turn.texts.language_set))
