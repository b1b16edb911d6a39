"""Buttons in a terminal: chosen by number or by name, matched the Turkish way."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from bot.core.conversation.screens import Button, Screen
from bot.core.texts import turkish

__all__ = ["Choices", "numbered"]

# A size button reads "Kısa · 300-500 kelime · 15,00 TL"; its name is the part before the dot.
_LABEL_PARTS = "·"


def numbered(screen: Screen) -> tuple[tuple[tuple[int, Button], ...], ...]:
    """The screen's buttons by row, each with the number typed to choose it.

    A button of a listed item takes the item's number, so that "6." in the list is chosen
    with 6; the others count on from the highest such number on the screen, so none of them
    takes a number a later listed item has.
    """
    keys = [button.key for row in screen.buttons for button in row if button.key]
    following = itertools.count(max(keys, default=0) + 1)
    return tuple(
        tuple((button.key or next(following), button) for button in row) for row in screen.buttons
    )


def _bare(name: str) -> str:
    """A name folded the Turkish way, without signs such as the arrows of "Sonraki ▶"."""
    kept = "".join(char if char.isalnum() else " " for char in turkish.fold(name))
    return " ".join(kept.split())


@dataclass(frozen=True, slots=True)
class Choices:
    """The buttons of the last screen that offered some, and the message that holds them."""

    buttons: tuple[tuple[int, Button], ...] = ()
    message_id: str | None = None

    @classmethod
    def of(cls, screen: Screen, message_id: str | None) -> Choices:
        """The choices a screen offers."""
        return cls(tuple(choice for row in numbered(screen) for choice in row), message_id)

    @property
    def numbers(self) -> tuple[int, int] | None:
        """The lowest and the highest number on offer, or None without choices."""
        keys = [number for number, _ in self.buttons]
        return (min(keys), max(keys)) if keys else None

    def pick(self, line: str) -> Button | None:
        """The button a typed line chooses: ``2``, ``profesyonel`` or ``ÇOK UZUN``; else None."""
        typed = line.strip()
        # isdecimal, not isdigit: "²" is a digit that int() refuses.
        if typed.isdecimal():
            return next((b for number, b in self.buttons if number == int(typed)), None)
        wanted = _bare(typed)
        for _, button in self.buttons:
            names = {button.label, button.label.split(_LABEL_PARTS)[0], *button.aliases}
            if wanted and any(_bare(name) == wanted for name in names):
                return button
        return None
