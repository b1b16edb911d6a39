"""/metrics: its bearer token, and the database counted at most every few seconds."""

from __future__ import annotations

import httpx

from bot.web import web_app

TOKEN = "scrape-token"


async def healthy() -> tuple[bool, dict[str, object]]:
    return True, {"status": "ok"}


async def test_scrapes_close_together_count_the_backlog_once() -> None:
    counted: list[int] = []

    async def count_backlog() -> None:
        counted.append(1)

    app = web_app([], health=healthy, before_scrape=count_backlog, metrics_token=TOKEN)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://bot") as client:
        bearer = {"Authorization": f"Bearer {TOKEN}"}
        answers = [(await client.get("/metrics", headers=bearer)).status_code for _ in range(5)]
        refused = await client.get("/metrics", headers={"Authorization": "Bearer wrong"})

    assert answers == [200] * 5
    assert refused.status_code == 401
    assert len(counted) == 1
