"""The quality card: what a delivered article holds against what was ordered.

Counted on the text a reader sees, without Markdown: a link counts by its words, not its
address, and an image or raw HTML not at all. A word is a run of letters or digits; a
sentence ends at ``.``, ``!``, ``?`` or ``…`` and at the end of a heading, a paragraph, a
list item or a table cell; a syllable is a vowel. Readability is Ateşman's formula for
Turkish. Everything comes from the text the bot has: no call to the service.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from markdown_it import MarkdownIt
from markdown_it.token import Token

from bot.api import Size
from bot.core.conversation.richtext import bold, paragraph
from bot.core.conversation.screens import Screen
from bot.core.texts import Texts

__all__ = ["Quality", "band", "card_screen", "measure", "word_range"]

_parser = MarkdownIt("commonmark").enable("table")
_WORD = re.compile(r"[^\W_]+")
_SENTENCE_END = re.compile(r"[.!?…]+")
_VOWELS = frozenset("aeıioöuüâîû")
_TURKISH_UPPER = str.maketrans({"İ": "i", "I": "ı"})
_WORDS_A_MINUTE = 200
# The lower bound of each band, from "çok kolay" down; below the last is "çok zor".
_BAND_FLOORS = (90, 70, 50, 30)
_RANGE = re.compile(r"(\d+)\s*(?:[-–]\s*(\d+)|(\+))")
_TENTH = Decimal("0.1")
# The blocks whose end also ends a sentence; their text is in an ``inline`` token.
_UNIT_OPENS = frozenset({"heading_open", "paragraph_open", "th_open", "td_open"})


@dataclass(frozen=True, slots=True)
class Quality:
    """What the card shows about one article."""

    words: int
    sentences: int
    syllables: int
    headings: int
    # The title's words, each with whether a word of the text begins with it.
    title_words: tuple[tuple[str, bool], ...]

    @property
    def reading_minutes(self) -> int:
        """At 200 words a minute, rounded up."""
        return math.ceil(self.words / _WORDS_A_MINUTE)

    @property
    def score(self) -> Decimal:
        """Ateşman's readability, to one decimal: 198.825 − 40.175 × syllables per word −
        2.610 × words per sentence."""
        if not self.words or not self.sentences:
            return Decimal(0)
        raw = (
            Decimal("198.825")
            - Decimal("40.175") * Decimal(self.syllables) / Decimal(self.words)
            - Decimal("2.610") * Decimal(self.words) / Decimal(self.sentences)
        )
        return raw.quantize(_TENTH, rounding=ROUND_HALF_UP)


def _fold(text: str) -> str:
    """Turkish case folding: "İ" is "i" and "I" is "ı"."""
    return unicodedata.normalize("NFC", text).translate(_TURKISH_UPPER).lower()


def _visible(inline: Token) -> str:
    """The text of an inline token as a reader sees it: no link addresses, images or HTML."""
    parts = []
    for child in inline.children or ():
        match child.type:
            case "text" | "code_inline":
                parts.append(child.content)
            case "softbreak" | "hardbreak":
                parts.append(" ")
    return "".join(parts)


def _units(tokens: Sequence[Token]) -> Iterator[tuple[str, bool]]:
    """Each block's visible text, and whether it is a heading; a list item's text comes in its
    paragraphs, so its end ends a sentence too."""
    opened: str | None = None
    for token in tokens:
        if token.type in _UNIT_OPENS:
            opened = token.type
        elif token.type == "inline" and opened is not None:
            yield _visible(token), opened == "heading_open"
            opened = None
        elif token.type in ("fence", "code_block"):
            yield token.content, False


def _sentences(text: str) -> int:
    """The sentences of one block: its pieces between end marks that hold a word."""
    return sum(1 for piece in _SENTENCE_END.split(text) if _WORD.search(piece))


def measure(content: str, title: str) -> Quality:
    """Count the article's words, sentences, syllables and headings, and its title's words."""
    words: list[str] = []
    sentences = headings = 0
    for text, is_heading in _units(_parser.parse(content)):
        words += _WORD.findall(_fold(text))
        sentences += _sentences(text)
        headings += is_heading
    syllables = sum(1 for word in words for letter in word if letter in _VOWELS)
    shown = dict.fromkeys(_WORD.findall(title))
    used = tuple((word, any(w.startswith(_fold(word)) for w in words)) for word in shown)
    return Quality(len(words), sentences, syllables, headings, used)


def band(score: Decimal) -> int:
    """The band of a score: 0 "çok kolay" (90 and up) to 4 "çok zor" (below 30)."""
    return next((i for i, floor in enumerate(_BAND_FLOORS) if score >= floor), len(_BAND_FLOORS))


def word_range(size: Size | None) -> tuple[int, int | None] | None:
    """The words a size promises ("800-1200", "2500+"); None where it says no range."""
    found = _RANGE.search(size.words) if size is not None else None
    if found is None:
        return None
    low, high, _ = found.groups()
    return int(low), (int(high) if high else None)


def card_screen(texts: Texts, quality: Quality, size: Size | None) -> Screen:
    """The card: words against the ordered range, reading time, headings, readability, and the
    title's words."""
    promised = word_range(size)
    if promised is None:
        words = texts.card_words_no_range.format(count=quality.words)
    else:
        low, high = promised
        fits = quality.words >= low and (high is None or quality.words <= high)
        words = texts.card_words.format(
            count=quality.words,
            range=f"{low}+" if high is None else f"{low}-{high}",
            mark="✓" if fits else "✗",
        )
    score = str(quality.score).replace(".", texts.money_marks[1])
    title_words = " · ".join(f"{word} {'✓' if used else '✗'}" for word, used in quality.title_words)
    lines = (
        words,
        texts.card_reading.format(minutes=quality.reading_minutes),
        texts.card_headings.format(count=quality.headings),
        texts.card_readability.format(score=score, band=texts.card_bands[band(quality.score)]),
        texts.card_title_words.format(words=title_words),
    )
    return Screen((paragraph(bold(texts.card_header)), *(paragraph(line) for line in lines)))
