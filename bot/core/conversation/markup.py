"""Rich text written in a platform's markup: one walk over the blocks, the marks per platform."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.core.conversation.richtext import (
    Block,
    BulletList,
    CodeBlock,
    Heading,
    NumberedList,
    Paragraph,
    Span,
    Table,
    numbered_lines,
)

__all__ = ["Markup", "hugging"]

Mark = Callable[[str], str]


def hugging(text: str, mark: str) -> str:
    """Style markers hugging the words: Slack and WhatsApp ignore ``* bold *`` with inner
    spaces."""
    core = text.strip()
    if not core:
        return text
    start = text.index(core[0])
    return f"{text[:start]}{mark}{core}{mark}{text[start + len(core) :]}"


@dataclass(frozen=True, slots=True)
class Markup:
    """How a platform escapes text and marks styles (each mark takes escaped text), and how
    it shows a table (from the block itself, escaping what it shows)."""

    escape: Mark
    bold: Mark
    italic: Mark
    code: Mark
    code_block: Mark
    table: Callable[[Table], str]

    def span(self, span: Span) -> str:
        """One styled run; code is shown as it is, without other styles."""
        text = self.escape(span.text)
        if span.code:
            return self.code(text)
        if span.italic:
            text = self.italic(text)
        if span.bold:
            text = self.bold(text)
        return text

    def line(self, spans: tuple[Span, ...]) -> str:
        """A line of styled runs."""
        return "".join(self.span(span) for span in spans)

    def block(self, block: Block) -> str:
        """One block: headings bold, lists with bullets or numbers."""
        match block:
            case Heading(text):
                return self.bold(self.escape(text))
            case Paragraph(spans):
                return self.line(spans)
            case BulletList(items):
                return "\n".join(f"• {self.line(item)}" for item in items)
            case NumberedList(items, start):
                return numbered_lines((self.line(item) for item in items), start)
            case Table():
                return self.table(block)
            case CodeBlock(text):
                return self.code_block(self.escape(text))
