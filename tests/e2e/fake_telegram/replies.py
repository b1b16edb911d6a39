"""The Bot API's answers besides a bare result: errors, and results with a description."""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

__all__ = ["ApiError", "Described", "bad_request"]


class ApiError(Exception):
    """A request the Bot API refuses: HTTP status, description, and ``retry_after`` for 429."""

    def __init__(
        self, status: int, description: str | None = None, *, retry_after: int | None = None
    ) -> None:
        if description is None:
            description = _default_description(status, retry_after)
        super().__init__(description)
        self.status = status
        self.description = description
        self.retry_after = retry_after

    def answer(self) -> dict[str, Any]:
        """The body the Bot API sends back for this error."""
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.status,
            "description": self.description,
        }
        if self.status == HTTPStatus.TOO_MANY_REQUESTS and self.retry_after is not None:
            body["parameters"] = {"retry_after": self.retry_after}
        return body


@dataclass(frozen=True)
class Described:
    """A result the Bot API answers with a description too (``"Webhook was set"``)."""

    result: Any
    description: str


def bad_request(reason: str) -> ApiError:
    """A 400 answer, described the Bot API's way: ``Bad Request: <reason>``."""
    return ApiError(HTTPStatus.BAD_REQUEST, f"Bad Request: {reason}")


def _default_description(status: int, retry_after: int | None) -> str:
    phrase = HTTPStatus(status).phrase
    if status == HTTPStatus.TOO_MANY_REQUESTS and retry_after is not None:
        return f"{phrase}: retry after {retry_after}"
    return phrase
