"""A file of titles named by its path in the terminal chat: ``/toplu basliklar.csv``,
``/takvim her gün 09:00: basliklar.csv``, or the path alone where titles are asked."""

from __future__ import annotations

import re
from pathlib import Path

from bot.core.conversation.events import Upload
from bot.core.ordering.title_files import MAX_FILE_BYTES, TITLE_FILE_SUFFIXES

__all__ = ["is_path", "names_a_file", "upload_of"]

# A command is a slash and a word; "/home/ayse/basliklar.csv" is a path.
_COMMAND = re.compile(r"/\w+(?:\s|$)")


def names_a_file(text: str) -> bool:
    """Whether a typed answer is a path to a list of titles rather than a title."""
    line = text.strip()
    return "\n" not in line and line.lower().endswith(TITLE_FILE_SUFFIXES)


def is_path(line: str) -> bool:
    """Whether a line is written as a path to a file of titles (``/home/ayse/basliklar.csv``,
    ``~/basliklar.txt``, ``./liste.csv``), not as a command or a title."""
    text = line.strip()
    return names_a_file(text) and "/" in text and _COMMAND.match(text) is None


def upload_of(text: str) -> Upload | None:
    """The named file as an upload (not read past the limit); None when there is no such file."""
    path = Path(text.strip()).expanduser()
    if not path.is_file():
        return None
    size = path.stat().st_size
    content = path.read_bytes() if size <= MAX_FILE_BYTES else None
    return Upload(path.name, content, size)
