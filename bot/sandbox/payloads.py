"""Reading and validating what callers send, with the service's 400 answers."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.sandbox.catalog import SIZES, TONES, Size, Tone
from bot.sandbox.errors import ApiError
from bot.sandbox.jobs import JobStatus, Order

__all__ = [
    "ListQuery",
    "parse_bulk",
    "parse_credentials",
    "parse_list_query",
    "parse_order",
    "parse_refresh_token",
    "parse_topic",
]

_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s.]+")
_TITLE_LENGTH = (10, 255)
_TOPIC_LENGTH = (2, 255)
_BULK_ITEMS = (1, 20)
_PAGE_SIZE_DEFAULT = 20
_PAGE_SIZE_MAX = 100

_Choice = TypeVar("_Choice", Tone, Size)


@dataclass(frozen=True)
class ListQuery:
    """The filters and page of an own-articles request."""

    request_id: str | None
    status: JobStatus | None
    page_size: int
    page: int


def parse_credentials(body: Mapping[str, Any]) -> tuple[str, str]:
    """The e-mail and password of a login body."""
    for field in ("email", "password"):
        value = body.get(field)
        if not isinstance(value, str) or not value.strip():
            raise _login_invalid(field, "E-posta ve şifre alanları zorunludur.")
    email, password = body["email"].strip(), body["password"]
    if not _EMAIL.fullmatch(email):
        raise _login_invalid("email", "Geçerli bir e-posta adresi giriniz.")
    return email, password


def parse_refresh_token(body: Mapping[str, Any]) -> str:
    """The refresh token of a refresh body."""
    token = body.get("refreshToken")
    if not isinstance(token, str) or not token:
        raise _login_invalid("refreshToken", "refreshToken alanı zorunludur.")
    return token


def parse_order(
    raw: object, index: int | None = None, refused: Collection[str] = frozenset()
) -> Order:
    """One article order; `index` names its place in a bulk request. A title in `refused` is
    refused as the service's content rules may refuse one, whatever its length."""
    if not isinstance(raw, dict):
        field = "body" if index is None else f"makaleler[{index}]"
        raise _invalid(field, "Makale isteği bir nesne olmalıdır.", index)
    title = _text(raw, "baslik", _TITLE_LENGTH, index)
    if title in refused:
        raise _invalid(_field("baslik", index), "baslik içerik kurallarına uymuyor.", index)
    tone = _choice(raw, "yazimTonu", TONES, index)
    size = _choice(raw, "makaleBoyutu", SIZES, index)
    return Order(title, tone, size)


def parse_bulk(body: Mapping[str, Any], refused: Collection[str] = frozenset()) -> list[Order]:
    """Every order of a bulk body; the first invalid one fails the whole request."""
    items = body.get("makaleler")
    low, high = _BULK_ITEMS
    if not isinstance(items, list) or not low <= len(items) <= high:
        count = len(items) if isinstance(items, list) else 0
        message = f"makaleler {low} ile {high} arasında makale içermelidir."
        raise _invalid("makaleler", message, None, minItems=low, maxItems=high, currentLength=count)
    return [parse_order(item, index, refused) for index, item in enumerate(items)]


def parse_topic(body: Mapping[str, Any]) -> str:
    """The topic of an add-topic body."""
    return _text(body, "konu", _TOPIC_LENGTH, None)


def parse_list_query(params: Mapping[str, str]) -> ListQuery:
    """The own-articles query; empty values count as absent."""
    return ListQuery(
        request_id=params.get("requestId") or None,
        status=_status_param(params),
        page_size=min(_positive_param(params, "pageSize", _PAGE_SIZE_DEFAULT), _PAGE_SIZE_MAX),
        page=_positive_param(params, "sayfa", 1),
    )


def _text(body: Mapping[str, Any], key: str, bounds: tuple[int, int], index: int | None) -> str:
    raw = body.get(key)
    field = _field(key, index)
    text = raw.strip() if isinstance(raw, str) else ""
    low, high = bounds
    if len(text) < low:
        message = f"{key} en az {low} karakter olmalıdır."
        raise _invalid(field, message, index, minLength=low, currentLength=len(text))
    if len(text) > high:
        message = f"{key} en fazla {high} karakter olabilir."
        raise _invalid(field, message, index, maxLength=high, currentLength=len(text))
    return text


def _choice(
    body: Mapping[str, Any], key: str, choices: Sequence[_Choice], index: int | None
) -> _Choice:
    raw = body.get(key)
    field = _field(key, index)
    # bool is an int in Python but not in JSON.
    if isinstance(raw, int) and not isinstance(raw, bool):
        for choice in choices:
            if choice.id == raw:
                return choice
    message = f"{field} 1 ile {len(choices)} arasında bir tam sayı olmalıdır."
    raise _invalid(field, message, index, min=1, max=len(choices))


def _status_param(params: Mapping[str, str]) -> JobStatus | None:
    raw = params.get("durumId") or None
    try:
        return None if raw is None else JobStatus(int(raw))
    except ValueError:
        raise _invalid(
            "durumId", "durumId 1 ile 4 arasında olmalıdır.", None, min=1, max=4
        ) from None


def _positive_param(params: Mapping[str, str], name: str, default: int) -> int:
    raw = params.get(name) or None
    if raw is None:
        return default
    if not raw.isdecimal() or int(raw) < 1:
        raise _invalid(name, f"{name} pozitif bir tam sayı olmalıdır.", None, min=1)
    return int(raw)


def _field(key: str, index: int | None) -> str:
    """The name of a field as the error details give it; bulk items carry their index."""
    return key if index is None else f"makaleler[{index}].{key}"


def _invalid(field: str, message: str, index: int | None, **details: object) -> ApiError:
    where = {} if index is None else {"index": index}
    return ApiError(400, "ValidationError", message, details={"field": field, **details, **where})


def _login_invalid(field: str, message: str) -> ApiError:
    return ApiError(400, "Validation Error", message, details={"field": field})
