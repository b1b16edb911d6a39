"""Bot API methods on chat content: send, edit and delete messages, documents, chat actions,
callback query answers."""

from __future__ import annotations

from tests.e2e.fake_telegram.content import (
    CAPTION,
    MESSAGE_TEXT,
    Formatted,
    formatted,
    inline_markup,
)
from tests.e2e.fake_telegram.members import check_may_send
from tests.e2e.fake_telegram.params import Params
from tests.e2e.fake_telegram.records import JSON, StoredFile, StoredMessage
from tests.e2e.fake_telegram.replies import bad_request
from tests.e2e.fake_telegram.state import BotState

__all__ = [
    "answer_callback_query",
    "delete_message",
    "edit_message_reply_markup",
    "edit_message_text",
    "get_file",
    "send_chat_action",
    "send_document",
    "send_message",
]

NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the "
    "same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
_ANSWER_TEXT_LIMIT = 200
_CHAT_ACTIONS = frozenset(
    {
        "choose_sticker",
        "find_location",
        "record_video",
        "record_video_note",
        "record_voice",
        "typing",
        "upload_document",
        "upload_photo",
        "upload_video",
        "upload_video_note",
        "upload_voice",
    }
)


async def send_message(state: BotState, params: Params) -> JSON:
    """sendMessage: a text with its inline keyboard."""
    text = formatted(params, MESSAGE_TEXT)
    markup = inline_markup(params)
    message = _new_bot_message(state, params)
    _show_text(message, text, markup)
    return state.message_json(state.store(message))


async def send_document(state: BotState, params: Params) -> JSON:
    """sendDocument: an uploaded file (or a known file id) with a caption."""
    caption = formatted(params, CAPTION)
    markup = inline_markup(params)
    document = _document(state, params)
    message = _new_bot_message(state, params)
    message.document, message.caption = document, caption.text
    message.caption_entities, message.html, message.markup = caption.entities, caption.html, markup
    return state.message_json(state.store(message))


async def edit_message_text(state: BotState, params: Params) -> JSON:
    """editMessageText: new text and keyboard; leaving out the keyboard removes it."""
    text = formatted(params, MESSAGE_TEXT)
    markup = inline_markup(params)
    message = _bot_message(state, params, not_found="message to edit not found")
    if message.text is None:
        raise bad_request("there is no text in the message to edit")
    if (message.text, message.entities, message.markup) == (text.text, text.entities, markup):
        raise bad_request(NOT_MODIFIED)
    _show_text(message, text, markup)
    message.edit_date = state.now()
    return state.message_json(message)


async def edit_message_reply_markup(state: BotState, params: Params) -> JSON:
    """editMessageReplyMarkup: a new inline keyboard, or none."""
    markup = inline_markup(params)
    message = _bot_message(state, params, not_found="message to edit not found")
    if message.markup == markup:
        raise bad_request(NOT_MODIFIED)
    message.markup = markup
    message.edit_date = state.now()
    return state.message_json(message)


async def delete_message(state: BotState, params: Params) -> bool:
    """deleteMessage: any message in a private chat, only the bot's own elsewhere."""
    chat_id = state.target_chat(params.values.get("chat_id"))
    message_id = params.integer("message_id", missing="message identifier is not specified")
    message = state.find(chat_id, message_id)
    if message is None or message.deleted:
        raise bad_request("message to delete not found")
    # Deleting other people's messages in a group takes admin rights the test bot lacks.
    if not message.from_bot and state.chats[chat_id]["type"] != "private":
        raise bad_request("message can't be deleted")
    message.deleted = True
    return True


async def send_chat_action(state: BotState, params: Params) -> bool:
    """sendChatAction: "typing" and the like; nothing to keep."""
    state.target_chat(params.values.get("chat_id"))
    if params.string("action") not in _CHAT_ACTIONS:
        raise bad_request("wrong parameter action in request")
    return True


async def answer_callback_query(state: BotState, params: Params) -> bool:
    """answerCallbackQuery: once per query, with an optional notice of up to 200 characters."""
    query_id = params.string("callback_query_id")
    if query_id not in state.callbacks or state.callbacks[query_id] is not None:
        raise bad_request(QUERY_TOO_OLD)
    text = params.string("text")
    if len(text) > _ANSWER_TEXT_LIMIT:
        raise bad_request("MESSAGE_TOO_LONG")
    state.callbacks[query_id] = {
        "text": text,
        "show_alert": params.flag("show_alert"),
        "url": params.string("url"),
        "cache_time": params.optional_integer("cache_time") or 0,
    }
    return True


async def get_file(state: BotState, params: Params) -> JSON:
    """getFile: where a stored file can be downloaded."""
    file = state.files.get(params.string("file_id"))
    if file is None:
        raise bad_request("invalid file_id")
    return {
        "file_id": file.file_id,
        "file_unique_id": file.file_unique_id,
        **file.size_field(),
        "file_path": file.file_path,
    }


def _new_bot_message(state: BotState, params: Params) -> StoredMessage:
    chat_id = state.target_chat(params.values.get("chat_id"))
    check_may_send(state, chat_id)
    return StoredMessage(
        chat_id=chat_id,
        message_id=state.next_message_id(chat_id),
        sender_id=state.bot["id"],
        from_bot=True,
        date=state.now(),
    )


def _show_text(message: StoredMessage, text: Formatted, markup: JSON | None) -> None:
    message.text, message.entities, message.html = text.text, text.entities, text.html
    message.markup = markup


def _bot_message(state: BotState, params: Params, *, not_found: str) -> StoredMessage:
    chat_id = state.target_chat(params.values.get("chat_id"))
    message_id = params.integer("message_id", missing="message identifier is not specified")
    message = state.find(chat_id, message_id)
    if message is None or message.deleted:
        raise bad_request(not_found)
    if not message.from_bot:
        raise bad_request("message can't be edited")
    return message


def _document(state: BotState, params: Params) -> StoredFile:
    reference = params.string("document")
    upload = params.files.get("document")
    if upload is None and reference.startswith("attach://"):
        upload = params.files.get(reference.removeprefix("attach://"))
    if upload is not None:
        if not upload.content:
            raise bad_request("file must be non-empty")
        return state.store_file(upload)
    if reference in state.files:
        return state.files[reference]
    if reference:
        raise bad_request("wrong file identifier/HTTP URL specified")
    raise bad_request("there is no document in the request")
