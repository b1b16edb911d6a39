"""The article service client against the sandbox over real loopback HTTP."""

from __future__ import annotations

import logging
import socket
import sys
from collections.abc import AsyncIterator, Iterator, Sequence
from datetime import timedelta
from decimal import Decimal
from importlib.abc import MetaPathFinder
from types import ModuleType

import httpx
import pytest
import stamina

from bot.api import (
    ArticleApi,
    ArticleStatus,
    InsufficientBalance,
    LoginInvalid,
    LoginRejected,
    OperationMissing,
    OutcomeUnknown,
    RateLimited,
    ServiceUnavailable,
    TokenRejected,
    Topic,
    ValidationFailed,
)
from bot.sandbox import (
    DEMO_EMAIL,
    DEMO_PASSWORD,
    LOW_BALANCE_EMAIL,
    LOW_BALANCE_PASSWORD,
    RunningSandbox,
    running_sandbox,
)
from tests.fakes import wait_until

TITLE = "Yapay zeka ve eğitimin geleceği"
CREATE_PATH = "/api/v1/makaleler/makale-olustur"
BALANCE_PATH = "/api/v1/profil/guncel-bakiye"
# Long enough for any size to finish at speed 1, short of the access token's 60 minutes.
ALL_DONE = 15 * 60


@pytest.fixture(autouse=True)
def instant_retries() -> Iterator[None]:
    """Keep each call's own number of attempts, but without waiting between them."""
    with stamina.set_testing(True, attempts=100, cap=True):
        yield


@pytest.fixture
async def sandbox() -> AsyncIterator[RunningSandbox]:
    async with running_sandbox() as running:
        yield running


@pytest.fixture
async def api(sandbox: RunningSandbox) -> AsyncIterator[ArticleApi]:
    async with httpx.AsyncClient(timeout=5.0) as http:
        yield ArticleApi(http, base_url=sandbox.url)


@pytest.fixture
async def token(api: ArticleApi) -> str:
    pair = await api.login(DEMO_EMAIL, DEMO_PASSWORD)
    return pair.access_token


def calls_to(sandbox: RunningSandbox, method: str, path: str) -> int:
    return sandbox.state.request_log.count((method, path))


# Every operation.


async def test_login_gives_a_token_pair_for_an_hour(
    sandbox: RunningSandbox, api: ArticleApi
) -> None:
    pair = await api.login(DEMO_EMAIL, DEMO_PASSWORD)
    lifetime = pair.access_expires_at - sandbox.state.clock.now()
    assert timedelta(minutes=59) < lifetime <= timedelta(minutes=60)
    assert pair.access_token
    assert pair.refresh_token


async def test_refresh_rotates_the_refresh_token(api: ArticleApi) -> None:
    first = await api.login(DEMO_EMAIL, DEMO_PASSWORD)
    second = await api.refresh(first.refresh_token)
    assert second.refresh_token != first.refresh_token
    assert await api.balance(second.access_token) == Decimal(500)
    with pytest.raises(TokenRejected):
        await api.refresh(first.refresh_token)


async def test_balance(api: ArticleApi, token: str) -> None:
    assert await api.balance(token) == Decimal(500)


class _Searches(MetaPathFinder):
    """A finder first on ``sys.meta_path`` that finds nothing: it notes what is looked for."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> None:
        self.names.append(fullname)


async def test_a_call_searches_for_no_module(api: ArticleApi, token: str) -> None:
    # A failed import is not remembered: httpcore asking for an absent sniffio at each lock
    # searched every folder of sys.path about ten times a request.
    await api.balance(token)
    searches = _Searches()
    sys.meta_path.insert(0, searches)
    try:
        for _ in range(3):
            await api.balance(token)
    finally:
        sys.meta_path.remove(searches)
    assert searches.names == []


async def test_tones(api: ArticleApi, token: str) -> None:
    tones = await api.tones(token)
    assert [(tone.id, tone.name) for tone in tones] == [
        (1, "Profesyonel"),
        (2, "Samimi"),
        (3, "Eğitici"),
        (4, "İkna Edici"),
        (5, "Yaratıcı"),
    ]


async def test_sizes_path_goes_out_percent_encoded(
    sandbox: RunningSandbox, api: ArticleApi, token: str
) -> None:
    sizes = await api.sizes(token)
    assert [(size.id, size.name, size.cost) for size in sizes] == [
        (1, "Kısa", Decimal(15)),
        (2, "Orta", Decimal(25)),
        (3, "Uzun", Decimal(35)),
        (4, "Çok Uzun", Decimal(50)),
    ]
    assert sizes[0].words == "300-500"
    assert ("GET", "/api/v1/makaleler/makale-boyutlar%C4%B1") in sandbox.state.request_log


async def test_create_charges_once_and_the_article_arrives(
    sandbox: RunningSandbox, api: ArticleApi, token: str
) -> None:
    job = await api.create(token, title=TITLE, tone=1, size=2)
    assert job.cost == Decimal(25)
    assert job.estimated_time
    assert sandbox.state.create_count == 1
    assert await api.balance(token) == Decimal(475)

    (pending,) = await api.articles(token, request_id=job.request_id)
    assert (pending.request_id, pending.title, pending.finished) == (job.request_id, TITLE, False)
    assert pending.status in {ArticleStatus.PENDING, ArticleStatus.PROCESSING}
    assert pending.created_at is not None

    sandbox.state.clock.advance(ALL_DONE)
    (done,) = await api.articles(token, request_id=job.request_id)
    assert done.status is ArticleStatus.FINISHED
    assert done.finished
    assert done.content is not None
    assert done.content.startswith("# ")


async def test_articles_filters_by_status_and_pages(
    sandbox: RunningSandbox, api: ArticleApi, token: str
) -> None:
    first = await api.create(token, title="Birinci deneme başlığı", tone=1, size=1)
    sandbox.state.clock.advance(ALL_DONE)
    second = await api.create(token, title="İkinci deneme başlığı", tone=2, size=1)

    everything = await api.articles(token)
    assert [article.request_id for article in everything] == [second.request_id, first.request_id]
    finished = await api.articles(token, status_id=3)
    assert [article.request_id for article in finished] == [first.request_id]
    newest = await api.articles(token, page_size=1)
    assert [article.request_id for article in newest] == [second.request_id]


async def test_add_topic(sandbox: RunningSandbox, api: ArticleApi, token: str) -> None:
    assert await api.add_topic(token, "Eğitim teknolojileri") == Topic("1", "Eğitim teknolojileri")
    assert sandbox.state.topics == ["Eğitim teknolojileri"]


async def test_bulk_create_charges_the_total(
    sandbox: RunningSandbox, api: ArticleApi, token: str
) -> None:
    jobs = await api.bulk_create(token, [(TITLE, 1, 1), ("Bulut bilişimin temelleri", 3, 3)])
    assert [job.cost for job in jobs] == [Decimal(15), Decimal(35)]
    assert len({job.request_id for job in jobs}) == 2
    assert sandbox.state.create_count == 2
    assert await api.balance(token) == Decimal(450)


# Every documented error.


@pytest.mark.parametrize("status", [401, 400], ids=["401", "400 Invalid credentials"])
async def test_wrong_password_is_rejected(
    sandbox: RunningSandbox, api: ArticleApi, status: int
) -> None:
    sandbox.state.faults.wrong_password_status = status
    with pytest.raises(LoginRejected) as caught:
        await api.login(DEMO_EMAIL, "Yanlis12345")
    assert caught.value.status == status


@pytest.mark.parametrize(
    ("email", "password"),
    [("demo-at-example.com", DEMO_PASSWORD), (DEMO_EMAIL, ""), ("", DEMO_PASSWORD)],
    ids=["bad e-mail format", "empty password", "empty e-mail"],
)
async def test_malformed_login_is_invalid(api: ArticleApi, email: str, password: str) -> None:
    with pytest.raises(LoginInvalid) as caught:
        await api.login(email, password)
    assert caught.value.status == 400


async def test_an_expired_access_token_is_rejected(
    sandbox: RunningSandbox, api: ArticleApi, token: str
) -> None:
    sandbox.state.clock.advance(3601)
    with pytest.raises(TokenRejected):
        await api.balance(token)


async def test_a_forged_access_token_is_rejected(api: ArticleApi) -> None:
    with pytest.raises(TokenRejected):
        await api.tones("not-a-token")


async def test_an_unknown_refresh_token_is_rejected(api: ArticleApi) -> None:
    with pytest.raises(TokenRejected):
        await api.refresh("never-issued")


@pytest.mark.parametrize(
    ("title", "details"),
    [
        ("Kısa", {"field": "baslik", "minLength": 10, "currentLength": 4}),
        ("x" * 256, {"field": "baslik", "maxLength": 255, "currentLength": 256}),
    ],
    ids=["title too short", "title too long"],
)
async def test_a_bad_title_fails_validation_with_details(
    sandbox: RunningSandbox, api: ArticleApi, token: str, title: str, details: dict[str, object]
) -> None:
    with pytest.raises(ValidationFailed) as caught:
        await api.create(token, title=title, tone=1, size=1)
    assert caught.value.details == details
    assert sandbox.state.create_count == 0


@pytest.mark.parametrize(("tone", "size"), [(6, 1), (1, 5)], ids=["tone 6", "size 5"])
async def test_an_unknown_tone_or_size_fails_validation(
    api: ArticleApi, token: str, tone: int, size: int
) -> None:
    with pytest.raises(ValidationFailed):
        await api.create(token, title=TITLE, tone=tone, size=size)


async def test_a_low_balance_refuses_the_order(sandbox: RunningSandbox, api: ArticleApi) -> None:
    pair = await api.login(LOW_BALANCE_EMAIL, LOW_BALANCE_PASSWORD)
    with pytest.raises(InsufficientBalance) as caught:
        await api.create(pair.access_token, title=TITLE, tone=1, size=4)
    assert (caught.value.required, caught.value.current) == (Decimal(50), Decimal(20))
    assert sandbox.state.create_count == 0


async def test_a_low_balance_refuses_the_whole_bulk(
    sandbox: RunningSandbox, api: ArticleApi
) -> None:
    pair = await api.login(LOW_BALANCE_EMAIL, LOW_BALANCE_PASSWORD)
    with pytest.raises(InsufficientBalance) as caught:
        await api.bulk_create(pair.access_token, [(TITLE, 1, 1), (TITLE, 1, 1)])
    assert caught.value.required == Decimal(30)
    assert sandbox.state.create_count == 0


async def test_one_bad_item_refuses_the_whole_bulk(
    sandbox: RunningSandbox, api: ArticleApi, token: str
) -> None:
    with pytest.raises(ValidationFailed) as caught:
        await api.bulk_create(token, [(TITLE, 1, 1), ("Kısa", 1, 1)])
    assert caught.value.details["index"] == 1
    assert sandbox.state.create_count == 0


async def test_a_missing_bulk_operation(
    sandbox: RunningSandbox, api: ArticleApi, token: str
) -> None:
    sandbox.state.faults.bulk_enabled = False
    with pytest.raises(OperationMissing):
        await api.bulk_create(token, [(TITLE, 1, 1)])


async def test_rate_limited_with_retry_after(
    sandbox: RunningSandbox, api: ArticleApi, token: str
) -> None:
    sandbox.state.faults.fail_next(1, status=429)
    with pytest.raises(RateLimited) as caught:
        await api.balance(token)
    assert caught.value.retry_after == 1.0


# Unavailability: reads try again, paid calls never do.


async def test_a_read_outlasts_two_failures(
    sandbox: RunningSandbox, api: ArticleApi, token: str
) -> None:
    sandbox.state.faults.fail_next(2, status=503)
    assert await api.balance(token) == Decimal(500)
    assert calls_to(sandbox, "GET", BALANCE_PATH) == 3


async def test_a_read_gives_up_after_its_attempts(
    sandbox: RunningSandbox, api: ArticleApi, token: str
) -> None:
    sandbox.state.faults.fail_next(3, status=500)
    with pytest.raises(ServiceUnavailable):
        await api.balance(token)
    assert calls_to(sandbox, "GET", BALANCE_PATH) == 3


async def test_create_on_503_is_an_unknown_outcome_and_not_resent(
    sandbox: RunningSandbox, api: ArticleApi, token: str
) -> None:
    sandbox.state.faults.fail_next(1, status=503)
    with pytest.raises(OutcomeUnknown):
        await api.create(token, title=TITLE, tone=1, size=1)
    assert sandbox.state.create_count == 0
    assert calls_to(sandbox, "POST", CREATE_PATH) == 1


async def test_create_on_502_is_an_unknown_outcome(
    sandbox: RunningSandbox, api: ArticleApi, token: str
) -> None:
    sandbox.state.faults.fail_next(1, status=502)
    with pytest.raises(OutcomeUnknown):
        await api.create(token, title=TITLE, tone=1, size=1)
    assert calls_to(sandbox, "POST", CREATE_PATH) == 1


async def test_a_create_that_times_out_was_charged_and_is_not_resent(
    sandbox: RunningSandbox, token: str
) -> None:
    sandbox.state.faults.latency = 0.5
    async with httpx.AsyncClient(timeout=httpx.Timeout(5.0, read=0.1)) as http:
        api = ArticleApi(http, base_url=sandbox.url)
        with pytest.raises(OutcomeUnknown):
            await api.create(token, title=TITLE, tone=1, size=1)
    # The request was sent whole; on a busy machine the client may give up before the
    # sandbox has even read it, so the charge is waited for.
    await wait_until(lambda: sandbox.state.create_count == 1)
    assert calls_to(sandbox, "POST", CREATE_PATH) == 1


async def test_nothing_listening_is_unavailable_and_not_charged() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    # The port was free a moment ago and nothing listens on it now.
    async with httpx.AsyncClient(timeout=5.0) as http:
        api = ArticleApi(http, base_url=f"http://127.0.0.1:{port}")
        with pytest.raises(ServiceUnavailable) as caught:
            await api.create("token", title=TITLE, tone=1, size=1)
    assert not isinstance(caught.value, OutcomeUnknown)


# No secret in any log record, at DEBUG, httpx and httpcore included.


async def test_no_password_or_token_reaches_the_logs(
    sandbox: RunningSandbox, api: ArticleApi, caplog: pytest.LogCaptureFixture
) -> None:
    # Every logger at DEBUG, whatever floor an earlier test's logging set-up left on it.
    for name in ("", "bot", "httpx", "httpcore"):
        caplog.set_level(logging.DEBUG, logger=name)
    wrong_password = "Yanlis98765"
    pair = await api.login(DEMO_EMAIL, DEMO_PASSWORD)
    renewed = await api.refresh(pair.refresh_token)
    token = renewed.access_token
    await api.balance(token)
    await api.tones(token)
    await api.sizes(token)
    job = await api.create(token, title=TITLE, tone=1, size=1)
    await api.articles(token, request_id=job.request_id)
    await api.add_topic(token, "Eğitim teknolojileri")
    await api.bulk_create(token, [(TITLE, 2, 1)])
    with pytest.raises(LoginRejected):
        await api.login(DEMO_EMAIL, wrong_password)
    with pytest.raises(TokenRejected):
        await api.refresh(pair.refresh_token)

    secrets = [
        DEMO_PASSWORD,
        wrong_password,
        pair.access_token,
        pair.refresh_token,
        renewed.access_token,
        renewed.refresh_token,
    ]
    loggers = {record.name.split(".")[0] for record in caplog.records}
    assert {"bot", "httpx", "httpcore"} <= loggers
    for record in caplog.records:
        written = record.getMessage() + repr(record.args)
        leaked = [secret for secret in secrets if secret in written]
        assert not leaked, f"{record.name} logged a secret: {record.msg!r}"
