"""The article service client over httpx's mock transport: paths, shapes, failures, retries."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from decimal import Decimal
from typing import Any

import httpx
import pytest
import stamina

from bot.api import (
    ArticleApi,
    ArticleApiError,
    ArticleStatus,
    CreatedJob,
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
    Tone,
    Topic,
    UnexpectedResponse,
    ValidationFailed,
)

BASE_URL = "https://makale.example/"
EMAIL = "demo@example.com"
PASSWORD = "Demo12345"
TOKEN = "access-token-1"
TOKEN_PAIR = {"accessToken": "a2", "accessTokenExpire": 1_900_000_000, "refreshToken": "r2"}

Handler = Callable[[httpx.Request], httpx.Response]
Call = Callable[[ArticleApi], Awaitable[object]]


class Recorder:
    """A mock-transport handler that keeps every request and answers with ``answer``."""

    def __init__(self, answer: Handler) -> None:
        self.answer = answer
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self.answer(request)


@pytest.fixture(autouse=True)
def instant_retries() -> Iterator[None]:
    """Keep each call's own number of attempts, but without waiting between them."""
    with stamina.set_testing(True, attempts=100, cap=True):
        yield


@pytest.fixture
async def api_for() -> AsyncIterator[Callable[..., ArticleApi]]:
    """Build clients on a mock transport; their httpx clients close after the test."""
    clients: list[httpx.AsyncClient] = []

    def build(handler: Handler, **options: Any) -> ArticleApi:
        http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
        clients.append(http)
        return ArticleApi(http, base_url=BASE_URL, **options)

    yield build
    for http in clients:
        await http.aclose()


def ok(payload: object) -> Handler:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=payload)

    return answer


def error(status: int, body: object = None, **headers: str) -> Handler:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, json=body, headers=headers)

    return answer


def raising(kind: type[httpx.TransportError]) -> Handler:
    def answer(request: httpx.Request) -> httpx.Response:
        raise kind("simulated", request=request)

    return answer


def raw_body(content: bytes) -> Handler:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=content, headers={"Content-Type": "application/json"})

    return answer


def html_page(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, text="<html>Bakımdayız</html>")


def created_job(request: httpx.Request) -> httpx.Response:
    data = {"requestId": "job-1", "estimatedTime": "5 saniye", "cost": 25}
    return httpx.Response(200, json={"success": True, "message": "Alındı", "data": data})


def body_of(request: httpx.Request) -> Any:
    return json.loads(request.content)


# Requests as they go out.


async def test_login_posts_the_credentials_without_authorization(api_for: Any) -> None:
    handler = Recorder(ok(TOKEN_PAIR))
    pair = await api_for(handler).login(EMAIL, PASSWORD)
    (request,) = handler.requests
    assert (request.method, request.url.raw_path) == ("POST", b"/api/v1/auth/login")
    assert body_of(request) == {"email": EMAIL, "password": PASSWORD}
    assert "authorization" not in request.headers
    assert (pair.access_token, pair.refresh_token) == ("a2", "r2")


async def test_refresh_posts_the_refresh_token(api_for: Any) -> None:
    handler = Recorder(ok({"data": TOKEN_PAIR}))
    pair = await api_for(handler).refresh("r1")
    (request,) = handler.requests
    assert (request.method, request.url.raw_path) == ("POST", b"/api/v1/auth/refresh")
    assert body_of(request) == {"refreshToken": "r1"}
    assert "authorization" not in request.headers
    assert pair.refresh_token == "r2"


PROTECTED_CALLS: list[tuple[str, Call, str, bytes]] = [
    ("balance", lambda api: api.balance(TOKEN), "GET", b"/api/v1/profil/guncel-bakiye"),
    ("tones", lambda api: api.tones(TOKEN), "GET", b"/api/v1/makaleler/yazim-tonlari"),
    ("sizes", lambda api: api.sizes(TOKEN), "GET", b"/api/v1/makaleler/makale-boyutlar%C4%B1"),
    (
        "create",
        lambda api: api.create(TOKEN, title="Yapay zeka ve eğitim", tone=1, size=2),
        "POST",
        b"/api/v1/makaleler/makale-olustur",
    ),
    ("articles", lambda api: api.articles(TOKEN), "GET", b"/api/v1/makaleler/makalelerim"),
    ("add topic", lambda api: api.add_topic(TOKEN, "Eğitim"), "POST", b"/api/v1/konular/konu-ekle"),
    (
        "bulk create",
        lambda api: api.bulk_create(TOKEN, [("Yapay zeka ve eğitim", 1, 2)]),
        "POST",
        b"/api/v1/makaleler/toplu-makale-olustur",
    ),
]


@pytest.mark.parametrize(
    ("name", "call", "method", "raw_path"), PROTECTED_CALLS, ids=[c[0] for c in PROTECTED_CALLS]
)
async def test_protected_calls_use_their_path_and_the_bearer_token(
    api_for: Any, name: str, call: Call, method: str, raw_path: bytes
) -> None:
    # An answer every operation can read: a job id, a balance, a list, a topic.
    item = {"requestId": "r", "id": 1}
    handler = Recorder(ok({"data": {**item, "bakiye": 1, "items": [item]}}))
    await call(api_for(handler))
    (request,) = handler.requests
    assert (request.method, request.url.raw_path) == (method, raw_path)
    assert request.url.host == "makale.example"
    assert request.headers["authorization"] == f"Bearer {TOKEN}"


async def test_create_sends_the_interface_field_names(api_for: Any) -> None:
    handler = Recorder(created_job)
    job = await api_for(handler).create(TOKEN, title="Yapay zeka ve eğitim", tone=3, size=4)
    assert body_of(handler.requests[0]) == {
        "baslik": "Yapay zeka ve eğitim",
        "yazimTonu": 3,
        "makaleBoyutu": 4,
    }
    assert job == CreatedJob("job-1", "5 saniye", Decimal(25), "Alındı")


async def test_articles_sends_only_the_filters_given(api_for: Any) -> None:
    handler = Recorder(ok({"data": {"items": []}}))
    api = api_for(handler)
    await api.articles(TOKEN, request_id="r-1", page_size=50, status_id=3)
    await api.articles(TOKEN)
    filtered, unfiltered = handler.requests
    assert dict(filtered.url.params) == {"requestId": "r-1", "pageSize": "50", "durumId": "3"}
    assert not unfiltered.url.params


async def test_add_topic_sends_the_configured_field(api_for: Any) -> None:
    handler = Recorder(ok({"success": True, "data": {"id": 7, "baslik": "Eğitim"}}))
    topic = await api_for(handler, topic_field="baslik").add_topic(TOKEN, "Eğitim")
    assert body_of(handler.requests[0]) == {"baslik": "Eğitim"}
    assert topic == Topic("7", "Eğitim")


async def test_bulk_create_posts_every_item_to_the_configured_path(api_for: Any) -> None:
    def two_jobs(request: httpx.Request) -> httpx.Response:
        items = [{"requestId": "a", "cost": 15}, {"requestId": "b", "cost": 50}]
        return httpx.Response(200, json={"success": True, "data": {"items": items}})

    handler = Recorder(two_jobs)
    api = api_for(handler, bulk_path="/api/v1/makaleler/çoklu")
    jobs = await api.bulk_create(TOKEN, [("Birinci başlık", 1, 1), ("İkinci başlık", 2, 4)])
    (request,) = handler.requests
    assert request.url.raw_path == b"/api/v1/makaleler/%C3%A7oklu"
    assert body_of(request) == {
        "makaleler": [
            {"baslik": "Birinci başlık", "yazimTonu": 1, "makaleBoyutu": 1},
            {"baslik": "İkinci başlık", "yazimTonu": 2, "makaleBoyutu": 4},
        ]
    }
    assert [(job.request_id, job.cost) for job in jobs] == [("a", 15), ("b", 50)]


async def test_base_url_keeps_its_path_prefix_and_drops_the_trailing_slash() -> None:
    handler = Recorder(ok({"bakiye": 5}))
    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
        api = ArticleApi(http, base_url="https://makale.example/servis/")
        await api.balance(TOKEN)
    assert api.base_url == "https://makale.example/servis"
    assert handler.requests[0].url.raw_path == b"/servis/api/v1/profil/guncel-bakiye"


def test_read_attempts_must_allow_one_call() -> None:
    with pytest.raises(ValueError, match="read_attempts"):
        ArticleApi(httpx.AsyncClient(), base_url=BASE_URL, read_attempts=0)


# Odd but readable answers.


def balance_as_turkish_text(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, json={"sonuc": {"bakiye": "1.234,50 TL"}})


def tones_as_null(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, json={"success": True, "data": None})


def tones_without_names(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, json=[{"id": 2}, {"id": "4"}])


def topic_with_no_body(request: httpx.Request) -> httpx.Response:
    return httpx.Response(204)


def articles_in_spring_page(request: httpx.Request) -> httpx.Response:
    item = {"id": 5, "status": "COMPLETED", "content": "# Başlık\n\nMetin"}
    return httpx.Response(200, json={"content": [item], "totalElements": 1})


async def test_balance_written_the_turkish_way(api_for: Any) -> None:
    assert await api_for(balance_as_turkish_text).balance(TOKEN) == Decimal("1234.50")


async def test_tones_as_null_are_none(api_for: Any) -> None:
    assert await api_for(tones_as_null).tones(TOKEN) == []


async def test_tones_without_names_get_the_turkish_ones(api_for: Any) -> None:
    assert await api_for(tones_without_names).tones(TOKEN) == [
        Tone(2, "Samimi"),
        Tone(4, "İkna Edici"),
    ]


async def test_topic_answered_with_no_body_is_accepted(api_for: Any) -> None:
    assert await api_for(topic_with_no_body).add_topic(TOKEN, "Eğitim") == Topic(None, "Eğitim")


async def test_articles_in_a_page_object(api_for: Any) -> None:
    (article,) = await api_for(articles_in_spring_page).articles(TOKEN)
    assert (article.request_id, article.status, article.finished) == (
        "5",
        ArticleStatus.FINISHED,
        True,
    )


# Every failure, one row each: which call, what the service does, what the caller gets.


def login(api: ArticleApi) -> Awaitable[object]:
    return api.login(EMAIL, PASSWORD)


def refresh(api: ArticleApi) -> Awaitable[object]:
    return api.refresh("r1")


def balance(api: ArticleApi) -> Awaitable[object]:
    return api.balance(TOKEN)


def create(api: ArticleApi) -> Awaitable[object]:
    return api.create(TOKEN, title="Yapay zeka ve eğitim", tone=1, size=2)


def bulk_create(api: ArticleApi) -> Awaitable[object]:
    return api.bulk_create(TOKEN, [("Yapay zeka ve eğitim", 1, 2)])


def add_topic(api: ArticleApi) -> Awaitable[object]:
    return api.add_topic(TOKEN, "Eğitim")


INVALID_CREDENTIALS = {"error": "Invalid credentials", "message": "Hatalı", "statusCode": 400}
VALIDATION_ERROR = {"error": "Validation Error", "message": "E-posta geçersiz", "statusCode": 400}
NO_MONEY = {"error": "Forbidden", "code": "INSUFFICIENT_BALANCE", "statusCode": 403}

FAILURES: list[tuple[str, Call, Handler, type[ArticleApiError]]] = [
    ("network error", balance, raising(httpx.ConnectError), ServiceUnavailable),
    ("read timeout on a read", balance, raising(httpx.ReadTimeout), ServiceUnavailable),
    ("connection dropped on a read", balance, raising(httpx.RemoteProtocolError),
     ServiceUnavailable),
    ("500 on a read", balance, error(500), ServiceUnavailable),
    ("503 on a read", balance, error(503, {"error": "Service Unavailable"}), ServiceUnavailable),
    ("429", balance, error(429, {"error": "Too Many Requests"}), RateLimited),
    ("429 at login", login, error(429), RateLimited),
    ("401 at login", login, error(401, {"error": "Authentication Failed"}), LoginRejected),
    ("400 invalid credentials at login", login, error(400, INVALID_CREDENTIALS), LoginRejected),
    ("other 400 at login", login, error(400, VALIDATION_ERROR), LoginInvalid),
    ("401 on a protected call", balance, error(401, {"error": "Unauthorized"}), TokenRejected),
    ("401 at refresh", refresh, error(401, {"error": "Unauthorized"}), TokenRejected),
    ("400 at refresh", refresh, error(400, {"error": "Bad Request"}), TokenRejected),
    ("400 on create", create, error(400, {"error": "ValidationError"}), ValidationFailed),
    ("400 on add topic", add_topic, error(400, {"error": "ValidationError"}), ValidationFailed),
    ("403 INSUFFICIENT_BALANCE", create, error(403, NO_MONEY), InsufficientBalance),
    ("403 InsufficientBalance", bulk_create, error(403, {"error": "InsufficientBalance"}),
     InsufficientBalance),
    ("other 403", balance, error(403, {"error": "Forbidden"}), PermissionDenied),
    ("404", bulk_create, error(404, {"error": "Not Found"}), OperationMissing),
    ("405", add_topic, error(405), OperationMissing),
    ("other 4xx", add_topic, error(409, {"error": "Conflict"}), RequestRejected),
    ("redirect", balance, error(302, Location="https://elsewhere.example/"),
     UnexpectedResponse),
    ("HTML instead of JSON", balance, html_page, UnexpectedResponse),
    ("an integer too long to read", balance, raw_body(b'{"bakiye": ' + b"9" * 5000 + b"}"),
     UnexpectedResponse),
    ("nesting too deep to read", balance, raw_body(b"[" * 100_000 + b"]" * 100_000),
     UnexpectedResponse),
    ("JSON without the fields", login, ok({"success": True}), UnexpectedResponse),
    # Paid calls: nothing sent means nothing charged; anything else may have been charged.
    ("connect error on create", create, raising(httpx.ConnectError), ServiceUnavailable),
    ("connect timeout on create", create, raising(httpx.ConnectTimeout), ServiceUnavailable),
    ("408 on create", create, error(408), ServiceUnavailable),
    # A proxy may answer 503 after the service committed the charge.
    ("503 on create", create, error(503), OutcomeUnknown),
    ("read timeout on create", create, raising(httpx.ReadTimeout), OutcomeUnknown),
    ("write timeout on create", create, raising(httpx.WriteTimeout), OutcomeUnknown),
    ("connection dropped on create", create, raising(httpx.RemoteProtocolError),
     OutcomeUnknown),
    ("500 on create", create, error(500), OutcomeUnknown),
    ("502 on create", create, error(502), OutcomeUnknown),
    ("504 on create", create, error(504), OutcomeUnknown),
    ("unreadable 200 on create", create, html_page, OutcomeUnknown),
    ("connect error on bulk create", bulk_create, raising(httpx.ConnectError),
     ServiceUnavailable),
    ("read timeout on bulk create", bulk_create, raising(httpx.ReadTimeout), OutcomeUnknown),
    ("502 on bulk create", bulk_create, error(502), OutcomeUnknown),
]  # fmt: skip


@pytest.mark.parametrize(
    ("row", "call", "handler", "expected"), FAILURES, ids=[row[0] for row in FAILURES]
)
async def test_failure_maps_to_one_error(
    api_for: Any, row: str, call: Call, handler: Handler, expected: type[ArticleApiError]
) -> None:
    with pytest.raises(ArticleApiError) as caught:
        await call(api_for(handler))
    assert type(caught.value) is expected
    assert caught.value.__cause__ is not None


async def test_rate_limited_carries_retry_after(api_for: Any) -> None:
    with pytest.raises(RateLimited) as caught:
        await balance(api_for(error(429, {"error": "Too Many Requests"}, **{"Retry-After": "30"})))
    assert caught.value.retry_after == 30.0


async def test_validation_failure_carries_the_details(api_for: Any) -> None:
    body = {
        "error": "ValidationError",
        "message": "Başlık en az 10 karakter olmalı",
        "statusCode": 400,
        "details": {"field": "baslik", "minLength": 10, "currentLength": 4},
    }
    with pytest.raises(ValidationFailed) as caught:
        await create(api_for(error(400, body)))
    assert caught.value.details == {"field": "baslik", "minLength": 10, "currentLength": 4}
    assert (caught.value.status, caught.value.error) == (400, "ValidationError")
    assert "Başlık en az 10 karakter olmalı" in str(caught.value)


async def test_insufficient_balance_carries_both_amounts(api_for: Any) -> None:
    body = {**NO_MONEY, "requiredAmount": 25, "currentBalance": 10.5}
    with pytest.raises(InsufficientBalance) as caught:
        await create(api_for(error(403, body)))
    assert (caught.value.required, caught.value.current) == (Decimal(25), Decimal("10.5"))


async def test_login_rejection_keeps_the_service_words(api_for: Any) -> None:
    with pytest.raises(LoginRejected) as caught:
        await login(api_for(error(400, INVALID_CREDENTIALS)))
    assert (caught.value.status, caught.value.error) == (400, "Invalid credentials")


# What is sent again and what never is.


@pytest.mark.parametrize(
    "failure", [raising(httpx.ReadTimeout), error(502), html_page], ids=["timeout", "502", "html"]
)
@pytest.mark.parametrize("call", [create, bulk_create], ids=["create", "bulk create"])
async def test_paid_calls_are_sent_once(api_for: Any, call: Call, failure: Handler) -> None:
    handler = Recorder(failure)
    with pytest.raises(OutcomeUnknown):
        await call(api_for(handler, read_attempts=5))
    assert len(handler.requests) == 1


@pytest.mark.parametrize("call", [login, refresh, add_topic], ids=["login", "refresh", "topic"])
async def test_unpaid_writes_are_not_retried(api_for: Any, call: Call) -> None:
    handler = Recorder(error(503))
    with pytest.raises(ServiceUnavailable):
        await call(api_for(handler, read_attempts=5))
    assert len(handler.requests) == 1


async def test_a_read_is_retried_until_the_service_answers(api_for: Any) -> None:
    answers = iter([error(503), raising(httpx.ReadTimeout), ok({"bakiye": "42"})])
    handler = Recorder(lambda request: next(answers)(request))
    assert await api_for(handler, read_attempts=3).balance(TOKEN) == Decimal(42)
    assert len(handler.requests) == 3


async def test_a_read_gives_up_after_its_attempts(api_for: Any) -> None:
    handler = Recorder(error(503))
    with pytest.raises(ServiceUnavailable):
        await api_for(handler, read_attempts=4).articles(TOKEN)
    assert len(handler.requests) == 4


@pytest.mark.parametrize(
    "failure", [error(401), error(429), html_page], ids=["401", "429", "unreadable"]
)
async def test_a_read_is_not_retried_on_other_failures(api_for: Any, failure: Handler) -> None:
    handler = Recorder(failure)
    with pytest.raises(ArticleApiError):
        await api_for(handler, read_attempts=4).tones(TOKEN)
    assert len(handler.requests) == 1


# Logging.


async def test_each_call_is_logged_with_method_path_and_status(
    api_for: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="bot.api")
    api = api_for(error(401))
    with pytest.raises(TokenRejected):
        await api.sizes(TOKEN)
    (record,) = [r for r in caplog.records if r.name == "bot.api"]
    assert record.levelno == logging.DEBUG
    assert record.getMessage().startswith("GET /api/v1/makaleler/makale-boyutları -> 401 in ")


async def test_a_call_without_answer_is_logged_with_the_failure(
    api_for: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="bot.api")
    with pytest.raises(LoginRejected):
        await login(api_for(error(401)))
    with pytest.raises(ServiceUnavailable):
        await login(api_for(raising(httpx.ConnectError)))
    messages = [r.getMessage() for r in caplog.records if r.name == "bot.api"]
    assert messages[0].startswith("POST /api/v1/auth/login -> 401 in ")
    assert messages[1].startswith("POST /api/v1/auth/login -> ConnectError in ")
    assert not any(PASSWORD in message for message in messages)
