"""Reading JSON the tolerant way: field names folded (``"request_id"``, ``"requestId"`` and
``"RequestID"`` are one), wrappers like ``data`` unwrapped, the list an answer carries found,
and values read as text, numbers (``"1.234,50"`` too) and moments, or None."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from typing import Any, TypeVar

from bot.api.errors import UnexpectedResponse

__all__ = [
    "MAX_DEPTH",
    "Fields",
    "decimal",
    "first",
    "fold",
    "folded",
    "integer",
    "iso_moment",
    "list_in",
    "moment",
    "parse_list",
    "plain_number",
    "printable",
    "record",
    "refuse_failure",
    "text",
    "unwrap",
]

T = TypeVar("T")
Fields = dict[str, Any]

# Field names are given folded (see _fold): "request_id", "requestId" and "RequestID" are one.
_WRAPPERS = ("data", "result", "veri", "sonuc", "payload")
_LISTS = (
    *_WRAPPERS,
    "items",
    "results",
    "content",
    "makaleler",
    "articles",
    "jobs",
    "records",
    "rows",
    "list",
    "liste",
    "kayitlar",
    "sonuclar",
    "tonlar",
    "tones",
    "yazimtonlari",
    "boyutlar",
    "sizes",
    "makaleboyutlari",
)
# Only these stand for "the list" when null: a null ``content`` is an unfinished article.
_NULLABLE_LISTS = ("data", "items", "results")

# Nesting deeper than this is not a shape any service sends; it bounds the search.
MAX_DEPTH = 4
# A timestamp above this is in milliseconds (10^11 seconds is the year 5138).
_MILLISECONDS_FROM = 10**11
# Ids and percentages beyond this are nonsense, and int() of "1e999999" would hang.
_INT_LIMIT = 10**18
_NON_ALNUM = re.compile(r"[^a-z0-9]")
# C0 and C1 controls but tab and line breaks, and lone surrogates (no encoding takes them):
# PostgreSQL refuses a NUL in text, and a chat would show the rest as garbage.
_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_CURRENCY = re.compile(r"(?i)\s|tl|try|₺")


def fold(text: str) -> str:
    """Fold a key or word to lower-case ASCII letters and digits: ``"Durum_ID"`` -> ``durumid``."""
    # NFKD splits ç, ş, ğ, ö, ü and İ into a base letter and a mark; ı has no such split.
    decomposed = unicodedata.normalize("NFKD", text.replace("ı", "i"))
    return _NON_ALNUM.sub("", decomposed.lower())


def folded(record: dict[str, Any]) -> Fields:
    """A JSON object's fields keyed by folded name."""
    return {fold(key): value for key, value in record.items()}


def first(fields: Fields, names: tuple[str, ...]) -> Any:
    """The first of these fields that is present and not null."""
    for name in names:
        value = fields.get(name)
        if value is not None:
            return value
    return None


def refuse_failure(payload: Any, what: str) -> None:
    """A 2xx answer that says ``success: false`` did not do what was asked."""
    if isinstance(payload, dict) and folded(payload).get("success") is False:
        raise UnexpectedResponse(f"the {what} answer says success: false")


def unwrap(payload: Any) -> Any:
    """What ``data`` (or a similar wrapper) holds, through nested wrappers; a bare payload as is."""
    value = payload
    for _ in range(MAX_DEPTH):
        if not isinstance(value, dict):
            break
        inner = first(folded(value), _WRAPPERS)
        if inner is None:
            break
        value = inner
    return value


def record(payload: Any, what: str) -> Fields:
    """The object an answer is about, with folded keys."""
    refuse_failure(payload, what)
    value = unwrap(payload)
    if not isinstance(value, dict):
        raise UnexpectedResponse(f"the {what} answer is not an object")
    return folded(value)


def list_in(value: Any, depth: int = 0) -> list[Any] | None:
    """The list an answer carries: bare, or under ``data``, ``data.items``, ``results``, ..."""
    if isinstance(value, list):
        return value
    if not isinstance(value, dict) or depth >= MAX_DEPTH:
        return None
    fields = folded(value)
    for name in _LISTS:
        found = list_in(fields.get(name), depth + 1)
        if found is not None:
            return found
    # Some services (Go's encoder, for one) send an empty list as null.
    if any(name in fields and fields[name] is None for name in _NULLABLE_LISTS):
        return []
    return None


def parse_list(
    payload: Any,
    what: str,
    read: Callable[[Fields], T | None],
    *,
    lone: tuple[str, ...] = (),
) -> list[T]:
    """Read each object of the answer's list, skipping items that lack what ``read`` needs.

    With ``lone`` (identifying fields), an answer holding one such object instead of a
    list is read as a list of one.
    """
    refuse_failure(payload, what)
    items = list_in(payload)
    if items is None:
        single = unwrap(payload)
        if not (isinstance(single, dict) and first(folded(single), lone) is not None):
            raise UnexpectedResponse(f"the {what} answer holds no list")
        items = [single]
    readings = (read(folded(item)) for item in items if isinstance(item, dict))
    parsed = [value for value in readings if value is not None]
    if items and not parsed:
        raise UnexpectedResponse(f"no item of the {what} list can be read")
    return parsed


def printable(text: str) -> str:
    """The text without control characters (NUL among them); tabs and line breaks stay."""
    return _UNPRINTABLE.sub("", text)


def text(value: Any) -> str | None:
    """A non-empty printable string, or a number written as one; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return printable(value).strip() or None
    return None


def plain_number(text: str) -> str:
    """``"1.234,50 TL"`` -> ``"1234.50"``; the later of two separators is the decimal one."""
    digits = _CURRENCY.sub("", text)
    if "," in digits and "." in digits:
        thousands = "." if digits.rfind(",") > digits.rfind(".") else ","
        digits = digits.replace(thousands, "")
    elif digits.count(",") > 1 or digits.count(".") > 1:
        digits = digits.replace(",", "").replace(".", "")
    # A lone comma is the Turkish decimal comma; a lone dot is a decimal point.
    return digits.replace(",", ".")


def decimal(value: Any) -> Decimal | None:
    """A finite number from a JSON number or a written one; floats go through ``str``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        text = str(value)
    elif isinstance(value, str):
        text = plain_number(value)
    else:
        return None
    try:
        number = Decimal(text)
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def integer(value: Any) -> int | None:
    """A whole number of reasonable size, from a number or a string."""
    number = decimal(value)
    if number is None or abs(number) >= _INT_LIMIT or number != number.to_integral_value():
        return None
    return int(number)


def moment(value: Any) -> datetime | None:
    """An aware UTC time from Unix seconds or milliseconds, or from ISO 8601 text."""
    if isinstance(value, str):
        try:
            return moment(float(value))
        except ValueError:
            return iso_moment(value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return datetime.fromtimestamp(value / 1000 if value > _MILLISECONDS_FROM else value, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None


def iso_moment(text: str) -> datetime | None:
    """An aware UTC time from ISO 8601 text; a time without a zone is taken as UTC."""
    try:
        parsed = datetime.fromisoformat(text.strip())
        return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)
    except (OverflowError, ValueError):
        return None
