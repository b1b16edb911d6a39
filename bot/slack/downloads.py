"""Files people share with the bot in its DM, fetched with the bot token as Slack requires."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from slack_sdk.web.async_client import AsyncWebClient

from bot.core.conversation.events import Upload
from bot.downloads import download_capped

__all__ = ["download_allowed", "shared_file"]

_SLACK_FILES = "files.slack.com"
_LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})


def download_allowed(url: str, api_url: str) -> bool:
    """Whether the bot token may go to this URL: Slack's file host over HTTPS, or the
    API's own host when that is loopback (a test's fake)."""
    parts, api = urlsplit(url), urlsplit(api_url)
    if parts.scheme == "https" and parts.hostname == _SLACK_FILES:
        return True
    return api.hostname in _LOOPBACK and (parts.scheme, parts.netloc) == (api.scheme, api.netloc)


async def shared_file(
    client: AsyncWebClient, file: dict[str, Any], limit: int, message_id: str
) -> Upload:
    """The shared file as an upload; not fetched when larger than ``limit`` bytes."""
    name, size = str(file.get("name") or ""), int(file.get("size") or 0)
    url = str(file.get("url_private_download") or "")
    if size > limit or not url or not download_allowed(url, client.base_url):
        return Upload(name, None if size > limit else b"", size, message_id)
    fetched = await download_capped(
        url, limit=limit, headers={"Authorization": f"Bearer {client.token}"}
    )
    # Slack answers a refused token with its sign-in page, not an error status.
    if fetched.status != 200 or fetched.content_type.startswith("text/html"):
        return Upload(name, b"", size, message_id)
    return Upload(name, fetched.content, size, message_id)
