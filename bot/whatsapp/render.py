"""Screens as WhatsApp messages: its own formatting, reply buttons, and list messages.

WhatsApp writes ``*bold*``, ``_italic_``, ```` ``` ```` monospace blocks; a table goes in
monospace so its columns stay aligned. A message takes 4,096 characters of text, or 1,024
as the body of an interactive one. Up to 3 short buttons (20 characters, distinct) become
reply buttons; more, or longer ones, a list (10 rows of 24 characters, the whole label in
the row's description); a menu longer than a list goes in pages, a list each.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.conversation.markup import Markup, hugging
from bot.core.conversation.richtext import table_grid
from bot.core.conversation.screens import Screen
from bot.whatsapp.texts import WhatsAppTexts

__all__ = [
    "BODY_LIMIT",
    "TEXT_LIMIT",
    "Choice",
    "Outgoing",
    "fits",
    "messages",
    "to_text",
]

TEXT_LIMIT, BODY_LIMIT = 4096, 1024
BUTTONS_MAX, BUTTON_TITLE_MAX = 3, 20
ROWS_MAX, ROW_TITLE_MAX, ROW_DESCRIPTION_MAX = 10, 24, 72


def _monospace(text: str) -> str:
    return f"```{text}```"


_WHATSAPP = Markup(
    escape=lambda text: text,
    bold=lambda text: hugging(text, "*"),
    italic=lambda text: hugging(text, "_"),
    code=lambda text: hugging(text, "`"),
    code_block=_monospace,
    table=lambda table: _monospace(table_grid(table)),
)


@dataclass(frozen=True, slots=True)
class Choice:
    """A reply button or a list's row: what it sends back (``id``), and what it shows."""

    id: str
    title: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class Outgoing:
    """One WhatsApp message: text alone, or a body with reply buttons or a list's rows."""

    text: str
    choices: tuple[Choice, ...] = ()
    as_list: bool = False


def to_text(screen: Screen) -> str:
    """The screen's text in WhatsApp's formatting, blocks a blank line apart."""
    return "\n\n".join(_WHATSAPP.block(block) for block in screen.blocks)


def fits(screen: Screen) -> bool:
    """Whether the screen's text fits one message (the body of one, with buttons)."""
    limit = BODY_LIMIT if screen.buttons else TEXT_LIMIT
    return len(to_text(screen)) <= limit


def _shortened(label: str, limit: int) -> str:
    return label if len(label) <= limit else label[: limit - 1].rstrip() + "…"


def _replies_fit(labels: list[str]) -> bool:
    """Whether the labels make reply buttons: at most 3, distinct, each short enough."""
    short = all(len(label) <= BUTTON_TITLE_MAX for label in labels)
    return short and len(labels) <= BUTTONS_MAX and len(set(labels)) == len(labels)


def messages(screen: Screen, texts: WhatsAppTexts) -> list[Outgoing]:
    """The messages that show the screen: its text, with its buttons as WhatsApp takes them."""
    text = to_text(screen)
    # A button that opens an address is none of WhatsApp's replies: the text holds the address,
    # which WhatsApp shows as a link.
    buttons = [button for row in screen.buttons for button in row if button.url is None]
    if not buttons:
        return [Outgoing(text)]
    if _replies_fit([button.label for button in buttons]):
        return [Outgoing(text or texts.choose, tuple(Choice(b.data, b.label) for b in buttons))]
    rows = [
        Choice(
            button.data,
            _shortened(button.label, ROW_TITLE_MAX),
            ""
            if len(button.label) <= ROW_TITLE_MAX
            else _shortened(button.label, ROW_DESCRIPTION_MAX),
        )
        for button in buttons
    ]
    pages = [tuple(rows[start : start + ROWS_MAX]) for start in range(0, len(rows), ROWS_MAX)]
    bodies = [text or texts.choose] + [
        texts.more.format(page=page, pages=len(pages)) for page in range(2, len(pages) + 1)
    ]
    return [Outgoing(body, page, as_list=True) for body, page in zip(bodies, pages, strict=True)]
