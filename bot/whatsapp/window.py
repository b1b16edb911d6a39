"""The 24-hour window: whom only a template reaches now, and what waits for them.

A business may write to a person only within 24 hours of their last message; after that
only an approved template goes through (error 131047). The Cloud API says so in a send's
answer, or accepts the send and reports it ``failed`` later in a status webhook. Either
way the message is kept here, the person is announced the article once by the template,
and what was kept goes out, in order, as soon as they write again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

__all__ = ["Kept", "Windows"]

# Sends remembered by id, for a ``failed`` status that comes after their answer.
_REMEMBERED = 2048

Resend = Callable[[], Awaitable[str]]


@dataclass(frozen=True, slots=True)
class Kept:
    """A message to send again: how, and the article's title where it starts one."""

    resend: Resend
    title: str | None = None


@dataclass
class Windows:
    """Whose window is known closed, what waits for them, and the sends lately made."""

    _closed: set[str] = field(default_factory=set)
    _announced: set[str] = field(default_factory=set)
    _held: dict[str, list[Kept]] = field(default_factory=dict)
    _recent: OrderedDict[str, tuple[str, Kept]] = field(default_factory=OrderedDict)

    def is_closed(self, person: str) -> bool:
        """Whether only a template reaches the person now."""
        return person in self._closed

    def sent(self, message_id: str, person: str, kept: Kept) -> None:
        """Remember an accepted send, in case it fails later."""
        self._recent[message_id] = (person, kept)
        while len(self._recent) > _REMEMBERED:
            self._recent.popitem(last=False)

    def refused(self, person: str, kept: Kept | None = None) -> None:
        """The window is closed: keep the message (if any) for when the person writes."""
        self._closed.add(person)
        if kept is not None:
            self._held.setdefault(person, []).append(kept)

    def failed(self, message_id: str) -> tuple[str, Kept] | None:
        """An accepted send failed for the window: its person and message, now kept."""
        found = self._recent.pop(message_id, None)
        if found is not None:
            self.refused(*found)
        return found

    def to_announce(self, person: str, title: str | None) -> bool:
        """Whether to announce this title now: once for each closing of the window."""
        if title is None or person in self._announced:
            return False
        self._announced.add(person)
        return True

    def reopened(self, person: str) -> list[Kept]:
        """The person wrote: their window is open again; what was kept for them, in order."""
        self._closed.discard(person)
        self._announced.discard(person)
        return self._held.pop(person, [])
