"""What the Cloud API refuses, and the Graph API error bodies it answers with.

From Meta's documentation: a text body of at most 4,096 characters; reply buttons: 1 to 3,
titles of at most 20 characters, ids of at most 256; a list: at most 10 rows in all, row
titles of at most 24 characters, descriptions of 72, the list's button of 20; an
interactive body of at most 1,024 characters. Errors are read by their ``code``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "INVALID_PARAMETER",
    "PAIR_RATE",
    "RE_ENGAGEMENT",
    "THROUGHPUT",
    "GraphError",
    "check_message",
]

# Error codes of the Cloud API's documentation.
INVALID_PARAMETER = 131009
RE_ENGAGEMENT = 131047
PAIR_RATE = 131056
THROUGHPUT = 130429
_TITLES = {
    INVALID_PARAMETER: "Parameter value is not valid",
    RE_ENGAGEMENT: "Re-engagement message",
    PAIR_RATE: "(Business Account, Consumer Account) pair rate limit hit",
    THROUGHPUT: "Rate limit hit",
}
TEXT_MAX, BODY_MAX = 4096, 1024
BUTTONS_MAX, BUTTON_TITLE_MAX, BUTTON_ID_MAX = 3, 20, 256
ROWS_MAX, ROW_TITLE_MAX, ROW_DESCRIPTION_MAX, ROW_ID_MAX = 10, 24, 72, 200
_KINDS = {"text", "interactive", "document", "template", "reaction"}


@dataclass(frozen=True)
class GraphError(Exception):
    """A refusal of the Graph API: its code, the HTTP status it came with, and details."""

    code: int
    details: str = ""
    status: int = 400

    def body(self) -> dict[str, Any]:
        """The error body as the Graph API writes it."""
        title = _TITLES.get(self.code, "Invalid parameter")
        return {
            "error": {
                "message": f"(#{self.code}) {title}",
                "type": "OAuthException",
                "code": self.code,
                "error_data": {"messaging_product": "whatsapp", "details": self.details},
                "fbtrace_id": "AfakeTrace",
            }
        }

    def status_error(self) -> dict[str, Any]:
        """The error as a ``failed`` status webhook carries it."""
        title = _TITLES.get(self.code, "Invalid parameter")
        return {
            "code": self.code,
            "title": title,
            "message": title,
            "error_data": {"details": self.details},
        }


def _refuse(details: str) -> GraphError:
    return GraphError(INVALID_PARAMETER, details)


def _at_most(value: object, limit: int, what: str) -> None:
    if not isinstance(value, str) or not value:
        raise _refuse(f"{what} is required")
    if len(value) > limit:
        raise _refuse(f"{what} must be at most {limit} characters long")


def _check_buttons(action: dict[str, Any]) -> None:
    buttons = action.get("buttons") or []
    if not 1 <= len(buttons) <= BUTTONS_MAX:
        raise _refuse(f"buttons: between 1 and {BUTTONS_MAX} are allowed")
    for button in buttons:
        reply = button.get("reply") or {}
        _at_most(reply.get("title"), BUTTON_TITLE_MAX, "button title")
        _at_most(reply.get("id"), BUTTON_ID_MAX, "button id")
    titles = [button["reply"]["title"] for button in buttons]
    if len(set(titles)) != len(titles):
        raise _refuse("button titles must be unique")


def _check_list(action: dict[str, Any]) -> None:
    _at_most(action.get("button"), BUTTON_TITLE_MAX, "list button")
    rows = [row for section in action.get("sections") or [] for row in section.get("rows") or []]
    if not 1 <= len(rows) <= ROWS_MAX:
        raise _refuse(f"rows: between 1 and {ROWS_MAX} are allowed in all sections")
    for row in rows:
        _at_most(row.get("title"), ROW_TITLE_MAX, "row title")
        _at_most(row.get("id"), ROW_ID_MAX, "row id")
        if len(row.get("description") or "") > ROW_DESCRIPTION_MAX:
            raise _refuse(f"row description must be at most {ROW_DESCRIPTION_MAX} characters")
    ids = [row["id"] for row in rows]
    if len(set(ids)) != len(ids):
        raise _refuse("row ids must be unique")


def _check_interactive(interactive: dict[str, Any]) -> None:
    _at_most((interactive.get("body") or {}).get("text"), BODY_MAX, "interactive body")
    kind = interactive.get("type")
    if kind == "button":
        _check_buttons(interactive.get("action") or {})
    elif kind == "list":
        _check_list(interactive.get("action") or {})
    else:
        raise _refuse(f"interactive type {kind!r} is not served by this fake")


def check_message(message: dict[str, Any]) -> str:
    """The message's type, once it is one the Cloud API takes; else ``GraphError``."""
    if message.get("messaging_product") != "whatsapp":
        raise _refuse("messaging_product must be whatsapp")
    if not str(message.get("to") or "").isdigit():
        raise _refuse("to must be a phone number")
    kind = str(message.get("type") or "text")
    if kind not in _KINDS:
        raise _refuse(f"type {kind!r} is not served by this fake")
    content = message.get(kind) or {}
    if kind == "text":
        _at_most(content.get("body"), TEXT_MAX, "text body")
    elif kind == "interactive":
        _check_interactive(content)
    elif kind == "document" and not (content.get("id") or content.get("link")):
        raise _refuse("document needs an id or a link")
    elif kind == "template" and not (content.get("name") and content.get("language")):
        raise _refuse("template needs a name and a language")
    elif kind == "reaction" and not content.get("message_id"):
        raise _refuse("reaction needs a message_id")
    return kind
