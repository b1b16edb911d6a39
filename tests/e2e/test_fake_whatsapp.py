"""The fake Cloud API refuses what the real one refuses, keeps the window and the pair rate,
serves media, and signs its webhooks."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.web import serving_http
from tests.e2e.fake_whatsapp import FakeWhatsApp
from tests.e2e.fake_whatsapp.pairs import PairRate
from tests.e2e.fake_whatsapp.records import APP_SECRET, PHONE_NUMBER_ID, TOKEN, VERSION
from tests.fakes import wait_until
from tests.ports import free_port

pytestmark = pytest.mark.e2e

ALICE = "905551112233"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


class Clock:
    """Seconds the test moves."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def _text(body: str) -> dict[str, Any]:
    return {"messaging_product": "whatsapp", "to": ALICE, "type": "text", "text": {"body": body}}


def _buttons(*titles: str) -> dict[str, Any]:
    buttons = [
        {"type": "reply", "reply": {"id": f"b{i}", "title": t}} for i, t in enumerate(titles)
    ]
    interactive = {"type": "button", "body": {"text": "Seç"}, "action": {"buttons": buttons}}
    return {**_text(""), "type": "interactive", "interactive": interactive}


def _list(*titles: str) -> dict[str, Any]:
    rows = [{"id": f"r{i}", "title": t} for i, t in enumerate(titles)]
    action = {"button": "Seç", "sections": [{"title": "Boyut", "rows": rows}]}
    interactive = {"type": "list", "body": {"text": "Seç"}, "action": action}
    return {**_text(""), "type": "interactive", "interactive": interactive}


async def _send(wa: FakeWhatsApp, message: dict[str, Any]) -> httpx.Response:
    async with httpx.AsyncClient() as http:
        url = f"{wa.api_url}/{VERSION}/{PHONE_NUMBER_ID}/messages"
        return await http.post(url, json=message, headers=AUTH)


@pytest.mark.parametrize(
    "message",
    [
        _text("x" * 4097),
        _buttons("Bir", "İki", "Üç", "Dört"),
        _buttons("x" * 21),
        _list(*(f"Satır {i}" for i in range(11))),
        _list("x" * 25),
    ],
    ids=["text-4097", "four-buttons", "button-21", "eleven-rows", "row-25"],
)
async def test_what_the_cloud_api_refuses_is_refused_with_its_code(message: dict[str, Any]) -> None:
    async with FakeWhatsApp.running() as wa:
        wa.pairs.heard(ALICE)
        answer = await _send(wa, message)
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == 131009
    assert wa.sent == []


async def test_what_it_takes_is_recorded_with_an_id() -> None:
    async with FakeWhatsApp.running() as wa:
        wa.pairs.heard(ALICE)
        answers = [await _send(wa, m) for m in (_text("x" * 4096), _buttons("Onayla", "İptal"))]
    assert [a.status_code for a in answers] == [200, 200]
    assert [s.id for s in wa.sent] == [a.json()["messages"][0]["id"] for a in answers]
    assert wa.sent[1].choices == {"Onayla": "b0", "İptal": "b1"}


async def test_outside_the_window_only_a_template_goes_through() -> None:
    clock = Clock()
    async with FakeWhatsApp.running(clock=clock) as wa:
        wa.pairs.heard(ALICE)
        clock.now += 24 * 3600 + 1
        refused = await _send(wa, _text("Makaleniz hazır"))
        template = {"name": "makale_hazir", "language": {"code": "tr"}}
        taken = await _send(wa, {**_text(""), "type": "template", "template": template})
    assert refused.json()["error"]["code"] == 131047
    assert taken.status_code == 200
    assert [s.type for s in wa.sent] == ["template"]


async def test_the_pair_rate_refuses_past_the_burst_until_its_pace() -> None:
    clock = Clock()
    async with FakeWhatsApp.running(clock=clock, pair_rate=PairRate(burst=5, every=6.0)) as wa:
        wa.pairs.heard(ALICE)
        burst = [(await _send(wa, _text(str(i)))).status_code for i in range(5)]
        over = await _send(wa, _text("6"))
        clock.now += 6
        paced = await _send(wa, _text("6"))
    assert burst == [200] * 5
    assert over.json()["error"]["code"] == 131056
    assert paced.status_code == 200


async def test_an_upload_is_served_back_to_the_token_alone() -> None:
    async with FakeWhatsApp.running() as wa, httpx.AsyncClient() as http:
        files = {
            "file": ("makale.md", b"# Merhaba", "text/plain"),
            "messaging_product": (None, "whatsapp"),
            "type": (None, "text/plain"),
        }
        url = f"{wa.api_url}/{VERSION}/{PHONE_NUMBER_ID}/media"
        uploaded = (await http.post(url, files=files, headers=AUTH)).json()["id"]
        refused = await http.post(
            url, files={**files, "type": (None, "text/markdown")}, headers=AUTH
        )
        found = (await http.get(f"{wa.api_url}/{VERSION}/{uploaded}", headers=AUTH)).json()
        stranger = await http.get(found["url"])
        content = await http.get(found["url"], headers=AUTH)
    assert refused.json()["error"]["code"] == 131053
    assert found["sha256"] == hashlib.sha256(b"# Merhaba").hexdigest()
    assert stranger.status_code == 401
    assert content.content == b"# Merhaba"


@asynccontextmanager
async def _receiver() -> AsyncIterator[tuple[str, list[tuple[bytes, str]]]]:
    """A webhook on loopback that keeps what it was posted."""
    got: list[tuple[bytes, str]] = []

    async def hook(request: Request) -> Response:
        got.append((await request.body(), request.headers["x-hub-signature-256"]))
        return Response()

    port = free_port()
    app = Starlette(routes=[Route("/hook", hook, methods=["POST"])])
    async with serving_http(app, port=port, host="127.0.0.1"):
        yield f"http://127.0.0.1:{port}/hook", got


async def test_webhooks_are_signed_and_a_late_window_error_comes_as_a_failed_status() -> None:
    clock = Clock()
    async with (
        _receiver() as (url, got),
        FakeWhatsApp.running(clock=clock, window_errors="status") as wa,
    ):
        wa.webhook_url = url
        await wa.user_says(ALICE, "bakiye")
        clock.now += 24 * 3600 + 1
        accepted = await _send(wa, _text("Makaleniz"))
        await wait_until(lambda: len(got) == 2)
    assert accepted.status_code == 200
    for body, signature in got:
        expected = hmac.new(APP_SECRET.encode(), body, hashlib.sha256).hexdigest()
        assert signature == f"sha256={expected}"
    said, failed = (json.loads(body)["entry"][0]["changes"][0]["value"] for body, _ in got)
    assert said["messages"][0]["text"] == {"body": "bakiye"}
    assert failed["statuses"][0]["status"] == "failed"
    assert failed["statuses"][0]["errors"][0]["code"] == 131047
