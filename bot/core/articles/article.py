"""A finished article as chat messages: neutral blocks, split to fit, plus a Markdown file."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from markdown_it import MarkdownIt
from markdown_it.token import Token
from slugify import slugify

from bot.core.conversation.richtext import (
    Block,
    BulletList,
    CodeBlock,
    Heading,
    NumberedList,
    Paragraph,
    Span,
    Table,
)
from bot.core.conversation.screens import Document, Screen

__all__ = ["article_blocks", "article_document", "split_into_screens", "title_slug"]

_TAG = re.compile(r"<[^>]+>")
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")
_SPACE = re.compile(r"\s+")
# GFM tables besides CommonMark: the service's articles compare things in tables.
_parser = MarkdownIt("commonmark").enable("table")


def _spans(inline: Token) -> tuple[Span, ...]:
    spans: list[Span] = []
    bold = italic = False
    href = ""
    for child in inline.children or ():
        match child.type:
            case "link_open":
                href = str(child.attrs.get("href", ""))
            case "link_close" if href:
                # A chat keeps the link's address in sight, whatever the platform shows.
                spans.append(Span(f" ({href})", bold, italic))
                href = ""
            case "strong_open" | "strong_close":
                bold = child.type == "strong_open"
            case "em_open" | "em_close":
                italic = child.type == "em_open"
            case "code_inline":
                spans.append(Span(child.content, code=True))
            case "softbreak" | "hardbreak":
                spans.append(Span(" " if child.type == "softbreak" else "\n", bold, italic))
            case "text":
                spans.append(Span(child.content, bold, italic))
            case "html_inline":
                pass
    return tuple(span for span in spans if span.text)


def _text(inline: Token) -> str:
    return "".join(span.text for span in _spans(inline))


@dataclass
class _Lists:
    """The outermost list being read, with the lists inside its items."""

    items: list[tuple[Span, ...]] = field(default_factory=list)
    # The outermost list's start number; None while it is a bullet list.
    start: int | None = None
    depth: int = 0
    # The next number of each list inside the outermost one (None: bullets), and the marker
    # of the inner item whose first line comes next.
    inner: list[int | None] = field(default_factory=list)
    marker: str = ""

    def open(self, token: Token) -> None:
        number = int(token.attrGet("start") or 1) if token.type == "ordered_list_open" else None
        if self.depth == 0:
            self.start = number
        else:
            self.inner.append(number)
        self.depth += 1

    def close(self) -> Block | None:
        """The outermost list once it ends with items; None for an inner one."""
        self.depth -= 1
        if self.depth > 0:
            self.inner.pop()
            return None
        listed, start = tuple(self.items), self.start
        self.items, self.start = [], None
        if not listed:
            return None
        return BulletList(listed) if start is None else NumberedList(listed, start)

    def open_item(self) -> None:
        if self.depth == 1:
            self.items.append(())
            return
        number = self.inner[-1]
        self.marker = "◦ " if number is None else f"{number}. "
        if number is not None:
            self.inner[-1] = number + 1

    def add(self, spans: tuple[Span, ...]) -> None:
        """An item's text; an inner list or a further paragraph stays inside its item, on
        lines of its own, so the outer list's numbers run on as the article has them."""
        if self.items[-1]:
            # A further paragraph lines up with its item's text.
            indent = "   " * (self.depth - 1 if self.marker else self.depth)
            spans = (Span(f"\n{indent}{self.marker}"), *spans)
        elif self.marker:
            spans = (Span(self.marker), *spans)
        self.marker = ""
        self.items[-1] = (*self.items[-1], *spans)


@dataclass
class _Rows:
    """The rows of the table being read."""

    rows: list[tuple[str, ...]] = field(default_factory=list)
    row: list[str] = field(default_factory=list)

    def close(self, table_note: str) -> Table:
        header, *body = self.rows
        self.rows = []
        note = table_note.format(columns=", ".join(cell for cell in header if cell))
        return Table(header, tuple(body), note)


def _blocks(tokens: Sequence[Token], table_note: str) -> Iterator[Block]:
    lists, table = _Lists(), _Rows()
    for index, token in enumerate(tokens):
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        match token.type:
            case "heading_open" if following is not None:
                yield Heading(_text(following), int(token.tag[1:]))
            case "bullet_list_open" | "ordered_list_open":
                lists.open(token)
            case "bullet_list_close" | "ordered_list_close":
                if (listed := lists.close()) is not None:
                    yield listed
            case "list_item_open":
                lists.open_item()
            case "inline" if lists.depth and lists.items:
                lists.add(_spans(token))
            case "tr_open":
                table.row = []
            case "th_open" | "td_open" if following is not None:
                table.row.append(_text(following) if following.type == "inline" else "")
            case "tr_close":
                table.rows.append(tuple(table.row))
            case "table_close" if table.rows:
                yield table.close(table_note)
            case "paragraph_open" if not lists.depth and following is not None:
                spans = _spans(following)
                if spans:
                    yield Paragraph(spans)
            case "fence" | "code_block":
                yield CodeBlock(token.content.rstrip("\n"))
            case "html_block":
                text = _TAG.sub("", token.content).strip()
                if text:
                    yield Paragraph((Span(text),))


def article_blocks(
    content: str, title: str | None = None, *, table_note: str = ""
) -> tuple[Block, ...]:
    """The article's Markdown (or plain text) as blocks, headed by its title if it lacks one.

    ``table_note`` (with ``{columns}``) is what a chat without tables shows in a table's place.
    """
    blocks = tuple(_blocks(_parser.parse(content), table_note))
    if title and not (blocks and isinstance(blocks[0], Heading) and blocks[0].level == 1):
        return (Heading(title, level=1), *blocks)
    return blocks


def _cut_at(text: str) -> tuple[int, int] | None:
    """Where to cut a text in two shorter parts: the end of the first and the start of the
    second, at the sentence (else the space) nearest its middle, else hard; None if tiny."""
    middle = len(text) / 2
    for separator in (_SENTENCE_END, _SPACE):
        cuts = [
            (found.start(), found.end())
            for found in separator.finditer(text)
            if found.start() > 0 and found.end() < len(text)
        ]
        if cuts:
            return min(cuts, key=lambda cut: abs(cut[0] - middle))
    return (len(text) // 2,) * 2 if len(text) > 1 else None


def _cut(spans: tuple[Span, ...]) -> list[tuple[Span, ...]]:
    """Two shorter runs of styled text, each span keeping its style on both sides; [] if tiny."""
    cut = _cut_at("".join(span.text for span in spans))
    if cut is None:
        return []
    end, start = cut
    first: list[Span] = []
    second: list[Span] = []
    offset = 0
    for span in spans:
        low = offset
        offset += len(span.text)
        if low < end:
            first.append(replace(span, text=span.text[: end - low]))
        if offset > start:
            second.append(replace(span, text=span.text[max(start - low, 0) :]))
    parts = (tuple(s for s in first if s.text), tuple(s for s in second if s.text))
    return [part for part in parts if part]


def _one_long_item(
    item: tuple[Span, ...], listed: Callable[[tuple[Span, ...]], Block]
) -> list[Block]:
    """A list's only item cut: its first part keeps the bullet or number, the rest follows
    as paragraphs."""
    first, *rest = _cut(item) or [()]
    if not first:
        return []
    return [listed(first), *(Paragraph(part) for part in rest)]


def _halves(block: Block) -> list[Block]:
    """Cut a block too long for one message in shorter ones; [] when it cannot be cut."""
    match block:
        case Paragraph(spans):
            return [Paragraph(part) for part in _cut(spans)]
        case Heading(text, level):
            return [Heading("".join(s.text for s in part), level) for part in _cut((Span(text),))]
        case BulletList(items) if len(items) > 1:
            half = len(items) // 2
            return [BulletList(items[:half]), BulletList(items[half:])]
        case BulletList(items):
            return _one_long_item(items[0], lambda first: BulletList((first,)))
        case NumberedList(items, start) if len(items) > 1:
            half = len(items) // 2
            return [NumberedList(items[:half], start), NumberedList(items[half:], start + half)]
        case NumberedList(items, start):
            return _one_long_item(items[0], lambda first: NumberedList((first,), start))
        case Table(header, rows, note) if len(rows) > 1:
            # Each part is a table of its own: its header goes with it.
            half = len(rows) // 2
            return [Table(header, rows[:half], note), Table(header, rows[half:], note)]
        case CodeBlock(text):
            lines = text.split("\n")
            if len(lines) > 1:
                half = len(lines) // 2
                return [CodeBlock("\n".join(lines[:half])), CodeBlock("\n".join(lines[half:]))]
            middle = len(text) // 2
            # One character cannot be cut: it goes out alone.
            return [CodeBlock(text[:middle]), CodeBlock(text[middle:])] if middle else []
    return []


def split_into_screens(blocks: Sequence[Block], fits: Callable[[Screen], bool]) -> list[Screen]:
    """Pack blocks into as few screens as fit, breaking only between blocks when possible.

    A block too long for one message is cut (paragraphs, headings and list items at a
    sentence or a word, hard as a last resort, styles kept; lists and tables between items
    and rows); one that still cannot fit goes out alone.
    """
    pending = list(blocks)
    screens: list[Screen] = []
    current: list[Block] = []
    while pending:
        block = pending.pop(0)
        if fits(Screen(tuple([*current, block]))):
            current.append(block)
            continue
        if current:
            screens.append(Screen(tuple(current)))
            current = []
            pending.insert(0, block)
            continue
        halves = _halves(block)
        if halves:
            pending[:0] = halves
        else:
            screens.append(Screen((block,)))
    if current:
        screens.append(Screen(tuple(current)))
    return screens


# Names Windows keeps for devices, whatever the suffix: ``con.md`` cannot be unpacked there.
_RESERVED_STEMS = frozenset(
    {"con", "prn", "aux", "nul"} | {f"{port}{n}" for port in ("com", "lpt") for n in range(1, 10)}
)


def title_slug(title: str, max_length: int = 80) -> str:
    """The title in lower-case ASCII words joined by ``-`` (``zekâ`` gives ``zeka``); may be
    empty."""
    return str(slugify(title, max_length=max_length, replacements=[["'", ""], ["’", ""]]))


def _file_stem(title: str) -> str:
    """The file name a title gives, without its suffix: a slug any system can create."""
    name = title_slug(title) or "makale"
    return f"{name}-makale" if name in _RESERVED_STEMS else name


def article_document(title: str, content: str) -> Document:
    """The whole article as a Markdown file named after its title."""
    name = _file_stem(title)
    return Document(filename=f"{name}.md", content=content.encode(), caption=title)
