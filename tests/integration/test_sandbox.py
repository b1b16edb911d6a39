"""The sandbox over real loopback HTTP: auth, charging, jobs, listing, bulk and fault switches."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import time
from collections.abc import AsyncIterator
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest

from bot.sandbox import (
    DEMO_EMAIL,
    DEMO_PASSWORD,
    LOW_BALANCE_EMAIL,
    LOW_BALANCE_PASSWORD,
    RunningSandbox,
    SandboxState,
    running_sandbox,
)
from bot.sandbox.accounts import meets_password_rules
from bot.sandbox.catalog import SIZES, TONES
from bot.sandbox.estimates import estimated_time_text
from bot.sandbox.jobs import Order

ROOT = Path(__file__).resolve().parents[2]
LOGIN = "/api/v1/auth/login"
REFRESH = "/api/v1/auth/refresh"
BALANCE = "/api/v1/profil/guncel-bakiye"
TONES_PATH = "/api/v1/makaleler/yazim-tonlari"
SIZES_PATH = "/api/v1/makaleler/makale-boyutları"
CREATE = "/api/v1/makaleler/makale-olustur"
OWN = "/api/v1/makaleler/makalelerim"
TOPIC = "/api/v1/konular/konu-ekle"
BULK = "/api/v1/makaleler/toplu-makale-olustur"

TITLE = "Yapay Zeka ile SEO Uyumlu İçerik"
SPEED = 24.0
# The longest nominal generation time (very long, 10 minutes) at the tests' speed, with margin.
ALL_DONE = 600 / SPEED + 1


@pytest.fixture
async def sandbox() -> AsyncIterator[RunningSandbox]:
    async with running_sandbox(speed=SPEED) as running:
        yield running


@pytest.fixture
async def client(sandbox: RunningSandbox) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=sandbox.url, timeout=5) as http:
        yield http


async def tokens(
    client: httpx.AsyncClient, email: str = DEMO_EMAIL, password: str = DEMO_PASSWORD
) -> dict[str, Any]:
    response = await client.post(LOGIN, json={"email": email, "password": password})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def auth(
    client: httpx.AsyncClient, email: str = DEMO_EMAIL, password: str = DEMO_PASSWORD
) -> dict[str, str]:
    pair = await tokens(client, email, password)
    return {"Authorization": f"Bearer {pair['accessToken']}"}


def order(size: int = 1, title: str = TITLE, tone: int = 1) -> dict[str, Any]:
    return {"baslik": title, "yazimTonu": tone, "makaleBoyutu": size}


async def own_articles(
    client: httpx.AsyncClient, headers: dict[str, str], **params: Any
) -> dict[str, Any]:
    response = await client.get(OWN, headers=headers, params=params)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


def test_seeded_passwords_follow_the_password_rules() -> None:
    assert meets_password_rules(DEMO_PASSWORD)
    assert meets_password_rules(LOW_BALANCE_PASSWORD)
    for weak in ("Short1A", "alllower123", "ALLUPPER123", "NoDigitsHere"):
        assert not meets_password_rules(weak)


def test_estimated_time_text_leads_with_the_lower_bound() -> None:
    assert estimated_time_text(60, 120) == "1-2 dakika"
    assert estimated_time_text(420, 600) == "7-10 dakika"
    assert estimated_time_text(2.5, 5) == "2-5 saniye"
    assert estimated_time_text(5, 5) == "5 saniye"


def test_failures_follow_the_seed() -> None:
    def outcomes(seed: int) -> list[bool]:
        state = SandboxState(seed=seed, failure_rate=0.5)
        account = state.account(DEMO_EMAIL)
        assert account is not None
        jobs = state.create_jobs(account, [Order(TITLE, TONES[0], SIZES[0])] * 20)
        return [job.failure is None for job in jobs]

    assert outcomes(3) == outcomes(3)
    assert True in outcomes(3)
    assert False in outcomes(3)
    assert outcomes(3) != outcomes(4)


async def test_login_gives_a_token_pair_for_an_hour_of_sandbox_time(
    sandbox: RunningSandbox, client: httpx.AsyncClient
) -> None:
    pair = await tokens(client, email="  Demo@Example.com ")

    assert set(pair) == {"accessToken", "accessTokenExpire", "refreshToken"}
    expected = (sandbox.state.clock.now() + timedelta(hours=1)).timestamp()
    assert abs(pair["accessTokenExpire"] - expected) <= 2
    headers = {"Authorization": f"Bearer {pair['accessToken']}"}
    balance = await client.get(BALANCE, headers=headers)
    assert balance.json() == {"success": True, "data": {"bakiye": 500.0, "paraBirimi": "TL"}}


async def test_an_opened_account_logs_in_with_its_own_balance(
    sandbox: RunningSandbox, client: httpx.AsyncClient
) -> None:
    sandbox.state.open_account("Okur7@Example.com", "Okur12345", Decimal(900))

    headers = await auth(client, "okur7@example.com", "Okur12345")
    balance = await client.get(BALANCE, headers=headers)
    assert balance.json()["data"]["bakiye"] == 900.0
    with pytest.raises(ValueError, match=r"has an account already"):
        sandbox.state.open_account("okur7@example.com", "Baska12345", Decimal(1))


async def test_login_validates_the_fields(client: httpx.AsyncClient) -> None:
    cases = [
        {"email": "not-an-email", "password": DEMO_PASSWORD},
        {"email": "demo@example", "password": DEMO_PASSWORD},
        {"email": "", "password": DEMO_PASSWORD},
        {"email": DEMO_EMAIL, "password": ""},
        {"email": DEMO_EMAIL},
        {},
    ]
    for body in cases:
        response = await client.post(LOGIN, json=body)
        assert response.status_code == 400, body
        assert response.json()["error"] == "Validation Error"
        assert response.json()["statusCode"] == 400
    not_json = await client.post(LOGIN, content=b"email=demo")
    assert not_json.status_code == 400


async def test_wrong_credentials_answer_401_or_the_400_variant(
    sandbox: RunningSandbox, client: httpx.AsyncClient
) -> None:
    wrong = {"email": DEMO_EMAIL, "password": "Wrong12345"}
    unknown = {"email": "nobody@example.com", "password": DEMO_PASSWORD}
    for body in (wrong, unknown):
        response = await client.post(LOGIN, json=body)
        assert response.status_code == 401
        assert response.json()["error"] == "Authentication Failed"

    sandbox.state.faults.wrong_password_status = 400
    response = await client.post(LOGIN, json=wrong)
    assert response.status_code == 400
    assert response.json()["error"] == "Invalid credentials"
    assert response.json()["statusCode"] == 400


async def test_refresh_rotates_the_refresh_token(client: httpx.AsyncClient) -> None:
    first = await tokens(client)

    response = await client.post(REFRESH, json={"refreshToken": first["refreshToken"]})
    assert response.status_code == 200
    second = response.json()
    assert second["refreshToken"] != first["refreshToken"]
    assert second["accessToken"] != first["accessToken"]
    headers = {"Authorization": f"Bearer {second['accessToken']}"}
    assert (await client.get(BALANCE, headers=headers)).status_code == 200

    reused = await client.post(REFRESH, json={"refreshToken": first["refreshToken"]})
    assert reused.status_code == 401
    assert (await client.post(REFRESH, json={"refreshToken": "made-up"})).status_code == 401
    assert (await client.post(REFRESH, json={})).status_code == 400


async def test_tokens_expire_on_the_sandbox_clock(
    sandbox: RunningSandbox, client: httpx.AsyncClient
) -> None:
    pair = await tokens(client)
    headers = {"Authorization": f"Bearer {pair['accessToken']}"}

    sandbox.state.clock.advance(59 * 60)
    assert (await client.get(BALANCE, headers=headers)).status_code == 200
    sandbox.state.clock.advance(61)
    expired = await client.get(BALANCE, headers=headers)
    assert expired.status_code == 401
    assert expired.json()["error"] == "Unauthorized"

    refreshed = await client.post(REFRESH, json={"refreshToken": pair["refreshToken"]})
    assert refreshed.status_code == 200
    sandbox.state.clock.advance(timedelta(days=30, seconds=1).total_seconds())
    late = await client.post(REFRESH, json={"refreshToken": refreshed.json()["refreshToken"]})
    assert late.status_code == 401


async def test_every_protected_path_needs_a_valid_token(
    sandbox: RunningSandbox, client: httpx.AsyncClient
) -> None:
    stale = (await auth(client))["Authorization"]
    sandbox.state.clock.advance(3601)
    bad_headers: list[dict[str, str]] = [
        {},
        {"Authorization": "Bearer not-a-jwt"},
        {"Authorization": stale},
        {"Authorization": stale.replace("Bearer", "Basic")},
    ]
    calls = [
        ("GET", BALANCE, None),
        ("GET", TONES_PATH, None),
        ("GET", SIZES_PATH, None),
        ("POST", CREATE, order()),
        ("GET", OWN, None),
        ("POST", TOPIC, {"konu": "Dijital pazarlama"}),
        ("POST", BULK, {"makaleler": [order()]}),
    ]
    for method, path, body in calls:
        for headers in bad_headers:
            response = await client.request(method, path, json=body, headers=headers)
            assert response.status_code == 401, (path, headers)
            assert response.json()["error"] == "Unauthorized"
            assert response.json()["statusCode"] == 401
    assert sandbox.state.create_count == 0


async def test_catalog_lists_tones_and_sizes_and_logs_the_encoded_path(
    sandbox: RunningSandbox, client: httpx.AsyncClient
) -> None:
    headers = await auth(client)

    tones = (await client.get(TONES_PATH, headers=headers)).json()["data"]
    sizes = (await client.get(SIZES_PATH, headers=headers)).json()["data"]

    assert [tone["ad"] for tone in tones] == [
        "Profesyonel",
        "Samimi",
        "Eğitici",
        "İkna Edici",
        "Yaratıcı",
    ]
    assert [(size["id"], size["ad"], size["ucret"]) for size in sizes] == [
        (1, "Kısa", 15),
        (2, "Orta", 25),
        (3, "Uzun", 35),
        (4, "Çok Uzun", 50),
    ]
    assert ("GET", "/api/v1/makaleler/makale-boyutlar%C4%B1") in sandbox.state.request_log
    assert sandbox.state.request_log[0] == ("POST", LOGIN)


async def test_create_charges_the_size_cost(
    sandbox: RunningSandbox, client: httpx.AsyncClient
) -> None:
    headers = await auth(client)

    answers = [
        (await client.post(CREATE, json=order(size), headers=headers)).json() for size in (1, 4)
    ]

    assert [answer["data"]["cost"] for answer in answers] == [15, 50]
    assert answers[0]["success"] is True
    assert answers[0]["message"] == "Makale oluşturma isteği alındı"
    # Short articles take 1-2 minutes, very long ones 7-10, both 24 times faster here.
    assert answers[0]["data"]["estimatedTime"] == "2-5 saniye"
    assert answers[1]["data"]["estimatedTime"] == "17-25 saniye"
    assert answers[0]["data"]["requestId"] != answers[1]["data"]["requestId"]
    balance = (await client.get(BALANCE, headers=headers)).json()["data"]["bakiye"]
    assert balance == 435.0
    assert sandbox.state.balance_of(DEMO_EMAIL) == Decimal(435)
    assert sandbox.state.create_count == 2


async def test_estimated_time_at_real_speed_is_in_minutes() -> None:
    async with (
        running_sandbox(speed=1.0) as sandbox,
        httpx.AsyncClient(base_url=sandbox.url) as client,
    ):
        headers = await auth(client)
        short = await client.post(CREATE, json=order(1), headers=headers)
        long = await client.post(CREATE, json=order(3), headers=headers)
    assert short.json()["data"]["estimatedTime"] == "1-2 dakika"
    assert long.json()["data"]["estimatedTime"] == "5-7 dakika"


async def test_create_rejects_invalid_orders_without_charging(
    sandbox: RunningSandbox, client: httpx.AsyncClient
) -> None:
    headers = await auth(client)

    short = await client.post(CREATE, json=order(title="Kısa"), headers=headers)
    assert short.status_code == 400
    assert short.json()["error"] == "ValidationError"
    assert short.json()["details"] == {"field": "baslik", "minLength": 10, "currentLength": 4}
    long = await client.post(CREATE, json=order(title="x" * 256), headers=headers)
    assert long.json()["details"] == {"field": "baslik", "maxLength": 255, "currentLength": 256}
    for bad in (order(tone=0), order(tone=6), order(size=5), order(size=True), {"baslik": TITLE}):
        response = await client.post(CREATE, json=bad, headers=headers)
        assert response.status_code == 400, bad
        assert response.json()["details"]["field"] in {"yazimTonu", "makaleBoyutu"}
    assert sandbox.state.balance_of(DEMO_EMAIL) == Decimal(500)
    assert sandbox.state.create_count == 0


async def test_create_beyond_the_balance_is_403(
    sandbox: RunningSandbox, client: httpx.AsyncClient
) -> None:
    headers = await auth(client, LOW_BALANCE_EMAIL, LOW_BALANCE_PASSWORD)

    response = await client.post(CREATE, json=order(2), headers=headers)

    assert response.status_code == 403
    assert response.json() == {
        "error": "InsufficientBalance",
        "message": response.json()["message"],
        "statusCode": 403,
        "code": "INSUFFICIENT_BALANCE",
        "requiredAmount": 25.0,
        "currentBalance": 20.0,
    }
    assert sandbox.state.balance_of(LOW_BALANCE_EMAIL) == Decimal(20)
    assert (await client.post(CREATE, json=order(1), headers=headers)).status_code == 200
    assert sandbox.state.balance_of(LOW_BALANCE_EMAIL) == Decimal(5)


async def test_jobs_progress_to_a_markdown_article(
    sandbox: RunningSandbox, client: httpx.AsyncClient
) -> None:
    headers = await auth(client)
    created = await client.post(CREATE, json=order(1), headers=headers)
    request_id = created.json()["data"]["requestId"]

    [queued] = (await own_articles(client, headers))["items"]
    assert (queued["requestId"], queued["durum"], queued["durumId"]) == (
        request_id,
        "beklemede",
        1,
    )
    assert (queued["ilerleme"], queued["icerik"], queued["hataMesaji"]) == (0, None, None)
    assert queued["createdAt"].endswith("Z")

    sandbox.state.clock.advance(1.0)  # short jobs take 2.5-5 seconds at this speed
    [working] = (await own_articles(client, headers))["items"]
    assert (working["durum"], working["durumId"]) == ("isleniyor", 2)
    assert 0 <= working["ilerleme"] <= 99
    assert working["icerik"] is None

    sandbox.state.clock.advance(ALL_DONE)
    [done] = (await own_articles(client, headers))["items"]
    assert (done["durum"], done["durumId"], done["ilerleme"]) == ("tamamlandi", 3, 100)
    text = done["icerik"]
    assert text.startswith(f"# {TITLE}\n")
    assert text.count("\n## ") >= 2
    assert "\n- " in text
    assert 340 <= len(text.split()) <= 460


async def test_article_length_follows_the_size(
    sandbox: RunningSandbox, client: httpx.AsyncClient
) -> None:
    headers = await auth(client)
    for size in (2, 3, 4):
        response = await client.post(CREATE, json=order(size), headers=headers)
        assert response.status_code == 200
    sandbox.state.clock.advance(ALL_DONE)

    items = (await own_articles(client, headers))["items"]

    words = {item["makaleBoyutu"]: len(item["icerik"].split()) for item in items}
    assert 850 <= words[2] <= 1150
    assert 1500 <= words[3] <= 1900
    assert 2500 <= words[4] <= 2900


async def test_failure_rate_one_fails_every_job() -> None:
    async with (
        running_sandbox(speed=SPEED, failure_rate=1.0) as sandbox,
        httpx.AsyncClient(base_url=sandbox.url) as client,
    ):
        headers = await auth(client)
        await client.post(CREATE, json=order(1), headers=headers)
        await client.post(CREATE, json=order(2), headers=headers)
        sandbox.state.clock.advance(ALL_DONE)
        items = (await own_articles(client, headers))["items"]
    assert [item["durum"] for item in items] == ["basarisiz", "basarisiz"]
    assert all(item["durumId"] == 4 for item in items)
    assert all(item["hataMesaji"] and item["icerik"] is None for item in items)


async def test_own_articles_filter_and_page(
    sandbox: RunningSandbox, client: httpx.AsyncClient
) -> None:
    headers = await auth(client)
    first = await client.post(CREATE, json=order(1, "Birinci makale başlığı"), headers=headers)
    sandbox.state.clock.advance(ALL_DONE)
    later = [
        (await client.post(CREATE, json=order(1, f"Sonraki makale {n}"), headers=headers))
        for n in (1, 2)
    ]
    other = await auth(client, LOW_BALANCE_EMAIL, LOW_BALANCE_PASSWORD)
    await client.post(CREATE, json=order(1, "Başka birinin makalesi"), headers=other)

    everything = await own_articles(client, headers)
    assert everything["toplam"] == 3
    assert [item["baslik"] for item in everything["items"]] == [
        "Sonraki makale 2",
        "Sonraki makale 1",
        "Birinci makale başlığı",
    ]
    wanted = later[0].json()["data"]["requestId"]
    by_id = await own_articles(client, headers, requestId=wanted)
    assert [item["requestId"] for item in by_id["items"]] == [wanted]
    finished = await own_articles(client, headers, durumId=3)
    assert [item["requestId"] for item in finished["items"]] == [first.json()["data"]["requestId"]]
    assert (await own_articles(client, headers, durumId=1))["toplam"] == 2
    assert (await own_articles(client, headers, durumId=""))["toplam"] == 3
    page_one = await own_articles(client, headers, pageSize=2)
    page_two = await own_articles(client, headers, pageSize=2, sayfa=2)
    assert [len(page_one["items"]), len(page_two["items"]), page_two["toplam"]] == [2, 1, 3]
    assert page_two["items"][0]["baslik"] == "Birinci makale başlığı"
    for params in ({"durumId": 9}, {"pageSize": 0}, {"pageSize": "many"}):
        response = await client.get(OWN, headers=headers, params=params)
        assert response.status_code == 400, params


async def test_add_topic(client: httpx.AsyncClient) -> None:
    headers = await auth(client)

    first = await client.post(TOPIC, json={"konu": " Dijital pazarlama "}, headers=headers)
    second = await client.post(TOPIC, json={"konu": "SEO"}, headers=headers)

    assert first.json() == {"success": True, "data": {"id": 1, "konu": "Dijital pazarlama"}}
    assert second.json()["data"]["id"] == 2
    too_short = await client.post(TOPIC, json={"konu": "a"}, headers=headers)
    assert too_short.status_code == 400
    assert too_short.json()["details"]["field"] == "konu"


async def test_bulk_create_is_all_or_nothing(
    sandbox: RunningSandbox, client: httpx.AsyncClient
) -> None:
    headers = await auth(client)

    accepted = await client.post(
        BULK, json={"makaleler": [order(1), order(2), order(4)]}, headers=headers
    )
    assert accepted.status_code == 200
    data = accepted.json()["data"]
    assert data["toplamUcret"] == 90
    assert [item["cost"] for item in data["items"]] == [15, 25, 50]
    assert len({item["requestId"] for item in data["items"]}) == 3
    assert sandbox.state.balance_of(DEMO_EMAIL) == Decimal(410)
    assert sandbox.state.create_count == 3

    invalid = await client.post(
        BULK, json={"makaleler": [order(1), order(1, "Kısa")]}, headers=headers
    )
    assert invalid.status_code == 400
    assert invalid.json()["details"]["index"] == 1
    assert invalid.json()["details"]["field"] == "makaleler[1].baslik"
    malformed: list[dict[str, Any]] = [{"makaleler": []}, {"makaleler": [order()] * 21}, {}]
    for bad in malformed:
        assert (await client.post(BULK, json=bad, headers=headers)).status_code == 400

    sandbox.state.set_balance(DEMO_EMAIL, Decimal(60))
    poor = await client.post(BULK, json={"makaleler": [order(2)] * 3}, headers=headers)
    assert poor.status_code == 403
    assert (poor.json()["requiredAmount"], poor.json()["currentBalance"]) == (75.0, 60.0)
    assert sandbox.state.create_count == 3
    assert sandbox.state.balance_of(DEMO_EMAIL) == Decimal(60)

    sandbox.state.faults.bulk_enabled = False
    missing = await client.post(BULK, json={"makaleler": [order(1)]}, headers=headers)
    assert missing.status_code == 404
    assert missing.json()["statusCode"] == 404


async def test_fail_next_answers_the_next_requests_with_an_error(
    sandbox: RunningSandbox, client: httpx.AsyncClient
) -> None:
    headers = await auth(client)
    sandbox.state.faults.fail_next(2)

    failed = [await client.post(CREATE, json=order(), headers=headers) for _ in range(2)]
    assert [response.status_code for response in failed] == [503, 503]
    assert failed[0].json()["statusCode"] == 503
    assert sandbox.state.create_count == 0
    assert (await client.post(CREATE, json=order(), headers=headers)).status_code == 200

    sandbox.state.faults.fail_next(1, status=429)
    limited = await client.get(BALANCE, headers=headers)
    assert limited.status_code == 429
    assert limited.headers["Retry-After"] == "1"
    assert ("GET", BALANCE) in sandbox.state.request_log


async def test_latency_comes_after_the_create_took_effect(
    sandbox: RunningSandbox, client: httpx.AsyncClient
) -> None:
    headers = await auth(client)
    sandbox.state.faults.latency = 0.2

    started = time.monotonic()
    assert (await client.get(BALANCE, headers=headers)).status_code == 200
    assert time.monotonic() - started >= 0.2
    with pytest.raises(httpx.ReadTimeout):
        await client.post(
            CREATE, json=order(), headers=headers, timeout=httpx.Timeout(5.0, read=0.05)
        )

    async with asyncio.timeout(30):
        # The state has no event to wait on; the charge lands within milliseconds.
        while sandbox.state.create_count == 0:  # noqa: ASYNC110
            await asyncio.sleep(0.005)
    assert sandbox.state.create_count == 1
    assert sandbox.state.balance_of(DEMO_EMAIL) == Decimal(485)


async def test_command_line_prints_the_accounts_and_stops_on_ctrl_c() -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        "from bot.sandbox import main; main(['--port', '0', '--speed', '60'])",
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    try:
        async with asyncio.timeout(10):
            banner = [(await process.stdout.readline()).decode() for _ in range(5)]
        assert "speed x60" in banner[0]
        assert banner[3].split() == [DEMO_EMAIL, DEMO_PASSWORD, "500", "TL"]
        assert banner[4].split() == [LOW_BALANCE_EMAIL, LOW_BALANCE_PASSWORD, "20", "TL"]
        url = re.search(r"http://\S+", banner[0])
        assert url is not None
        assert banner[1].split() == ["API", "page:", f"{url.group()}/docs"]
        async with httpx.AsyncClient(base_url=url.group()) as client:
            assert (await client.get(SIZES_PATH, headers=await auth(client))).status_code == 200
            page = await client.get("/docs")
            assert page.status_code == 200
            assert "swagger" in page.text.lower()
            schema = (await client.get("/openapi.json")).json()
            assert "/api/v1/auth/login" in schema["paths"]
    finally:
        process.send_signal(signal.SIGINT)
        async with asyncio.timeout(10):
            returncode = await process.wait()
    assert returncode == 0
