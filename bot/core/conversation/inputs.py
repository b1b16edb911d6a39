"""What users type, made safe to store and show: one line, no control characters."""

from __future__ import annotations

from bot.api import printable

__all__ = ["one_line", "one_sentence", "printable", "split_credentials"]


def one_line(text: str) -> str:
    """The text on one line: control characters removed, any run of whitespace one space."""
    return " ".join(printable(text).split())


def one_sentence(words: str, limit: int = 200) -> str:
    """The service's words as one sentence of ours: one full stop at the end, kept short."""
    sentence = one_line(words)[:limit].rstrip(" .")
    return f"{sentence}." if sentence else ""


def split_credentials(text: str) -> tuple[str, str]:
    """The e-mail and the password of one message, separated by any whitespace."""
    parts = text.split(maxsplit=1)
    email = parts[0] if parts else ""
    password = parts[1].strip() if len(parts) > 1 else ""
    return email, password
