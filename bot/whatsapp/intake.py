"""What people do on WhatsApp, answered by the core: each person's updates in order.

A webhook is answered at once, so each person's updates are handled after it, one at a
time in the order they came, and at most ``IN_FLIGHT_PER_USER`` waiting (a flood past it is
told once and dropped). A person who writes reopens their 24-hour window: their articles
waiting for it are made due first. Commands are typed with or without the slash; ``giris``
answers a link to the login page (the platform's rules say so), since no WhatsApp message
can be deleted.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from pywa_async.client import WhatsApp

from bot.core.conversation.events import (
    ChatAddress,
    Command,
    Event,
    Origin,
    Press,
    Text,
    Unsupported,
    Upload,
    UserKey,
)
from bot.core.conversation.presenter import present
from bot.core.conversation.richtext import paragraph
from bot.core.conversation.screens import Screen
from bot.core.limits.inflight import InFlight
from bot.core.ordering.title_files import MAX_FILE_BYTES
from bot.core.ports import MessengerError
from bot.core.routing.conversations import Conversations
from bot.core.routing.routes import COMMANDS
from bot.core.texts import texts_for
from bot.whatsapp.ids import PLATFORM
from bot.whatsapp.inbound import Chosen, Said, SentFile, Status, Unreadable, Update
from bot.whatsapp.messenger import RE_ENGAGEMENT, WhatsAppMessenger, WhatsAppPresenter

__all__ = ["TEXT_LIMIT", "Intake", "event_of_text", "origin_of"]

log = logging.getLogger(__name__)
# Longer than any title list the bot reads; WhatsApp lets a person send 65,536 characters.
TEXT_LIMIT = 4096


def origin_of(person: str) -> Origin:
    """A person in their one-to-one chat with the number; nothing they type can be deleted."""
    return Origin(
        user=UserKey(PLATFORM, person),
        chat=ChatAddress(PLATFORM, person, user_id=person),
        private=True,
        deletes_messages=False,
    )


def event_of_text(text: str, message_id: str) -> Event:
    """A command when it starts with a slash or a command's name (``yaz``, ``/yaz``), else
    text; a text too long for anything the bot reads is unsupported."""
    if len(text) > TEXT_LIMIT:
        return Unsupported()
    first, _, rest = text.strip().partition(" ")
    name = first.removeprefix("/").lower()
    if first.startswith("/") or name in COMMANDS:
        return Command(name, rest.strip(), message_id)
    return Text(text, message_id)


class Intake:
    """Hands each person's updates to the core in order, and the statuses to the messenger."""

    def __init__(
        self, conversations: Conversations, messenger: WhatsAppMessenger, client: WhatsApp
    ) -> None:
        self._conversations = conversations
        self._messenger = messenger
        self._client = client
        self._in_flight = InFlight()
        # Each person's turn, and how many of their updates wait for it or hold it.
        self._turns: dict[str, tuple[asyncio.Lock, int]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def take(self, updates: list[Update]) -> None:
        """Start handling what a notification told, in its order."""
        for update in updates:
            if isinstance(update, Status):
                self._status(update)
                continue
            origin = origin_of(update.person)
            if not self._in_flight.take(origin.user):
                # A stranger's flood is not told it goes too fast: they are refused anyway.
                admitted = self._conversations.admits(origin)
                if self._in_flight.first_refusal(origin.user) and admitted:
                    self._start(self._too_fast(update.person), update.person)
                continue
            self._start(self._handled(update), update.person)

    async def close(self) -> None:
        """Let the updates under way finish."""
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def _start(self, work: Coroutine[Any, Any, None], person: str) -> None:
        task = asyncio.create_task(self._guarded(work, person))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _guarded(self, work: Coroutine[Any, Any, None], person: str) -> None:
        """The one boundary of the errors of what is done for a person after the webhook."""
        try:
            await work
        except MessengerError as err:
            log.warning("could not answer WhatsApp user %s: %r", person, err)
        except Exception:
            log.exception("answering a WhatsApp update of %s failed", person)

    def _status(self, status: Status) -> None:
        if status.status == "failed" and RE_ENGAGEMENT in status.codes:
            self._start(
                self._messenger.failed_late(status.message_id, status.person), status.person
            )
        elif status.status == "failed":
            log.warning("WhatsApp message %s failed: %s", status.message_id, status.codes)

    async def _too_fast(self, person: str) -> None:
        origin = origin_of(person)
        texts = texts_for(await self._conversations.language(origin))
        await self._messenger.send(origin.chat, Screen((paragraph(texts.too_fast),)))

    async def _handled(self, update: Said | Chosen | SentFile | Unreadable) -> None:
        """Answer one update after the person's earlier ones."""
        person = update.person
        lock, waiting = self._turns.get(person) or (asyncio.Lock(), 0)
        self._turns[person] = (lock, waiting + 1)
        try:
            async with lock:
                await self._answer(update)
        finally:
            self._in_flight.release(origin_of(person).user)
            lock, waiting = self._turns.pop(person)
            if waiting > 1:
                self._turns[person] = (lock, waiting - 1)

    async def _answer(self, update: Said | Chosen | SentFile | Unreadable) -> None:
        origin = origin_of(update.person)
        presenter = WhatsAppPresenter(self._messenger, origin.chat)
        refusal = self._conversations.refusal(origin)
        if refusal is not None:
            await present(presenter, refusal)
            return
        if not await self._conversations.first_time(PLATFORM, update.message_id):
            return
        # Their message opened the window: the articles waiting for it are due first.
        if await self._messenger.reopened(update.person):
            await self._conversations.chat_reopened(origin)
        event = await self._event(update, origin)
        if event is None:
            return
        await self._conversations.answer(origin, event, presenter)
        for notice in presenter.notices:
            await self._messenger.send(origin.chat, Screen((paragraph(notice.text),)))

    async def _event(
        self, update: Said | Chosen | SentFile | Unreadable, origin: Origin
    ) -> Event | None:
        """The core's event for the update; None where the adapter answered it itself."""
        match update:
            case Said(text=text, message_id=message_id):
                return event_of_text(text, message_id)
            case Chosen(template=True):
                # The template's button only asks for what it announced, sent above.
                return None
            case Chosen(data=data, on_message=on_message):
                return Press(data, on_message)
            case SentFile() as sent:
                return await self._upload(sent)
            case _:
                return Unsupported()

    async def _upload(self, sent: SentFile) -> Upload:
        """The person's file, downloaded with the token unless it is too large to read."""
        found = await self._client.get_media_url(sent.media_id)
        if found.file_size > MAX_FILE_BYTES:
            return Upload(sent.filename, None, found.file_size, sent.message_id)
        content = await self._client.get_media_bytes(found.url)
        return Upload(sent.filename, content, len(content), sent.message_id)
