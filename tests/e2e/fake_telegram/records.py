"""What the fake keeps for tests to read: requests, messages of each chat, uploaded files."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["JSON", "Call", "StoredFile", "StoredMessage", "UploadedFile"]

JSON = dict[str, Any]


@dataclass(frozen=True)
class UploadedFile:
    """A file part of a multipart request, as it arrived."""

    filename: str | None
    content_type: str
    content: bytes


@dataclass
class Call:
    """One request: method as named in the URL, decoded parameters, files, time and answer.

    ``at`` is ``time.monotonic()`` when the request arrived; ``response`` is the answer body,
    None while the request is still being answered (a long poll).
    """

    method: str
    params: dict[str, Any]
    at: float
    files: dict[str, UploadedFile] = field(default_factory=dict)
    response: JSON | None = None

    @property
    def ok(self) -> bool:
        """Whether the request was answered with ``"ok": true``."""
        return self.response is not None and self.response["ok"] is True


@dataclass(frozen=True)
class StoredFile:
    """A file the bot uploaded, under the ``file_id`` and ``file_path`` Telegram gave it."""

    file_id: str
    file_unique_id: str
    file_path: str
    file_name: str
    mime_type: str
    content: bytes
    # Telegram's ``file_size`` is optional; a file may come without it.
    size_shown: bool = True

    def size_field(self) -> JSON:
        """``file_size`` as Telegram gives it, or nothing."""
        return {"file_size": len(self.content)} if self.size_shown else {}


@dataclass
class StoredMessage:
    """A message of a chat as it is now: plain text with entities, markup, media, state.

    ``html`` is the text (or caption) exactly as the bot sent it with parse mode HTML;
    ``markup`` is the inline keyboard markup shown under the message, if any.
    """

    chat_id: int
    message_id: int
    sender_id: int
    from_bot: bool
    date: int
    text: str | None = None
    entities: list[JSON] = field(default_factory=list)
    html: str | None = None
    markup: JSON | None = None
    document: StoredFile | None = None
    caption: str | None = None
    caption_entities: list[JSON] = field(default_factory=list)
    sticker: JSON | None = None
    edit_date: int | None = None
    deleted: bool = False

    @property
    def buttons(self) -> list[list[JSON]]:
        """The rows of the inline keyboard, empty when there is none."""
        return list((self.markup or {}).get("inline_keyboard", []))

    def callback_data(self, label: str) -> str:
        """The callback data of the button labelled ``label``; AssertionError if none is."""
        for row in self.buttons:
            for button in row:
                if button.get("text") == label and "callback_data" in button:
                    return str(button["callback_data"])
        labels = [button.get("text") for row in self.buttons for button in row]
        raise AssertionError(f"message {self.message_id} has no button {label!r}: {labels}")
