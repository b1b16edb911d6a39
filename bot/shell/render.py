"""Screens as terminal text: bold headings, bullets, and buttons as numbered choices."""

from __future__ import annotations

from rich.text import Text

from bot.core.richtext import (
    Block,
    BulletList,
    CodeBlock,
    Heading,
    NumberedList,
    Paragraph,
    Span,
    Table,
    table_grid,
)
from bot.core.screens import Screen
from bot.shell.choices import numbered

__all__ = ["render_screen"]


def _styled(spans: tuple[Span, ...]) -> Text:
    line = Text()
    for span in spans:
        style = " ".join(name for name, on in (("bold", span.bold), ("italic", span.italic)) if on)
        line.append(span.text, style=("cyan" if span.code else style) or None)
    return line


def _item(marker: str, item: tuple[Span, ...]) -> Text:
    """A list item under its marker; its further lines (an inner list) under the marker too."""
    return Text(f"  {marker} ") + Text("\n  ").join(_styled(item).split("\n"))


def _block(block: Block) -> Text:
    match block:
        case Heading(text, level):
            # No upper-casing: str.upper() turns Turkish "i" into "I", not "İ".
            return Text.assemble((text, "bold underline" if level == 1 else "bold"))
        case Paragraph(spans):
            return _styled(spans)
        case BulletList(items):
            return Text("\n").join(_item("•", item) for item in items)
        case NumberedList(items, start):
            return Text("\n").join(
                _item(f"{number}.", item) for number, item in enumerate(items, start)
            )
        case Table():
            return Text(table_grid(block))
        case CodeBlock(text):
            return Text.assemble((text, "cyan"))


def render_screen(screen: Screen) -> Text:
    """The screen as rich text; its buttons are numbered as ``Choices`` counts them."""
    parts = [_block(block) for block in screen.blocks]
    rows = []
    for row in numbered(screen):
        choices = Text("  ")
        for number, button in row:
            choices.append(f"[{number}] ", style="bold cyan")
            choices.append(button.label)
            choices.append("   ")
        choices.rstrip()
        rows.append(choices)
    if rows:
        parts.append(Text("\n").join(rows))
    return Text("\n\n").join(parts)
