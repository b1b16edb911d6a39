"""Bot API objects as JSON: User, Chat, Message, Document, Sticker."""

from __future__ import annotations

from tests.e2e.fake_telegram.records import JSON, StoredFile, StoredMessage

__all__ = ["chat_json", "document_json", "message_json", "sticker_json", "user_json"]

_CHAT_TYPES = ("private", "group", "supergroup")


def user_json(
    user_id: int,
    first_name: str,
    *,
    username: str | None = None,
    language_code: str | None = None,
) -> JSON:
    """A person's ``User``."""
    user: JSON = {"id": user_id, "is_bot": False, "first_name": first_name}
    if username is not None:
        user["username"] = username
    if language_code is not None:
        user["language_code"] = language_code
    return user


def chat_json(chat_id: int, chat_type: str, user: JSON) -> JSON:
    """The ``Chat`` of a private chat with ``user``, or of a group they wrote in."""
    if chat_type not in _CHAT_TYPES:
        raise ValueError(f"chat type {chat_type!r} is not one of {_CHAT_TYPES}")
    if chat_type == "private":
        if chat_id != user["id"]:
            raise ValueError(f"a private chat has its user's id {user['id']}, not {chat_id}")
        chat: JSON = {"id": chat_id, "first_name": user["first_name"]}
        if "username" in user:
            chat["username"] = user["username"]
    elif chat_id >= 0:
        raise ValueError(f"a {chat_type} needs its (negative) chat_id, not {chat_id}")
    else:
        chat = {"id": chat_id, "title": f"Test {chat_type} {chat_id}"}
    chat["type"] = chat_type
    return chat


def message_json(message: StoredMessage, *, chat: JSON, sender: JSON) -> JSON:
    """The ``Message`` as the Bot API shows it now, after edits."""
    body: JSON = {
        "message_id": message.message_id,
        "from": sender,
        "chat": chat,
        "date": message.date,
    }
    if message.edit_date is not None:
        body["edit_date"] = message.edit_date
    if message.text is not None:
        body["text"] = message.text
        if message.entities:
            body["entities"] = message.entities
    if message.document is not None:
        body["document"] = document_json(message.document)
    if message.sticker is not None:
        body["sticker"] = message.sticker
    if message.caption:
        body["caption"] = message.caption
        if message.caption_entities:
            body["caption_entities"] = message.caption_entities
    if message.markup is not None:
        body["reply_markup"] = message.markup
    return body


def document_json(file: StoredFile) -> JSON:
    """The ``Document`` of an uploaded file."""
    return {
        "file_name": file.file_name,
        "mime_type": file.mime_type,
        "file_id": file.file_id,
        "file_unique_id": file.file_unique_id,
        **file.size_field(),
    }


def sticker_json(file_id: str, emoji: str) -> JSON:
    """A plain 512x512 ``Sticker`` showing ``emoji``."""
    return {
        "file_id": file_id,
        "file_unique_id": f"u{file_id}",
        "type": "regular",
        "width": 512,
        "height": 512,
        "is_animated": False,
        "is_video": False,
        "emoji": emoji,
    }
