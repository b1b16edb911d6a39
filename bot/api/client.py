"""The typed async client of the article service."""

from __future__ import annotations

import enum
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
import stamina

from bot.api import parsing
from bot.api.errors import (
    ArticleApiError,
    InsufficientBalance,
    LoginInvalid,
    LoginRejected,
    OperationMissing,
    OutcomeUnknown,
    PermissionDenied,
    RateLimited,
    RequestRejected,
    ServiceUnavailable,
    TokenRejected,
    UnexpectedResponse,
    ValidationFailed,
)
from bot.api.models import Article, CreatedJob, Size, TokenPair, Tone, Topic

__all__ = ["DEFAULT_BULK_PATH", "NEWEST_ARTICLES", "ArticleApi", "CallObserver", "CallReport"]

logger = logging.getLogger("bot.api")

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class CallReport:
    """One finished call: what was asked, whether it was paid, how long it took, how it failed."""

    operation: str
    paid: bool
    seconds: float
    failure: ArticleApiError | None = None
    interrupted: bool = False

    @property
    def outcome(self) -> str:
        """``ok``, ``interrupted`` or the failure's class name: a label to count by."""
        if self.failure is not None:
            return type(self.failure).__name__
        return "interrupted" if self.interrupted else "ok"


# Told of every call, after it ends.
CallObserver = Callable[[CallReport], Awaitable[None]]


class _Kind(enum.Enum):
    """What a failure of a call means: whose credentials a 401 refuses, and what was paid."""

    LOGIN = enum.auto()
    REFRESH = enum.auto()
    PROTECTED = enum.auto()
    PAID = enum.auto()


@dataclass(frozen=True, slots=True)
class _Operation:
    """One operation of the interface: its method, its path as written there, and its kind."""

    name: str
    method: str
    path: str
    kind: _Kind


# Bulk creation's path is not in the interface; this is the likeliest, and it can be set.
DEFAULT_BULK_PATH = "/api/v1/makaleler/toplu-makale-olustur"
_LOGIN = _Operation("login", "POST", "/api/v1/auth/login", _Kind.LOGIN)
_REFRESH = _Operation("refresh", "POST", "/api/v1/auth/refresh", _Kind.REFRESH)
_BALANCE = _Operation("balance", "GET", "/api/v1/profil/guncel-bakiye", _Kind.PROTECTED)
_TONES = _Operation("tones", "GET", "/api/v1/makaleler/yazim-tonlari", _Kind.PROTECTED)
_SIZES = _Operation("sizes", "GET", "/api/v1/makaleler/makale-boyutları", _Kind.PROTECTED)
_CREATE = _Operation("create", "POST", "/api/v1/makaleler/makale-olustur", _Kind.PAID)
_ARTICLES = _Operation("articles", "GET", "/api/v1/makaleler/makalelerim", _Kind.PROTECTED)
_ADD_TOPIC = _Operation("add topic", "POST", "/api/v1/konular/konu-ekle", _Kind.PROTECTED)

# Failures before a single byte of the request left: a paid call was surely not charged.
_NOT_SENT = (
    httpx.ConnectError,
    httpx.ConnectTimeout,
    httpx.PoolTimeout,
    httpx.ProxyError,
    httpx.UnsupportedProtocol,
)
# A request timeout is the only status that says the request was never acted on; a 503 may
# come from a proxy after the service committed the charge, so for a paid call it is unknown.
_NOT_DONE = 408
# Bad JSON, bad UTF-8 and integers too long to convert are ValueErrors; deep nesting recurses.
_UNREADABLE_BODY = (ValueError, RecursionError)
# How many of the newest own articles the bot asks for at once: the list's paging
# parameters are not documented, and every article the bot has to look for is recent.
NEWEST_ARTICLES = 100
# Backoff between read attempts, in seconds; stamina adds jitter on top.
_READ_WAIT_INITIAL = 0.2
_READ_WAIT_MAX = 2.0
_READ_WAIT_JITTER = 0.5


class ArticleApi:
    """The service's operations: each returns a model or raises an ``ArticleApiError``."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        *,
        base_url: str,
        bulk_path: str = DEFAULT_BULK_PATH,
        topic_field: str = "konu",
        read_attempts: int = 3,
        observer: CallObserver | None = None,
    ) -> None:
        if read_attempts < 1:
            raise ValueError("read_attempts must be at least 1")
        self._http = http
        self._base_url = base_url.rstrip("/")
        self._bulk = _Operation("bulk create", "POST", bulk_path, _Kind.PAID)
        self._topic_field = topic_field
        self._observer = observer
        self._retrying_reads = stamina.AsyncRetryingCaller(
            attempts=read_attempts,
            timeout=None,
            wait_initial=_READ_WAIT_INITIAL,
            wait_max=_READ_WAIT_MAX,
            wait_jitter=_READ_WAIT_JITTER,
        ).on(ServiceUnavailable)

    @property
    def base_url(self) -> str:
        """The service's address, without a trailing slash."""
        return self._base_url

    async def login(self, email: str, password: str) -> TokenPair:
        """A token pair for e-mail and password; never retried, a retry may count as a failure."""
        body = {"email": email, "password": password}
        return await self._call(_LOGIN, parsing.parse_token_pair, body=body)

    async def refresh(self, refresh_token: str) -> TokenPair:
        """A new token pair; the old refresh token may stop working, so this is never retried."""
        body = {"refreshToken": refresh_token}
        return await self._call(_REFRESH, parsing.parse_token_pair, body=body)

    async def balance(self, token: str) -> Decimal:
        """The current balance in TL."""
        return await self._read(_BALANCE, parsing.parse_balance, token)

    async def tones(self, token: str) -> list[Tone]:
        """The writing tones the service lists; empty when it lists none."""
        return await self._read(_TONES, parsing.parse_tones, token)

    async def sizes(self, token: str) -> list[Size]:
        """The article sizes the service lists; empty when it lists none."""
        return await self._read(_SIZES, parsing.parse_sizes, token)

    async def create(self, token: str, *, title: str, tone: int, size: int) -> CreatedJob:
        """Order one article; it is charged, so it is sent once and never re-sent."""
        body = _order(title, tone, size)
        return await self._call(_CREATE, parsing.parse_created_job, token=token, body=body)

    async def articles(
        self,
        token: str,
        *,
        request_id: str | None = None,
        page_size: int | None = None,
        status_id: int | None = None,
    ) -> list[Article]:
        """The caller's own articles, newest first, optionally filtered."""
        filters = {"requestId": request_id, "pageSize": page_size, "durumId": status_id}
        params = {name: value for name, value in filters.items() if value is not None}
        return await self._read(_ARTICLES, parsing.parse_articles, token, params)

    async def add_topic(self, token: str, topic: str) -> Topic:
        """Add a topic to the caller's account."""
        return await self._call(
            _ADD_TOPIC,
            lambda payload: parsing.parse_topic(payload, topic),
            token=token,
            body={self._topic_field: topic},
        )

    async def bulk_create(
        self, token: str, items: Sequence[tuple[str, int, int]]
    ) -> list[CreatedJob]:
        """Order several articles (title, tone, size) at once; charged, so never re-sent."""
        body = {"makaleler": [_order(title, tone, size) for title, tone, size in items]}
        return await self._call(self._bulk, parsing.parse_created_jobs, token=token, body=body)

    async def _read(
        self,
        operation: _Operation,
        read: Callable[[Any], T],
        token: str,
        params: Mapping[str, str | int] | None = None,
    ) -> T:
        """A read call, tried again with backoff and jitter while the service is unavailable."""
        return await self._retrying_reads(self._call, operation, read, token=token, params=params)

    async def _call(
        self,
        operation: _Operation,
        read: Callable[[Any], T],
        *,
        token: str | None = None,
        body: object = None,
        params: Mapping[str, str | int] | None = None,
    ) -> T:
        """Send one request and read its answer; every failure leaves as an ``ArticleApiError``."""
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        # The interface's paths carry non-ASCII letters (makale-boyutları): send them encoded.
        url = self._base_url + quote(operation.path, safe="/%")
        started = time.perf_counter()
        outcome: str | None = None
        failure: ArticleApiError | None = None
        # Stays true only when the call is cancelled before it ends either way.
        interrupted = True
        try:
            response = await self._http.request(
                operation.method, url, json=body, params=params, headers=headers
            )
            outcome = str(response.status_code)
            response.raise_for_status()
            value = read(_payload(response))
            interrupted = False
            return value
        except (httpx.HTTPError, UnexpectedResponse, *_UNREADABLE_BODY) as err:
            outcome = outcome or type(err).__name__
            failure = _api_error(err, operation)
            interrupted = False
            raise failure from err
        finally:
            # Path and status only: bodies and headers carry passwords and tokens.
            elapsed = time.perf_counter() - started
            logger.debug(
                "%s %s -> %s in %.0f ms", operation.method, operation.path, outcome, elapsed * 1000
            )
            if self._observer is not None:
                paid = operation.kind is _Kind.PAID
                call = CallReport(operation.name, paid, elapsed, failure, interrupted)
                await self._observer(call)


def _order(title: str, tone: int, size: int) -> dict[str, object]:
    """The payload of one article order, with the interface's field names."""
    return {"baslik": title, "yazimTonu": tone, "makaleBoyutu": size}


def _payload(response: httpx.Response) -> Any:
    """The JSON body of an answer; an empty body (204, or a bare 200) reads as null."""
    return response.json() if response.content.strip() else None


def _api_error(err: Exception, operation: _Operation) -> ArticleApiError:
    """The error-tree exception for a failed call: the one place that reads httpx's failures."""
    paid = operation.kind is _Kind.PAID
    if isinstance(err, httpx.TransportError):
        if paid and not isinstance(err, _NOT_SENT):
            return OutcomeUnknown(
                f"{operation.name}: no answer after sending ({type(err).__name__}); "
                "it may have been charged"
            )
        return ServiceUnavailable(f"{operation.name}: {type(err).__name__}")
    if not isinstance(err, httpx.HTTPStatusError):
        # A 2xx answer whose body cannot be read. For a paid call the order was accepted
        # and charged, so the caller must reconcile rather than offer to order again.
        if paid:
            return OutcomeUnknown(f"{operation.name}: accepted, but the answer is unreadable")
        return UnexpectedResponse(f"{operation.name}: unreadable answer: {err}")
    status = err.response.status_code
    body = _error_body(err.response)
    text = f"{operation.name}: {status} {body.message or body.error or err.response.reason_phrase}"
    if status >= 500 or status == _NOT_DONE:
        if paid and status != _NOT_DONE:
            return OutcomeUnknown(f"{text}; it may have been charged", status=status)
        return ServiceUnavailable(text, status=status)
    if status == 429:
        retry_after = err.response.headers.get("Retry-After")
        now = datetime.now(UTC)
        return RateLimited(text, retry_after=parsing.parse_retry_after(retry_after, now))
    if status == 403 and body.is_one_of("INSUFFICIENT_BALANCE", "InsufficientBalance"):
        return InsufficientBalance(text, required=body.required, current=body.current)
    rejection: type[RequestRejected]
    if status in {404, 405}:
        rejection = OperationMissing
    elif status == 403:
        rejection = PermissionDenied
    elif operation.kind is _Kind.LOGIN and status in {400, 401, 422}:
        wrong = status == 401 or body.is_one_of("Invalid credentials")
        rejection = LoginRejected if wrong else LoginInvalid
    elif status == 401 or (operation.kind is _Kind.REFRESH and status in {400, 422}):
        rejection = TokenRejected
    elif status in {400, 422}:
        rejection = ValidationFailed
    elif 400 <= status < 500:
        rejection = RequestRejected
    else:
        return UnexpectedResponse(f"{operation.name}: unexpected status {status}", status=status)
    return rejection(
        text, status=status, error=body.error, details=body.details, reason=body.message
    )


def _error_body(response: httpx.Response) -> parsing.ErrorBody:
    """What an error answer says; a body that is not JSON says nothing."""
    try:
        return parsing.parse_error_body(_payload(response))
    except _UNREADABLE_BODY:
        return parsing.ErrorBody()
