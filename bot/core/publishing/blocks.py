"""An article's Markdown as Gutenberg blocks: block comments around the HTML its ``.html``
file holds (the same parser), so the editor opens headings, lists and tables as native blocks
rather than one "Classic" block to convert by hand."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from html import escape

from markdown_it.token import Token

from bot.core.articles.export import WEB_MARKDOWN

__all__ = ["block_attributes", "excerpt", "gutenberg"]

_LISTS = ("bullet_list_open", "ordered_list_open")
# Between a table's tags markdown-it puts line breaks that WordPress's own table has not.
_BETWEEN_TAGS = re.compile(r">\n+<")
# markdown-it aligns a table's cell by a style; WordPress's table block by a class and data.
_ALIGNED = re.compile(r' style="text-align:(left|center|right)"')
# What WordPress's serializer escapes in a block's JSON: a comment must not hold "--".
_COMMENT_SAFE = (
    ("--", "\\u002d\\u002d"),
    ("<", "\\u003c"),
    (">", "\\u003e"),
    ("&", "\\u0026"),
    ('\\"', "\\u0022"),
)


def block_attributes(attrs: dict[str, object]) -> str:
    """A block's attributes as the JSON of its comment, escaped as WordPress escapes them."""
    text = json.dumps(attrs, ensure_ascii=False, separators=(",", ":"))
    for raw, safe in _COMMENT_SAFE:
        text = text.replace(raw, safe)
    return text


def _wrap(name: str, html: str, attrs: dict[str, object] | None = None) -> str:
    opening = f"wp:{name} {block_attributes(attrs)}" if attrs else f"wp:{name}"
    return f"<!-- {opening} -->\n{html}\n<!-- /wp:{name} -->"


def _groups(tokens: Sequence[Token]) -> Iterator[Sequence[Token]]:
    """The tokens of each block at the level the sequence starts on, open to close."""
    index = 0
    while index < len(tokens):
        end, depth = index, 0
        while True:
            depth += tokens[end].nesting
            end += 1
            if depth <= 0:
                break
        yield tokens[index:end]
        index = end


def _html(tokens: Sequence[Token]) -> str:
    return str(WEB_MARKDOWN.renderer.render(tokens, WEB_MARKDOWN.options, {})).strip()


def _item(tokens: Sequence[Token]) -> str:
    """A list item: its paragraphs as lines, a list inside it as a block of its own."""
    lines: list[str] = []
    inner: list[str] = []
    for group in _groups(tokens):
        if group[0].type == "paragraph_open":
            lines.append(_html(group[1:2]))
        elif group[0].type in _LISTS:
            inner.append(_list(group))
        else:
            lines.append(_html(group))
    return _wrap("list-item", f"<li>{'<br>'.join(lines)}{''.join(inner)}</li>")


def _list(tokens: Sequence[Token]) -> str:
    """A list with its items as inner blocks; a numbered one ``ordered`` from its start."""
    attrs: dict[str, object] = {}
    tag, start_attr = "ul", ""
    if tokens[0].type == "ordered_list_open":
        tag, attrs["ordered"] = "ol", True
        start = int(tokens[0].attrGet("start") or 1)
        if start != 1:
            attrs["start"], start_attr = start, f' start="{start}"'
    items = "".join(_item(item[1:-1]) for item in _groups(tokens[1:-1]))
    return _wrap("list", f"<{tag}{start_attr}>{items}</{tag}>", attrs)


def _aligned(found: re.Match[str]) -> str:
    side = found.group(1)
    return f' class="has-text-align-{side}" data-align="{side}"'


def _block(tokens: Sequence[Token]) -> str:
    """One top-level block; what has no block of its own is kept as a Custom HTML block."""
    first = tokens[0]
    match first.type:
        case "heading_open":
            return _wrap("heading", _html(tokens), {"level": int(first.tag[1:])})
        case "paragraph_open":
            return _wrap("paragraph", _html(tokens))
        case "bullet_list_open" | "ordered_list_open":
            return _list(tokens)
        case "table_open":
            table = _ALIGNED.sub(_aligned, _BETWEEN_TAGS.sub("><", _html(tokens)))
            return _wrap("table", f'<figure class="wp-block-table">{table}</figure>')
        case "blockquote_open":
            inner = "\n\n".join(_block(group) for group in _groups(tokens[1:-1]))
            return _wrap("quote", f'<blockquote class="wp-block-quote">{inner}</blockquote>')
        case "fence" | "code_block":
            code = escape(first.content.rstrip("\n"), quote=False)
            return _wrap("code", f'<pre class="wp-block-code"><code>{code}</code></pre>')
        case "hr":
            return _wrap("separator", '<hr class="wp-block-separator has-alpha-channel-opacity"/>')
    return _wrap("html", _html(tokens))


def _article_groups(markdown: str) -> list[Sequence[Token]]:
    """The article's top-level blocks; a leading level-1 heading is the post's title."""
    groups = list(_groups(WEB_MARKDOWN.parse(markdown)))
    if groups and groups[0][0].type == "heading_open" and groups[0][0].tag == "h1":
        return groups[1:]
    return groups


def gutenberg(markdown: str) -> str:
    """The article's body as Gutenberg block markup, links and inline styles kept."""
    return "\n\n".join(_block(group) for group in _article_groups(markdown))


def excerpt(markdown: str) -> str:
    """The text of the article's first paragraph, without markup; empty when it has none."""
    for group in _article_groups(markdown):
        if group[0].type == "paragraph_open":
            words = (
                " " if child.type in ("softbreak", "hardbreak") else child.content
                for child in group[1].children or ()
                if child.type in ("text", "code_inline", "softbreak", "hardbreak")
            )
            return "".join(words).strip()
    return ""
