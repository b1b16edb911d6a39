"""Buttons in a terminal: chosen by number or by name, matched the Turkish way."""

from __future__ import annotations

from dataclasses import dataclass

from bot.core import turkish
from bot.core.screens import Button, Screen

__all__ = ["Choices"]

# A size button reads "Kısa · 300-500 kelime · 15,00 TL"; its name is the part before the dot.
_LABEL_PARTS = "·"


@dataclass(frozen=True, slots=True)
class Choices:
    """The buttons of the last screen that offered some, and the message that holds them."""

    buttons: tuple[Button, ...] = ()
    message_id: str | None = None

    @classmethod
    def of(cls, screen: Screen, message_id: str | None) -> Choices:
        """The choices a screen offers."""
        return cls(tuple(button for row in screen.buttons for button in row), message_id)

    def pick(self, line: str) -> Button | None:
        """The button a typed line chooses: ``2``, ``profesyonel`` or ``ÇOK UZUN``; else None."""
        typed = line.strip()
        # isdecimal, not isdigit: "²" is a digit that int() refuses.
        if typed.isdecimal():
            index = int(typed) - 1
            return self.buttons[index] if 0 <= index < len(self.buttons) else None
        wanted = turkish.fold(typed)
        for button in self.buttons:
            names = {button.label, button.label.split(_LABEL_PARTS)[0]}
            if wanted and any(turkish.fold(name) == wanted for name in names):
                return button
        return None
