"""Screens as Telegram HTML and inline keyboards."""

from __future__ import annotations

import html
import re

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core.conversation.markup import Markup
from bot.core.conversation.richtext import table_grid
from bot.core.conversation.screens import Screen

__all__ = ["MESSAGE_LIMIT", "keyboard", "to_html", "visible_length"]

# Telegram counts a message's length after entity parsing, in UTF-16 code units.
MESSAGE_LIMIT = 4096
_TAG = re.compile(r"<[^>]+>")


def _escape(text: str) -> str:
    return html.escape(text, quote=False)


_HTML = Markup(
    escape=_escape,
    bold=lambda text: f"<b>{text}</b>",
    italic=lambda text: f"<i>{text}</i>",
    code=lambda text: f"<code>{text}</code>",
    code_block=lambda text: f"<pre>{text}</pre>",
    # Monospace keeps the columns aligned on a phone too.
    table=lambda table: f"<pre>{_escape(table_grid(table))}</pre>",
)


def to_html(screen: Screen) -> str:
    """The screen's text as Telegram HTML: bold headings, paragraphs kept apart."""
    return "\n\n".join(_HTML.block(block) for block in screen.blocks)


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
            [
                InlineKeyboardButton(button.label, url=button.url)
                if button.url
                else InlineKeyboardButton(button.label, callback_data=button.data)
                for button in row
            ]
            for row in screen.buttons
        ]
    )
