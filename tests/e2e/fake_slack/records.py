"""What the fake records for tests to read: API calls, response URL posts, views and files."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Call", "OpenedView", "ResponsePost", "UploadedFile"]


@dataclass(frozen=True)
class Call:
    """One Web API request: method, decoded parameters, the answer, and when (monotonic s)."""

    method: str
    params: dict[str, Any]
    status: int
    response: dict[str, Any]
    at: float
    # The token it carried, and the workspace that token belongs to (None: refused).
    token: str | None = None
    team: str | None = None


@dataclass(frozen=True)
class ResponsePost:
    """One JSON body posted to a ``response_url``, with the user and channel it was issued for."""

    user_id: str
    channel_id: str
    body: dict[str, Any]
    at: float


@dataclass
class OpenedView:
    """A modal or Home tab shown to a user, as Slack last returned it (after updates)."""

    user_id: str
    view: dict[str, Any]


@dataclass
class UploadedFile:
    """A file on its way through ``files_upload_v2``: reserved, its bytes posted, then shared."""

    id: str
    filename: str
    length: int
    content: bytes | None = None
    title: str | None = None
    channel_id: str | None = None
    thread_ts: str | None = None
    initial_comment: str | None = None
    completed: bool = False
