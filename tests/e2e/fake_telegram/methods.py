"""The Bot API methods the fake answers, by name (Telegram reads method names in any case)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from tests.e2e.fake_telegram import inline, members, messaging, profile, updates
from tests.e2e.fake_telegram.params import Params
from tests.e2e.fake_telegram.state import BotState

__all__ = ["METHODS", "Handler"]

Handler = Callable[[BotState, Params], Awaitable[Any]]

_BY_NAME: dict[str, Handler] = {
    "getMe": profile.get_me,
    "setMyCommands": profile.set_my_commands,
    "getMyCommands": profile.get_my_commands,
    "deleteMyCommands": profile.delete_my_commands,
    "getUpdates": updates.get_updates,
    "setWebhook": updates.set_webhook,
    "deleteWebhook": updates.delete_webhook,
    "getWebhookInfo": updates.get_webhook_info,
    "sendMessage": messaging.send_message,
    "editMessageText": messaging.edit_message_text,
    "editMessageReplyMarkup": messaging.edit_message_reply_markup,
    "deleteMessage": messaging.delete_message,
    "sendDocument": messaging.send_document,
    "getFile": messaging.get_file,
    "sendChatAction": messaging.send_chat_action,
    "answerCallbackQuery": messaging.answer_callback_query,
    "answerInlineQuery": inline.answer_inline_query,
    "getChatMember": members.get_chat_member,
}

METHODS: dict[str, Handler] = {name.lower(): handler for name, handler in _BY_NAME.items()}
