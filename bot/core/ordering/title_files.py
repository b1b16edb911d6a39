"""A file of titles for ``/toplu``: a ``.txt`` with one title a line, or a ``.csv``.

A CSV gives its titles in its first column, or in the column headed ``baslik`` or ``title``;
columns headed ``ton`` and ``boyut`` (``tone``, ``size``) give a row its own tone and size.
Reading refuses a file as a whole (``TitleFileRefused``); ``check_rows`` then takes or
leaves each title, with the reason.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeVar

from bot.api import Size, Tone
from bot.core.conversation.forms import TITLE_MAX, TITLE_MIN
from bot.core.conversation.inputs import one_line
from bot.core.texts import LANGUAGES, Texts, turkish

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_FILE_TITLES",
    "MAX_REFUSED_SHOWN",
    "REFUSED_TITLE_CHARS",
    "TITLE_FILE_SUFFIXES",
    "CheckedTitles",
    "FileProblem",
    "RowProblem",
    "TitleFileRefused",
    "TitleRow",
    "check_rows",
    "problem_text",
    "read_titles",
    "refusal_text",
]

MAX_FILE_BYTES = 1024 * 1024
MAX_FILE_TITLES = 100
# A file's refused titles are echoed on every screen of its order: a few, cut short.
MAX_REFUSED_SHOWN = 10
REFUSED_TITLE_CHARS = 60
TITLE_FILE_SUFFIXES = (".txt", ".csv")
_HEADINGS = {
    "title": ("baslik", "title"),
    "tone": ("ton", "tone"),
    "size": ("boyut", "size"),
}
# Excel on a Turkish Windows saves CSV in this code page unless told otherwise.
_ENCODINGS = ("utf-8-sig", "cp1254")
_Choice = TypeVar("_Choice", Tone, Size)
# A line of a .txt: what str.splitlines would give, empty lines skipped.
_LINE = re.compile(r"[^\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]+")


class FileProblem(StrEnum):
    """Why a whole file is refused."""

    KIND = "kind"
    TOO_LARGE = "too_large"
    UNREADABLE = "unreadable"
    EMPTY = "empty"
    TOO_MANY = "too_many"


class TitleFileRefused(Exception):
    """The file as a whole cannot be taken; nothing is ordered from it."""

    def __init__(self, problem: FileProblem, count: int = 0) -> None:
        super().__init__(problem.value)
        self.problem = problem
        self.count = count


class RowProblem(StrEnum):
    """Why one title of a file is left out."""

    SHORT = "short"
    LONG = "long"
    DUPLICATE = "duplicate"
    TONE = "tone"
    SIZE = "size"


@dataclass(frozen=True, slots=True)
class TitleRow:
    """One title of the file, with the tone and size its row names, as written."""

    title: str
    tone: str = ""
    size: str = ""


def read_titles(filename: str, content: bytes | None, size: int) -> list[TitleRow]:
    """The titles of a ``.txt`` or ``.csv`` file; ``content`` is None when it was too large to
    fetch. Raises ``TitleFileRefused``."""
    if not filename.lower().endswith(TITLE_FILE_SUFFIXES):
        raise TitleFileRefused(FileProblem.KIND)
    if content is None or size > MAX_FILE_BYTES or len(content) > MAX_FILE_BYTES:
        raise TitleFileRefused(FileProblem.TOO_LARGE)
    if not content and size:
        # Announced with bytes, none arrived: the platform would not hand the file over.
        raise TitleFileRefused(FileProblem.UNREADABLE)
    text = _decoded(content)
    csv_file = filename.lower().endswith(".csv")
    rows = _csv_rows(text) if csv_file else (TitleRow(m[0]) for m in _LINE.finditer(text))
    titles: list[TitleRow] = []
    # Read lazily: a file is refused at its first title past the limit, not after the last.
    for row in rows:
        cleaned = _cleaned(row)
        if not cleaned.title:
            continue
        if len(titles) == MAX_FILE_TITLES:
            raise TitleFileRefused(FileProblem.TOO_MANY, MAX_FILE_TITLES + 1)
        titles.append(cleaned)
    if not titles:
        raise TitleFileRefused(FileProblem.EMPTY)
    return titles


def _decoded(content: bytes) -> str:
    # A NUL never stands in text: this is a spreadsheet, an image or an archive.
    if b"\x00" in content:
        raise TitleFileRefused(FileProblem.UNREADABLE)
    for encoding in _ENCODINGS:
        try:
            return content.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise TitleFileRefused(FileProblem.UNREADABLE)


def _csv_rows(text: str) -> Iterator[TitleRow]:
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    table = (row for row in csv.reader(io.StringIO(text), dialect) if any(row))
    try:
        header = next(table, None)
        if header is None:
            return
        columns = _columns(header)
        if columns is None:
            yield TitleRow(header[0])
            yield from (TitleRow(row[0]) for row in table)
            return
        title, tone, size = columns
        for row in table:
            yield TitleRow(_cell(row, title), _cell(row, tone), _cell(row, size))
    except csv.Error as err:
        raise TitleFileRefused(FileProblem.UNREADABLE) from err


def _cell(row: list[str], index: int | None) -> str:
    return row[index] if index is not None and index < len(row) else ""


def _columns(header: list[str]) -> tuple[int, int | None, int | None] | None:
    """The title, tone and size columns a header names; None when the first row is a title."""
    folded = [turkish.fold(cell) for cell in header]

    def index(field: str) -> int | None:
        return next((i for i, cell in enumerate(folded) if cell in _HEADINGS[field]), None)

    title = index("title")
    return None if title is None else (title, index("tone"), index("size"))


def _cleaned(row: TitleRow) -> TitleRow:
    return TitleRow(one_line(row.title), one_line(row.tone), one_line(row.size))


@dataclass(slots=True)
class CheckedTitles:
    """The titles taken, each with its row's own [tone id, size id] (None where the buttons
    choose), the [title, problem] of the first rows left out (titles shortened), and how
    many more were left out."""

    titles: list[str] = field(default_factory=list)
    choices: list[list[int | None]] = field(default_factory=list)
    refused: list[list[str]] = field(default_factory=list)
    refused_more: int = 0

    def refuse(self, title: str, problem: RowProblem) -> None:
        """Leave a row out; only the first few are kept to show, each cut short."""
        if len(self.refused) == MAX_REFUSED_SHOWN:
            self.refused_more += 1
            return
        short = (
            title if len(title) <= REFUSED_TITLE_CHARS else f"{title[: REFUSED_TITLE_CHARS - 1]}…"
        )
        self.refused.append([short, problem.value])


def check_rows(
    rows: Sequence[TitleRow], tones: Sequence[Tone], sizes: Sequence[Size]
) -> CheckedTitles:
    """Take each row whose title the service accepts, once, with a tone and size it knows."""
    checked = CheckedTitles()
    seen: set[str] = set()
    for row in rows:
        tone = _named(row.tone, tones, Texts.tone_name)
        size = _named(row.size, sizes, Texts.size_name)
        problem = _problem(row, seen, tone, size)
        if problem is not None:
            checked.refuse(row.title, problem)
            continue
        seen.add(turkish.fold(row.title))
        checked.titles.append(row.title)
        checked.choices.append([tone, size])
    return checked


def _problem(
    row: TitleRow, seen: set[str], tone: int | None, size: int | None
) -> RowProblem | None:
    if len(row.title) < TITLE_MIN:
        return RowProblem.SHORT
    if len(row.title) > TITLE_MAX:
        return RowProblem.LONG
    if turkish.fold(row.title) in seen:
        return RowProblem.DUPLICATE
    if row.tone and tone is None:
        return RowProblem.TONE
    if row.size and size is None:
        return RowProblem.SIZE
    return None


def _named(
    value: str, choices: Sequence[_Choice], name: Callable[[Texts, _Choice], str]
) -> int | None:
    """The id of the tone or size a cell names by its id, or its name in any language."""
    if not value:
        return None
    wanted = turkish.fold(value)
    for choice in choices:
        names = [name(texts, choice) for texts in LANGUAGES.values()]
        if wanted == str(choice.id) or any(turkish.fold(n) == wanted for n in names):
            return choice.id
    return None


def problem_text(texts: Texts, problem: RowProblem) -> str:
    """Why a title was left out, in the user's language."""
    return {
        RowProblem.SHORT: texts.file_title_short,
        RowProblem.LONG: texts.file_title_long,
        RowProblem.DUPLICATE: texts.file_title_duplicate,
        RowProblem.TONE: texts.file_unknown_tone,
        RowProblem.SIZE: texts.file_unknown_size,
    }[problem]


def refusal_text(texts: Texts, refused: TitleFileRefused) -> str:
    """Why a whole file was refused, in the user's language."""
    return {
        FileProblem.KIND: texts.file_wrong_kind,
        FileProblem.TOO_LARGE: texts.file_too_large,
        FileProblem.UNREADABLE: texts.file_unreadable,
        FileProblem.EMPTY: texts.file_no_titles,
        FileProblem.TOO_MANY: texts.file_too_many,
    }[refused.problem].format(count=refused.count, limit=MAX_FILE_TITLES)
