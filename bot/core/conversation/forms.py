"""What an adapter's own forms (Slack's modals) need from the core: choices and field rules.

The dialogs check the same fields with these same rules, so a form and a typed answer are
refused for the same reasons, in the same words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.core.texts import Texts

__all__ = [
    "TITLE_MAX",
    "TITLE_MIN",
    "OrderChoices",
    "looks_like_email",
    "title_from_message",
    "title_problem",
]

TITLE_MIN, TITLE_MAX = 10, 255
# The service validates the format itself; this only catches what is surely not an address.
_PART = r"[^@\s\x00-\x1f\x7f-\x9f\ud800-\udfff]+"
_EMAIL = re.compile(rf"{_PART}@{_PART}\.{_PART}")


def looks_like_email(text: str) -> bool:
    """Whether the text could be an e-mail address (the service checks the rest)."""
    return len(text) <= 254 and _EMAIL.fullmatch(text) is not None


def title_problem(texts: Texts, title: str) -> str | None:
    """Why the upstream would refuse this title, or None when it is fine."""
    if len(title) < TITLE_MIN:
        return texts.title_too_short.format(length=len(title))
    if len(title) > TITLE_MAX:
        return texts.title_too_long.format(length=len(title))
    return None


def title_from_message(text: str) -> str:
    """The title a message offers (a Slack message shortcut): its first line with words,
    spaces collapsed, cut to ``TITLE_MAX`` characters; ``title_problem`` judges the rest."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return " ".join(first.split())[:TITLE_MAX].rstrip()


@dataclass(frozen=True, slots=True)
class OrderChoices:
    """What an order form offers: tone ids with names, size ids with word count and cost."""

    tones: tuple[tuple[int, str], ...]
    sizes: tuple[tuple[int, str], ...]
    # The user's clients, "Müşterisiz" (0) first; empty for a user without clients.
    clients: tuple[tuple[int, str], ...] = ()
