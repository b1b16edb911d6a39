"""The bot added to a channel or group, or removed from one (``my_chat_member``): the user who
did it may send their plans' articles there."""

from __future__ import annotations

from telegram import ChatMember, Update
from telegram.constants import ChatType
from telegram.ext import ChatMemberHandler

from bot.core.conversation.events import ChatAddress, Origin, UserKey
from bot.telegram.context import BotContext, TelegramApp
from bot.telegram.ids import PLATFORM

__all__ = ["bot_membership", "register"]

_IN = frozenset({ChatMember.ADMINISTRATOR, ChatMember.MEMBER, ChatMember.RESTRICTED})


async def bot_membership(update: Update, context: BotContext) -> None:
    """Record the channel or group as a target of the user who added the bot, or forget it."""
    change = update.my_chat_member
    if change is None or change.chat.type == ChatType.PRIVATE:
        return
    user = change.from_user
    origin = Origin(
        UserKey(PLATFORM, str(user.id)),
        ChatAddress(PLATFORM, str(user.id)),
        language_hint=user.language_code,
    )
    await context.conversations.chat_joined(
        origin,
        chat_id=str(change.chat.id),
        title=change.chat.title or str(change.chat.id),
        joined=change.new_chat_member.status in _IN,
        admission=context.admission,
    )


def register(app: TelegramApp) -> None:
    """Listen to the bot's own membership changes."""
    app.add_handler(ChatMemberHandler(bot_membership, ChatMemberHandler.MY_CHAT_MEMBER))
