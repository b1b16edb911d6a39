"""Bot API methods on the bot itself: getMe, and its command lists per scope and language."""

from __future__ import annotations

import json
import re

from tests.e2e.fake_telegram.params import Params
from tests.e2e.fake_telegram.records import JSON
from tests.e2e.fake_telegram.replies import bad_request
from tests.e2e.fake_telegram.state import BotState

__all__ = ["commands_key", "delete_my_commands", "get_me", "get_my_commands", "set_my_commands"]

_COMMAND = re.compile(r"[a-z0-9_]{1,32}")
_DESCRIPTION_LIMIT = 256
_MAX_COMMANDS = 100
_SCOPES = frozenset(
    {
        "all_chat_administrators",
        "all_group_chats",
        "all_private_chats",
        "chat",
        "chat_administrators",
        "chat_member",
        "default",
    }
)


async def get_me(state: BotState, params: Params) -> JSON:
    """getMe: the bot's ``User`` with its capabilities."""
    return {
        **state.bot,
        "can_join_groups": True,
        "can_read_all_group_messages": False,
        "supports_inline_queries": state.inline_mode,
        "can_connect_to_business": False,
        "has_main_web_app": False,
    }


async def set_my_commands(state: BotState, params: Params) -> bool:
    """setMyCommands: lower-case names of up to 32 characters, each with a description."""
    commands = params.json_list("commands")
    if commands is None:
        raise bad_request('parameter "commands" is required')
    if len(commands) > _MAX_COMMANDS:
        raise bad_request("too many commands specified")
    for command in commands:
        if not isinstance(command, dict) or not _COMMAND.fullmatch(str(command.get("command"))):
            raise bad_request("BOT_COMMAND_INVALID")
        description = command.get("description")
        if not isinstance(description, str) or not 0 < len(description) <= _DESCRIPTION_LIMIT:
            raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
    key = commands_key(params.json_object("scope"), params.string("language_code"))
    state.commands[key] = [
        {"command": c["command"], "description": c["description"]} for c in commands
    ]
    return True


async def get_my_commands(state: BotState, params: Params) -> list[JSON]:
    """getMyCommands: the list of exactly this scope and language, empty if none was set."""
    key = commands_key(params.json_object("scope"), params.string("language_code"))
    return state.commands.get(key, [])


async def delete_my_commands(state: BotState, params: Params) -> bool:
    """deleteMyCommands: forget the list of this scope and language."""
    key = commands_key(params.json_object("scope"), params.string("language_code"))
    state.commands.pop(key, None)
    return True


def commands_key(scope: JSON | None, language_code: str) -> tuple[str, str]:
    """The key of a command list: its scope (default scope when None) and language."""
    scope = scope or {"type": "default"}
    if scope.get("type") not in _SCOPES:
        raise bad_request("unsupported bot command scope type")
    if language_code and not re.fullmatch(r"[a-z]{2}", language_code):
        raise bad_request("invalid language code specified")
    return json.dumps(scope, sort_keys=True), language_code
