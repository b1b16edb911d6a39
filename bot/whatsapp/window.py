"""The 24-hour window: whom only a template reaches now, and what waits for them.

A business may write to a person only within 24 hours of their last message; after that
only an approved template goes through (error 131047). The Cloud API says so in a send's
answer, or accepts the send and reports it ``failed`` later in a status webhook. Either
way the person is announced the article once by the template (whichever replica hears of
it: ``bot.core.delivery.announcing``). A send refused in its
answer stays with its sender (delivery tries it again); an article's part failed later is
taken back by delivery, from the database (``bot.core.delivery.failed_late``). As soon as
the person writes again, delivery is told. A failure told after the person wrote again (a
status overtaken by their message) closes nothing: that message just goes again.
"""

from __future__ import annotations

import itertools
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


@dataclass(frozen=True, slots=True)
class _Sent:
    person: str
    kept: Kept
    order: int


def _bounded(remembered: OrderedDict[str, _Sent] | OrderedDict[str, None]) -> None:
    while len(remembered) > _REMEMBERED:
        remembered.popitem(last=False)


@dataclass
class Windows:
    """Whose window is known closed, what waits for them, and the sends lately made."""

    _closed: set[str] = field(default_factory=set)
    _recent: OrderedDict[str, _Sent] = field(default_factory=OrderedDict)
    # Failures told before their send's answer was read (a webhook can overtake it).
    _early: OrderedDict[str, None] = field(default_factory=OrderedDict)
    # When (in sends) each person last wrote: a send before it failed in an older window.
    _wrote_at: dict[str, int] = field(default_factory=dict)
    _count: itertools.count[int] = field(default_factory=itertools.count)

    def is_closed(self, person: str) -> bool:
        """Whether only a template reaches the person now."""
        return person in self._closed

    def close(self, person: str) -> None:
        """A send was refused for the window: the sender keeps that message itself."""
        self._closed.add(person)

    def stamp(self) -> int:
        """The order of a send about to go, taken before it goes: its answer may be read
        after the person wrote again."""
        return next(self._count)

    def sent(
        self, message_id: str, person: str, kept: Kept, order: int
    ) -> tuple[str, Kept, bool] | None:
        """Remember an accepted send (stamped ``order``), in case it fails later; where it
        failed already, what ``failed`` says of it."""
        self._recent[message_id] = _Sent(person, kept, order)
        _bounded(self._recent)
        if message_id not in self._early:
            return None
        del self._early[message_id]
        return self.failed(message_id)

    def failed(self, message_id: str) -> tuple[str, Kept, bool] | None:
        """An accepted send failed for the window later: its person, its message, and
        whether the window is closed for it (else the person wrote since: it can go again)."""
        found = self._recent.pop(message_id, None)
        if found is None:
            self._early[message_id] = None
            _bounded(self._early)
            return None
        if found.order < self._wrote_at.get(found.person, -1):
            return found.person, found.kept, False
        self._closed.add(found.person)
        return found.person, found.kept, True

    def wrote_lately(self, person: str) -> bool:
        """Whether the person wrote since this process started: a send it does not know
        went before that, in a window they opened again since."""
        return person in self._wrote_at

    def reopened(self, person: str) -> bool:
        """The person wrote: their window is open again. Whether it may have been closed:
        known so, or not known (their first message since this process started)."""
        was_closed = person in self._closed or person not in self._wrote_at
        self._wrote_at[person] = next(self._count)
        self._closed.discard(person)
        return was_closed
