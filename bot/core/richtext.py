"""A platform-neutral rich text: the blocks every adapter knows how to render."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "Block",
    "BulletList",
    "CodeBlock",
    "Heading",
    "Paragraph",
    "Span",
    "bold",
    "paragraph",
    "plain_text",
]


@dataclass(frozen=True, slots=True)
class Span:
    """A run of text with one style."""

    text: str
    bold: bool = False
    italic: bool = False
    code: bool = False


@dataclass(frozen=True, slots=True)
class Paragraph:
    """A paragraph of styled runs."""

    spans: tuple[Span, ...]


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading; level 1 is the article title."""

    text: str
    level: int = 2


@dataclass(frozen=True, slots=True)
class BulletList:
    """A list; each item is a line of styled runs."""

    items: tuple[tuple[Span, ...], ...]


@dataclass(frozen=True, slots=True)
class CodeBlock:
    """Preformatted text shown as it is."""

    text: str


Block = Paragraph | Heading | BulletList | CodeBlock


def bold(text: str) -> Span:
    """A bold run."""
    return Span(text, bold=True)


def paragraph(*parts: str | Span) -> Paragraph:
    """A paragraph from plain strings and styled runs."""
    return Paragraph(tuple(part if isinstance(part, Span) else Span(part) for part in parts))


def _line(spans: Iterable[Span]) -> str:
    return "".join(span.text for span in spans)


def plain_text(blocks: Iterable[Block]) -> str:
    """The text without styles, blocks separated by blank lines."""
    chunks: list[str] = []
    for block in blocks:
        match block:
            case Paragraph(spans):
                chunks.append(_line(spans))
            case Heading(text):
                chunks.append(text)
            case BulletList(items):
                chunks.append("\n".join(f"• {_line(item)}" for item in items))
            case CodeBlock(text):
                chunks.append(text)
    return "\n\n".join(chunks)
