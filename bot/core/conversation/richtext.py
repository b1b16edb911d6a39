"""A platform-neutral rich text: the blocks every adapter knows how to render."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "Block",
    "BulletList",
    "CodeBlock",
    "Heading",
    "NumberedList",
    "Paragraph",
    "Span",
    "Table",
    "bold",
    "numbered_lines",
    "paragraph",
    "plain_text",
    "table_grid",
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
class NumberedList:
    """A list numbered from ``start``; each item is a line of styled runs."""

    items: tuple[tuple[Span, ...], ...]
    start: int = 1


@dataclass(frozen=True, slots=True)
class Table:
    """A table of plain cells under a header row.

    ``note`` is what a chat that cannot show a table says instead (where the table is).
    """

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class CodeBlock:
    """Preformatted text shown as it is."""

    text: str


Block = Paragraph | Heading | BulletList | NumberedList | Table | CodeBlock


def bold(text: str) -> Span:
    """A bold run."""
    return Span(text, bold=True)


def paragraph(*parts: str | Span) -> Paragraph:
    """A paragraph from plain strings and styled runs."""
    return Paragraph(tuple(part if isinstance(part, Span) else Span(part) for part in parts))


def _line(spans: Iterable[Span]) -> str:
    return "".join(span.text for span in spans)


def numbered_lines(items: Iterable[str], start: int) -> str:
    """Lines numbered the way a numbered list reads: ``1. ...``."""
    return "\n".join(f"{number}. {item}" for number, item in enumerate(items, start))


def table_grid(table: Table) -> str:
    """The table as monospace text: columns padded to their widest cell, the header ruled off."""
    width = len(table.header)
    rows = [table.header, *(tuple(row[:width]) + ("",) * (width - len(row)) for row in table.rows)]
    widths = [max(len(row[column]) for row in rows) for column in range(width)]

    def line(cells: tuple[str, ...]) -> str:
        return " | ".join(cell.ljust(w) for cell, w in zip(cells, widths, strict=True)).rstrip()

    rule = "-+-".join("-" * w for w in widths)
    return "\n".join([line(table.header), rule, *(line(row) for row in rows[1:])])


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
            case NumberedList(items, start):
                chunks.append(numbered_lines((_line(item) for item in items), start))
            case Table():
                chunks.append(table_grid(block))
            case CodeBlock(text):
                chunks.append(text)
    return "\n\n".join(chunks)
