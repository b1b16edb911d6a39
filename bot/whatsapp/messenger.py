"""WhatsApp as the core's messenger: paced sends through pywa, errors read by their code.

WhatsApp's pace is kept before each send (``bot.whatsapp.pace``); a refusal of it (131056
for one person, 130429 for the number) slows down and tries again. The error's ``code``
decides, never the HTTP status (sources disagree on 400 or 429). No message can be edited
or deleted: an edit of a pressed message is shown as a new one, a progress line's edits
are left out.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import httpx
from pywa.errors import WhatsAppError
from pywa.types.callback import Button, Section, SectionList, SectionRow
from pywa.types.templates import TemplateLanguage
from pywa_async.client import WhatsApp

from bot.core.conversation.events import ChatAddress
from bot.core.conversation.richtext import Heading
from bot.core.conversation.screens import Document, Screen
from bot.core.delivery.announcing import Announcing
from bot.core.delivery.failed_late import TakeBack
from bot.core.limits.pacing import Pacer
from bot.core.ports import ChatPresenter, ChatUnreachable, MessengerError
from bot.whatsapp import render
from bot.whatsapp.pace import PERSON_LIMITS
from bot.whatsapp.texts import WhatsAppTexts
from bot.whatsapp.window import Kept, Windows

__all__ = [
    "RE_ENGAGEMENT",
    "WhatsAppMessenger",
    "WhatsAppPresenter",
    "WindowClosed",
]

log = logging.getLogger(__name__)
T = TypeVar("T")

PAIR_RATE, THROUGHPUT, RE_ENGAGEMENT = 131056, 130429, 131047
# The person cannot be reached on WhatsApp (no account, blocked the business, ...).
_UNDELIVERABLE = frozenset({131026, 131030})
# A refused send is paced again this many times before its error reaches the caller.
RETRIES = 5
_PAIR_WAIT, _NUMBER_WAIT = 6.0, 1.0
_DOCUMENT_TYPE = "text/plain"


class WindowClosed(MessengerError):
    """The person last wrote over 24 hours ago: the message waits until they write again."""


def _title(screen: Screen) -> str | None:
    """An article's title, where the screen starts one (its parts begin with the title)."""
    first = screen.blocks[0] if screen.blocks else None
    return first.text if isinstance(first, Heading) and first.level == 1 else None


class WhatsAppMessenger:
    """Sends through the Cloud API (pywa), paced per person and for the number."""

    # A send accepted may fail later, told by a status webhook (the 24-hour window).
    fails_later = True

    def __init__(
        self,
        client: WhatsApp,
        texts: WhatsAppTexts,
        *,
        template: str,
        template_language: str,
        pacer: Pacer,
        take_back: TakeBack,
        announcing: Announcing,
    ) -> None:
        self._client = client
        self._texts = texts
        self._template = template
        self._template_language = TemplateLanguage(template_language)
        self._pacer = pacer
        self._take_back = take_back
        self._announcing = announcing
        self.windows = Windows()

    async def send(self, chat: ChatAddress, screen: Screen) -> str | None:
        """Post the screen as one message or a few (a paged list); the first one's id."""
        person, title = chat.chat_id, _title(screen)
        ids = []
        for index, outgoing in enumerate(render.messages(screen, self._texts)):
            kept = Kept(self._resend(person, outgoing), title if index == 0 else None)
            ids.append(await self._sending(person, kept))
        return ids[0]

    async def edit(self, chat: ChatAddress, message_id: str, screen: Screen) -> None:
        """Nothing: no WhatsApp message can be edited, and a progress line's every change as
        a new message would spend the person's pace on lines the article makes stale."""
        log.debug("not editing WhatsApp message %s: WhatsApp has no edits", message_id)

    async def delete(self, chat: ChatAddress, message_id: str) -> None:
        """Nothing: no WhatsApp message can be deleted (so no password is ever asked here)."""
        log.debug("not deleting WhatsApp message %s: WhatsApp has no deletes", message_id)

    async def send_document(self, chat: ChatAddress, document: Document) -> str:
        """Upload the file as plain text with its name (the Cloud API takes only its own
        media types, and a ``.md`` or ``.html`` is text), and post it with its caption: the
        message's id, which a later ``failed`` status names."""
        person = chat.chat_id

        async def post() -> str:
            sent = await self._client.send_document(
                to=person,
                document=document.content,
                filename=document.filename,
                caption=document.caption or None,
                mime_type=_DOCUMENT_TYPE,
            )
            return str(sent.id)

        return await self._sending(person, Kept(post))

    def fits(self, screen: Screen) -> bool:
        """Whether the screen's text fits one message (a body of 1,024 with buttons)."""
        return render.fits(screen)

    async def reopened(self, person: str) -> bool:
        """The person wrote: their window is open again; whether it may have been closed."""
        return self.windows.reopened(person)

    async def failed_late(self, message_id: str, person: str) -> None:
        """A ``failed`` status for the window: see ``_after_failure``. A send this process
        does not know went before it started (or its answer is not read yet, and
        ``_sending`` sees to it): only delivery can take it back."""
        found = self.windows.failed(message_id)
        if found is not None:
            await self._after_failure(message_id, *found)
            return
        chat_open = self.windows.wrote_lately(person)
        title = await self._take_back(message_id, chat_open)
        if title is not None and not chat_open:
            self.windows.close(person)
            await self._announce(person, title)

    async def _after_failure(self, message_id: str, person: str, kept: Kept, held: bool) -> None:
        """An article's part goes back to delivery, announced where the window is closed;
        another message goes again where the person wrote since, else it is given up (best
        effort: their next message gets a fresh answer)."""
        title = await self._take_back(message_id, not held)
        if title is not None:
            if held:
                await self._announce(person, title)
        elif not held:
            await self._sending(person, kept)
        else:
            log.info("WhatsApp message %s to %s failed for the window", message_id, person)
            # An article's part whose record the sender has still to make: it finds the
            # failure then, and delivery keeps the part.
            await self._announce(person, kept.title)

    def _resend(self, person: str, outgoing: render.Outgoing) -> Callable[[], Awaitable[str]]:
        async def post() -> str:
            sent = await self._client.send_message(
                to=person, text=outgoing.text, buttons=self._buttons(outgoing)
            )
            return str(sent.id)

        return post

    def _buttons(self, outgoing: render.Outgoing) -> list[Button] | SectionList | None:
        if not outgoing.choices:
            return None
        if not outgoing.as_list:
            return [Button(title=c.title, callback_data=c.id) for c in outgoing.choices]
        rows = [
            SectionRow(title=c.title, callback_data=c.id, description=c.description or None)
            for c in outgoing.choices
        ]
        section = Section(title=self._texts.choose, rows=rows)
        return SectionList(button_title=self._texts.choose, sections=[section])

    async def _sending(self, person: str, kept: Kept) -> str:
        """Send in the person's turn; where the window is closed, announce the article and
        refuse (the caller keeps the message)."""
        order = self.windows.stamp()
        try:
            if self.windows.is_closed(person):
                raise WindowClosed(person)
            message_id = await self._paced(person, kept.resend)
        except WindowClosed:
            self.windows.close(person)
            await self._announce(person, kept.title)
            raise
        failed = self.windows.sent(message_id, person, kept, order)
        if failed is not None:
            await self._after_failure(message_id, *failed)
        return message_id

    async def _announce(self, person: str, title: str | None) -> None:
        """Announce the article by the approved template, once while the window is shut."""
        if title is None or not await self._announcing(person):
            return
        parameters = [{"type": "text", "text": title}]
        await self._paced(
            person,
            lambda: self._client.send_template(
                to=person,
                name=self._template,
                language=self._template_language,
                params=[{"type": "body", "parameters": parameters}],
            ),
        )

    async def _paced(self, person: str, call: Callable[[], Awaitable[T]]) -> T:
        """Make the call in the person's turn; a refusal of the pace waits and tries again."""
        for _ in range(RETRIES):
            slot = await self._pacer.wait(person, PERSON_LIMITS)
            try:
                result = await call()
            except WhatsAppError as err:
                self._refused(person, err, slot)
                continue
            except httpx.HTTPError as err:
                raise MessengerError(repr(err)) from err
            self._pacer.reached(person, PERSON_LIMITS, slot)
            return result
        raise MessengerError(f"WhatsApp kept refusing sends to {person} for their pace")

    def _refused(self, person: str, err: WhatsAppError, slot: float) -> None:
        """Slow down for a refusal of the pace; raise for any other error, by its code."""
        code = err.code
        if code == PAIR_RATE:
            log.warning("WhatsApp: pair rate hit for %s, slowing down", person)
            self._pacer.refused(person, PERSON_LIMITS, _PAIR_WAIT, slot)
        elif code == THROUGHPUT:
            log.warning("WhatsApp: the number's throughput hit, slowing down")
            self._pacer.refused(person, PERSON_LIMITS, 0.0, slot)
            self._pacer.hold(None, _NUMBER_WAIT)
        elif code == RE_ENGAGEMENT:
            raise WindowClosed(person) from err
        elif code in _UNDELIVERABLE:
            raise ChatUnreachable(str(code)) from err
        else:
            raise MessengerError(f"WhatsApp error {code}: {err.message}") from err


class WhatsAppPresenter(ChatPresenter):
    """Answers in the person's chat; the pressed message, which WhatsApp cannot edit, is
    followed by a new one instead."""

    async def edit(self, message_id: str, screen: Screen) -> None:
        """Show the screen as a new message."""
        await self.send(screen)
