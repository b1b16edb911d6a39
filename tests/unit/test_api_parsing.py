"""The tolerant reader of the article service's answers."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

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
from bot.api.parsing import (
    ErrorBody,
    parse_articles,
    parse_balance,
    parse_created_job,
    parse_created_jobs,
    parse_error_body,
    parse_retry_after,
    parse_sizes,
    parse_token_pair,
    parse_tones,
    parse_topic,
)

EXPIRY = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
EXPIRY_SECONDS = int(EXPIRY.timestamp())

# Keys the parsers look for, so random documents reach deep into them.
KNOWN_KEYS = st.sampled_from(
    [
        "data",
        "items",
        "results",
        "makaleler",
        "success",
        "message",
        "requestId",
        "id",
        "durum",
        "durumId",
        "status",
        "ilerleme",
        "progress",
        "icerik",
        "content",
        "createdAt",
        "baslik",
        "bakiye",
        "balance",
        "tutar",
        "accessToken",
        "accessTokenExpire",
        "refreshToken",
        "ad",
        "name",
        "ucret",
        "cost",
        "estimatedTime",
        "konu",
        "error",
        "code",
        "details",
        "requiredAmount",
        "currentBalance",
        "hataMesaji",
    ]
)
ODD_SCALARS = st.sampled_from(
    [
        "1.234,50",
        "12,5",
        "1e999999",
        "NaN",
        "-Infinity",
        "40%",
        "isleniyor",
        "TAMAMLANDI",
        "2024-05-01T10:00:00Z",
        "0001-01-01T00:00:00+14:00",
        "9999-12-31T23:59:59-14:00",
        "170000000000000",
        "",
        " ",
        "₺ 12",
    ]
)
SCALARS = (
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12) | ODD_SCALARS
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(KNOWN_KEYS | st.text(max_size=6), children, max_size=5)
    ),
    max_leaves=25,
)


def _list_of(kind: type) -> Callable[[object], bool]:
    return lambda value: isinstance(value, list) and all(isinstance(item, kind) for item in value)


def _instance_of(kind: type) -> Callable[[object], bool]:
    return lambda value: isinstance(value, kind)


PARSERS: list[tuple[str, Callable[[Any], object], Callable[[object], bool]]] = [
    ("token pair", parse_token_pair, _instance_of(TokenPair)),
    ("balance", parse_balance, _instance_of(Decimal)),
    ("tones", parse_tones, _list_of(Tone)),
    ("sizes", parse_sizes, _list_of(Size)),
    ("created job", parse_created_job, _instance_of(CreatedJob)),
    ("created jobs", parse_created_jobs, _list_of(CreatedJob)),
    ("articles", parse_articles, _list_of(Article)),
    ("topic", lambda payload: parse_topic(payload, "Yapay zeka"), _instance_of(Topic)),
]


@given(payload=JSON_VALUES)
def test_any_json_reads_as_its_type_or_unexpected_response_and_as_an_error_body(
    payload: Any,
) -> None:
    # Every parser reads the same payloads: each still meets the profile's hundred, and
    # drawing them (most of the time here) is done once rather than once per parser.
    for name, parse, is_expected in PARSERS:
        try:
            result = parse(payload)
        except UnexpectedResponse:
            continue
        assert is_expected(result), f"{name} returned {result!r}"
    # An error body is read from anything, never refused.
    assert isinstance(parse_error_body(payload), ErrorBody)


@given(header=st.text(max_size=40) | st.sampled_from(["Wed, 21 Oct 2015 07:28:00 GMT", "-5"]))
def test_any_retry_after_header_reads_as_seconds_or_none(header: str) -> None:
    seconds = parse_retry_after(header, EXPIRY)
    assert seconds is None or seconds >= 0


# Token pair.


@pytest.mark.parametrize(
    "payload",
    [
        {"accessToken": "a.b.c", "accessTokenExpire": EXPIRY_SECONDS, "refreshToken": "r1"},
        {
            "success": True,
            "data": {
                "accessToken": "a.b.c",
                "accessTokenExpire": EXPIRY_SECONDS,
                "refreshToken": "r1",
            },
        },
        {
            "access_token": "a.b.c",
            "access_token_expire": EXPIRY_SECONDS * 1000,
            "refresh_token": "r1",
        },
        {"accessToken": "a.b.c", "accessTokenExpire": str(EXPIRY_SECONDS), "refreshToken": "r1"},
        {"data": {"token": "a.b.c", "expiresAt": "2030-01-02T03:04:05Z", "refreshToken": "r1"}},
        {
            "accessToken": "a.b.c",
            "accessTokenExpire": "2030-01-02T06:04:05+03:00",
            "refreshToken": "r1",
        },
    ],
    ids=[
        "bare",
        "in data",
        "snake case, milliseconds",
        "seconds as text",
        "ISO in data",
        "ISO with offset",
    ],
)
def test_token_pair_shapes(payload: object) -> None:
    pair = parse_token_pair(payload)
    assert (pair.access_token, pair.refresh_token) == ("a.b.c", "r1")
    assert pair.access_expires_at == EXPIRY
    assert pair.access_expires_at.tzinfo is not None


@pytest.mark.parametrize(
    "payload",
    [
        {"accessToken": "a", "refreshToken": "r"},
        {"accessToken": "a", "accessTokenExpire": 1, "refreshToken": ""},
        {"accessToken": 12, "accessTokenExpire": 1, "refreshToken": "r"},
        {"accessToken": "a", "accessTokenExpire": "soon", "refreshToken": "r"},
        {
            "success": False,
            "data": {"accessToken": "a", "accessTokenExpire": 1, "refreshToken": "r"},
        },
        ["a", 1, "r"],
    ],
    ids=[
        "no expiry",
        "empty refresh",
        "token not text",
        "expiry unreadable",
        "success false",
        "a list",
    ],
)
def test_unreadable_token_pairs(payload: object) -> None:
    with pytest.raises(UnexpectedResponse):
        parse_token_pair(payload)


# Balance.


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ({"success": True, "data": {"bakiye": 500.0, "paraBirimi": "TL"}}, Decimal("500.0")),
        ({"balance": "1.234,50"}, Decimal("1234.50")),
        ({"data": {"bakiye": {"tutar": "250,75", "paraBirimi": "TL"}}}, Decimal("250.75")),
        ({"data": 42}, Decimal(42)),
        (19.99, Decimal("19.99")),
        ("₺ 1,234.50", Decimal("1234.50")),
        ({"result": {"currentBalance": "1.000.000"}}, Decimal(1000000)),
        ({"amount": 0.1}, Decimal("0.1")),
    ],
    ids=[
        "sandbox",
        "Turkish text",
        "nested amount",
        "bare in data",
        "bare number",
        "English text",
        "thousands only",
        "float goes through str",
    ],
)
def test_balance_shapes(payload: object, expected: Decimal) -> None:
    assert parse_balance(payload) == expected


@pytest.mark.parametrize(
    "payload", [{"data": {}}, {"bakiye": "çok"}, [], {"bakiye": True}, {"bakiye": "NaN"}]
)
def test_unreadable_balances(payload: object) -> None:
    with pytest.raises(UnexpectedResponse):
        parse_balance(payload)


# Tones and sizes.


def test_tones_as_the_sandbox_sends_them() -> None:
    payload = {
        "success": True,
        "data": [
            {"id": 1, "ad": "Profesyonel", "aciklama": "Resmi"},
            {"id": 2, "ad": "Samimi", "aciklama": "Sıcak"},
        ],
    }
    assert parse_tones(payload) == [Tone(1, "Profesyonel", "Resmi"), Tone(2, "Samimi", "Sıcak")]


def test_tones_without_names_take_the_turkish_defaults() -> None:
    payload = {"items": [{"value": "3"}, {"id": 4, "description": "Sales"}, {"id": 9}]}
    assert parse_tones(payload) == [Tone(3, "Eğitici"), Tone(4, "İkna Edici", "Sales")]


def test_tones_bare_list_with_english_keys() -> None:
    assert parse_tones([{"id": 5, "name": "Creative"}]) == [Tone(5, "Creative")]


@pytest.mark.parametrize("payload", [{"data": []}, [], {"success": True, "data": None}])
def test_no_tones_is_an_empty_list(payload: object) -> None:
    assert parse_tones(payload) == []


@pytest.mark.parametrize(
    "payload", [{"data": "Profesyonel"}, [{"ad": "no id"}, 3], {"success": True}]
)
def test_unreadable_tones(payload: object) -> None:
    with pytest.raises(UnexpectedResponse):
        parse_tones(payload)


def test_sizes_as_the_sandbox_sends_them() -> None:
    payload = {
        "success": True,
        "data": [
            {
                "id": 1,
                "ad": "Kısa",
                "kelimeSayisi": "300-500",
                "okumaSuresi": "2-3 dakika",
                "ucret": 15,
            },
            {"id": 4, "ad": "Çok Uzun", "kelimeSayisi": "2500+", "ucret": 50.0},
        ],
    }
    assert parse_sizes(payload) == [
        Size(1, "Kısa", "300-500", Decimal(15), "2-3 dakika"),
        Size(4, "Çok Uzun", "2500+", Decimal("50.0")),
    ]


def test_sizes_in_results_with_english_keys_and_written_prices() -> None:
    payload = {"results": [{"id": "2", "name": "Medium", "wordCount": 1000, "price": "25,00"}]}
    assert parse_sizes(payload) == [Size(2, "Medium", "1000", Decimal("25.00"))]


def test_default_tables_follow_the_interface() -> None:
    assert [tone.id for tone in DEFAULT_TONES] == [1, 2, 3, 4, 5]
    assert [(size.id, size.cost) for size in DEFAULT_SIZES] == [
        (1, Decimal(15)),
        (2, Decimal(25)),
        (3, Decimal(35)),
        (4, Decimal(50)),
    ]
    assert [size.name for size in DEFAULT_SIZES] == ["Kısa", "Orta", "Uzun", "Çok Uzun"]


# Create and bulk create.


def test_created_job_as_the_interface_shows_it() -> None:
    payload = {
        "success": True,
        "message": "Makale oluşturma isteği alındı",
        "data": {"requestId": "9f1c", "estimatedTime": "1-2 dakika", "cost": 25},
    }
    assert parse_created_job(payload) == CreatedJob(
        "9f1c", "1-2 dakika", Decimal(25), "Makale oluşturma isteği alındı"
    )


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ({"request_id": 812, "ucret": "25,5"}, CreatedJob("812", "", Decimal("25.5"))),
        ({"data": {"id": "x", "tahminiSure": "30 saniye"}}, CreatedJob("x", "30 saniye")),
        ({"result": {"jobId": "j", "fiyat": 15}}, CreatedJob("j", "", Decimal(15))),
    ],
    ids=["bare, snake case", "Turkish estimate", "job id in result"],
)
def test_created_job_shapes(payload: object, expected: CreatedJob) -> None:
    assert parse_created_job(payload) == expected


@pytest.mark.parametrize(
    "payload",
    [{"success": True, "data": {"cost": 25}}, {"success": False, "data": {"requestId": "x"}}, ""],
)
def test_unreadable_created_jobs(payload: object) -> None:
    with pytest.raises(UnexpectedResponse):
        parse_created_job(payload)


@pytest.mark.parametrize(
    "payload",
    [
        {
            "success": True,
            "data": {
                "items": [{"requestId": "a", "cost": 15}, {"requestId": "b", "cost": 25}],
                "toplamUcret": 40,
            },
        },
        [{"requestId": "a", "cost": 15}, {"requestId": "b", "cost": 25}],
        {"data": {"makaleler": [{"requestId": "a", "ucret": 15}, {"id": "b", "ucret": 25}]}},
    ],
    ids=["sandbox", "bare list", "data.makaleler"],
)
def test_created_jobs_shapes(payload: object) -> None:
    jobs = parse_created_jobs(payload)
    assert [(job.request_id, job.cost) for job in jobs] == [("a", Decimal(15)), ("b", Decimal(25))]


# Own articles.


def test_articles_as_the_sandbox_sends_them() -> None:
    payload = {
        "success": True,
        "data": {
            "items": [
                {
                    "requestId": "b",
                    "baslik": "İkinci makale",
                    "durum": "tamamlandi",
                    "durumId": 3,
                    "ilerleme": 100,
                    "icerik": "# İkinci\n\nMetin.",
                    "createdAt": "2024-05-01T10:00:00Z",
                    "hataMesaji": None,
                },
                {
                    "requestId": "a",
                    "baslik": "Birinci makale",
                    "durum": "isleniyor",
                    "durumId": 2,
                    "ilerleme": 40,
                    "icerik": None,
                    "createdAt": "2024-05-01T09:59:00Z",
                    "hataMesaji": None,
                },
            ],
            "toplam": 2,
        },
    }
    finished, running = parse_articles(payload)
    assert finished == Article(
        "b",
        ArticleStatus.FINISHED,
        "İkinci makale",
        100,
        "# İkinci\n\nMetin.",
        datetime(2024, 5, 1, 10, 0, tzinfo=UTC),
    )
    assert finished.finished
    assert (running.status, running.progress, running.finished) == (
        ArticleStatus.PROCESSING,
        40,
        False,
    )


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        ({"durum": "beklemede"}, ArticleStatus.PENDING),
        ({"durum": "sırada"}, ArticleStatus.PENDING),
        ({"status": "queued"}, ArticleStatus.PENDING),
        ({"durum": "İŞLENİYOR"}, ArticleStatus.PROCESSING),
        ({"durum": "isleniyor"}, ArticleStatus.PROCESSING),
        ({"status": "IN_PROGRESS"}, ArticleStatus.PROCESSING),
        ({"durum": "tamamlandı"}, ArticleStatus.FINISHED),
        ({"status": "completed"}, ArticleStatus.FINISHED),
        ({"durum": "başarısız"}, ArticleStatus.FAILED),
        ({"durum": "basarisiz"}, ArticleStatus.FAILED),
        ({"durum": "Hata"}, ArticleStatus.FAILED),
        ({"status": "failed"}, ArticleStatus.FAILED),
        ({"durumId": 1}, ArticleStatus.PENDING),
        ({"durumId": "2"}, ArticleStatus.PROCESSING),
        ({"status": 3}, ArticleStatus.FINISHED),
        ({"statusId": 4.0}, ArticleStatus.FAILED),
        ({"durum": "gizemli", "durumId": 3}, ArticleStatus.FINISHED),
        ({"durum": {"id": 2, "ad": "İşleniyor"}}, ArticleStatus.PROCESSING),
        ({"durum": "gizemli"}, ArticleStatus.UNKNOWN),
        ({"durumId": 9}, ArticleStatus.UNKNOWN),
        ({}, ArticleStatus.UNKNOWN),
    ],
)
def test_article_statuses(status: dict[str, object], expected: ArticleStatus) -> None:
    (article,) = parse_articles([{"requestId": "r", **status}])
    assert article.status is expected


@pytest.mark.parametrize(
    ("fields", "attribute", "expected"),
    [
        ({"progress": "40%"}, "progress", 40),
        ({"ilerleme": 72.6}, "progress", 72),
        ({"progress": 140}, "progress", 100),
        ({"progress": "a lot"}, "progress", None),
        ({"content": "Metin"}, "content", "Metin"),
        ({"metin": "Metin"}, "content", "Metin"),
        ({"icerik": {"html": "x"}}, "content", None),
        ({"createdAt": 1714557600000}, "created_at", datetime(2024, 5, 1, 10, 0, tzinfo=UTC)),
        (
            {"olusturmaTarihi": "2024-05-01T13:00:00+03:00"},
            "created_at",
            datetime(2024, 5, 1, 10, 0, tzinfo=UTC),
        ),
        (
            {"createdAt": "2024-05-01T10:00:00"},
            "created_at",
            datetime(2024, 5, 1, 10, 0, tzinfo=UTC),
        ),
        ({"createdAt": "dün"}, "created_at", None),
        ({"title": "Başlık"}, "title", "Başlık"),
        ({"hataMesaji": "Kota doldu"}, "failure_reason", "Kota doldu"),
    ],
)
def test_article_fields(fields: dict[str, object], attribute: str, expected: object) -> None:
    (article,) = parse_articles({"data": {"items": [{"requestId": "r", **fields}]}})
    assert getattr(article, attribute) == expected


def test_a_failed_article_with_content_is_not_finished() -> None:
    (article,) = parse_articles([{"id": 7, "durum": "basarisiz", "icerik": "yarım"}])
    assert (article.request_id, article.failed, article.finished) == ("7", True, False)


def test_a_single_article_object_is_a_list_of_one() -> None:
    payload = {"success": True, "data": {"requestId": "r", "durumId": 2, "icerik": None}}
    assert [article.request_id for article in parse_articles(payload)] == ["r"]


@pytest.mark.parametrize(
    "key", ["items", "results", "content", "makaleler", "data"], ids=lambda key: key
)
def test_article_lists_under_every_usual_key(key: str) -> None:
    payload = {"success": True, "data": {key: [{"requestId": "a"}, {"requestId": "b"}]}}
    assert [article.request_id for article in parse_articles(payload)] == ["a", "b"]


def test_article_items_without_a_request_id_are_skipped() -> None:
    articles = parse_articles([{"requestId": "a"}, {"baslik": "kimliksiz"}, "x"])
    assert [article.request_id for article in articles] == ["a"]


@pytest.mark.parametrize(
    "payload",
    [[{"baslik": "kimliksiz"}], {"data": {"toplam": 0}}, {"success": False, "data": []}],
)
def test_unreadable_article_lists(payload: object) -> None:
    with pytest.raises(UnexpectedResponse):
        parse_articles(payload)


# Topics.


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        ({"success": True, "data": {"id": 7, "konu": "Yapay zeka"}}, Topic("7", "Yapay zeka")),
        ({"data": {"konuId": "k-1", "topic": "Yapay Zekâ"}}, Topic("k-1", "Yapay Zekâ")),
        ({"success": True, "message": "Eklendi"}, Topic(None, "Yapay zeka")),
        ({"data": 7}, Topic("7", "Yapay zeka")),
        (None, Topic(None, "Yapay zeka")),
        (True, Topic(None, "Yapay zeka")),
    ],
    ids=["sandbox", "other keys", "no data", "bare id", "empty body", "bare true"],
)
def test_topic_shapes(payload: object, expected: Topic) -> None:
    assert parse_topic(payload, "Yapay zeka") == expected


@pytest.mark.parametrize("payload", [{"success": False}, [1, 2], False, 1.5])
def test_unreadable_topics(payload: object) -> None:
    with pytest.raises(UnexpectedResponse):
        parse_topic(payload, "Yapay zeka")


# Error bodies and Retry-After.


def test_error_body_of_insufficient_balance() -> None:
    body = parse_error_body(
        {
            "error": "InsufficientBalance",
            "message": "Yetersiz bakiye",
            "statusCode": 403,
            "code": "INSUFFICIENT_BALANCE",
            "requiredAmount": 25,
            "currentBalance": "10,50",
        }
    )
    assert body == ErrorBody(
        "InsufficientBalance",
        "Yetersiz bakiye",
        "INSUFFICIENT_BALANCE",
        {},
        Decimal(25),
        Decimal("10.50"),
    )
    assert body.is_one_of("insufficient balance")
    assert not body.is_one_of("Invalid credentials")


def test_error_body_nested_and_with_a_list_of_details() -> None:
    body = parse_error_body({"error": {"code": "E1", "message": "Bozuk"}, "errors": [{"f": 1}]})
    assert (body.code, body.message, body.details) == ("E1", "Bozuk", {"errors": [{"f": 1}]})


@pytest.mark.parametrize("payload", [None, "Bad Gateway", [1], {"error": [3]}])
def test_unreadable_error_bodies_say_nothing(payload: object) -> None:
    assert parse_error_body(payload) == ErrorBody()


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("120", 120.0),
        ("1.5", 1.5),
        ((EXPIRY + timedelta(seconds=30)).strftime("%a, %d %b %Y %H:%M:%S GMT"), 30.0),
        ((EXPIRY - timedelta(seconds=30)).strftime("%a, %d %b %Y %H:%M:%S GMT"), 0.0),
        ("soon", None),
        (None, None),
    ],
)
def test_retry_after(header: str | None, expected: float | None) -> None:
    assert parse_retry_after(header, EXPIRY) == expected


def test_control_characters_are_removed_from_content_and_titles() -> None:
    payload = [
        {
            "requestId": "r\x00",
            "baslik": "Başlık\x00 ve\x1b[31m renk\ud800",
            "icerik": "# Başlık\r\n\nMetin\x00 burada.\x07\n\tGirintili\x7f\x85.",
            "durum": "tamamlandi",
        }
    ]

    (article,) = parse_articles(payload)

    assert article.request_id == "r"
    assert article.title == "Başlık ve[31m renk"
    assert article.content == "# Başlık\r\n\nMetin burada.\n\tGirintili."
