"""Counts the messages sent to Slack and the 429s it answers."""

from __future__ import annotations

from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState

from bot import metrics
from bot.slack.ids import PLATFORM

__all__ = ["CountingRetryHandler", "count_sent"]

_RATE_LIMITED = 429
_OK = 200
# Web API methods that put a message in front of someone.
_SENDING = ("chat.postMessage", "chat.postEphemeral", "files.completeUploadExternal")


def count_sent() -> None:
    """Count one message sent (the response URL's answers, which bypass the Web API client)."""
    metrics.CHAT_MESSAGES.labels(PLATFORM).inc()


class CountingRetryHandler(AsyncRetryHandler):
    """Sees every answer of the Web API client first, counts it, and never asks for a retry."""

    async def can_retry_async(
        self,
        *,
        state: RetryState,
        request: HttpRequest,
        response: HttpResponse | None = None,
        error: Exception | None = None,
    ) -> bool:
        """Count a 429 or a sent message; the handlers after this one decide about retries."""
        if response is not None:
            if response.status_code == _RATE_LIMITED:
                metrics.CHAT_RATE_LIMITED.labels(PLATFORM).inc()
            elif response.status_code == _OK and request.url.endswith(_SENDING):
                count_sent()
        return False
