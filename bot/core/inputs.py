"""What users type, made safe to store and show: one line, no control characters."""

from __future__ import annotations

from bot.api import printable

__all__ = ["one_line", "printable"]


def one_line(text: str) -> str:
    """The text on one line: control characters removed, any run of whitespace one space."""
    return " ".join(printable(text).split())
