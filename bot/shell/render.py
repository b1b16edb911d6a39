"""Screens as terminal text: bold headings, bullets, and buttons as numbered choices."""

from __future__ import annotations

from rich.text import Text

from bot.core.conversation.richtext import (
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
from bot.core.conversation.screens import Screen
from bot.shell.choices import numbered

__all__ = ["render_screen"]

# A line of a card or summary is short; a longer paragraph is text to read, set apart.
_LINE_CHARS = 100


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


def _compact(block: Block) -> bool:
    """Whether the block is a line of a card or summary (or a list), set without a blank line
    between it and the next such block; an article's paragraphs keep theirs."""
    match block:
        case Paragraph(spans):
            text = "".join(span.text for span in spans)
            return "\n" not in text and len(text) <= _LINE_CHARS
        case BulletList() | NumberedList():
            return True
    return False


def _choice(number: int, label: str) -> Text:
    return Text.assemble((f"[{number}] ", "bold cyan"), label)


def _button_lines(screen: Screen) -> list[Text]:
    """A line per row of buttons; rows of one short button each share one line."""
    rows = numbered(screen)
    if not rows:
        return []
    labels = [f"[{number}] {button.label}" for row in rows for number, button in row]
    if all(len(row) == 1 for row in rows) and len("   ".join(labels)) + 2 <= _LINE_CHARS:
        rows = (tuple(choice for row in rows for choice in row),)
    return [
        Text("  ") + Text("   ").join(_choice(number, button.label) for number, button in row)
        for row in rows
    ]


def render_screen(screen: Screen) -> Text:
    """The screen as rich text: a card's or summary's lines one under the other, a blank line
    around longer paragraphs; its buttons are numbered as ``Choices`` counts them."""
    shown = Text()
    previous: Block | None = None
    for block in screen.blocks:
        if previous is not None:
            shown.append("\n" if _compact(previous) and _compact(block) else "\n\n")
        shown.append_text(_block(block))
        previous = block
    buttons = _button_lines(screen)
    if buttons:
        if previous is not None:
            shown.append("\n")
        shown.append_text(Text("\n").join(buttons))
    return shown
