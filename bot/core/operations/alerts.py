"""What an operator must know, told to the admin chat: once per cause an hour, and on recovery."""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.core.clock import Clock
from bot.core.conversation.events import ChatAddress
from bot.core.conversation.richtext import paragraph
from bot.core.conversation.screens import Screen
from bot.core.ports import Messenger, MessengerError
from bot.core.texts import Texts, texts_for

__all__ = ["REPEAT_AFTER", "AlertCause", "Alerts"]

log = logging.getLogger(__name__)

REPEAT_AFTER = timedelta(hours=1)


class AlertCause(enum.Enum):
    """Why the admin chat is told something."""

    UPSTREAM_DOWN = "upstream_down"
    UNDELIVERED = "undelivered"
    ORDER_UNCONFIRMED = "order_unconfirmed"
    LOGIN_GUARD = "login_guard"
    STARTED = "started"


_TEXTS: dict[AlertCause, Callable[[Texts], str]] = {
    AlertCause.UPSTREAM_DOWN: lambda t: t.alert_upstream_down,
    AlertCause.UNDELIVERED: lambda t: t.alert_undelivered,
    AlertCause.ORDER_UNCONFIRMED: lambda t: t.alert_order_unconfirmed,
    AlertCause.LOGIN_GUARD: lambda t: t.alert_login_guard,
    AlertCause.STARTED: lambda t: t.alert_started,
}


@dataclass(slots=True)
class _Raised:
    told_at: datetime
    text: str


class Alerts:
    """Tells the admin chat about a cause at most once an hour, and once more when it clears."""

    def __init__(
        self,
        *,
        chat: ChatAddress | None,
        messengers: Mapping[str, Messenger],
        clock: Clock,
        language: str = "tr",
    ) -> None:
        self.chat = chat
        self._messengers = messengers
        self._clock = clock
        self._texts = texts_for(language)
        self._raised: dict[AlertCause, _Raised] = {}

    def is_admin_chat(self, chat: ChatAddress) -> bool:
        """Whether the chat (in any of its threads) is the admin chat."""
        return (
            self.chat is not None
            and (chat.platform, chat.chat_id) == (self.chat.platform, self.chat.chat_id)
            and self.chat.workspace in ("", chat.workspace)
        )

    async def alert(self, cause: AlertCause, **fields: object) -> None:
        """Tell the admin chat, unless this cause was told within the hour."""
        now = self._clock()
        earlier = self._raised.get(cause)
        if earlier is not None and now - earlier.told_at < REPEAT_AFTER:
            return
        text = _TEXTS[cause](self._texts).format(**fields)
        self._raised[cause] = _Raised(now, text)
        await self._tell(text)

    async def clear(self, cause: AlertCause) -> None:
        """Say that a cause told before is over; nothing when it was not raised."""
        earlier = self._raised.pop(cause, None)
        if earlier is not None:
            await self._tell(self._texts.alert_cleared.format(detail=earlier.text))

    async def _tell(self, text: str) -> None:
        if self.chat is None:
            return
        messenger = self._messengers.get(self.chat.platform)
        if messenger is None:
            log.warning("no %s messenger here for the admin chat: %s", self.chat.platform, text)
            return
        try:
            await messenger.send(self.chat, Screen((paragraph(text),)))
        except MessengerError as err:
            log.warning("could not tell the admin chat: %r (%s)", err, text)
