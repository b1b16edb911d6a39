"""Who may use the bot: the operators' allow lists, and one polite refusal an hour for the rest.

The refusal times live in this process's memory, like a per-process rate limit: after a
restart, or on another replica, a refused user may be told once more within the hour.
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime, timedelta

from bot.core.clock import Clock
from bot.core.conversation.events import Command, Event, Origin, UserKey
from bot.core.conversation.inputs import split_credentials
from bot.core.conversation.richtext import paragraph
from bot.core.conversation.screens import Delete, Effect, Screen, Send
from bot.core.platforms import Platforms
from bot.core.texts import LANGUAGES, texts_for

__all__ = ["REFUSE_AGAIN_AFTER", "Gate"]

REFUSE_AGAIN_AFTER = timedelta(hours=1)
# Refusals remembered at most; the oldest are forgotten first, so memory stays bounded.
_REMEMBERED = 10_000
# The commands that may carry an e-mail and a password in one message.
_LOGIN_COMMANDS = frozenset({"giris"})


class Gate:
    """Lets the allowed through; tells anyone else once an hour, without asking the upstream."""

    def __init__(self, platforms: Platforms, *, clock: Clock, default_language: str = "tr") -> None:
        self._platforms = platforms
        self._clock = clock
        self._default_language = default_language
        self._refused: OrderedDict[UserKey, datetime] = OrderedDict()

    def admits(self, origin: Origin) -> bool:
        """Whether the allow lists let this user (in this chat) use the bot."""
        return self._platforms.admits(origin)

    def refusal(self, origin: Origin, event: Event | None = None) -> list[Effect] | None:
        """None for an allowed user; else the refusal to show (nothing within the hour), and
        the deletion of a login command carrying a password, every time."""
        if self._platforms.admits(origin):
            return None
        password = _password_message(event) if origin.deletes_messages else None
        deletion: list[Effect] = [] if password is None else [Delete(password)]
        now = self._clock()
        told = self._refused.get(origin.user)
        if told is not None and now - told < REFUSE_AGAIN_AFTER:
            return deletion
        self._refused[origin.user] = now
        self._refused.move_to_end(origin.user)
        while len(self._refused) > _REMEMBERED:
            self._refused.popitem(last=False)
        hint = (origin.language_hint or "")[:2].lower()
        texts = texts_for(hint if hint in LANGUAGES else self._default_language)
        return [*deletion, Send(Screen((paragraph(texts.not_allowed),)))]


def _password_message(event: Event | None) -> str | None:
    """The id of the message, when it is a login command carrying a password."""
    if not isinstance(event, Command) or event.name not in _LOGIN_COMMANDS:
        return None
    return event.message_id if split_credentials(event.args)[1] else None
