"""The one error of the fake: a Slack error code, answered as ``{"ok": false, "error": ...}``."""

from __future__ import annotations

from typing import Any

__all__ = ["SlackError"]


class SlackError(Exception):
    """A request Slack would refuse, with its error code and optional explanations."""

    def __init__(self, error: str, *messages: str) -> None:
        super().__init__(error, *messages)
        self.error = error
        self.messages = messages

    def answer(self) -> dict[str, Any]:
        """The body Slack sends back for this error."""
        body: dict[str, Any] = {"ok": False, "error": self.error}
        if self.messages:
            body["response_metadata"] = {"messages": list(self.messages)}
        return body
