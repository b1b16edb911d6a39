"""Read the service's answers, whatever shape they come in.

The interface leaves most bodies "not shown", so every answer is read
tolerantly: bare or wrapped in ``data``, lists under ``items`` and the like,
English or Turkish keys in any case style, numbers as numbers or strings
(``"1.234,50"`` too), statuses as words or ids. Each ``parse_*`` function
returns its type or raises :class:`UnexpectedResponse`, never anything else; the tolerant
reading of names, wrappers, lists and values it builds on is ``bot.api.reading``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from email.utils import parsedate_to_datetime
from typing import Any

from bot.api import reading
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
from bot.api.reading import Fields

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
]

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

_STATUS_BY_WORD = {
    reading.fold(word): status for status, words in _STATUS_WORDS.items() for word in words.split()
}


def _status(fields: Fields) -> ArticleStatus:
    """The job's state from the first status word or id that can be read."""
    for value in (fields.get(name) for name in (*_STATUS_WORD, *_STATUS_ID)):
        if isinstance(value, dict):  # {"id": 2, "ad": "İşleniyor"}
            value = reading.first(reading.folded(value), (*_NAME, "id"))
        number = reading.integer(value)
        if number is not None:
            status = _STATUS_IDS.get(number, ArticleStatus.UNKNOWN)
        elif isinstance(value, str):
            status = _STATUS_BY_WORD.get(reading.fold(value), ArticleStatus.UNKNOWN)
        else:
            continue
        if status is not ArticleStatus.UNKNOWN:
            return status
    return ArticleStatus.UNKNOWN


def _progress(value: Any) -> int | None:
    """A percentage between 0 and 100 from ``40``, ``40.5`` or ``"40%"``."""
    number = reading.decimal(value.replace("%", "") if isinstance(value, str) else value)
    if number is None:
        return None
    return int(min(max(number, Decimal(0)), Decimal(100)))


def _default_name(defaults: tuple[Tone, ...] | tuple[Size, ...], choice_id: int) -> str | None:
    """The interface's name for a tone or size id, when the service gives none."""
    return next((choice.name for choice in defaults if choice.id == choice_id), None)


def _tone(fields: Fields) -> Tone | None:
    tone_id = reading.integer(reading.first(fields, _CHOICE_ID))
    if tone_id is None:
        return None
    name = reading.text(reading.first(fields, _NAME)) or _default_name(DEFAULT_TONES, tone_id)
    if name is None:
        return None
    return Tone(tone_id, name, reading.text(reading.first(fields, _DESCRIPTION)) or "")


def _size(fields: Fields) -> Size | None:
    size_id = reading.integer(reading.first(fields, _CHOICE_ID))
    if size_id is None:
        return None
    name = reading.text(reading.first(fields, _NAME)) or _default_name(DEFAULT_SIZES, size_id)
    if name is None:
        return None
    return Size(
        size_id,
        name,
        words=reading.text(reading.first(fields, _WORDS)) or "",
        cost=reading.decimal(reading.first(fields, _COST)),
        reading_time=reading.text(reading.first(fields, _READING_TIME)) or "",
    )


def _created_job(fields: Fields, message: str) -> CreatedJob | None:
    request_id = reading.text(reading.first(fields, _REQUEST_ID))
    if request_id is None:
        return None
    return CreatedJob(
        request_id,
        estimated_time=reading.text(reading.first(fields, _ESTIMATE)) or "",
        cost=reading.decimal(reading.first(fields, _COST)),
        message=reading.text(reading.first(fields, _MESSAGE)) or message,
    )


def _envelope_message(payload: Any) -> str:
    """The top-level ``message`` beside ``data``, if any."""
    if not isinstance(payload, dict):
        return ""
    return reading.text(reading.first(reading.folded(payload), _MESSAGE)) or ""


def _article(fields: Fields) -> Article | None:
    request_id = reading.text(reading.first(fields, _REQUEST_ID))
    if request_id is None:
        return None
    content = reading.first(fields, _CONTENT)
    return Article(
        request_id,
        status=_status(fields),
        title=reading.text(reading.first(fields, _TITLE)),
        progress=_progress(reading.first(fields, _PROGRESS)),
        content=reading.printable(content) if isinstance(content, str) else None,
        created_at=reading.moment(reading.first(fields, _CREATED_AT)),
        failure_reason=reading.text(reading.first(fields, _FAILURE)),
    )


def parse_token_pair(payload: Any) -> TokenPair:
    """The token pair of a login or refresh answer, bare or in ``data``."""
    fields = reading.record(payload, "token")
    access = reading.first(fields, _ACCESS_TOKEN)
    refresh = reading.first(fields, _REFRESH_TOKEN)
    expires = reading.moment(reading.first(fields, _EXPIRY))
    if not isinstance(access, str) or not access or not isinstance(refresh, str) or not refresh:
        raise UnexpectedResponse("the token answer lacks accessToken or refreshToken")
    if expires is None:
        raise UnexpectedResponse("the token answer has no readable accessTokenExpire")
    return TokenPair(access, expires, refresh)


def parse_balance(payload: Any) -> Decimal:
    """The current balance in TL: a number, or an object with ``bakiye``/``balance``."""
    reading.refuse_failure(payload, "balance")
    value = reading.unwrap(payload)
    for _ in range(reading.MAX_DEPTH):
        if not isinstance(value, dict):
            break
        # {"bakiye": {"tutar": 500, "paraBirimi": "TL"}} nests the amount once more.
        value = reading.first(reading.folded(value), _BALANCE)
    balance = reading.decimal(value)
    if balance is None:
        raise UnexpectedResponse("the balance answer holds no readable amount")
    return balance


def parse_tones(payload: Any) -> list[Tone]:
    """The writing tones the service lists (possibly none)."""
    return reading.parse_list(payload, "tones", _tone)


def parse_sizes(payload: Any) -> list[Size]:
    """The article sizes the service lists (possibly none)."""
    return reading.parse_list(payload, "sizes", _size)


def parse_created_job(payload: Any) -> CreatedJob:
    """The answer to a create call: ``data.requestId``, ``estimatedTime`` and ``cost``."""
    job = _created_job(reading.record(payload, "create"), _envelope_message(payload))
    if job is None:
        raise UnexpectedResponse("the create answer has no requestId")
    return job


def parse_created_jobs(payload: Any) -> list[CreatedJob]:
    """The jobs a bulk create started, one per accepted item."""
    message = _envelope_message(payload)
    return reading.parse_list(payload, "bulk create", lambda fields: _created_job(fields, message))


def parse_articles(payload: Any) -> list[Article]:
    """The own-articles list; a single article object counts as a list of one."""
    return reading.parse_list(payload, "articles", _article, lone=_REQUEST_ID)


def parse_topic(payload: Any, topic: str) -> Topic:
    """The added topic: its id if the answer names one (an empty answer is a plain yes)."""
    reading.refuse_failure(payload, "topic")
    value = reading.unwrap(payload)
    if value is None or value is True:
        return Topic(None, topic)
    if isinstance(value, dict):
        fields = reading.folded(value)
        return Topic(
            reading.text(reading.first(fields, _TOPIC_ID)),
            reading.text(reading.first(fields, _TOPIC_NAME)) or topic,
        )
    topic_id = reading.text(value)
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
        wanted = {reading.fold(name) for name in names}
        return any(reading.fold(said) in wanted for said in (self.error, self.code) if said)


def parse_error_body(payload: Any) -> ErrorBody:
    """Read an error answer; whatever cannot be read is left out, nothing is raised."""
    if not isinstance(payload, dict):
        return ErrorBody()
    fields = reading.folded(payload)
    nested = fields.get("error")
    if isinstance(nested, dict):  # {"error": {"code": ..., "message": ...}}
        fields = {**fields, **reading.folded(nested)}
    details = reading.first(fields, _ERROR_DETAILS)
    if isinstance(details, list):
        details = {"errors": details}
    return ErrorBody(
        error=reading.text(reading.first(fields, _ERROR_NAME)),
        message=reading.text(reading.first(fields, _MESSAGE)),
        code=reading.text(reading.first(fields, _ERROR_CODE)),
        details=details if isinstance(details, dict) else {},
        required=reading.decimal(reading.first(fields, _REQUIRED)),
        current=reading.decimal(reading.first(fields, _CURRENT)),
    )


def parse_retry_after(value: str | None, now: datetime) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: a number of seconds or an HTTP date."""
    if value is None:
        return None
    seconds = reading.decimal(value)
    if seconds is not None:
        return float(max(seconds, Decimal(0)))
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max((when - now).total_seconds(), 0.0)
