"""The bot's Bot API transport (aiohttp) against the fake Telegram over loopback."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import pytest
from telegram import Bot, InputFile
from telegram.error import NetworkError, TimedOut

from bot.telegram.transport import AiohttpRequest, Connections, Timeouts
from tests.e2e.fake_telegram import DEFAULT_TOKEN, FakeTelegram
from tests.ports import free_port

USER = 5001


@pytest.fixture
async def server() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram.running(limits=None) as server:
        server.open_chat(USER)
        yield server


def bot_for(url: str, timeouts: Timeouts | None = None) -> Bot:
    connections = Connections(limit=4)
    return Bot(
        DEFAULT_TOKEN,
        base_url=f"{url}/bot",
        base_file_url=f"{url}/file/bot",
        request=AiohttpRequest(connections, timeouts),
        get_updates_request=AiohttpRequest(connections, timeouts),
    )


async def test_a_message_goes_out_as_a_form(server: FakeTelegram) -> None:
    async with bot_for(server.url) as bot:
        sent = await bot.send_message(USER, "<b>Bakiyeniz</b>: 100 TL", parse_mode="HTML")

    stored = server.chat(USER)[-1]
    assert (stored.message_id, stored.text, stored.html) == (
        sent.message_id,
        "Bakiyeniz: 100 TL",
        "<b>Bakiyeniz</b>: 100 TL",
    )


async def test_a_file_arrives_with_its_name_type_and_bytes_and_comes_back(
    server: FakeTelegram,
) -> None:
    content = "# Başlık\n\nİçerik ğüşöç\n".encode() * 500
    async with bot_for(server.url) as bot:
        sent = await bot.send_document(
            USER, InputFile(content, filename="makale.md"), caption="Makale"
        )
        assert sent.document is not None
        downloaded = await (await bot.get_file(sent.document.file_id)).download_as_bytearray()

    document = server.chat(USER)[-1].document
    assert document is not None
    assert (document.file_name, document.mime_type, document.content) == (
        "makale.md",
        "text/markdown",
        content,
    )
    assert bytes(downloaded) == content


async def test_an_answer_later_than_the_read_timeout_times_out(server: FakeTelegram) -> None:
    server.answer_delay = 2.0
    async with bot_for(server.url, Timeouts(read=0.2)) as bot:
        with pytest.raises(TimedOut) as raised:
            await bot.send_message(USER, "geç")
    assert DEFAULT_TOKEN not in str(raised.value)


async def test_a_long_poll_may_outlast_the_read_timeout(server: FakeTelegram) -> None:
    async with bot_for(server.url, Timeouts(read=0.2)) as bot:
        started = time.monotonic()
        updates = await bot.get_updates(timeout=1)

    assert updates == ()
    assert time.monotonic() - started >= 0.9


async def test_a_refused_connection_is_a_network_error() -> None:
    request = AiohttpRequest(Connections(limit=1))
    await request.initialize()
    try:
        with pytest.raises(NetworkError) as raised:
            await request.do_request(f"http://127.0.0.1:{free_port()}/bot1:x/getMe", "POST")
    finally:
        await request.shutdown()
    assert not isinstance(raised.value, TimedOut)


async def test_a_transport_shut_down_serves_again_once_initialized(
    server: FakeTelegram,
) -> None:
    bot = bot_for(server.url)
    async with bot:
        await bot.get_me()
    async with bot:
        me = await bot.get_me()
    assert me.username == server.bot_username


async def test_a_transport_never_initialized_refuses_to_send() -> None:
    with pytest.raises(RuntimeError, match="not initialized"):
        await AiohttpRequest(Connections(limit=1)).do_request("http://127.0.0.1:1/", "GET")


async def test_one_request_shut_down_closes_the_others_connections_too(
    server: FakeTelegram,
) -> None:
    connections = Connections(limit=2)
    poll, other = AiohttpRequest(connections), AiohttpRequest(connections)
    await poll.initialize()
    await other.initialize()
    await other.shutdown()
    with pytest.raises(RuntimeError, match="not initialized"):
        await poll.do_request(f"{server.url}/bot{DEFAULT_TOKEN}/getMe", "POST")
