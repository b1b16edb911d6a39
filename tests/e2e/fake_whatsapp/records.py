"""What the fake's number is, and what it keeps: the messages it accepted, the media."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["APP_SECRET", "PHONE_NUMBER_ID", "TOKEN", "VERSION", "Media", "Sent"]

TOKEN = "EAAfake-whatsapp-access-token"
PHONE_NUMBER_ID = "106540352242922"
APP_SECRET = "fake-whatsapp-app-secret"
VERSION = "v21.0"


@dataclass(frozen=True)
class Sent:
    """A message the bot sent that the Cloud API accepted: to whom, its type and content."""

    id: str
    to: str
    type: str
    content: dict[str, Any]
    at: float

    @property
    def text(self) -> str:
        """The visible text: a text's body, an interactive message's body, a caption."""
        if self.type == "text":
            return str(self.content["body"])
        if self.type == "interactive":
            return str(self.content["body"]["text"])
        return str(self.content.get("caption") or "")

    @property
    def choices(self) -> dict[str, str]:
        """An interactive message's choices: title -> id (its buttons, or its list's rows)."""
        if self.type != "interactive":
            return {}
        action = self.content["action"]
        if self.content["type"] == "button":
            return {b["reply"]["title"]: b["reply"]["id"] for b in action["buttons"]}
        rows = [row for section in action["sections"] for row in section["rows"]]
        return {row["title"]: row["id"] for row in rows}


@dataclass(frozen=True)
class Media:
    """An uploaded or received file."""

    content: bytes
    mime_type: str
    filename: str = ""
