"""What people do in Telegram, each turned into the Update the bot will receive."""

from __future__ import annotations

from tests.e2e.fake_telegram.markup import command_entities
from tests.e2e.fake_telegram.objects import sticker_json
from tests.e2e.fake_telegram.records import JSON, StoredFile, StoredMessage
from tests.e2e.fake_telegram.state import BotState

__all__ = ["edit", "post", "press", "take_update"]


def post(
    state: BotState,
    user: JSON,
    *,
    chat_id: int | None,
    chat_type: str,
    text: str | None = None,
    sticker_emoji: str | None = None,
    document: StoredFile | None = None,
) -> JSON:
    """A new message by ``user``: a text (commands marked), a sticker or a document."""
    chat = state.join(user, chat_id, chat_type)
    message = StoredMessage(
        chat_id=chat,
        message_id=state.next_message_id(chat),
        sender_id=user["id"],
        from_bot=False,
        date=state.now(),
    )
    if text is not None:
        message.text, message.entities = text, command_entities(text)
    message.document = document
    if sticker_emoji is not None:
        message.sticker = sticker_json(f"CAACAgIAAxkBAAI{state.serial():06d}", sticker_emoji)
    payload = state.message_json(state.store(message))
    state.queue_update("message", payload)
    return payload


def edit(state: BotState, user: JSON, message_id: int, text: str, *, chat_id: int | None) -> JSON:
    """``user`` edits the text of a message of theirs."""
    chat = user["id"] if chat_id is None else chat_id
    message = state.find(chat, message_id)
    if message is None or message.deleted or message.sender_id != user["id"]:
        raise ValueError(f"user {user['id']} has no message {message_id} in chat {chat}")
    if message.text is None:
        raise ValueError(f"message {message_id} has no text to edit")
    message.text, message.entities = text, command_entities(text)
    message.edit_date = state.now()
    payload = state.message_json(message)
    state.queue_update("edited_message", payload)
    return payload


def press(state: BotState, user: JSON, message_id: int, data: str, *, chat_id: int | None) -> str:
    """``user`` presses the button carrying ``data`` under a bot message; the query id."""
    chat = user["id"] if chat_id is None else chat_id
    message = state.find(chat, message_id)
    if message is None or message.deleted or not message.from_bot:
        raise ValueError(f"no bot message {message_id} in chat {chat} to press a button of")
    offered = [button.get("callback_data") for row in message.buttons for button in row]
    if data not in offered:
        # Telegram accepts presses only of buttons the message shows now.
        raise ValueError(f"message {message_id} has no button with data {data!r}: {offered}")
    query_id = str(4_000_000_000_000_000 + state.serial())
    state.callbacks[query_id] = None
    state.queue_update(
        "callback_query",
        {
            "id": query_id,
            "from": user,
            "message": state.message_json(message),
            "chat_instance": str(-7_000_000_000 - chat),  # any number stable per chat
            "data": data,
        },
    )
    return query_id


def take_update(state: BotState, item: JSON | str) -> JSON:
    """The pending Update carrying ``item`` (a Message or a callback query id), dequeued."""
    for update in state.updates:
        payload = next(value for key, value in update.items() if key != "update_id")
        if payload == item or (isinstance(item, str) and payload.get("id") == item):
            state.updates.remove(update)
            return update
    raise LookupError(f"no pending update carries {item!r}")
