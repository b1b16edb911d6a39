"""Channels and groups the bot is added to: who is a member with which rights, the
``my_chat_member`` update Telegram sends when the bot's own membership changes, getChatMember,
and Telegram's refusals where the bot may not post."""

from __future__ import annotations

from http import HTTPStatus

from tests.e2e.fake_telegram.params import Params
from tests.e2e.fake_telegram.records import JSON
from tests.e2e.fake_telegram.replies import ApiError, bad_request
from tests.e2e.fake_telegram.state import BotState

__all__ = ["change_bot", "change_member", "check_may_send", "get_chat_member", "user_leaves"]

_GONE = frozenset({"left", "kicked"})
# The rights of an administrator, all off unless given (Telegram lists every one).
_ADMIN_RIGHTS = (
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
)


def _member(user: JSON, chat_type: str, status: str, *, can_post: bool) -> JSON:
    """A ``ChatMember`` of the status: ChatMemberAdministrator lists every right, and
    ``can_post_messages`` for channels only; ChatMemberMember only the status and the user."""
    member: JSON = {"status": status, "user": user}
    if status == "administrator":
        member |= {right: False for right in _ADMIN_RIGHTS}
        member |= {"can_be_edited": False, "is_anonymous": False, "can_manage_chat": True}
        if chat_type == "channel":
            member |= {"can_post_messages": can_post, "can_edit_messages": can_post}
    return member


def change_bot(
    state: BotState,
    user: JSON,
    chat_id: int,
    *,
    chat_type: str,
    title: str,
    status: str,
    can_post: bool = True,
) -> JSON | None:
    """``user`` adds the bot to a channel or group, changes its rights or removes it; the
    ``my_chat_member`` update, or None where the bot's allowed_updates leave it out."""
    if chat_type not in ("channel", "group", "supergroup") or chat_id >= 0:
        raise ValueError(f"the bot joins channels and groups (negative ids), not {chat_id}")
    chat = state.chats.setdefault(chat_id, {"id": chat_id, "title": title, "type": chat_type})
    state.messages.setdefault(chat_id, {})
    members = state.members.setdefault(chat_id, {})
    members.setdefault(user["id"], {"status": "creator", "user": user, "is_anonymous": False})
    old = members.get(state.bot["id"], {"status": "left", "user": state.bot})
    new = _member(state.bot, chat_type, status, can_post=can_post)
    members[state.bot["id"]] = new
    change = {
        "chat": chat,
        "from": user,
        "date": state.now(),
        "old_chat_member": old,
        "new_chat_member": new,
    }
    return state.queue_update("my_chat_member", change)


def change_member(
    state: BotState, user_id: int, chat_id: int, *, status: str, can_post: bool = True
) -> JSON | None:
    """An administrator changes a person's membership (promotes, demotes them); the
    ``chat_member`` update, which bots get only when their allowed_updates ask for it."""
    chat = state.chats[chat_id]
    members = state.members[chat_id]
    user = state.user(user_id)
    old = members.get(user_id, {"status": "left", "user": user})
    new = _member(user, chat["type"], status, can_post=can_post)
    members[user_id] = new
    creator = next((m["user"] for m in members.values() if m["status"] == "creator"), user)
    change = {
        "chat": chat,
        "from": creator,
        "date": state.now(),
        "old_chat_member": old,
        "new_chat_member": new,
    }
    return state.queue_update("chat_member", change)


def user_leaves(state: BotState, user_id: int, chat_id: int) -> None:
    """A person leaves a channel or group the fake tracks the members of."""
    state.members[chat_id][user_id] = {"status": "left", "user": state.user(user_id)}


def check_may_send(state: BotState, chat_id: int) -> None:
    """Refuse a message to a channel or group the bot may not post to, as Telegram does."""
    members = state.members.get(chat_id)
    if members is None:
        return  # a group the fake does not track members of: anyone may post
    kind = state.chats[chat_id]["type"]
    bot = members.get(state.bot["id"])
    if bot is None or bot["status"] == "left":
        raise ApiError(HTTPStatus.FORBIDDEN, f"Forbidden: bot is not a member of the {kind} chat")
    if bot["status"] == "kicked":
        raise ApiError(HTTPStatus.FORBIDDEN, f"Forbidden: bot was kicked from the {kind} chat")
    if kind == "channel" and not bot.get("can_post_messages"):
        raise bad_request("need administrator rights in the channel chat")


async def get_chat_member(state: BotState, params: Params) -> JSON:
    """getChatMember: a member of a chat, with their status and rights; in a channel only an
    administrator bot may ask."""
    chat_id = state.target_chat(params.values.get("chat_id"))
    user_id = params.integer("user_id", missing="user_id is not specified")
    members = state.members.get(chat_id, {})
    chat = state.chats[chat_id]
    bot = members.get(state.bot["id"])
    if chat["type"] == "channel" and (bot is None or bot["status"] in _GONE):
        raise ApiError(HTTPStatus.FORBIDDEN, "Forbidden: bot is not a member of the channel chat")
    if user_id == state.bot["id"] and chat["type"] == "private":
        return {"status": "member", "user": state.bot}
    member = members.get(user_id)
    if member is not None:
        return member
    if chat["type"] == "private" and user_id == chat_id:
        return {"status": "member", "user": state.users[user_id]}
    user = state.users.get(user_id) or {"id": user_id, "is_bot": False, "first_name": "?"}
    return {"status": "left", "user": user}
