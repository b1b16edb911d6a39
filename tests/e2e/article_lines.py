"""The lines of an article's Markdown as the chat shows their words, for whole-article checks."""

from __future__ import annotations

import re
from collections.abc import Iterator

__all__ = ["shown_lines"]

_MARKDOWN_LINK = re.compile(r"\[([^\]]+)\]\(([^)]+)\)")


def shown_lines(content: str) -> Iterator[str]:
    """Each non-empty line without its heading or list marks; a link as its text, then its URL."""
    for line in content.splitlines():
        words = _MARKDOWN_LINK.sub(r"\1 (\2)", line.lstrip("#- ").strip())
        if words:
            yield words
