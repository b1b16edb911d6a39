"""The Bot API's HTTP transport: python-telegram-bot's requests made with aiohttp.

python-telegram-bot makes its requests with httpx by default, through httpcore, anyio and h11:
about 0.5 ms of CPU a request on loopback. aiohttp, which the Slack adapter uses anyway, takes
about 0.15 ms for the same request. Every answer waits for two requests (the ``getUpdates``
that brings the update and the reply), so the difference is about 0.7 ms of a 7 ms
``/bakiye``.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

__all__ = ["AiohttpRequest", "Connections", "Timeouts"]


@dataclass(frozen=True, slots=True)
class Timeouts:
    """Seconds each phase of a request may take (None: no limit); python-telegram-bot's."""

    connect: float | None = 5.0
    read: float | None = 5.0
    write: float | None = 5.0
    pool: float | None = 1.0
    # Writing a file takes longer than writing a message.
    media_write: float | None = 20.0


class Connections:
    """One aiohttp session for a bot's requests: the long poll and the rest share its pool of
    ``limit`` connections, and closing it from either closes it for both.

    python-telegram-bot opens its requests before its first call (``getMe``) and leaves them
    open when that call fails; one session lets the caller close them all through the one
    request the bot shows (``Bot.request``).
    """

    def __init__(self, *, limit: int) -> None:
        self._limit = limit
        self._session: aiohttp.ClientSession | None = None

    def open(self) -> None:
        """Open the session, on the running event loop; again after a close."""
        if self._session is None or self._session.closed:
            # The environment's proxies and .netrc are not read: aiohttp would read them again
            # for every request, which cost more than the rest of the transport.
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._limit), trust_env=False
            )

    async def close(self) -> None:
        """Close the session and its connections; nothing when closed already."""
        if self._session is not None:
            await self._session.close()

    @property
    def session(self) -> aiohttp.ClientSession:
        """The open session."""
        if self._session is None or self._session.closed:
            raise RuntimeError("this bot's requests are not initialized")
        return self._session


class AiohttpRequest(BaseRequest):
    """Makes python-telegram-bot's requests over ``connections``.

    aiohttp bounds reading (``sock_read``), connecting (``sock_connect``) and waiting for a
    connection of the pool plus connecting (``connect``), but not writing: the write timeout
    bounds the whole request instead, with the others added to it.
    """

    def __init__(self, connections: Connections, timeouts: Timeouts | None = None) -> None:
        self._connections = connections
        self._timeouts = timeouts or Timeouts()

    @property
    def read_timeout(self) -> float | None:
        """The read timeout of a request that names none (a long poll adds its own to it)."""
        return self._timeouts.read

    async def initialize(self) -> None:
        """Open the connections."""
        self._connections.open()

    async def shutdown(self) -> None:
        """Close the connections, the other requests' too."""
        await self._connections.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """Make one request: its status and body; ``TimedOut`` or ``NetworkError`` else."""
        session = self._connections.session
        files = request_data.multipart_data if request_data else None
        timeouts = self._timeouts
        write = timeouts.media_write if files else timeouts.write
        timeout = _timeout(
            read=_given(read_timeout, timeouts.read),
            write=_given(write_timeout, write),
            connect=_given(connect_timeout, timeouts.connect),
            pool=_given(pool_timeout, timeouts.pool),
        )
        try:
            async with session.request(
                method,
                url,
                data=_body(request_data),
                headers={"User-Agent": self.USER_AGENT},
                timeout=timeout,
            ) as response:
                return response.status, await response.read()
        # aiohttp's timeouts are TimeoutErrors, some of them ClientErrors too; some name the
        # URL, and with it the bot token, so their text stays out of the message.
        except TimeoutError as err:
            raise TimedOut from err
        except aiohttp.ClientError as err:
            raise NetworkError(f"aiohttp.{type(err).__name__}: {err}") from err


def _given(value: ODVInput[float], default: float | None) -> float | None:
    """The timeout a call named, else the transport's own."""
    return default if isinstance(value, DefaultValue) else value


def _timeout(
    *, read: float | None, write: float | None, connect: float | None, pool: float | None
) -> aiohttp.ClientTimeout:
    phases = [phase for phase in (read, write, connect, pool) if phase is not None]
    total = sum(phases) if len(phases) == 4 else None
    waiting = None if connect is None or pool is None else connect + pool
    return aiohttp.ClientTimeout(total=total, connect=waiting, sock_connect=connect, sock_read=read)


def _body(request_data: RequestData | None) -> aiohttp.FormData | dict[str, str] | None:
    """A form: url-encoded, or multipart when it carries files."""
    if request_data is None:
        return None
    if not request_data.multipart_data:
        return request_data.json_parameters
    form = aiohttp.FormData(request_data.json_parameters)
    for name, (filename, content, mime_type) in request_data.multipart_data.items():
        form.add_field(name, content, filename=filename, content_type=mime_type)
    return form
