"""What the core decides by a user's chat platform, asked of the platform's own rules.

Each adapter states its rules; bootstrap hands the core the table of them. So the core
holds no platform's name: a job or a user carries one, and the table answers for it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Protocol

from bot.core.conversation.events import ChatAddress, Origin

__all__ = ["ChatRules", "OpenRules", "Platforms", "listed"]


def listed(allowed: Collection[str], value: str) -> bool:
    """Whether an allow list lets the value in; an empty list lets everyone in."""
    return not allowed or value in allowed


class ChatRules(Protocol):
    """A chat platform's rules, as far as the core needs them; each adapter states its own."""

    @property
    def name(self) -> str:
        """The platform's name, as its users, jobs and plans store it."""

    @property
    def threads_articles(self) -> bool:
        """Whether an article goes into the thread of its progress message, not below it."""

    @property
    def user_is_chat(self) -> bool:
        """Whether a user's id addresses their private chat with the bot."""

    @property
    def login_in_chat(self) -> bool:
        """Whether ``/giris`` may ask for the password in the chat: the bot deletes it there, or
        it is never shown. Where a message can never be deleted (WhatsApp), a password typed
        would stay in the history, so the login goes through a one-time link to a page."""

    def admits(self, origin: Origin) -> bool:
        """Whether the operator's allow lists let this user (in this chat) use the bot."""

    def admin_chat(self, setting: str) -> ChatAddress | None:
        """The chat ``ADMIN_CHAT`` names, when it names one of this platform."""


@dataclass(frozen=True, slots=True)
class OpenRules:
    """A platform with no allow lists, no threads and no private chat by user id."""

    name: str
    threads_articles: bool = False
    user_is_chat: bool = False
    login_in_chat: bool = True

    def admits(self, origin: Origin) -> bool:
        """Everyone: whoever reaches the chat may use the bot."""
        return True

    def admin_chat(self, setting: str) -> ChatAddress | None:
        """None: the admin chat is never here."""
        return None


class Platforms:
    """The chat platforms' rules by name; a name none states has the open rules."""

    def __init__(self, rules: Iterable[ChatRules] = ()) -> None:
        self._by_name = {each.name: each for each in rules}

    def __getitem__(self, name: str) -> ChatRules:
        return self._by_name.get(name) or OpenRules(name)

    def admits(self, origin: Origin) -> bool:
        """Whether the allow lists of the user's platform let them (in this chat) in."""
        return self[origin.user.platform].admits(origin)

    def admin_chat(self, setting: str | None) -> ChatAddress | None:
        """The chat ``ADMIN_CHAT`` names, on the first platform that claims it."""
        if not setting:
            return None
        claimed = (rules.admin_chat(setting) for rules in self._by_name.values())
        return next((chat for chat in claimed if chat is not None), None)
