"""Files people share with the bot in its DM, fetched with the bot token as Slack requires."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import httpx
from slack_sdk.web.async_client import AsyncWebClient

from bot.core.events import Upload

__all__ = ["shared_file"]

_TIMEOUT = httpx.Timeout(10.0)


def _ours(url: str, client: AsyncWebClient) -> bool:
    """Whether the bot token may go to this URL: Slack's own hosts, or the API's (a test's)."""
    host = urlsplit(url).hostname or ""
    return host.endswith(".slack.com") or host == urlsplit(client.base_url).hostname


async def shared_file(
    client: AsyncWebClient, file: dict[str, Any], limit: int, message_id: str
) -> Upload:
    """The shared file as an upload; not fetched when larger than ``limit`` bytes."""
    name, size = str(file.get("name") or ""), int(file.get("size") or 0)
    url = str(file.get("url_private_download") or "")
    if size > limit or not url or not _ours(url, client):
        return Upload(name, None if size > limit else b"", size, message_id)
    async with httpx.AsyncClient(timeout=_TIMEOUT, follow_redirects=False) as http:
        answer = await http.get(url, headers={"Authorization": f"Bearer {client.token}"})
    # Slack answers a refused token with its sign-in page, not an error status.
    if answer.status_code != 200 or answer.headers.get("content-type", "").startswith("text/html"):
        return Upload(name, b"", size, message_id)
    return Upload(name, answer.content[: limit + 1], size, message_id)
