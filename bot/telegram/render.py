"""Screens as Telegram HTML and inline keyboards."""

from __future__ import annotations

import html
import re

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core.richtext import Block, BulletList, CodeBlock, Heading, Paragraph, Span
from bot.core.screens import Screen

__all__ = ["MESSAGE_LIMIT", "keyboard", "to_html", "visible_length"]

# Telegram counts a message's length after entity parsing, in UTF-16 code units.
MESSAGE_LIMIT = 4096
_TAG = re.compile(r"<[^>]+>")


def _span(span: Span) -> str:
    text = html.escape(span.text, quote=False)
    if span.code:
        return f"<code>{text}</code>"
    if span.italic:
        text = f"<i>{text}</i>"
    if span.bold:
        text = f"<b>{text}</b>"
    return text


def _line(spans: tuple[Span, ...]) -> str:
    return "".join(_span(span) for span in spans)


def _block(block: Block) -> str:
    match block:
        case Heading(text):
            return f"<b>{html.escape(text, quote=False)}</b>"
        case Paragraph(spans):
            return _line(spans)
        case BulletList(items):
            return "\n".join(f"• {_line(item)}" for item in items)
        case CodeBlock(text):
            return f"<pre>{html.escape(text, quote=False)}</pre>"


def to_html(screen: Screen) -> str:
    """The screen's text as Telegram HTML: bold headings, paragraphs kept apart."""
    return "\n\n".join(_block(block) for block in screen.blocks)


def visible_length(markup: str) -> int:
    """The length Telegram checks: the text without tags, in UTF-16 code units."""
    text = html.unescape(_TAG.sub("", markup))
    return len(text.encode("utf-16-le")) // 2


def keyboard(screen: Screen) -> InlineKeyboardMarkup | None:
    """The screen's buttons as an inline keyboard, or None when it has none."""
    if not screen.buttons:
        return None
    return InlineKeyboardMarkup(
        [
            [InlineKeyboardButton(button.label, callback_data=button.data) for button in row]
            for row in screen.buttons
        ]
    )
