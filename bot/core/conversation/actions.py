"""The button actions, each kind once: its code, its fields and the patterns they match.

A new kind is a class here and its entry in ``PRESSES`` (``bot.core.routing.routes``).
No ``__all__`` lists the kinds again: this module's public names are the kinds and
``fits_in_button``.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import ClassVar

from bot.core.conversation.action_data import (
    DRAFT_ID,
    REQUEST_ID,
    SMALL_INT,
    ButtonAction,
    OwnedAction,
)

_LANGUAGE = re.compile(r"tr|en")
_YES_NO = re.compile(r"[01]")
_PLAN_OPERATION = re.compile(r"[prdyn]")
# A removal asked (a), confirmed (y) or given up (n).
_REMOVAL_STEP = re.compile(r"[ayn]")
# The words of a search, as URL-safe base64 of their UTF-8 without padding.
_WORDS = re.compile(r"[A-Za-z0-9_-]{1,60}")


@dataclass(frozen=True, slots=True)
class PickTone(ButtonAction):
    """Choose the tone of a draft."""

    code: ClassVar[str] = "t"
    patterns = (DRAFT_ID, SMALL_INT)
    draft_id: str
    tone: int


@dataclass(frozen=True, slots=True)
class PickSize(ButtonAction):
    """Choose the size of a draft."""

    code: ClassVar[str] = "s"
    patterns = (DRAFT_ID, SMALL_INT)
    draft_id: str
    size: int


@dataclass(frozen=True, slots=True)
class Confirm(ButtonAction):
    """Confirm (and pay for) a draft: the purchase button."""

    code: ClassVar[str] = "ok"
    patterns = (DRAFT_ID,)
    draft_id: str


@dataclass(frozen=True, slots=True)
class Abort(ButtonAction):
    """Drop a draft before it is submitted."""

    code: ClassVar[str] = "no"
    patterns = (DRAFT_ID,)
    draft_id: str


@dataclass(frozen=True, slots=True)
class ShowPage(OwnedAction):
    """Show a page of the owner's article list."""

    code: ClassVar[str] = "pg"
    patterns = (SMALL_INT, SMALL_INT)
    page: int


@dataclass(frozen=True, slots=True)
class _OnArticle(OwnedAction):
    """An action on one article of the owner, named by its upstream id."""

    patterns = (SMALL_INT, REQUEST_ID)
    request_id: str


@dataclass(frozen=True, slots=True)
class OpenArticle(_OnArticle):
    """Send a finished article of the owner again in full."""

    code: ClassVar[str] = "op"


@dataclass(frozen=True, slots=True)
class ExportArticles(OwnedAction):
    """Send the owner's finished articles as one zip: of a page of the list, or (0) of the
    last 30 days."""

    code: ClassVar[str] = "zp"
    patterns = (SMALL_INT, SMALL_INT)
    page: int


@dataclass(frozen=True, slots=True)
class OrderAgain(_OnArticle):
    """Order an earlier article of the owner again: same title, tone and size."""

    code: ClassVar[str] = "ag"


@dataclass(frozen=True, slots=True)
class OtherTone(_OnArticle):
    """Order an earlier article of the owner again in a tone chosen anew."""

    code: ClassVar[str] = "at"


@dataclass(frozen=True, slots=True)
class ChooseLanguage(OwnedAction):
    """Switch the owner's language."""

    code: ClassVar[str] = "ln"
    patterns = (SMALL_INT, _LANGUAGE)
    language: str


@dataclass(frozen=True, slots=True)
class SwitchAccount(OwnedAction):
    """Log the owner in to another account (1), or keep the current one (0)."""

    code: ClassVar[str] = "sw"
    patterns = (SMALL_INT, _YES_NO)
    switch: int


@dataclass(frozen=True, slots=True)
class PickClient(ButtonAction):
    """Choose the client of a draft (0: none)."""

    code: ClassVar[str] = "pc"
    patterns = (DRAFT_ID, SMALL_INT)
    draft_id: str
    client: int


@dataclass(frozen=True, slots=True)
class ChangeChoices(ButtonAction):
    """Pick another tone and size than a client's defaults gave a draft."""

    code: ClassVar[str] = "cc"
    patterns = (DRAFT_ID,)
    draft_id: str


@dataclass(frozen=True, slots=True)
class AddClient(OwnedAction):
    """Ask the owner for the name of a new client."""

    code: ClassVar[str] = "ca"
    patterns = (SMALL_INT,)


@dataclass(frozen=True, slots=True)
class _OnClient(OwnedAction):
    """An action on one client of the owner."""

    patterns = (SMALL_INT, SMALL_INT)
    client: int


@dataclass(frozen=True, slots=True)
class ClientDefaults(_OnClient):
    """Choose a client's default tone and size: the tones first."""

    code: ClassVar[str] = "cd"


@dataclass(frozen=True, slots=True)
class RemoveClient(OwnedAction):
    """Remove a client, once the owner confirms; its past orders keep it."""

    code: ClassVar[str] = "cr"
    patterns = (SMALL_INT, SMALL_INT, _REMOVAL_STEP)
    client: int
    step: str = "a"


@dataclass(frozen=True, slots=True)
class ClientSite(_OnClient):
    """Show a client's WordPress site with change and remove, or ask for one."""

    code: ClassVar[str] = "cw"


@dataclass(frozen=True, slots=True)
class ConnectSite(_OnClient):
    """Ask for the address, username and application password of a client's site."""

    code: ClassVar[str] = "cn"


@dataclass(frozen=True, slots=True)
class RemoveSite(_OnClient):
    """Forget a client's site and its application password."""

    code: ClassVar[str] = "cx"


@dataclass(frozen=True, slots=True)
class PublishDraft(_OnArticle):
    """Write a finished article of the owner as a draft post on its client's site."""

    code: ClassVar[str] = "wp"


@dataclass(frozen=True, slots=True)
class ClientArticles(OwnedAction):
    """Show a page of the owner's article list narrowed to one client."""

    code: ClassVar[str] = "cl"
    patterns = (SMALL_INT, SMALL_INT, SMALL_INT)
    client: int
    page: int


@dataclass(frozen=True, slots=True)
class ClientSearch(OwnedAction):
    """Show the owner's search results narrowed to one client; the search's words ride along."""

    code: ClassVar[str] = "cq"
    patterns = (SMALL_INT, SMALL_INT, _WORDS)
    client: int
    words: str

    @classmethod
    def of(cls, owner: int, client: int, query: str) -> ClientSearch | None:
        """The action for ``query``; None when its words are too long for a button."""
        words = base64.urlsafe_b64encode(query.encode()).decode().rstrip("=")
        action = cls(owner, client, words)
        try:
            action.encode()
        except ValueError:
            return None
        return action if _WORDS.fullmatch(words) else None

    def query(self) -> str | None:
        """The search's words; None when the data was not written by this bot."""
        padded = self.words + "=" * (-len(self.words) % 4)
        try:
            return base64.urlsafe_b64decode(padded).decode()
        except (binascii.Error, UnicodeDecodeError):
            return None


@dataclass(frozen=True, slots=True)
class ClientTone(OwnedAction):
    """A client's default tone is chosen; the sizes follow."""

    code: ClassVar[str] = "ct"
    patterns = (SMALL_INT, SMALL_INT, SMALL_INT)
    client: int
    tone: int


@dataclass(frozen=True, slots=True)
class ClientSize(OwnedAction):
    """A client's default tone and size are chosen."""

    code: ClassVar[str] = "cz"
    patterns = (SMALL_INT, SMALL_INT, SMALL_INT, SMALL_INT)
    client: int
    tone: int
    size: int


@dataclass(frozen=True, slots=True)
class SpendingCsv(OwnedAction):
    """Send the owner a CSV of every order the bot placed for them."""

    code: ClassVar[str] = "cv"
    patterns = (SMALL_INT,)


@dataclass(frozen=True, slots=True)
class SavePlan(ButtonAction):
    """Save the plan written in a draft (the plan's summary's ``Onayla``); it charges nothing."""

    code: ClassVar[str] = "pl"
    patterns = (DRAFT_ID,)
    draft_id: str


@dataclass(frozen=True, slots=True)
class PickSite(ButtonAction):
    """Send a plan's articles to the chat it is made in and to its client's site."""

    code: ClassVar[str] = "ts"
    patterns = (DRAFT_ID,)
    draft_id: str


@dataclass(frozen=True, slots=True)
class PickSitePost(ButtonAction):
    """How a plan's articles go to its client's site: (0) posts at the run's time, (1) drafts."""

    code: ClassVar[str] = "tw"
    patterns = (DRAFT_ID, SMALL_INT)
    draft_id: str
    draft: int


@dataclass(frozen=True, slots=True)
class PickTarget(ButtonAction):
    """Choose where a plan's articles go: one of the owner's channels or groups, or (0) the
    chat the plan is made in."""

    code: ClassVar[str] = "tg"
    patterns = (DRAFT_ID, SMALL_INT)
    draft_id: str
    target: int


@dataclass(frozen=True, slots=True)
class PlanAction(OwnedAction):
    """Pause (p), resume (r) or delete one of the owner's plans: asked (d), then confirmed
    (y) or given up (n)."""

    code: ClassVar[str] = "pa"
    patterns = (SMALL_INT, SMALL_INT, _PLAN_OPERATION)
    plan: int
    operation: str


def fits_in_button(request_id: str) -> bool:
    """Whether an upstream id can travel inside the buttons of an earlier article."""
    return REQUEST_ID.fullmatch(request_id) is not None
