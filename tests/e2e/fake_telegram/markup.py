"""Telegram's HTML parse mode and text rules: markup to plain text plus entities, as the Bot API.

The parser follows the Bot API's own: tags nest and close in order (``</>`` closes the innermost
one), attribute values may be quoted or bare name tokens, only ``&lt; &gt; &amp; &quot;`` and
numeric references are decoded (``&nbsp;`` stays as written), and every offset and length counts
UTF-16 code units. Error texts are the Bot API's, byte offsets counted in the UTF-8 markup.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

__all__ = ["EntityParseError", "command_entities", "parse_html", "stripped", "utf16_len"]

JSON = dict[str, Any]

_SPACES = " \t\r\n\v\f"
_PLAIN_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
}
_TAGS = {*_PLAIN_TAGS, "a"}
# The Bot API lists entities of one offset and length in this order (TDLib's type priorities).
_PRIORITY = {
    "blockquote": 0,
    "expandable_blockquote": 0,
    "pre": 11,
    "code": 20,
    "text_link": 49,
    "bot_command": 50,
    "bold": 90,
    "italic": 91,
    "underline": 92,
    "strikethrough": 93,
    "spoiler": 94,
}
_NAMED_REFERENCES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_REFERENCE = re.compile(r"&(?:#x([0-9a-fA-F]*)|#([0-9]*)|([A-Za-z]*));?")
_NAME_TOKEN = re.compile(r"[A-Za-z0-9.-]*")
# A command starts after a non-word character and ends before one (TDLib's find_bot_commands).
_COMMAND = re.compile(r"(?<![\w/<>])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![\w/<>])")


class EntityParseError(ValueError):
    """Markup the Bot API refuses; the message is its reason, as after "can't parse entities: "."""


def utf16_len(text: str) -> int:
    """The length of ``text`` in UTF-16 code units, the unit of every Telegram offset and limit."""
    return len(text.encode("utf-16-le")) // 2


def parse_html(markup: str) -> tuple[str, list[JSON]]:
    """The plain text and the entities of ``markup`` in parse mode HTML."""
    return _HtmlParser(markup).parse()


def command_entities(text: str) -> list[JSON]:
    """The ``bot_command`` entities Telegram finds in ``text`` (``/start``, ``/yaz@some_bot``)."""
    return [
        {
            "type": "bot_command",
            "offset": utf16_len(text[: match.start()]),
            "length": utf16_len(match.group()),
        }
        for match in _COMMAND.finditer(text)
    ]


def stripped(text: str, entities: list[JSON]) -> tuple[str, list[JSON]]:
    """``text`` without leading and trailing whitespace, as Telegram stores it, entities moved."""
    body = text.strip(_SPACES)
    lead = utf16_len(text[: len(text) - len(text.lstrip(_SPACES))])
    size = utf16_len(body)
    kept = []
    for entity in entities:
        start = min(max(entity["offset"] - lead, 0), size)
        end = min(max(entity["offset"] + entity["length"] - lead, 0), size)
        if end > start:
            kept.append({**entity, "offset": start, "length": end - start})
    return body, sorted_entities(kept)


def sorted_entities(entities: list[JSON]) -> list[JSON]:
    """Entities in the Bot API's order: by offset, longer first, then by type."""
    return sorted(entities, key=lambda e: (e["offset"], -e["length"], _PRIORITY.get(e["type"], 50)))


@dataclass
class _OpenTag:
    name: str
    offset: int  # UTF-16 offset of the tag's content in the plain text
    start: int  # index of the tag's content in the plain text
    attributes: dict[str, str]


class _HtmlParser:
    """One pass over the markup, with the stack of open tags."""

    def __init__(self, markup: str) -> None:
        self.markup = markup
        self.pos = 0
        self.text: list[str] = []
        self.length = 0  # of the plain text so far, in UTF-16 code units
        self.stack: list[_OpenTag] = []
        self.entities: list[JSON] = []

    def parse(self) -> tuple[str, list[JSON]]:
        markup = self.markup
        while self.pos < len(markup):
            char = markup[self.pos]
            if char == "&" and (decoded := self._reference()) is not None:
                self._emit(decoded)
            elif char != "<":
                self._emit(char)
                self.pos += 1
            elif markup.startswith("</", self.pos):
                self._close_tag()
            else:
                self._open_tag()
        if self.stack:
            raise EntityParseError(
                f'Can\'t find end tag corresponding to start tag "{self.stack[-1].name}"'
            )
        for entity in self.entities:
            if entity["type"] == "code":
                entity.pop("language", None)  # a language belongs to a pre block only
        return "".join(self.text), sorted_entities(self.entities)

    def _emit(self, chars: str) -> None:
        self.text.append(chars)
        self.length += utf16_len(chars)

    def _reference(self) -> str | None:
        """The character of the reference at the cursor (moving past it), None if none."""
        match = _REFERENCE.match(self.markup, self.pos)
        assert match is not None  # the pattern matches any "&"
        hexadecimal, decimal, name = match.groups()
        if name is not None:
            char = _NAMED_REFERENCES.get(name)
        else:
            digits = hexadecimal if hexadecimal is not None else decimal
            code = int(digits, 16 if hexadecimal is not None else 10) if digits else 0
            too_long = len(match.group().removesuffix(";")) >= 10
            char = chr(code) if 0 < code < 0x10FFFF and not too_long else None
            if char is not None and 0xD800 <= code <= 0xDFFF:
                raise EntityParseError(
                    "Text contains invalid Unicode characters after decoding HTML entities, "
                    "check for unmatched surrogate code units"
                )
        if char is not None:
            self.pos = match.end()
        return char

    def _at(self) -> str:
        return f"at byte offset {len(self.markup[: self.pos].encode())}"

    def _skip_spaces(self) -> None:
        while self.pos < len(self.markup) and self.markup[self.pos] in _SPACES:
            self.pos += 1

    def _word(self, stops: str) -> str:
        start = self.pos
        while self.pos < len(self.markup) and self.markup[self.pos] not in stops:
            self.pos += 1
        return self.markup[start : self.pos]

    def _open_tag(self) -> None:
        at = self._at()
        self.pos += 1
        name = self._word(_SPACES + ">").lower()
        if self.pos == len(self.markup):
            raise EntityParseError(f"Unclosed start tag {at}")
        if name not in _TAGS:
            raise EntityParseError(f'Unsupported start tag "{name}" {at}')
        attributes = self._attributes(name, at)
        if name == "span" and attributes.get("class") != "tg-spoiler":
            raise EntityParseError(f'Tag "span" must have class "tg-spoiler" {at}')
        self.stack.append(_OpenTag(name, self.length, len(self.text), attributes))

    def _attributes(self, tag: str, at: str) -> dict[str, str]:
        """The attributes of the start tag at the cursor, moving past its ``>``."""
        attributes: dict[str, str] = {}
        markup = self.markup
        while True:
            self._skip_spaces()
            if self.pos == len(markup):
                raise EntityParseError(f"Unclosed start tag {at}")
            if markup[self.pos] == ">":
                self.pos += 1
                return attributes
            name = self._word(_SPACES + "=>").lower()
            if not name:
                raise EntityParseError(f'Empty attribute name in the tag "{tag}" {at}')
            self._skip_spaces()
            if self.pos < len(markup) and markup[self.pos] == "=":
                self.pos += 1
                self._skip_spaces()
                if self.pos == len(markup):
                    raise EntityParseError(f'Unclosed start tag "{tag}" {at}')
                attributes[name] = self._attribute_value(at)
            else:
                attributes[name] = ""

    def _attribute_value(self, at: str) -> str:
        markup = self.markup
        quote = markup[self.pos]
        if quote not in "'\"":
            token = _NAME_TOKEN.match(markup, self.pos)
            assert token is not None  # the pattern matches the empty string
            if token.end() == len(markup) or markup[token.end()] not in _SPACES + ">":
                raise EntityParseError(f"Unexpected end of name token {self._at()}")
            self.pos = token.end()
            return token.group().lower()
        self.pos += 1
        value: list[str] = []
        while self.pos < len(markup) and markup[self.pos] != quote:
            if markup[self.pos] == "&" and (decoded := self._reference()) is not None:
                value.append(decoded)
            else:
                value.append(markup[self.pos])
                self.pos += 1
        if self.pos == len(markup):
            raise EntityParseError(f"Unclosed start tag {at}")
        self.pos += 1
        return "".join(value)

    def _close_tag(self) -> None:
        at = self._at()
        if not self.stack:
            raise EntityParseError(f"Unexpected end tag {at}")
        self.pos += 2
        name = self._word(_SPACES + ">").lower()
        self._skip_spaces()
        if self.pos == len(self.markup) or self.markup[self.pos] != ">":
            raise EntityParseError(f"Unclosed end tag {at}")
        self.pos += 1
        tag = self.stack.pop()
        if name and name != tag.name:
            raise EntityParseError(
                f'Unmatched end tag {at}, expected "</{tag.name}>", found "</{name}>"'
            )
        if self.length > tag.offset:
            self._add_entity(tag)

    def _add_entity(self, tag: _OpenTag) -> None:
        entity: JSON = {"type": _PLAIN_TAGS.get(tag.name, "text_link"), "offset": tag.offset}
        entity["length"] = self.length - tag.offset
        if tag.name == "a":
            url = _link(tag.attributes.get("href") or "".join(self.text[tag.start :]))
            if url is None:
                return
            entity["url"] = url
        elif tag.name == "blockquote" and "expandable" in tag.attributes:
            entity["type"] = "expandable_blockquote"
        elif tag.name == "code" and tag.attributes.get("class", "").startswith("language-"):
            entity["language"] = tag.attributes["class"].removeprefix("language-")
        elif tag.name == "pre":
            entity = self._with_language(entity)
        self.entities.append(entity)

    def _with_language(self, pre: JSON) -> JSON:
        """A ``pre`` that is all one ``code class="language-x"`` becomes a ``pre`` in x."""
        for code in self.entities:
            same_span = (code["offset"], code["length"]) == (pre["offset"], pre["length"])
            if code["type"] == "code" and "language" in code and same_span:
                self.entities.remove(code)
                return {**pre, "language": code["language"]}
        return pre


def _link(url: str) -> str | None:
    """The URL a link points to, completed as Telegram completes it; None if it is no URL."""
    if not url or any(char.isspace() for char in url):
        return None
    parts = urlsplit(url if "://" in url else f"http://{url}")
    if parts.scheme == "tg":
        return url
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return urlunsplit(parts._replace(path=parts.path or "/"))
