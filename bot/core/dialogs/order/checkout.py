"""The checkout of each draft kind: the part of an order that is the kind's own.

The wizard asks every draft's client, title(s), tone and size the same way; a draft's
checkout says how its titles are asked for and headed, what its confirm screen shows and what
that screen's button does. ``bot.bootstrap`` registers one checkout for each ``DraftKind``,
so the wizard names none of them (a plan's lives in ``bot.core.plans``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.api import Size
from bot.core.conversation.richtext import Block
from bot.core.conversation.screens import Button, Screen
from bot.core.texts import Texts
from bot.core.turn import Turn
from storage.models import Draft
from storage.states import Awaiting, DraftKind

__all__ = ["Checkout", "Summary", "checkout_of", "register_checkouts"]


@dataclass(frozen=True, slots=True)
class Summary:
    """What the wizard made of a ready draft for its confirm screen."""

    # The title(s), the client, the tone, the size and the cost.
    blocks: list[Block]
    cancel: Button
    # "Değiştir" under the client's default tone and size; none without them.
    change: tuple[tuple[Button, ...], ...]
    # The sizes the service offers: a balance short of the cost offers those it pays.
    sizes: Sequence[Size]


class Checkout(Protocol):
    """A draft kind's own part of the order dialog."""

    @property
    def awaiting(self) -> Awaiting:
        """What a reply with the draft's title(s) answers."""
        ...

    def titles_prompt(self, turn: Turn) -> Screen:
        """The request for the draft's title(s)."""
        ...

    def heading(
        self, texts: Texts, draft: Draft, own: Sequence[str] | None = None
    ) -> tuple[Block, ...]:
        """The draft's title(s) atop each screen; ``own`` adds to each title the tone and size
        its file row named."""
        ...

    async def priced(self, turn: Turn, draft: Draft) -> None:
        """Keep with the priced draft what its confirm screen needs, before it is saved READY."""
        ...

    async def show(
        self, turn: Turn, draft: Draft, summary: Summary, *, message_id: str | None
    ) -> None:
        """The confirm screen of the ready draft, in place of ``message_id`` (None: a new one)."""
        ...

    def cancelled(self, texts: Texts) -> str:
        """What the user is told when the draft is cancelled."""
        ...


_CHECKOUTS: dict[DraftKind, Checkout] = {}


def register_checkouts(checkouts: Mapping[DraftKind, Checkout]) -> None:
    """Take each draft kind's checkout; the wiring does this before the first turn."""
    _CHECKOUTS.clear()
    _CHECKOUTS.update(checkouts)


def checkout_of(draft: Draft) -> Checkout:
    """The checkout of the draft's kind."""
    return _CHECKOUTS[draft.kind]
