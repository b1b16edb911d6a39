"""Read the service's answers, whatever shape they come in.

The interface leaves most bodies "not shown", so every answer is read
tolerantly: bare or wrapped in ``data``, lists under ``items`` and the like,
English or Turkish keys in any case style, numbers as numbers or strings
(``"1.234,50"`` too), statuses as words or ids. Each ``parse_*`` function
returns its type or raises :class:`UnexpectedResponse`, never anything else.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from email.utils import parsedate_to_datetime
from typing import Any, TypeVar

from bot.api.errors import UnexpectedResponse
from bot.api.models import (
    DEFAULT_SIZES,
    DEFAULT_TONES,
    Article,
    ArticleStatus,
    CreatedJob,
    Size,
    TokenPair,
    Tone,
    Topic,
)

__all__ = [
    "ErrorBody",
    "parse_articles",
    "parse_balance",
    "parse_created_job",
    "parse_created_jobs",
    "parse_error_body",
    "parse_retry_after",
    "parse_sizes",
    "parse_token_pair",
    "parse_tones",
    "parse_topic",
    "printable",
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
_ACCESS_TOKEN = ("accesstoken", "token", "jwt")
_REFRESH_TOKEN = ("refreshtoken",)
_EXPIRY = (
    "accesstokenexpire",
    "accesstokenexpires",
    "accesstokenexpiresat",
    "accesstokenexpiry",
    "expiresat",
    "expires",
    "expire",
    "exp",
)
_BALANCE = (
    "balance",
    "bakiye",
    "guncelbakiye",
    "mevcutbakiye",
    "currentbalance",
    "amount",
    "tutar",
    "miktar",
    "value",
    "deger",
)
_CHOICE_ID = (
    "id",
    "value",
    "deger",
    "key",
    "kod",
    "tonid",
    "yazimtonuid",
    "boyutid",
    "makaleboyutuid",
)
_NAME = ("name", "ad", "adi", "isim", "label", "title", "baslik")
_DESCRIPTION = ("description", "aciklama", "desc", "karakter")
_WORDS = ("kelimesayisi", "wordcount", "words", "kelime", "kelimearaligi")
_READING_TIME = ("okumasuresi", "readingtime", "sure")
_COST = ("cost", "ucret", "fiyat", "price", "tutar", "amount", "ucrettl")
_REQUEST_ID = ("requestid", "id", "jobid", "talepid", "istekid", "makaleid")
_ESTIMATE = ("estimatedtime", "tahminisure", "estimate", "eta", "sure")
_MESSAGE = ("message", "mesaj", "msg")
_TITLE = ("title", "baslik", "name", "ad")
_STATUS_WORD = ("status", "durum", "state", "durumadi", "statusname")
_STATUS_ID = ("statusid", "durumid", "stateid")
_PROGRESS = ("progress", "ilerleme", "percent", "percentage", "yuzde")
_CONTENT = ("content", "icerik", "metin", "text", "body", "makale", "article", "makaleicerigi")
_CREATED_AT = (
    "createdat",
    "olusturmatarihi",
    "olusturulmatarihi",
    "createddate",
    "creationdate",
    "created",
    "tarih",
)
_FAILURE = ("hatamesaji", "errormessage", "failurereason", "hata", "error", "reason", "neden")
_TOPIC_ID = ("id", "konuid", "topicid")
_TOPIC_NAME = ("konu", "topic", "name", "ad", "baslik", "title")
_ERROR_NAME = ("error", "hata", "name", "type")
_ERROR_CODE = ("code", "kod", "errorcode", "hatakodu")
_ERROR_DETAILS = ("details", "detaylar", "detail", "errors", "hatalar")
_REQUIRED = ("requiredamount", "required", "gerekentutar", "gereklitutar")
_CURRENT = ("currentbalance", "mevcutbakiye", "balance", "bakiye")

_STATUS_IDS = {
    1: ArticleStatus.PENDING,
    2: ArticleStatus.PROCESSING,
    3: ArticleStatus.FINISHED,
    4: ArticleStatus.FAILED,
}
# Folding drops case, spaces and underscores, so "IN_PROGRESS" matches "in_progress".
_STATUS_WORDS = {
    ArticleStatus.PENDING: (
        "pending queued waiting new created submitted accepted "
        "beklemede bekliyor sırada kuyrukta yeni alındı"
    ),
    ArticleStatus.PROCESSING: (
        "processing in_progress running started generating working "
        "işleniyor işlemde hazırlanıyor oluşturuluyor yazılıyor devam_ediyor üretiliyor"
    ),
    ArticleStatus.FINISHED: (
        "finished completed complete done success succeeded successful ready "
        "tamamlandı tamamlanmış tamam hazır bitti başarılı"
    ),
    ArticleStatus.FAILED: (
        "failed failure fail error errored cancelled canceled rejected "
        "başarısız hata hatalı iptal iptal_edildi reddedildi"
    ),
}

# Nesting deeper than this is not a shape any service sends; it bounds the search.
_MAX_DEPTH = 4
# A timestamp above this is in milliseconds (10^11 seconds is the year 5138).
_MILLISECONDS_FROM = 10**11
# Ids and percentages beyond this are nonsense, and int() of "1e999999" would hang.
_INT_LIMIT = 10**18
_NON_ALNUM = re.compile(r"[^a-z0-9]")
# C0 and C1 controls but tab and line breaks, and lone surrogates (no encoding takes them):
# PostgreSQL refuses a NUL in text, and a chat would show the rest as garbage.
_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_CURRENCY = re.compile(r"(?i)\s|tl|try|₺")


def _fold(text: str) -> str:
    """Fold a key or word to lower-case ASCII letters and digits: ``"Durum_ID"`` -> ``durumid``."""
    # NFKD splits ç, ş, ğ, ö, ü and İ into a base letter and a mark; ı has no such split.
    decomposed = unicodedata.normalize("NFKD", text.replace("ı", "i"))
    return _NON_ALNUM.sub("", decomposed.lower())


_STATUS_BY_WORD = {
    _fold(word): status for status, words in _STATUS_WORDS.items() for word in words.split()
}


def _folded(record: dict[str, Any]) -> Fields:
    """A JSON object's fields keyed by folded name."""
    return {_fold(key): value for key, value in record.items()}


def _first(fields: Fields, names: tuple[str, ...]) -> Any:
    """The first of these fields that is present and not null."""
    for name in names:
        value = fields.get(name)
        if value is not None:
            return value
    return None


def _refuse_failure(payload: Any, what: str) -> None:
    """A 2xx answer that says ``success: false`` did not do what was asked."""
    if isinstance(payload, dict) and _folded(payload).get("success") is False:
        raise UnexpectedResponse(f"the {what} answer says success: false")


def _unwrap(payload: Any) -> Any:
    """What ``data`` (or a similar wrapper) holds, through nested wrappers; a bare payload as is."""
    value = payload
    for _ in range(_MAX_DEPTH):
        if not isinstance(value, dict):
            break
        inner = _first(_folded(value), _WRAPPERS)
        if inner is None:
            break
        value = inner
    return value


def _record(payload: Any, what: str) -> Fields:
    """The object an answer is about, with folded keys."""
    _refuse_failure(payload, what)
    value = _unwrap(payload)
    if not isinstance(value, dict):
        raise UnexpectedResponse(f"the {what} answer is not an object")
    return _folded(value)


def _list_in(value: Any, depth: int = 0) -> list[Any] | None:
    """The list an answer carries: bare, or under ``data``, ``data.items``, ``results``, ..."""
    if isinstance(value, list):
        return value
    if not isinstance(value, dict) or depth >= _MAX_DEPTH:
        return None
    fields = _folded(value)
    for name in _LISTS:
        found = _list_in(fields.get(name), depth + 1)
        if found is not None:
            return found
    # Some services (Go's encoder, for one) send an empty list as null.
    if any(name in fields and fields[name] is None for name in _NULLABLE_LISTS):
        return []
    return None


def _parse_list(
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
    _refuse_failure(payload, what)
    items = _list_in(payload)
    if items is None:
        single = _unwrap(payload)
        if not (isinstance(single, dict) and _first(_folded(single), lone) is not None):
            raise UnexpectedResponse(f"the {what} answer holds no list")
        items = [single]
    readings = (read(_folded(item)) for item in items if isinstance(item, dict))
    parsed = [value for value in readings if value is not None]
    if items and not parsed:
        raise UnexpectedResponse(f"no item of the {what} list can be read")
    return parsed


def printable(text: str) -> str:
    """The text without control characters (NUL among them); tabs and line breaks stay."""
    return _UNPRINTABLE.sub("", text)


def _text(value: Any) -> str | None:
    """A non-empty printable string, or a number written as one; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return printable(value).strip() or None
    return None


def _plain_number(text: str) -> str:
    """``"1.234,50 TL"`` -> ``"1234.50"``; the later of two separators is the decimal one."""
    digits = _CURRENCY.sub("", text)
    if "," in digits and "." in digits:
        thousands = "." if digits.rfind(",") > digits.rfind(".") else ","
        digits = digits.replace(thousands, "")
    elif digits.count(",") > 1 or digits.count(".") > 1:
        digits = digits.replace(",", "").replace(".", "")
    # A lone comma is the Turkish decimal comma; a lone dot is a decimal point.
    return digits.replace(",", ".")


def _decimal(value: Any) -> Decimal | None:
    """A finite number from a JSON number or a written one; floats go through ``str``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        text = str(value)
    elif isinstance(value, str):
        text = _plain_number(value)
    else:
        return None
    try:
        number = Decimal(text)
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def _integer(value: Any) -> int | None:
    """A whole number of reasonable size, from a number or a string."""
    number = _decimal(value)
    if number is None or abs(number) >= _INT_LIMIT or number != number.to_integral_value():
        return None
    return int(number)


def _moment(value: Any) -> datetime | None:
    """An aware UTC time from Unix seconds or milliseconds, or from ISO 8601 text."""
    if isinstance(value, str):
        try:
            return _moment(float(value))
        except ValueError:
            return _iso_moment(value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        return datetime.fromtimestamp(value / 1000 if value > _MILLISECONDS_FROM else value, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return None


def _iso_moment(text: str) -> datetime | None:
    """An aware UTC time from ISO 8601 text; a time without a zone is taken as UTC."""
    try:
        parsed = datetime.fromisoformat(text.strip())
        return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)
    except (OverflowError, ValueError):
        return None


def _status(fields: Fields) -> ArticleStatus:
    """The job's state from the first status word or id that can be read."""
    for value in (fields.get(name) for name in (*_STATUS_WORD, *_STATUS_ID)):
        if isinstance(value, dict):  # {"id": 2, "ad": "İşleniyor"}
            value = _first(_folded(value), (*_NAME, "id"))
        number = _integer(value)
        if number is not None:
            status = _STATUS_IDS.get(number, ArticleStatus.UNKNOWN)
        elif isinstance(value, str):
            status = _STATUS_BY_WORD.get(_fold(value), ArticleStatus.UNKNOWN)
        else:
            continue
        if status is not ArticleStatus.UNKNOWN:
            return status
    return ArticleStatus.UNKNOWN


def _progress(value: Any) -> int | None:
    """A percentage between 0 and 100 from ``40``, ``40.5`` or ``"40%"``."""
    number = _decimal(value.replace("%", "") if isinstance(value, str) else value)
    if number is None:
        return None
    return int(min(max(number, Decimal(0)), Decimal(100)))


def _default_name(defaults: tuple[Tone, ...] | tuple[Size, ...], choice_id: int) -> str | None:
    """The interface's name for a tone or size id, when the service gives none."""
    return next((choice.name for choice in defaults if choice.id == choice_id), None)


def _tone(fields: Fields) -> Tone | None:
    tone_id = _integer(_first(fields, _CHOICE_ID))
    if tone_id is None:
        return None
    name = _text(_first(fields, _NAME)) or _default_name(DEFAULT_TONES, tone_id)
    if name is None:
        return None
    return Tone(tone_id, name, _text(_first(fields, _DESCRIPTION)) or "")


def _size(fields: Fields) -> Size | None:
    size_id = _integer(_first(fields, _CHOICE_ID))
    if size_id is None:
        return None
    name = _text(_first(fields, _NAME)) or _default_name(DEFAULT_SIZES, size_id)
    if name is None:
        return None
    return Size(
        size_id,
        name,
        words=_text(_first(fields, _WORDS)) or "",
        cost=_decimal(_first(fields, _COST)),
        reading_time=_text(_first(fields, _READING_TIME)) or "",
    )


def _created_job(fields: Fields, message: str) -> CreatedJob | None:
    request_id = _text(_first(fields, _REQUEST_ID))
    if request_id is None:
        return None
    return CreatedJob(
        request_id,
        estimated_time=_text(_first(fields, _ESTIMATE)) or "",
        cost=_decimal(_first(fields, _COST)),
        message=_text(_first(fields, _MESSAGE)) or message,
    )


def _envelope_message(payload: Any) -> str:
    """The top-level ``message`` beside ``data``, if any."""
    if not isinstance(payload, dict):
        return ""
    return _text(_first(_folded(payload), _MESSAGE)) or ""


def _article(fields: Fields) -> Article | None:
    request_id = _text(_first(fields, _REQUEST_ID))
    if request_id is None:
        return None
    content = _first(fields, _CONTENT)
    return Article(
        request_id,
        status=_status(fields),
        title=_text(_first(fields, _TITLE)),
        progress=_progress(_first(fields, _PROGRESS)),
        content=printable(content) if isinstance(content, str) else None,
        created_at=_moment(_first(fields, _CREATED_AT)),
        failure_reason=_text(_first(fields, _FAILURE)),
    )


def parse_token_pair(payload: Any) -> TokenPair:
    """The token pair of a login or refresh answer, bare or in ``data``."""
    fields = _record(payload, "token")
    access = _first(fields, _ACCESS_TOKEN)
    refresh = _first(fields, _REFRESH_TOKEN)
    expires = _moment(_first(fields, _EXPIRY))
    if not isinstance(access, str) or not access or not isinstance(refresh, str) or not refresh:
        raise UnexpectedResponse("the token answer lacks accessToken or refreshToken")
    if expires is None:
        raise UnexpectedResponse("the token answer has no readable accessTokenExpire")
    return TokenPair(access, expires, refresh)


def parse_balance(payload: Any) -> Decimal:
    """The current balance in TL: a number, or an object with ``bakiye``/``balance``."""
    _refuse_failure(payload, "balance")
    value = _unwrap(payload)
    for _ in range(_MAX_DEPTH):
        if not isinstance(value, dict):
            break
        # {"bakiye": {"tutar": 500, "paraBirimi": "TL"}} nests the amount once more.
        value = _first(_folded(value), _BALANCE)
    balance = _decimal(value)
    if balance is None:
        raise UnexpectedResponse("the balance answer holds no readable amount")
    return balance


def parse_tones(payload: Any) -> list[Tone]:
    """The writing tones the service lists (possibly none)."""
    return _parse_list(payload, "tones", _tone)


def parse_sizes(payload: Any) -> list[Size]:
    """The article sizes the service lists (possibly none)."""
    return _parse_list(payload, "sizes", _size)


def parse_created_job(payload: Any) -> CreatedJob:
    """The answer to a create call: ``data.requestId``, ``estimatedTime`` and ``cost``."""
    job = _created_job(_record(payload, "create"), _envelope_message(payload))
    if job is None:
        raise UnexpectedResponse("the create answer has no requestId")
    return job


def parse_created_jobs(payload: Any) -> list[CreatedJob]:
    """The jobs a bulk create started, one per accepted item."""
    message = _envelope_message(payload)
    return _parse_list(payload, "bulk create", lambda fields: _created_job(fields, message))


def parse_articles(payload: Any) -> list[Article]:
    """The own-articles list; a single article object counts as a list of one."""
    return _parse_list(payload, "articles", _article, lone=_REQUEST_ID)


def parse_topic(payload: Any, topic: str) -> Topic:
    """The added topic: its id if the answer names one (an empty answer is a plain yes)."""
    _refuse_failure(payload, "topic")
    value = _unwrap(payload)
    if value is None or value is True:
        return Topic(None, topic)
    if isinstance(value, dict):
        fields = _folded(value)
        return Topic(_text(_first(fields, _TOPIC_ID)), _text(_first(fields, _TOPIC_NAME)) or topic)
    topic_id = _text(value)
    if topic_id is None:
        raise UnexpectedResponse("the topic answer is neither an object nor an id")
    return Topic(topic_id, topic)


@dataclass(frozen=True, slots=True)
class ErrorBody:
    """What an error answer says, as far as it can be read."""

    error: str | None = None
    message: str | None = None
    code: str | None = None
    details: dict[str, Any] = field(default_factory=dict)
    required: Decimal | None = None
    current: Decimal | None = None

    def is_one_of(self, *names: str) -> bool:
        """Whether the error name or code is one of these, ignoring case and separators."""
        wanted = {_fold(name) for name in names}
        return any(_fold(said) in wanted for said in (self.error, self.code) if said)


def parse_error_body(payload: Any) -> ErrorBody:
    """Read an error answer; whatever cannot be read is left out, nothing is raised."""
    if not isinstance(payload, dict):
        return ErrorBody()
    fields = _folded(payload)
    nested = fields.get("error")
    if isinstance(nested, dict):  # {"error": {"code": ..., "message": ...}}
        fields = {**fields, **_folded(nested)}
    details = _first(fields, _ERROR_DETAILS)
    if isinstance(details, list):
        details = {"errors": details}
    return ErrorBody(
        error=_text(_first(fields, _ERROR_NAME)),
        message=_text(_first(fields, _MESSAGE)),
        code=_text(_first(fields, _ERROR_CODE)),
        details=details if isinstance(details, dict) else {},
        required=_decimal(_first(fields, _REQUIRED)),
        current=_decimal(_first(fields, _CURRENT)),
    )


def parse_retry_after(value: str | None, now: datetime) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: a number of seconds or an HTTP date."""
    if value is None:
        return None
    seconds = _decimal(value)
    if seconds is not None:
        return float(max(seconds, Decimal(0)))
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max((when - now).total_seconds(), 0.0)
