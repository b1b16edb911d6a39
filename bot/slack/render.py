"""Screens as Block Kit: a mrkdwn section per block, an actions block per row of buttons."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bot.core.conversation.markup import Markup, hugging
from bot.core.conversation.richtext import Table, table_grid
from bot.core.conversation.screens import Screen

__all__ = [
    "BUTTON_ACTION_PREFIX",
    "MESSAGE_BLOCKS",
    "SECTION_LIMIT",
    "TEXT_BUDGET",
    "escape",
    "fallback_text",
    "fits",
    "to_blocks",
    "unescape",
]

# Slack refuses a section over 3,000 characters and a message over 50 blocks.
SECTION_LIMIT = 3000
MESSAGE_BLOCKS = 50
# Slack caps a message's text at 12,000 characters; a margin keeps escapes and mentions in.
TEXT_BUDGET = 10_000
BUTTON_LABEL_LIMIT = 75
BUTTON_ACTION_PREFIX = "press-"

JsonBlock = dict[str, Any]


def escape(text: str) -> str:
    """Text safe in mrkdwn: ``<!here>`` or ``<@U1>`` from a title must not ping anyone."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def unescape(text: str) -> str:
    """Text as the user typed it: Slack escapes these three in what it sends, too."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def _code_block(text: str) -> str:
    return f"```\n{text}\n```"


def _table(table: Table) -> str:
    """A note saying where the table is: mrkdwn has no tables, and a wide grid wraps into
    nonsense in Slack's proportional layout on a phone."""
    return (
        hugging(escape(table.note), "_") if table.note else _code_block(escape(table_grid(table)))
    )


_MRKDWN = Markup(
    escape=escape,
    bold=lambda text: hugging(text, "*"),
    italic=lambda text: hugging(text, "_"),
    code=lambda text: hugging(text, "`"),
    code_block=_code_block,
    table=_table,
)


def _pieces(text: str) -> Iterator[str]:
    """The text in pieces a section takes, cut at a line or a space where possible."""
    while len(text) > SECTION_LIMIT:
        cut = text.rfind("\n", 0, SECTION_LIMIT)
        if cut <= 0:
            cut = text.rfind(" ", 0, SECTION_LIMIT)
        if cut <= 0:
            cut = SECTION_LIMIT
        yield text[:cut]
        text = text[cut:].lstrip()
    yield text


def _section(text: str) -> JsonBlock:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def _sections(screen: Screen, mention: str | None) -> list[JsonBlock]:
    texts = [piece for block in screen.blocks for piece in _pieces(_MRKDWN.block(block)) if piece]
    if mention is not None:
        texts[:1] = [f"{mention} {texts[0]}" if texts else mention]
    return [_section(text) for text in texts]


def _actions(screen: Screen) -> list[JsonBlock]:
    """One actions block per row; each button's value is its core action, its id unique."""
    rows: list[JsonBlock] = []
    index = 0
    for row in screen.buttons:
        elements = []
        for button in row:
            elements.append(
                {
                    "type": "button",
                    "action_id": f"{BUTTON_ACTION_PREFIX}{index}",
                    "text": {
                        "type": "plain_text",
                        "text": button.label[:BUTTON_LABEL_LIMIT],
                        "emoji": True,
                    },
                    "value": button.data,
                }
            )
            index += 1
        if elements:
            rows.append({"type": "actions", "elements": elements})
    return rows


def to_blocks(
    screen: Screen, *, mention: str | None = None, note: str | None = None
) -> list[JsonBlock]:
    """The screen as Block Kit; `mention` (mrkdwn) leads its text, `note` (mrkdwn) tops it."""
    top = [{"type": "context", "elements": [{"type": "mrkdwn", "text": note}]}] if note else []
    return [*top, *_sections(screen, mention), *_actions(screen)]


def fallback_text(screen: Screen, *, mention: str | None = None) -> str:
    """The plain text Slack shows in notifications, escaped like the blocks."""
    text = escape(screen.text)
    return f"{mention} {text}" if mention else text


def fits(screen: Screen) -> bool:
    """Whether the screen makes one valid message: every block in one section, within limits."""
    texts = [_MRKDWN.block(block) for block in screen.blocks]
    blocks = len(texts) + len(screen.buttons)
    return (
        all(len(text) <= SECTION_LIMIT for text in texts)
        and blocks < MESSAGE_BLOCKS
        and sum(map(len, texts)) <= TEXT_BUDGET
    )
