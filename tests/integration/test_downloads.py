"""Downloads of files people send: never more than the limit and a byte, only from Slack."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.downloads import download_capped
from bot.slack.downloads import download_allowed

LIMIT = 1024 * 1024


class Endless:
    """A loopback server that answers every GET with a body it never ends, counting bytes."""

    def __init__(self, headers: bytes) -> None:
        self.headers = headers
        self.sent = 0

    async def handle(self, _: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"HTTP/1.1 200 OK\r\n" + self.headers + b"\r\n")
        chunk = b"x" * 65536
        try:
            while self.sent < 256 * LIMIT:
                framed = (
                    b"%x\r\n%s\r\n" % (len(chunk), chunk) if b"chunked" in self.headers else chunk
                )
                writer.write(framed)
                await writer.drain()
                self.sent += len(chunk)
        except ConnectionError:
            pass
        finally:
            writer.close()


@pytest.fixture(params=[b"Transfer-Encoding: chunked\r\n", b"Content-Length: 1000\r\n"])
async def endless(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Endless, str]]:
    server = Endless(request.param)
    listening = await asyncio.start_server(server.handle, "127.0.0.1", 0)
    port = listening.sockets[0].getsockname()[1]
    async with listening:
        yield server, f"http://127.0.0.1:{port}/files-pri/T1-F1/download/a.txt"


async def test_a_chunked_or_lying_body_is_read_no_further_than_the_limit(
    endless: tuple[Endless, str],
) -> None:
    server, url = endless

    fetched = await download_capped(url, limit=LIMIT)

    assert fetched.content is None or len(fetched.content) <= LIMIT
    assert server.sent < 32 * LIMIT


TESTS_API = "http://127.0.0.1:8123/api/"
SLACK_API = "https://slack.com/api/"


@pytest.mark.parametrize(
    ("url", "api", "allowed"),
    [
        ("https://files.slack.com/files-pri/T1-F1/download/a.txt", SLACK_API, True),
        ("http://files.slack.com/files-pri/T1-F1/download/a.txt", SLACK_API, False),
        ("https://evil.slack.com/files-pri/T1-F1/download/a.txt", SLACK_API, False),
        ("https://files.slack.com.example.com/a.txt", SLACK_API, False),
        ("https://slack.com/files-pri/T1-F1/download/a.txt", SLACK_API, False),
        ("http://127.0.0.1:8123/files-pri/T1-F1/download/a.txt", TESTS_API, True),
        ("http://127.0.0.1:9999/files-pri/T1-F1/download/a.txt", TESTS_API, False),
        ("http://10.0.0.1:8123/files-pri/T1-F1/download/a.txt", "http://10.0.0.1:8123/api/", False),
    ],
)
def test_files_are_fetched_from_slacks_file_host_or_a_loopback_api_only(
    url: str, api: str, allowed: bool
) -> None:
    assert download_allowed(url, api) is allowed
