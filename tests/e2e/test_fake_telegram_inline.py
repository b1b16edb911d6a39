"""The fake Telegram's inline mode against a real python-telegram-bot ``Bot`` over loopback."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
)
from telegram.constants import ParseMode
from telegram.error import BadRequest

from tests.e2e.fake_telegram import DEFAULT_TOKEN, FakeTelegram

USER = 5001
OTHER_USER = 5002
GROUP = -1001234567890


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram.running(limits=None) as server:
        server.inline_mode = True
        yield server


@pytest.fixture
async def bot(server: FakeTelegram) -> AsyncIterator[Bot]:
    bot = Bot(DEFAULT_TOKEN, base_url=f"{server.url}/bot", base_file_url=f"{server.url}/file/bot")
    async with bot:
        yield bot


def article(number: int, text: str = "<b>Başlık</b>\n\nGiriş") -> InlineQueryResultArticle:
    return InlineQueryResultArticle(
        id=f"r{number}",
        title=f"Makale {number}",
        input_message_content=InputTextMessageContent(text, parse_mode=ParseMode.HTML),
        reply_markup=InlineKeyboardMarkup(
            [[InlineKeyboardButton("Tamamını oku", url="https://t.me/makale_test_bot?start=m_x")]]
        ),
    )


async def test_an_inline_query_reaches_the_bot_only_with_inline_mode_on(
    bot: Bot, server: FakeTelegram
) -> None:
    server.inline_mode = False
    assert (await bot.get_me()).supports_inline_queries is False
    with pytest.raises(ValueError, match="inline mode is off"):
        server.user_queries_inline(USER, "bulut")
    server.inline_mode = True
    assert (await bot.get_me()).supports_inline_queries is True
    query_id = server.user_queries_inline(USER, "bulut")
    (update,) = await bot.get_updates(timeout=0)
    assert update.inline_query is not None
    assert (update.inline_query.id, update.inline_query.query) == (query_id, "bulut")


async def test_answers_past_the_bot_api_limits_are_refused_with_400(
    bot: Bot, server: FakeTelegram
) -> None:
    query_id = server.user_queries_inline(USER, "")
    with pytest.raises(BadRequest, match=r"(?i)results_too_much"):
        await bot.answer_inline_query(query_id, [article(n) for n in range(51)])
    with pytest.raises(BadRequest, match=r"(?i)next_offset_invalid"):
        await bot.answer_inline_query(query_id, [article(1)], next_offset="9" * 65)
    with pytest.raises(BadRequest, match=r"(?i)start_param_invalid"):
        await bot.answer_inline_query(
            query_id, [], button=InlineQueryResultsButton("Giriş yap", start_parameter="a b")
        )
    with pytest.raises(BadRequest, match=r"(?i)start_param_invalid"):
        await bot.answer_inline_query(
            query_id, [], button=InlineQueryResultsButton("Giriş yap", start_parameter="x" * 65)
        )
    with pytest.raises(BadRequest, match=r"(?i)result_id_duplicate"):
        await bot.answer_inline_query(query_id, [article(1), article(1)])
    assert server.inline_answer(query_id) is None, "a refused answer shows nothing"
    await bot.answer_inline_query(query_id, [article(n) for n in range(50)], next_offset="9" * 64)
    answer = server.inline_answer(query_id)
    assert answer is not None
    assert len(answer["results"]) == 50
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_inline_query(query_id, [])


async def test_a_cached_answer_is_shown_to_others_unless_it_is_personal(
    bot: Bot, server: FakeTelegram
) -> None:
    shared = server.user_queries_inline(USER, "ortak")
    await bot.answer_inline_query(shared, [article(1)], cache_time=60)
    again = server.user_queries_inline(OTHER_USER, "ortak")
    assert server.inline_from_cache(again), "not personal: cached for everyone"
    personal = server.user_queries_inline(USER, "kişisel")
    await bot.answer_inline_query(personal, [article(2)], cache_time=60, is_personal=True)
    assert server.inline_from_cache(server.user_queries_inline(USER, "kişisel"))
    other = server.user_queries_inline(OTHER_USER, "kişisel")
    assert not server.inline_from_cache(other), "personal: asked anew for anyone else"
    uncached = server.user_queries_inline(USER, "anlık")
    await bot.answer_inline_query(uncached, [article(3)], cache_time=0, is_personal=True)
    assert not server.inline_from_cache(server.user_queries_inline(USER, "anlık"))


async def test_a_chosen_result_is_posted_and_its_deep_link_sends_start(
    bot: Bot, server: FakeTelegram
) -> None:
    query_id = server.user_queries_inline(USER, "")
    await bot.answer_inline_query(query_id, [article(1)])
    posted = server.user_chooses_inline(USER, query_id, "r1", chat_id=GROUP)
    assert posted.text == "Başlık\n\nGiriş"
    assert not posted.from_bot
    url = posted.buttons[0][0]["url"]
    server.user_opens_link(OTHER_USER, url)
    updates = await bot.get_updates(timeout=0)
    started = updates[-1].message
    assert started is not None
    assert started.text == "/start m_x"
    assert started.chat.id == OTHER_USER
