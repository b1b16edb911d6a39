"""A webhook notification of the Cloud API read into what people did.

A notification wraps values in ``entry[].changes[]``; a value of the ``messages`` field
holds the people's ``messages`` and the bot's sends' ``statuses``. Anything else, or any
shape that is not the documented one, is left out: a webhook must never fail on it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Chosen", "Said", "SentFile", "Status", "Unreadable", "Update", "read_notification"]


@dataclass(frozen=True, slots=True)
class Said:
    """A text the person typed."""

    person: str
    message_id: str
    text: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class Chosen:
    """A reply button or a list's row the person tapped (``data``), on a message of the bot;
    ``template`` where it was a template's quick reply."""

    person: str
    message_id: str
    data: str
    on_message: str | None
    template: bool = False


@dataclass(frozen=True, slots=True)
class SentFile:
    """A document the person sent: its medium's id, to download with the token."""

    person: str
    message_id: str
    media_id: str
    filename: str


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A message the bot cannot read: a sticker, a location, an image, a reaction..."""

    person: str
    message_id: str


@dataclass(frozen=True, slots=True)
class Status:
    """What became of a send of the bot: sent, delivered, read, or failed with codes."""

    message_id: str
    person: str
    status: str
    codes: tuple[int, ...] = ()


Update = Said | Chosen | SentFile | Unreadable | Status


def _values(payload: Any) -> Iterator[dict[str, Any]]:
    if not isinstance(payload, dict):
        return
    for entry in payload.get("entry") or []:
        for change in (entry or {}).get("changes") or [] if isinstance(entry, dict) else []:
            value = change.get("value") if isinstance(change, dict) else None
            if isinstance(value, dict) and change.get("field") == "messages":
                yield value


def _message(message: dict[str, Any]) -> Update | None:
    person, message_id = str(message.get("from") or ""), str(message.get("id") or "")
    if not person or not message_id:
        return None
    kind = message.get("type")
    context = (message.get("context") or {}).get("id")
    if kind == "text":
        return Said(person, message_id, str((message.get("text") or {}).get("body") or ""))
    if kind == "interactive":
        interactive = message.get("interactive") or {}
        reply = interactive.get("button_reply") or interactive.get("list_reply") or {}
        if reply.get("id"):
            return Chosen(person, message_id, str(reply["id"]), context)
    if kind == "button":
        payload = str((message.get("button") or {}).get("payload") or "")
        return Chosen(person, message_id, payload, context, template=True)
    if kind == "document":
        document = message.get("document") or {}
        if document.get("id"):
            name = str(document.get("filename") or "")
            return SentFile(person, message_id, str(document["id"]), name)
    return Unreadable(person, message_id)


def _status(status: dict[str, Any]) -> Status | None:
    if not status.get("id") or not status.get("status"):
        return None
    codes = tuple(
        int(error["code"])
        for error in status.get("errors") or []
        if isinstance(error, dict) and str(error.get("code", "")).isdigit()
    )
    return Status(str(status["id"]), str(status.get("recipient_id") or ""), status["status"], codes)


def read_notification(payload: Any) -> list[Update]:
    """What the notification tells, in its order; what cannot be read is left out."""
    updates: list[Update] = []
    for value in _values(payload):
        for message in value.get("messages") or []:
            update = _message(message) if isinstance(message, dict) else None
            if update is not None:
                updates.append(update)
        for status in value.get("statuses") or []:
            read = _status(status) if isinstance(status, dict) else None
            if read is not None:
                updates.append(read)
    return updates
