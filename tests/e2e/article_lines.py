"""The lines of an article's Markdown as the chat shows their words, for whole-article checks."""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["shown_lines"]

_MARKDOWN_LINK = re.compile(r"\[([^\]]+)\]\(([^)]+)\)")
_EMPHASIS = re.compile(r"\*+")
_TABLE_RULE = re.compile(r"[|\-: ]+")


def shown_lines(content: str, *, tables: bool = True) -> Iterator[str]:
    """Each non-empty line without its heading, list or emphasis marks; a link as its text, then
    its URL; a table row as its cells (none where a chat shows tables as a note)."""
    for line in content.splitlines():
        words = _MARKDOWN_LINK.sub(r"\1 (\2)", _EMPHASIS.sub("", line.lstrip("#- ").strip()))
        if words.startswith("|"):
            if tables and not _TABLE_RULE.fullmatch(words):
                yield from (cell.strip() for cell in words.strip("|").split("|") if cell.strip())
        elif words:
            yield words
