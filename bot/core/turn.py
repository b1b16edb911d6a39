"""One event being answered: who asked, where, in which language, and the answer so far."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar
from zoneinfo import ZoneInfo

from sqlmodel import Session

from bot.core.accounts import Accounts
from bot.core.accounts.catalog import Catalog
from bot.core.articles.recent import RecentArticles
from bot.core.clock import DEFAULT_ZONE, Clock
from bot.core.conversation.events import Origin
from bot.core.conversation.richtext import Block, paragraph
from bot.core.conversation.screens import Button, Delete, Edit, Effect, Notice, Screen, Send
from bot.core.delivery import Outbox
from bot.core.limits.access import Gate
from bot.core.login_links import LoginLinks
from bot.core.operations.operations import Operations
from bot.core.platforms import Platforms
from bot.core.ports import MessengerError
from bot.core.publishing.client_sites import ClientSites
from bot.core.texts import LANGUAGES, Texts, texts_for
from bot.core.upstream import Upstream
from storage import Database, users
from storage.models import ChatUser
from storage.states import Awaiting
from storage.upstream_sessions import AccessToken

__all__ = ["Admission", "AtOnce", "CoreServices", "Turn", "language_of", "text_screen"]

T = TypeVar("T")
# Carries out one effect before the turn ends (a password's deletion before the login call).
AtOnce = Callable[[Effect], Awaitable[None]]
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class CoreServices:
    """What the dialogs work with, wired once by ``bot.bootstrap``."""

    db: Database
    api: Upstream
    accounts: Accounts
    catalog: Catalog
    outbox: Outbox
    clock: Clock
    operations: Operations
    gate: Gate
    # Each user's article list for a few seconds: inline mode and searches ask at each word.
    recent_articles: RecentArticles
    default_language: str = "tr"
    # Where dates and months are counted, and plans written (BOT_TIMEZONE).
    zone: ZoneInfo = DEFAULT_ZONE
    # Each chat platform's rules (whether a password may be typed in its chats).
    platforms: Platforms = field(default_factory=Platforms)
    # The login by link, where PUBLIC_URL is set.
    links: LoginLinks | None = None
    # Clients' WordPress sites; None where a bot is wired without them.
    sites: ClientSites | None = None


@dataclass(frozen=True, slots=True)
class Admission:
    """A new update let in: its chat user and their access token (None when logged out),
    read in its replay check's transaction for its answer to use."""

    user: ChatUser
    access: AccessToken | None


def language_of(user: ChatUser, origin: Origin, default: str) -> str:
    """The user's choice, else their client's language if the bot speaks it, else the default."""
    if user.locale in LANGUAGES:
        return user.locale
    hint = (origin.language_hint or "")[:2].lower()
    return hint if hint in LANGUAGES else default


class Turn:
    """Collects the effects that answer one event of one chat user."""

    def __init__(
        self,
        services: CoreServices,
        origin: Origin,
        user: ChatUser,
        at_once: AtOnce | None = None,
        *,
        access: AccessToken | None = None,
    ) -> None:
        assert user.id is not None
        self.services = services
        self.origin = origin
        self.user = user
        self.user_id: int = user.id
        self.texts: Texts = texts_for(language_of(user, origin, services.default_language))
        self.effects: list[Effect] = []
        self.at_once = at_once
        # Work that must wait until the answer is shown (the progress line of a new order).
        self.later: list[Callable[[], Awaitable[None]]] = []
        # The input a command interrupted, so /iptal can tell whether it cancelled anything.
        self.interrupted: Awaiting | None = None
        self._deleted: set[str] = set()
        # The user's access token as read with the update, if it was: the first upstream
        # call's alone, as a later one may follow a refresh.
        self._access = access

    def send(self, screen: Screen) -> None:
        """Answer with a new message."""
        self.effects.append(Send(screen))

    def say(self, *parts: str | Block, buttons: tuple[tuple[Button, ...], ...] = ()) -> None:
        """Answer with paragraphs of plain text (or ready blocks), and buttons if any."""
        blocks = tuple(paragraph(part) if isinstance(part, str) else part for part in parts)
        self.send(Screen(blocks, buttons))

    def replace(self, message_id: str | None, screen: Screen) -> None:
        """Edit the message a button was pressed on, or send anew where it cannot be edited."""
        self.effects.append(Edit(message_id, screen) if message_id else Send(screen))

    def notice(self, text: str) -> None:
        """A short notice for a button press."""
        self.effects.append(Notice(text))

    def afterwards(self, work: Callable[[], Awaitable[None]]) -> None:
        """Do ``work`` once the answer has been shown."""
        self.later.append(work)

    async def delete(self, message_id: str | None) -> None:
        """Delete one of the user's messages (a password), with a note: at once where possible."""
        if not message_id or message_id in self._deleted or not self.origin.deletes_messages:
            return
        self._deleted.add(message_id)
        deletion = Delete(message_id, self.texts.password_deleted)
        if self.at_once is None:
            self.effects.append(deletion)
            return
        try:
            await self.at_once(deletion)
        except MessengerError as err:
            # The dialog goes on; the platform said why the message stays (e.g. no admin rights).
            log.warning(
                "could not delete message %s of chat user %s: %s", message_id, self.user_id, err
            )
            self.say(self.texts.password_not_deleted)

    async def progress(self, text: str) -> None:
        """Say at once that long work is under way; where it cannot be shown early, nothing."""
        if self.at_once is None:
            return
        try:
            await self.at_once(Send(text_screen(text)))
        except MessengerError as err:
            log.info("could not show progress to chat user %s: %s", self.user_id, err)

    async def upstream(self, operation: Callable[[str], Awaitable[T]]) -> T:
        """Call the upstream as this user, with a fresh token."""
        known, self._access = self._access, None
        return await self.services.accounts.call(self.user_id, operation, known=known)

    async def store(self, work: Callable[[Session], T]) -> T:
        """Run storage work in one transaction."""
        return await self.services.db.run(work)

    async def expect(self, awaiting: Awaiting | None, context: str | None = None) -> None:
        """Remember what the user's next message answers (or that it answers nothing)."""
        self.user.awaiting = awaiting
        self.user.awaiting_context = context
        now = self.services.clock()
        await self.store(
            lambda s: users.set_awaiting(
                s, user_id=self.user_id, awaiting=awaiting, context=context, at=now
            )
        )


def text_screen(*lines: str) -> Screen:
    """A screen of plain paragraphs."""
    return Screen(tuple(paragraph(line) for line in lines))
