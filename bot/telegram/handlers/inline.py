"""Inline mode: ``@bot word`` in any chat lists the user's finished articles to post there.

The core picks the results (``Conversations.inline_articles``); this turns them into Telegram's
articles, each posting its opening with a deep link (``t.me/<bot>?start=<payload>``) that opens
the bot's chat and sends the whole article to whoever presses it.
"""

from __future__ import annotations

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
    Update,
)
from telegram.constants import ParseMode
from telegram.ext import InlineQueryHandler

from bot.core.conversation.events import ChatAddress, Origin, UserKey
from bot.core.sharing.inline import InlineAnswer, InlineResult
from bot.core.sharing.links import LOGIN_PAYLOAD
from bot.telegram.context import BotContext, TelegramApp
from bot.telegram.ids import PLATFORM
from bot.telegram.render import to_html

__all__ = ["CACHE_SECONDS", "inline_query", "register"]

# Telegram keeps an answer this long for the same user and query (is_personal), so retyping
# costs nothing; short, so an article that just arrived shows up soon.
CACHE_SECONDS = 5


async def inline_query(update: Update, context: BotContext) -> None:
    """Answer with a page of the user's articles, or the button that leads to the login."""
    query = update.inline_query
    if query is None:
        return
    user = query.from_user
    # An inline query has no chat; the user's private chat with the bot stands for it.
    origin = Origin(
        user=UserKey(PLATFORM, str(user.id)),
        chat=ChatAddress(PLATFORM, str(user.id)),
        language_hint=user.language_code,
        inline_mode=True,
    )
    conversations = context.conversations
    refused = conversations.refusal(origin) is not None
    answer = (
        InlineAnswer()
        if refused
        else await conversations.inline_articles(
            origin, query.query, query.offset, context.admission
        )
    )
    button = None
    if answer.login_label is not None:
        button = InlineQueryResultsButton(answer.login_label, start_parameter=LOGIN_PAYLOAD)
    await query.answer(
        [_result(context.bot.username, answer.read_label, r) for r in answer.results],
        cache_time=CACHE_SECONDS,
        is_personal=True,
        # None, not "": with Defaults, python-telegram-bot takes an empty string for an empty
        # list of poll options and sends "[]", which the client would send back as the offset.
        next_offset=answer.next_offset or None,
        button=button,
    )


def _result(bot_username: str, read_label: str, result: InlineResult) -> InlineQueryResultArticle:
    link = f"https://t.me/{bot_username}?start={result.payload}"
    return InlineQueryResultArticle(
        id=result.key,
        title=result.title,
        description=result.description,
        input_message_content=InputTextMessageContent(
            to_html(result.opening), parse_mode=ParseMode.HTML
        ),
        reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton(read_label, url=link)]]),
    )


def register(app: TelegramApp) -> None:
    """Route every inline query to ``inline_query``."""
    app.add_handler(InlineQueryHandler(inline_query))
