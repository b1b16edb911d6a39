"""Logins through a one-time link to a page, for chats where no password may be typed.

A bot cannot delete a message on WhatsApp, so a password typed there would stay in the
user's history. There ``/giris`` answers a link instead: bound to the chat user, good for
``LINK_LIFETIME`` and one successful login. The database keeps only a keyed hash of its
token. The page's form carries a CSRF token derived from the link's token with a key of
the server's; the login itself is every login's (``Accounts.login``, its throttle too), and
its success is told in the chat the link was asked for in.
"""

from __future__ import annotations

import asyncio
import enum
import hmac
import logging
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlmodel import Session

from bot.api import ArticleApiError, LoginInvalid, LoginRejected
from bot.core.accounts import Accounts
from bot.core.accounts.welcome import articles_waiting, welcome
from bot.core.clock import Clock
from bot.core.conversation.events import ChatAddress
from bot.core.conversation.forms import looks_like_email
from bot.core.conversation.inputs import one_sentence, printable
from bot.core.delivery import Outbox
from bot.core.errors import LoginThrottled
from bot.core.texts import LANGUAGES, Texts, texts_for
from bot.core.upstream import Upstream
from storage import Database, TokenCipher, login_links, users
from storage.models import ChatUser, LoginLink

__all__ = ["LINK_LIFETIME", "LINK_PATH", "LinkPage", "LoginLinks", "PageKind"]

log = logging.getLogger(__name__)

LINK_LIFETIME = timedelta(minutes=10)
# Where the page is served, under PUBLIC_URL.
LINK_PATH = "/giris/"
_TOKEN_BYTES = 32
# A token as issued: url-safe base64 of _TOKEN_BYTES; anything longer is no token of ours.
_TOKEN_LENGTH = 43
# Each keyed hash gets its own purpose, so one can never stand for the other.
_HASH_PURPOSE = "login link:"
_CSRF_PURPOSE = "login form:"


class PageKind(enum.StrEnum):
    """What the page of a link shows."""

    FORM = "form"  # the form, with the error of the last try if any
    DONE = "done"  # logged in
    USED = "used"
    EXPIRED = "expired"  # or never issued, or replaced by a newer link
    FORBIDDEN = "forbidden"  # a form without its CSRF token


@dataclass(frozen=True, slots=True)
class LinkPage:
    """The page of a link, in its user's language; ``email`` fills the form again after an
    error (never the password)."""

    kind: PageKind
    texts: Texts
    error: str = ""
    email: str = field(default="", repr=False)


@dataclass(frozen=True, slots=True)
class _Found:
    """A link and its chat user, as read together."""

    link: LoginLink
    user: ChatUser


class LoginLinks:
    """Issues login links, and logs their users in through the page."""

    def __init__(
        self,
        *,
        db: Database,
        accounts: Accounts,
        api: Upstream,
        outbox: Outbox,
        cipher: TokenCipher,
        clock: Clock,
        public_url: str,
        default_language: str = "tr",
        lifetime: timedelta = LINK_LIFETIME,
    ) -> None:
        self._db = db
        self._accounts = accounts
        self._api = api
        self._outbox = outbox
        self._cipher = cipher
        self._clock = clock
        self._public_url = public_url.rstrip("/")
        self._default_language = default_language
        self.lifetime = lifetime

    async def issue(self, user_id: int, chat: ChatAddress) -> str:
        """A new link for the user, answering in ``chat``; their earlier links stop working."""
        token = secrets.token_urlsafe(_TOKEN_BYTES)
        token_hash, expires_at = self._hash(token), self._clock() + self.lifetime
        await self._db.run(
            lambda s: login_links.add_link(
                s,
                token_hash=token_hash,
                user_id=user_id,
                chat_id=chat.chat_id,
                expires_at=expires_at,
            )
        )
        return f"{self._public_url}{LINK_PATH}{token}"

    def csrf(self, token: str) -> str:
        """The CSRF token of the link's form: only this server can make it from the link."""
        return self._cipher.fingerprint(_CSRF_PURPOSE + token)

    async def page(self, token: str, language_hint: str | None = None) -> LinkPage:
        """The page a link opens: its form, or why it no longer works."""
        found = await self._find(token)
        return LinkPage(self._kind(found), self._texts(found, language_hint))

    async def submit(
        self, token: str, *, csrf: str, email: str, password: str, language_hint: str | None
    ) -> LinkPage:
        """Log the link's user in with the form's fields; a refusal keeps the link usable."""
        if not hmac.compare_digest(csrf.encode(), self.csrf(token).encode()):
            return LinkPage(PageKind.FORBIDDEN, self._texts(None, language_hint))
        found = await self._find(token)
        texts, kind = self._texts(found, language_hint), self._kind(found)
        if found is None or kind is not PageKind.FORM:
            return LinkPage(kind, texts)
        email, words = email.strip(), texts.login_page
        if not looks_like_email(email):
            return LinkPage(PageKind.FORM, texts, words.bad_email, email)
        if printable(password) != password:
            # No account has such a password, and a lone surrogate cannot even be sent.
            return LinkPage(PageKind.FORM, texts, words.rejected, email)
        claimed_at, token_hash = self._clock(), found.link.token_hash
        if not await self._db.run(
            lambda s: login_links.claim_link(s, token_hash=token_hash, now=claimed_at)
        ):
            return LinkPage(PageKind.USED, texts)
        refusal = await self._log_in(found, claimed_at, email, password, texts)
        if refusal is not None:
            return LinkPage(PageKind.FORM, texts, refusal, email)
        await self._tell_logged_in(found)
        return LinkPage(PageKind.DONE, texts)

    async def _log_in(
        self, found: _Found, claimed_at: datetime, email: str, password: str, texts: Texts
    ) -> str | None:
        """Log in through the claimed link; None on success, else why not (the link opened
        again: a refusal, the service down or the request cancelled do not spend it)."""
        user_id, words = found.link.chat_user_id, texts.login_page
        logged_in = False
        try:
            await self._accounts.login(user_id, email, password)
            logged_in = True
        except LoginInvalid as err:
            reason = one_sentence(err.reason or "")
            return words.invalid.format(reason=reason) if reason else words.rejected
        except LoginRejected:
            return words.rejected
        except LoginThrottled:
            return texts.login_throttled
        except ArticleApiError as err:
            log.warning("login by link of chat user %s: the service answered %r", user_id, err)
            return texts.service_down
        finally:
            if not logged_in:
                await self._release(found.link, claimed_at)
        return None

    async def _release(self, link: LoginLink, claimed_at: datetime) -> None:
        token_hash = link.token_hash
        # Done even when the request is cancelled, or the link would stay claimed.
        await asyncio.shield(
            self._db.run(
                lambda s: login_links.release_link(s, token_hash=token_hash, claimed_at=claimed_at)
            )
        )

    async def _tell_logged_in(self, found: _Found) -> None:
        """Say "logged in" with the balance in the chat the link was asked for in."""
        user, user_id = found.user, found.link.chat_user_id
        try:
            balance = await self._accounts.call(user_id, self._api.balance)
        except ArticleApiError as err:
            # Logged in all the same: the chat is told so, without the balance.
            log.warning("no balance for chat user %s after a login by link: %r", user_id, err)
            balance = None
        waiting = await articles_waiting(self._db, user_id)
        chat = ChatAddress(
            user.platform, found.link.chat_id, user_id=user.external_id, workspace=user.workspace
        )
        await self._outbox.tell(
            user, chat, lambda texts: " ".join(welcome(texts, balance, waiting))
        )

    def _hash(self, token: str) -> str:
        return self._cipher.fingerprint(_HASH_PURPOSE + token)

    async def _find(self, token: str) -> _Found | None:
        if len(token) != _TOKEN_LENGTH:
            return None
        token_hash = self._hash(token)

        def find(session: Session) -> _Found | None:
            link = login_links.find_link(session, token_hash=token_hash)
            user = None if link is None else users.get_user(session, user_id=link.chat_user_id)
            return None if link is None or user is None else _Found(link, user)

        return await self._db.read(find)

    def _kind(self, found: _Found | None) -> PageKind:
        """The form for a link that works; else why it does not."""
        if found is None or found.link.expires_at <= self._clock():
            return PageKind.EXPIRED
        return PageKind.USED if found.link.used_at is not None else PageKind.FORM

    def _texts(self, found: _Found | None, language_hint: str | None) -> Texts:
        """The user's language; for a link of no one, the browser's if the bot speaks it."""
        if found is not None:
            return self._outbox.recipients.texts(found.user)
        hint = (language_hint or "")[:2].lower()
        return texts_for(hint if hint in LANGUAGES else self._default_language)
