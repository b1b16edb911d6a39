"""The fake Telegram against a real python-telegram-bot ``Bot`` over loopback."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta

import httpx
import pytest
from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllPrivateChats,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    MessageEntity,
    Update,
)
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    Conflict,
    EndPointNotFound,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
)
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

from tests.e2e.fake_telegram import DEFAULT_TOKEN, FakeTelegram, Limits
from tests.e2e.fake_telegram.markup import EntityParseError, parse_html
from tests.fakes import wait_until
from tests.telegram_limits import Throttle

USER = 5001
OTHER_USER = 5002
GROUP = -1001234567890
# Generous: each wait ends as soon as its condition holds, this only bounds a failure.
WAIT = 10


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    # A bare Bot does not wait out 429s; the flood limits have tests of their own below.
    async with FakeTelegram.running(limits=None) as server:
        yield server


def bot_for(server: FakeTelegram, token: str = DEFAULT_TOKEN) -> Bot:
    return Bot(token, base_url=f"{server.url}/bot", base_file_url=f"{server.url}/file/bot")


@pytest.fixture
async def bot(server: FakeTelegram) -> AsyncIterator[Bot]:
    async with bot_for(server) as bot:
        yield bot


def keyboard(*pairs: tuple[str, str]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(t, callback_data=d) for t, d in pairs]])


# The bot itself


async def test_get_me_describes_the_bot_of_the_token(bot: Bot, server: FakeTelegram) -> None:
    me = await bot.get_me()

    assert (me.id, me.is_bot, me.username) == (123456789, True, server.bot_username)
    assert [call.method for call in server.calls] == ["getMe", "getMe"]  # initialize() asked too


async def test_unknown_token_is_unauthorized(server: FakeTelegram) -> None:
    with pytest.raises(InvalidToken, match=r"was rejected by the server"):
        async with bot_for(server, "42:not-the-token"):  # initialize() asks getMe
            pass

    assert server.calls[-1].response == {
        "ok": False,
        "error_code": 401,
        "description": "Unauthorized",
    }


async def test_raw_answers_have_the_bot_api_shape(server: FakeTelegram) -> None:
    server.user_says(USER, "/start")
    markup = {"inline_keyboard": [[{"text": "A", "callback_data": "a"}]]}
    async with httpx.AsyncClient(base_url=f"{server.url}/bot{server.token}") as client:
        unknown = await client.post("/noSuchMethod")
        any_case = await client.get("/GETME")
        form = await client.post("/sendChatAction", data={"chat_id": "1", "action": "typing"})
        as_json = await client.post(
            "/sendMessage", json={"chat_id": USER, "text": "123", "reply_markup": markup}
        )

    assert unknown.status_code == 404
    assert unknown.json() == {"ok": False, "error_code": 404, "description": "Not Found"}
    assert any_case.json()["result"]["username"] == server.bot_username
    assert form.status_code == 400
    assert form.json() == {
        "ok": False,
        "error_code": 400,
        "description": "Bad Request: chat not found",
    }
    sent = as_json.json()["result"]
    assert (sent["text"], sent["reply_markup"], sent["chat"]["type"]) == ("123", markup, "private")


async def test_unknown_method_raises_end_point_not_found(bot: Bot) -> None:
    with pytest.raises(EndPointNotFound):
        await bot.do_api_request("sendTelepathy")


async def test_commands_are_kept_per_scope_and_language(bot: Bot, server: FakeTelegram) -> None:
    turkish = [BotCommand("yaz", "Makale sipariş et"), BotCommand("bakiye", "Bakiyeni gör")]
    english = [BotCommand("yaz", "Order an article")]
    await bot.set_my_commands(turkish)
    await bot.set_my_commands(english, scope=BotCommandScopeAllPrivateChats(), language_code="en")

    assert await bot.get_my_commands() == tuple(turkish)
    private = await bot.get_my_commands(scope=BotCommandScopeAllPrivateChats(), language_code="en")
    assert private == tuple(english)
    assert await bot.get_my_commands(language_code="en") == ()
    assert server.commands({"type": "all_private_chats"}, "en") == [
        {"command": "yaz", "description": "Order an article"}
    ]

    assert await bot.delete_my_commands()
    assert await bot.get_my_commands() == ()
    with pytest.raises(BadRequest, match=r"Bot_command_invalid"):
        await bot.set_my_commands([BotCommand("Yardım", "Yardım")])


# Sending, editing, deleting


async def test_send_message_parses_html_into_text_and_entities(
    bot: Bot, server: FakeTelegram
) -> None:
    server.user_says(USER, "/start")
    html = '<b>Makale</b> 🏟 <i>hazır</i>: <a href="https://example.com/x">aç</a> &lt;3'

    sent = await bot.send_message(USER, html, parse_mode=ParseMode.HTML)

    assert sent.text == "Makale 🏟 hazır: aç <3"
    assert [(e.type, e.offset, e.length) for e in sent.entities] == [
        (MessageEntity.BOLD, 0, 6),
        (MessageEntity.ITALIC, 10, 5),  # the emoji before it counts two UTF-16 units
        (MessageEntity.TEXT_LINK, 17, 2),
    ]
    assert sent.entities[2].url == "https://example.com/x"
    assert sent.message_id == 2  # the user's /start was message 1 of this chat
    [stored] = server.chat(USER)
    assert (stored.text, stored.html, stored.markup) == (sent.text, html, None)


async def test_messages_are_numbered_per_chat(bot: Bot, server: FakeTelegram) -> None:
    server.user_says(USER, "merhaba")
    server.user_says(OTHER_USER, "selam", chat_id=GROUP, chat_type="supergroup")

    first = await bot.send_message(USER, "bir")
    second = await bot.send_message(USER, "iki")
    in_group = await bot.send_message(GROUP, "grup")

    assert (first.message_id, second.message_id, in_group.message_id) == (2, 3, 2)
    assert in_group.chat.type == "supergroup"
    assert [m.text for m in server.chat(USER)] == ["bir", "iki"]


@pytest.mark.parametrize(
    ("html", "reason"),
    [
        ("<div>blok</div>", 'Unsupported start tag "div" at byte offset 0'),
        ("<b>kalın", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<b><i>iç</b></i>", 'Unmatched end tag at byte offset 9, expected "</i>", found "</b>"'),
        ("fazla</b>", "Unexpected end tag at byte offset 5"),
        ("<span>gizli</span>", 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
        ("2 <3 ve 5 > 4", 'Unsupported start tag "3" at byte offset 2'),
        ("<a href=x,y>x</a>", "Unexpected end of name token at byte offset 8"),
    ],
)
async def test_invalid_html_is_refused_as_telegram_refuses_it(
    bot: Bot, server: FakeTelegram, html: str, reason: str
) -> None:
    server.user_says(USER, "/start")

    with pytest.raises(BadRequest, match=r"^Can't parse entities: "):
        await bot.send_message(USER, html, parse_mode=ParseMode.HTML)

    # The exception's message is capitalised by python-telegram-bot; the wire has the original.
    assert server.calls[-1].response == {
        "ok": False,
        "error_code": 400,
        "description": f"Bad Request: can't parse entities: {reason}",
    }
    assert server.chat(USER) == []


async def test_every_allowed_tag_parses(bot: Bot, server: FakeTelegram) -> None:
    server.user_says(USER, "/start")
    html = (
        "<strong>a</strong><em>b</em><u>c</u><ins>d</ins><s>e</s><strike>f</strike><del>g</del>"
        '<code>h</code><pre>i</pre><tg-spoiler>j</tg-spoiler><span class="tg-spoiler">k</span>'
        '<blockquote>l</blockquote><pre><code class="language-python">m</code></pre>'
    )

    sent = await bot.send_message(USER, html, parse_mode=ParseMode.HTML)

    assert sent.text == "abcdefghijklm"
    assert [e.type for e in sent.entities] == [
        "bold", "italic", "underline", "underline", "strikethrough", "strikethrough",
        "strikethrough", "code", "pre", "spoiler", "spoiler", "blockquote", "pre",
    ]  # fmt: skip
    assert sent.entities[-1].language == "python"


async def test_length_is_counted_after_parsing_in_utf16_units(
    bot: Bot, server: FakeTelegram
) -> None:
    server.user_says(USER, "/start")

    fits = await bot.send_message(USER, "<b>" + "a" * 4096 + "</b>", parse_mode=ParseMode.HTML)
    with pytest.raises(BadRequest, match=r"^Message is too long$"):
        await bot.send_message(USER, "a" * 4097)
    with pytest.raises(BadRequest, match=r"^Message is too long$"):
        await bot.send_message(USER, "😀" * 2049)  # 2049 characters, 4098 UTF-16 units

    assert fits.text == "a" * 4096


async def test_empty_text_is_refused(bot: Bot, server: FakeTelegram) -> None:
    server.user_says(USER, "/start")

    for empty in ("<b></b>", "  \n "):
        with pytest.raises(BadRequest, match=r"^Message text is empty$"):
            await bot.send_message(USER, empty, parse_mode=ParseMode.HTML)


async def test_callback_data_over_64_bytes_is_refused(bot: Bot, server: FakeTelegram) -> None:
    server.user_says(USER, "/start")

    await bot.send_message(USER, "sınır", reply_markup=keyboard(("ok", "ş" * 32)))  # 64 bytes
    with pytest.raises(BadRequest, match=r"^Button_data_invalid$"):
        await bot.send_message(USER, "fazla", reply_markup=keyboard(("x", "ş" * 32 + "a")))


async def test_an_inline_keyboard_of_over_100_buttons_is_refused(
    bot: Bot, server: FakeTelegram
) -> None:
    server.user_says(USER, "/musteriler")

    def buttons(count: int) -> InlineKeyboardMarkup:
        # Two a row, as the bot's lists show them.
        pairs = [InlineKeyboardButton(str(n), callback_data=str(n)) for n in range(count)]
        return InlineKeyboardMarkup([pairs[n : n + 2] for n in range(0, count, 2)])

    await bot.send_message(USER, "dolu", reply_markup=buttons(100))
    with pytest.raises(BadRequest, match=r"^Reply markup is too long$"):
        await bot.send_message(USER, "fazla", reply_markup=buttons(101))


async def test_edit_replaces_text_and_keyboard(bot: Bot, server: FakeTelegram) -> None:
    server.user_says(USER, "/yaz")
    sent = await bot.send_message(USER, "Ton seçin", reply_markup=keyboard(("Samimi", "t:2")))

    edited = await bot.edit_message_text(
        "Ton: <b>Samimi</b>",
        chat_id=USER,
        message_id=sent.message_id,
        parse_mode=ParseMode.HTML,
        reply_markup=keyboard(("Onayla", "ok:1"), ("İptal", "no:1")),
    )

    assert isinstance(edited, type(sent))
    assert edited.edit_date is not None
    [stored] = server.chat(USER)
    assert (stored.text, stored.html) == ("Ton: Samimi", "Ton: <b>Samimi</b>")
    assert stored.callback_data("İptal") == "no:1"


async def test_editing_without_a_keyboard_removes_it(bot: Bot, server: FakeTelegram) -> None:
    server.user_says(USER, "/yaz")
    sent = await bot.send_message(USER, "Seçin", reply_markup=keyboard(("A", "a")))

    await bot.edit_message_text("Seçildi", chat_id=USER, message_id=sent.message_id)

    assert server.chat(USER)[0].buttons == []


async def test_an_edit_changing_nothing_is_not_modified(bot: Bot, server: FakeTelegram) -> None:
    server.user_says(USER, "/yaz")
    markup = keyboard(("A", "a"))
    sent = await bot.send_message(USER, "<b>Aynı</b>", parse_mode="HTML", reply_markup=markup)

    with pytest.raises(BadRequest, match=r"^Message is not modified: specified new message"):
        await bot.edit_message_text(
            "<b>Aynı</b>", USER, sent.message_id, parse_mode="HTML", reply_markup=markup
        )
    with pytest.raises(BadRequest, match=r"^Message is not modified"):
        await bot.edit_message_reply_markup(USER, sent.message_id, reply_markup=markup)

    await bot.edit_message_reply_markup(USER, sent.message_id, reply_markup=None)
    assert server.chat(USER)[0].markup is None


async def test_editing_a_missing_message_is_refused(bot: Bot, server: FakeTelegram) -> None:
    said = server.user_says(USER, "/yaz")

    with pytest.raises(BadRequest, match=r"^Message to edit not found$"):
        await bot.edit_message_text("yok", chat_id=USER, message_id=99)
    with pytest.raises(BadRequest, match=r"^Message can't be edited$"):
        await bot.edit_message_text("senin değil", chat_id=USER, message_id=said["message_id"])


async def test_delete_removes_a_message_once(bot: Bot, server: FakeTelegram) -> None:
    password = server.user_says(USER, "Gizli123")
    sent = await bot.send_message(USER, "Şifre alındı")

    assert await bot.delete_message(USER, password["message_id"])
    assert await bot.delete_message(USER, sent.message_id)
    with pytest.raises(BadRequest, match=r"^Message to delete not found$"):
        await bot.delete_message(USER, sent.message_id)

    assert server.chat(USER) == []
    deleted = server.message(USER, password["message_id"])
    assert deleted is not None
    assert deleted.deleted


async def test_other_peoples_messages_stay_in_groups(bot: Bot, server: FakeTelegram) -> None:
    said = server.user_says(USER, "selam", chat_id=GROUP, chat_type="group")

    with pytest.raises(BadRequest, match=r"^Message can't be deleted$"):
        await bot.delete_message(GROUP, said["message_id"])


async def test_chat_actions_are_checked(bot: Bot, server: FakeTelegram) -> None:
    server.user_says(USER, "/yaz")

    assert await bot.send_chat_action(USER, "typing")
    with pytest.raises(BadRequest, match=r"Wrong parameter action"):
        await bot.send_chat_action(USER, "dancing")


async def test_sends_to_an_unknown_chat_are_refused(bot: Bot) -> None:
    with pytest.raises(BadRequest, match=r"^Chat not found$"):
        await bot.send_message(777, "kimse yok")


# Documents


async def test_a_document_goes_up_and_comes_back(bot: Bot, server: FakeTelegram) -> None:
    server.user_says(USER, "/makalelerim")
    content = "Yapay zekâ ile içerik üretimi\n\nİlk paragraf.".encode()

    sent = await bot.send_document(
        USER,
        content,
        filename='yapay-zekâ "1".txt',
        caption="<b>Yapay zekâ</b> makalesi",
        parse_mode=ParseMode.HTML,
    )

    assert sent.document is not None
    assert (sent.document.file_name, sent.document.file_size) == (
        'yapay-zekâ "1".txt',
        len(content),
    )
    assert sent.caption == "Yapay zekâ makalesi"
    assert [(e.type, e.length) for e in sent.caption_entities] == [("bold", 10)]
    [stored] = server.chat(USER)
    assert stored.document is not None
    assert (stored.document.content, stored.document.mime_type) == (content, "text/plain")
    file = await bot.get_file(sent.document.file_id)
    assert bytes(await file.download_as_bytearray()) == content
    [call] = server.calls_of("sendDocument")
    assert (call.params["chat_id"], call.files["document"].content) == (USER, content)


async def test_a_document_caption_has_a_limit(bot: Bot, server: FakeTelegram) -> None:
    server.user_says(USER, "/makalelerim")

    with pytest.raises(BadRequest, match=r"^Message caption is too long$"):
        await bot.send_document(USER, b"x", filename="a.txt", caption="a" * 1025)
    with pytest.raises(BadRequest, match=r"^File must be non-empty$"):
        await bot.send_document(USER, b"", filename="a.txt")


# Updates: polling, callback queries, webhooks


async def test_get_updates_confirms_with_offset(bot: Bot, server: FakeTelegram) -> None:
    server.user_says(USER, "/yaz@makale_test_bot Yapay zekâ", first_name="Ayşe")
    server.user_says(USER, "ikinci")

    first, second = await bot.get_updates()
    again = await bot.get_updates(offset=first.update_id + 1)
    after = await bot.get_updates(offset=second.update_id + 1)

    assert first.message is not None
    assert first.message.from_user is not None
    assert (first.message.from_user.first_name, first.message.from_user.language_code) == (
        "Ayşe",
        "tr",
    )
    [command] = first.message.entities
    assert (command.type, command.offset, command.length) == ("bot_command", 0, 20)
    assert [u.update_id for u in again] == [second.update_id]
    assert after == ()


async def test_a_person_keeps_their_name_and_language(bot: Bot, server: FakeTelegram) -> None:
    server.user_says(USER, "/start", language_code="en", first_name="Jane")
    server.user_says(USER, "/yaz")
    server.user_says(OTHER_USER, "/start")

    senders = [u.message.from_user for u in await bot.get_updates() if u.message]

    assert [(s.first_name, s.language_code) for s in senders if s] == [
        ("Jane", "en"),
        ("Jane", "en"),
        ("Ayşe", "tr"),
    ]


async def test_long_poll_returns_as_soon_as_someone_writes(bot: Bot, server: FakeTelegram) -> None:
    poll = asyncio.create_task(bot.get_updates(timeout=30))
    await server.wait_for(lambda: any(c.response is None for c in server.calls_of("getUpdates")))
    assert not poll.done()

    server.user_says(USER, "/bakiye")
    [update] = await asyncio.wait_for(poll, WAIT)

    assert update.message is not None
    assert update.message.text == "/bakiye"


async def test_a_newer_poll_ends_the_older_one(server: FakeTelegram) -> None:
    async with bot_for(server) as first, bot_for(server) as second:
        older = asyncio.create_task(first.get_updates(timeout=30))
        await server.wait_for(lambda: len(server.calls_of("getUpdates")) == 1)

        assert await second.get_updates() == ()
        with pytest.raises(Conflict, match=r"terminated by other getUpdates request"):
            await asyncio.wait_for(older, WAIT)


async def test_stopping_ends_a_waiting_long_poll() -> None:
    async with FakeTelegram.running() as server:
        other = bot_for(server)
        await other.initialize()
        poll = asyncio.create_task(other.get_updates(timeout=30))
        await server.wait_for(
            lambda: any(c.response is None for c in server.calls_of("getUpdates"))
        )

    assert await asyncio.wait_for(poll, WAIT) == ()
    await other.shutdown()


async def test_a_button_press_is_answered_once(bot: Bot, server: FakeTelegram) -> None:
    server.user_says(USER, "/yaz")
    sent = await bot.send_message(
        USER, "Onaylıyor musunuz?", reply_markup=keyboard(("Onayla", "ok:7"))
    )
    [stale] = await bot.get_updates()

    query_id = server.user_presses(USER, sent.message_id, "ok:7")
    [update] = await bot.get_updates(offset=stale.update_id + 1)

    query = update.callback_query
    assert query is not None
    assert (query.id, query.data, query.from_user.id) == (query_id, "ok:7", USER)
    assert query.message is not None
    assert query.message.message_id == sent.message_id
    assert server.answered(query_id) is None
    assert await query.answer("Sipariş alındı")
    assert server.answered(query_id) == {
        "text": "Sipariş alındı",
        "show_alert": False,
        "url": "",
        "cache_time": 0,
    }
    with pytest.raises(BadRequest, match=r"^Query is too old and response timeout expired"):
        await query.answer("yine")


async def test_callback_answers_are_checked(bot: Bot, server: FakeTelegram) -> None:
    server.user_says(USER, "/yaz")
    sent = await bot.send_message(USER, "?", reply_markup=keyboard(("A", "a")))
    query_id = server.user_presses(USER, sent.message_id, "a")

    with pytest.raises(BadRequest, match=r"Query is too old"):
        await bot.answer_callback_query("12345")
    with pytest.raises(BadRequest, match=r"^Message_too_long$"):
        await bot.answer_callback_query(query_id, "a" * 201)
    with pytest.raises(ValueError, match=r"no button with data 'b'"):
        server.user_presses(USER, sent.message_id, "b")


async def test_edits_and_stickers_arrive_as_updates(bot: Bot, server: FakeTelegram) -> None:
    said = server.user_says(USER, "Yapay zeka")
    server.user_edits(USER, said["message_id"], "Yapay zekâ")
    server.user_sends_sticker(USER, emoji="🎉")

    _, edited, sticker = await bot.get_updates()

    assert edited.edited_message is not None
    assert edited.edited_message.text == "Yapay zekâ"
    assert sticker.message is not None
    assert sticker.message.sticker is not None
    assert sticker.message.sticker.emoji == "🎉"


async def test_polling_conflicts_with_a_webhook(bot: Bot, server: FakeTelegram) -> None:
    url = "https://bot.example.com/telegram"
    with pytest.raises(BadRequest, match=r"(?i)HTTPS URL must be provided"):
        await bot.set_webhook("http://bot.example.com/telegram")
    assert await bot.set_webhook(url, secret_token="s3cret_token")

    with pytest.raises(Conflict, match=r"can't use getUpdates method while webhook is active"):
        await bot.get_updates()
    info = await bot.get_webhook_info()
    assert (info.url, info.pending_update_count) == (url, 0)
    assert server.webhook is not None
    assert server.webhook["secret_token"] == "s3cret_token"

    assert await bot.delete_webhook()
    assert await bot.get_updates() == ()


async def test_webhook_update_hands_out_a_pending_update(bot: Bot, server: FakeTelegram) -> None:
    await bot.set_webhook("https://bot.example.com/telegram")
    said = server.user_says(USER, "/start")

    body = server.webhook_update(said)

    update = Update.de_json(body, bot)
    assert update.message is not None
    assert update.message.text == "/start"
    assert (await bot.get_webhook_info()).pending_update_count == 0


async def test_an_application_polls_answers_and_stops(server: FakeTelegram) -> None:
    async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_message is not None
        await update.effective_message.reply_html(
            "<b>Merhaba</b>", reply_markup=keyboard(("A", "a"))
        )

    async def press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.callback_query is not None
        await update.callback_query.answer("Tamam")
        await update.callback_query.edit_message_text("Seçildi")

    application = (
        Application.builder()
        .token(server.token)
        .base_url(f"{server.url}/bot")
        .base_file_url(f"{server.url}/file/bot")
        .build()
    )
    application.add_handlers([CommandHandler("start", start), CallbackQueryHandler(press)])
    async with application:
        await application.start()
        assert application.updater is not None
        await application.updater.start_polling(drop_pending_updates=True)
        server.user_says(USER, f"/start@{server.bot_username}")
        await server.wait_for(lambda: bool(server.chat(USER)))
        query_id = server.user_presses(USER, server.chat(USER)[0].message_id, "a")
        await server.wait_for(lambda: server.chat(USER)[0].text == "Seçildi")
        await application.updater.stop()
        await application.stop()
        leftover = await application.bot.get_updates()

    assert server.answered(query_id) == {
        "text": "Tamam",
        "show_alert": False,
        "url": "",
        "cache_time": 0,
    }
    # Stopping confirms the last update with a short poll; nothing is left for a next start.
    assert server.calls_of("getUpdates")[-2].params["timeout"] == 0
    assert leftover == ()


# Faults and waiting


# python-telegram-bot warns that retry_after will become a timedelta; either form is checked.
@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_an_injected_429_raises_retry_after(bot: Bot, server: FakeTelegram) -> None:
    server.user_says(USER, "/yaz")
    server.fail_next("sendMessage", retry_after=3)

    with pytest.raises(RetryAfter) as limited:
        await bot.send_message(USER, "hızlı")
    await bot.send_message(USER, "sonra")

    retry_after = limited.value.retry_after
    seconds = retry_after.total_seconds() if isinstance(retry_after, timedelta) else retry_after
    assert seconds == 3
    assert server.calls_of("sendMessage")[0].response == {
        "ok": False,
        "error_code": 429,
        "description": "Too Many Requests: retry after 3",
        "parameters": {"retry_after": 3},
    }
    assert [m.text for m in server.chat(USER)] == ["sonra"]


async def test_any_failure_can_be_injected_for_several_calls(
    bot: Bot, server: FakeTelegram
) -> None:
    server.user_says(USER, "/yaz")
    server.fail_next("sendmessage", status=502, count=2)

    for _ in range(2):
        with pytest.raises(NetworkError, match=r"^Bad Gateway$"):
            await bot.send_message(USER, "ağ")
    await bot.send_message(USER, "geçti")

    assert [call.ok for call in server.calls_of("sendMessage")] == [False, False, True]


async def test_a_blocked_chat_is_forbidden(bot: Bot, server: FakeTelegram) -> None:
    server.user_says(USER, "/start")
    server.block(USER)

    with pytest.raises(Forbidden, match=r"bot was blocked by the user"):
        await bot.send_message(USER, "merhaba")


# Flood limits


class FakeClock:
    """A monotonic clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def limited() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram.running() as server:  # Telegram's limits, the default
        yield server


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")
async def test_a_private_chat_gets_three_messages_at_once_then_429(limited: FakeTelegram) -> None:
    limited.user_says(USER, "/start")
    async with bot_for(limited) as bot:
        first = await bot.send_message(USER, "bir")
        await bot.edit_message_text("bir!", chat_id=USER, message_id=first.message_id)
        await bot.send_document(USER, b"metin", filename="makale.txt")
        with pytest.raises(RetryAfter):
            await bot.send_message(USER, "dört")
        # Calls that post or change no message are not counted.
        await bot.get_me()
        await bot.send_chat_action(USER, "typing")
        await bot.delete_message(USER, first.message_id)

    assert limited.calls_of("sendMessage")[-1].response == {
        "ok": False,
        "error_code": 429,
        "description": "Too Many Requests: retry after 1",
        "parameters": {"retry_after": 1},
    }
    assert [(sent.method, sent.chat_id) for sent in limited.sent] == [
        ("sendMessage", USER),
        ("editMessageText", USER),
        ("sendDocument", USER),
    ]
    assert limited.refused == {USER: 1}
    assert all(call.ok for call in limited.calls_of("deleteMessage"))


async def test_limits_can_be_changed_or_lifted(limited: FakeTelegram) -> None:
    limited.user_says(USER, "/start")
    limited.limits = Limits(private_burst=1)
    async with bot_for(limited) as bot:
        await bot.send_message(USER, "bir")
        with pytest.raises(RetryAfter):
            await bot.send_message(USER, "iki")
        limited.limits = None
        for n in range(5):
            await bot.send_message(USER, f"serbest {n}")

    assert len(limited.chat(USER)) == 6
    assert limited.refused == {USER: 1}


def test_a_private_chat_refills_one_message_a_second() -> None:
    clock = FakeClock()
    throttle = Throttle(Limits(), clock)

    assert [throttle.admit(USER) for _ in range(4)] == [None, None, None, 1]
    clock.now += 0.999
    assert throttle.admit(USER) == 1
    clock.now += 0.001
    assert throttle.admit(USER) is None
    assert throttle.admit(USER) == 1
    assert throttle.admit(OTHER_USER) is None  # each chat has its own bucket


def test_the_bot_gets_no_more_than_thirty_in_any_one_second() -> None:
    clock = FakeClock()
    throttle = Throttle(Limits(), clock)

    assert all(throttle.admit(chat) is None for chat in range(1, 31))
    clock.now += 0.999  # a bucket would have refilled 29 by now; the window holds all 30
    assert throttle.admit(31) == 1
    clock.now += 0.001
    assert [throttle.admit(chat) for chat in range(32, 63)] == [None] * 30 + [1]
    assert throttle.refused == {31: 1, 62: 1}


def test_the_bot_read_as_a_bucket_gets_thirty_at_once_then_thirty_a_second() -> None:
    clock = FakeClock()
    throttle = Throttle(Limits(bot_window=None), clock)

    assert all(throttle.admit(chat) is None for chat in range(1, 31))
    assert throttle.admit(31) == 1
    clock.now += 0.125  # 3.75 tokens more
    assert [throttle.admit(chat) for chat in range(32, 36)] == [None, None, None, 1]
    assert throttle.refused == {31: 1, 35: 1}


def test_a_group_gets_twenty_in_any_sixty_seconds() -> None:
    clock = FakeClock()
    throttle = Throttle(Limits(), clock)

    for _ in range(10):
        assert throttle.admit(GROUP) is None
    clock.now += 30
    for _ in range(10):
        assert throttle.admit(GROUP) is None
    clock.now += 10
    assert throttle.admit(GROUP) == 20  # until the first ten leave the window
    clock.now += 20
    assert [throttle.admit(GROUP) for _ in range(11)] == [None] * 10 + [30]


def test_a_refused_call_consumes_nothing() -> None:
    clock = FakeClock()
    throttle = Throttle(Limits(private_burst=1, bot_burst=2, bot_per_second=1.0), clock)

    assert throttle.admit(USER) is None
    for _ in range(5):
        assert throttle.admit(USER) == 1  # each would take the bot's last token if counted
    assert throttle.admit(OTHER_USER) is None
    clock.now += 1
    assert throttle.admit(USER) is None


async def test_an_answer_delay_holds_back_the_answer_not_the_message() -> None:
    async with FakeTelegram.running(answer_delay=0.5) as server, bot_for(server) as bot:
        server.user_says(USER, "/start")
        sending = asyncio.create_task(bot.send_message(USER, "yavaş"))
        await wait_until(lambda: bool(server.chat(USER)), timeout=WAIT)
        answer = server.calls_of("sendMessage")[0].response
        await sending

    assert answer is None
    assert server.calls_of("sendMessage")[0].ok


async def test_wait_for_names_what_it_waited_for(server: FakeTelegram) -> None:
    with pytest.raises(AssertionError, match=r"server\.chat\(USER\)"):
        await server.wait_for(lambda: bool(server.chat(USER)), timeout=0.05)


# The HTML parser alone


@pytest.mark.parametrize(
    ("html", "text", "entities"),
    [
        ("&ge;&lt;&gt;&amp;&quot;&#33;&#x41;", '&ge;<>&"!A', []),
        ("🏟 🏟<i>🏟 &gt;<b a = b>&lt🏟</b></i>", "🏟 🏟🏟 ><🏟", [("italic", 5, 7), ("bold", 9, 3)]),
        ("<i>a</>", "a", [("italic", 0, 1)]),
        ("<a>example.com</a>", "example.com", [("text_link", 0, 11)]),
        ("<blockquote expandable>q</blockquote>", "q", [("expandable_blockquote", 0, 1)]),
        ("<b></b>x", "x", []),
    ],
)
def test_parse_html(html: str, text: str, entities: list[tuple[str, int, int]]) -> None:
    parsed_text, parsed = parse_html(html)

    assert parsed_text == text
    assert [(e["type"], e["offset"], e["length"]) for e in parsed] == entities


def test_parse_html_reports_byte_offsets() -> None:
    with pytest.raises(EntityParseError, match=r"^Unclosed end tag at byte offset 11$"):
        parse_html("İ🏟 <i>a</i   ")


# Channels and groups the bot is added to


CHANNEL = -1009876543210


async def test_adding_the_bot_to_a_channel_is_a_my_chat_member_update_from_the_user(
    bot: Bot, server: FakeTelegram
) -> None:
    server.bot_added(USER, CHANNEL, title="Acme Blog")
    [update] = await bot.get_updates(allowed_updates=[Update.MY_CHAT_MEMBER])
    change = update.my_chat_member
    assert change is not None
    assert change.from_user.id == USER
    assert (change.chat.id, change.chat.title, change.chat.type) == (
        CHANNEL,
        "Acme Blog",
        "channel",
    )
    assert change.old_chat_member.status == "left"
    assert change.new_chat_member.status == "administrator"
    me = await bot.get_chat_member(CHANNEL, bot.id)
    assert me.status == "administrator"
    assert getattr(me, "can_post_messages", None) is True
    assert (await bot.get_chat_member(CHANNEL, USER)).status == "creator"
    assert (await bot.get_chat_member(CHANNEL, OTHER_USER)).status == "left"
    await bot.send_message(CHANNEL, "Merhaba")


async def test_my_chat_member_is_left_out_when_allowed_updates_do_not_name_it(
    bot: Bot, server: FakeTelegram
) -> None:
    await bot.get_updates(allowed_updates=[Update.MESSAGE])
    assert server.bot_added(USER, CHANNEL, title="Acme Blog") is None


async def test_a_channel_the_bot_may_not_post_to_is_refused_as_telegram_refuses_it(
    bot: Bot, server: FakeTelegram
) -> None:
    server.bot_added(USER, CHANNEL, title="Acme Blog", can_post=False)
    with pytest.raises(BadRequest, match=r"(?i)need administrator rights in the channel chat"):
        await bot.send_message(CHANNEL, "Merhaba")
    server.bot_added(USER, CHANNEL, title="Acme Blog", status="left")
    with pytest.raises(Forbidden, match=r"(?i)bot is not a member of the channel chat"):
        await bot.send_message(CHANNEL, "Merhaba")
    with pytest.raises(Forbidden, match=r"(?i)bot is not a member of the channel chat"):
        await bot.get_chat_member(CHANNEL, USER)
