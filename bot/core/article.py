"""A finished article as chat messages: neutral blocks, split to fit, plus a Markdown file."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence

from markdown_it import MarkdownIt
from markdown_it.token import Token
from slugify import slugify

from bot.core.richtext import Block, BulletList, CodeBlock, Heading, Paragraph, Span
from bot.core.screens import Document, Screen

__all__ = ["article_blocks", "article_document", "split_into_screens"]

_TAG = re.compile(r"<[^>]+>")
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")
_parser = MarkdownIt("commonmark")


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


def _blocks(tokens: Sequence[Token]) -> Iterator[Block]:
    items: list[tuple[Span, ...]] = []
    in_list = 0
    for index, token in enumerate(tokens):
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        match token.type:
            case "heading_open" if following is not None:
                yield Heading("".join(s.text for s in _spans(following)), int(token.tag[1:]))
            case "bullet_list_open" | "ordered_list_open":
                in_list += 1
            case "bullet_list_close" | "ordered_list_close":
                in_list -= 1
                if in_list == 0 and items:
                    yield BulletList(tuple(items))
                    items = []
            case "inline" if token.level > 0 and in_list and following is not None:
                items.append(_spans(token))
            case "paragraph_open" if not in_list and following is not None:
                spans = _spans(following)
                if spans:
                    yield Paragraph(spans)
            case "fence" | "code_block":
                yield CodeBlock(token.content.rstrip("\n"))
            case "html_block":
                text = _TAG.sub("", token.content).strip()
                if text:
                    yield Paragraph((Span(text),))


def article_blocks(content: str, title: str | None = None) -> tuple[Block, ...]:
    """The article's Markdown (or plain text) as blocks, headed by its title if it lacks one."""
    blocks = tuple(_blocks(_parser.parse(content)))
    if title and not (blocks and isinstance(blocks[0], Heading) and blocks[0].level == 1):
        return (Heading(title, level=1), *blocks)
    return blocks


def _cut(text: str) -> list[str]:
    """Two shorter parts of a text: at a sentence, else at a word, else cut hard; [] if tiny."""
    if len(text) < 2:
        return []
    for pieces in (_SENTENCE_END.split(text), text.split(" ")):
        # Joining drops at least one separator, so each part is shorter than the text.
        if len(pieces) > 1:
            half = len(pieces) // 2
            parts = [" ".join(pieces[:half]), " ".join(pieces[half:])]
            break
    else:
        middle = len(text) // 2
        parts = [text[:middle], text[middle:]]
    return [part for part in parts if part]


def _halves(block: Block) -> list[Block]:
    """Cut a block too long for one message in shorter ones; [] when it cannot be cut."""
    match block:
        case Paragraph(spans):
            return [Paragraph((Span(part),)) for part in _cut("".join(s.text for s in spans))]
        case Heading(text, level):
            return [Heading(part, level) for part in _cut(text)]
        case BulletList(items) if len(items) > 1:
            half = len(items) // 2
            return [BulletList(items[:half]), BulletList(items[half:])]
        case BulletList(items):
            # One long item: its first part keeps the bullet, the rest follows as a paragraph.
            first, *rest = _cut("".join(s.text for item in items for s in item)) or [""]
            if not first:
                return []
            return [BulletList(((Span(first),),)), *(Paragraph((Span(part),)) for part in rest)]
        case CodeBlock(text):
            lines = text.split("\n")
            if len(lines) > 1:
                half = len(lines) // 2
                return [CodeBlock("\n".join(lines[:half])), CodeBlock("\n".join(lines[half:]))]
            middle = len(text) // 2
            return [CodeBlock(part) for part in (text[:middle], text[middle:]) if part]
    return []


def split_into_screens(blocks: Sequence[Block], fits: Callable[[Screen], bool]) -> list[Screen]:
    """Pack blocks into as few screens as fit, breaking only between blocks when possible.

    A block too long for one message is cut (paragraphs, headings and list items at a
    sentence or a word, hard as a last resort); one that still cannot fit goes out alone.
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


def article_document(title: str, content: str) -> Document:
    """The whole article as a Markdown file named after its title."""
    name = slugify(title, max_length=80, replacements=[["'", ""], ["’", ""]]) or "makale"
    return Document(filename=f"{name}.md", content=content.encode(), caption=title)
