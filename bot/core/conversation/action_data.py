"""A button's data: how an action is written into it, in at most 64 bytes, and read back.

Telegram caps ``callback_data`` at 64 bytes, and anything a client sends back may have been
tampered with, so an action reads back only from the exact shape its ``encode`` writes: its
kind's code, then each field as its kind's pattern allows, joined by ``|``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import ClassVar, Self

__all__ = [
    "DRAFT_ID",
    "MAX_ACTION_BYTES",
    "REQUEST_ID",
    "SMALL_INT",
    "ButtonAction",
    "OwnedAction",
    "split_data",
]

MAX_ACTION_BYTES = 64
_SEPARATOR = "|"
DRAFT_ID = re.compile(r"[A-Za-z0-9_-]{6,12}")
REQUEST_ID = re.compile(r"[A-Za-z0-9_.:-]{1,48}")
SMALL_INT = re.compile(r"\d{1,9}")


@dataclass(frozen=True, slots=True)
class ButtonAction:
    """Base of the actions; ``code`` names the kind inside the data, ``patterns`` its fields'."""

    code: ClassVar[str]
    patterns: ClassVar[tuple[re.Pattern[str], ...]]

    def encode(self) -> str:
        """The action as button data."""
        values = [str(getattr(self, item.name)) for item in fields(self)]
        data = _SEPARATOR.join([self.code, *values])
        if len(data.encode()) > MAX_ACTION_BYTES:
            raise ValueError(f"action data over {MAX_ACTION_BYTES} bytes: {data!r}")
        return data

    @classmethod
    def decode(cls, values: Sequence[str]) -> Self | None:
        """The action of this kind from the values after its code; None when they are not of
        its shape."""
        if len(values) != len(cls.patterns):
            return None
        if not all(p.fullmatch(v) for p, v in zip(cls.patterns, values, strict=True)):
            return None
        typed = [
            int(value) if item.type in (int, "int") else value
            for item, value in zip(fields(cls), values, strict=True)
        ]
        return cls(*typed)


@dataclass(frozen=True, slots=True)
class OwnedAction(ButtonAction):
    """An action only its owner, the chat user who was shown it, may take."""

    owner: int


def split_data(data: str) -> tuple[str, list[str]] | None:
    """The code and the values in button data; None when it cannot be data this bot wrote."""
    # Everything this bot writes is ASCII; anything else (a lone surrogate even) is not ours.
    if not data.isascii() or len(data) > MAX_ACTION_BYTES:
        return None
    code, *values = data.split(_SEPARATOR)
    return code, values
