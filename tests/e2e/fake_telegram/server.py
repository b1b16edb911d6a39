"""The fake Telegram served on loopback, and what tests do with it."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import socket
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable, Generator
from typing import Any

import uvicorn

from tests.e2e.fake_telegram import inline, members, people
from tests.e2e.fake_telegram.app import build_app
from tests.e2e.fake_telegram.profile import commands_key
from tests.e2e.fake_telegram.records import JSON, Call, StoredMessage, UploadedFile
from tests.e2e.fake_telegram.replies import ApiError
from tests.e2e.fake_telegram.state import BotState
from tests.telegram_limits import TELEGRAM_LIMITS, Limits, Sent

__all__ = ["DEFAULT_TOKEN", "FakeTelegram"]

DEFAULT_TOKEN = "123456789:AAHfakeTelegramTokenForTests0123456"
_START_TIMEOUT = 30.0
_CALLS_SHOWN = 8
# How long ``take_updates`` waits before it looks again; any bound will do.
_WEBHOOK_WAIT = 60.0


class FakeTelegram:
    """A Bot API server for one bot token, with the people on the other side of its chats.

    Point python-telegram-bot at it with ``base_url=f"{server.url}/bot"`` and
    ``base_file_url=f"{server.url}/file/bot"``. Start it with :meth:`running`.
    """

    def __init__(self, state: BotState, url: str) -> None:
        self._state = state
        self.url = url

    @classmethod
    @contextlib.asynccontextmanager
    async def running(
        cls,
        token: str = DEFAULT_TOKEN,
        *,
        username: str = "makale_test_bot",
        first_name: str = "Makale Bot",
        limits: Limits | None = TELEGRAM_LIMITS,
        answer_delay: float = 0.0,
    ) -> AsyncIterator[FakeTelegram]:
        """Serve a fresh fake on 127.0.0.1 in the current event loop until the block ends.

        ``limits`` are Telegram's flood limits (None: no limits); ``answer_delay`` holds back
        the answer to every call that posts or changes a message by that many seconds.
        """
        state = BotState(
            token,
            username=username,
            first_name=first_name,
            limits=limits,
            answer_delay=answer_delay,
        )
        config = uvicorn.Config(
            build_app(state),
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=2,
        )
        server = _EmbeddedServer(config)
        # Naming the protocol lets asyncio set TCP_NODELAY on each connection (it checks
        # sock.proto); without it every response waits ~40 ms for a delayed ACK.
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP) as sock:
            sock.bind(("127.0.0.1", 0))
            serving = asyncio.create_task(server.serve(sockets=[sock]))
            try:
                await server.until_started(serving)
                host, port = sock.getsockname()
                yield cls(state, f"http://{host}:{port}")
            finally:
                state.close()
                server.stop()
                await serving

    # The bot's side, as Telegram saw it

    @property
    def token(self) -> str:
        """The one token this server accepts."""
        return self._state.token

    @property
    def bot_username(self) -> str:
        """The bot's username, for ``/command@username``."""
        return str(self._state.bot["username"])

    @property
    def calls(self) -> list[Call]:
        """Every request so far, in order of arrival."""
        return self._state.calls

    def calls_of(self, method: str) -> list[Call]:
        """The requests of one method (any case), in order."""
        return [call for call in self._state.calls if call.method.lower() == method.lower()]

    def chat(self, chat_id: int) -> list[StoredMessage]:
        """The bot's messages still in the chat, oldest first, as they are now."""
        messages = self._state.messages.get(chat_id, {}).values()
        return [m for m in messages if m.from_bot and not m.deleted]

    def message(self, chat_id: int, message_id: int) -> StoredMessage | None:
        """Any message of the chat, the bot's or a person's, deleted or not."""
        return self._state.find(chat_id, message_id)

    def answered(self, callback_id: str) -> JSON | None:
        """The bot's answer to a callback query (text, show_alert, url, cache_time), or None."""
        return self._state.callbacks.get(callback_id)

    def commands(self, scope: JSON | None = None, language_code: str = "") -> list[JSON]:
        """The command list the bot set for this scope (default scope when None) and language."""
        return self._state.commands.get(commands_key(scope, language_code), [])

    @property
    def sent(self) -> list[Sent]:
        """Every call that posted or changed a message and passed the limits, in order."""
        return self._state.throttle.sent

    @property
    def refused(self) -> Counter[int]:
        """How many calls to each chat were answered 429 by the limits (not injected faults)."""
        return self._state.throttle.refused

    @property
    def limits(self) -> Limits | None:
        """The flood limits enforced now; None when there are none."""
        return self._state.throttle.limits

    @limits.setter
    def limits(self, limits: Limits | None) -> None:
        """Enforce other limits (None: none) from now on, every bucket full again."""
        self._state.throttle.limits = limits

    @property
    def answer_delay(self) -> float:
        """Seconds the answer to each call that posts or changes a message is held back."""
        return self._state.answer_delay

    @answer_delay.setter
    def answer_delay(self, seconds: float) -> None:
        self._state.answer_delay = seconds

    @property
    def webhook(self) -> JSON | None:
        """The webhook the bot set (url, secret_token, max_connections), None while polling."""
        return self._state.webhook

    # What people do

    def user_says(
        self,
        user_id: int,
        text: str,
        *,
        chat_id: int | None = None,
        chat_type: str = "private",
        language_code: str | None = None,
        first_name: str | None = None,
    ) -> JSON:
        """A person writes ``text`` in a chat (their private one by default); the Message.

        A leading ``/command`` (or ``/command@bot``) gets its ``bot_command`` entity. The name and
        language stay as a person's earlier message set them (``Ayşe``, ``tr`` for a newcomer).
        """
        user = self._state.user(user_id, first_name=first_name, language_code=language_code)
        return people.post(self._state, user, chat_id=chat_id, chat_type=chat_type, text=text)

    def open_chat(
        self, user_id: int, *, chat_id: int | None = None, chat_type: str = "private"
    ) -> int:
        """The person has a chat with the bot (their private one by default) that the bot may
        write to, as after an earlier conversation, with no update queued; its id."""
        return self._state.join(self._state.user(user_id), chat_id, chat_type)

    def user_sends_sticker(
        self,
        user_id: int,
        *,
        chat_id: int | None = None,
        chat_type: str = "private",
        emoji: str = "👍",
    ) -> JSON:
        """A person sends a sticker; the Message."""
        user = self._state.user(user_id)
        return people.post(
            self._state, user, chat_id=chat_id, chat_type=chat_type, sticker_emoji=emoji
        )

    def user_sends_document(
        self,
        user_id: int,
        filename: str,
        content: bytes,
        mime_type: str = "text/plain",
        *,
        size_shown: bool = True,
    ) -> JSON:
        """A person sends a file in their private chat; the Message (its document for getFile).

        ``size_shown=False``: the file comes without ``file_size``, as Telegram allows.
        """
        user = self._state.user(user_id)
        uploaded = UploadedFile(filename, mime_type, content)
        stored = self._state.store_file(uploaded, size_shown=size_shown)
        return people.post(self._state, user, chat_id=None, chat_type="private", document=stored)

    def user_edits(
        self, user_id: int, message_id: int, text: str, *, chat_id: int | None = None
    ) -> JSON:
        """A person edits a text message of theirs; the edited Message."""
        user = self._state.user(user_id)
        return people.edit(self._state, user, message_id, text, chat_id=chat_id)

    def user_presses(
        self, user_id: int, message_id: int, data: str, *, chat_id: int | None = None
    ) -> str:
        """A person presses the button with ``data`` under a bot message; the callback query id.

        ValueError when the message does not show such a button (any more).
        """
        user = self._state.user(user_id)
        return people.press(self._state, user, message_id, data, chat_id=chat_id)

    # Inline mode

    @property
    def inline_mode(self) -> bool:
        """Whether inline mode is on (BotFather's /setinline); off as for a new bot."""
        return self._state.inline_mode

    @inline_mode.setter
    def inline_mode(self, on: bool) -> None:
        self._state.inline_mode = on

    def user_queries_inline(self, user_id: int, text: str, *, offset: str = "") -> str:
        """A person types ``@bot text`` in some chat (or scrolls on to ``offset``); the query id.

        Telegram shows a cached answer it may show this person at once, without asking the bot.
        """
        return inline.query(self._state, self._state.user(user_id), text, offset).query_id

    def inline_answer(self, query_id: str) -> JSON | None:
        """What the person was shown for an inline query (results, next_offset, button,
        cache_time, is_personal), None while there is no answer."""
        asked = self._state.inline_queries.get(query_id)
        return None if asked is None else asked.answer

    def inline_from_cache(self, query_id: str) -> bool:
        """Whether Telegram answered the query from its cache, without asking the bot."""
        return bool(self._state.inline_queries[query_id].from_cache)

    def user_chooses_inline(
        self,
        user_id: int,
        query_id: str,
        result_id: str,
        *,
        chat_id: int,
        chat_type: str = "group",
    ) -> StoredMessage:
        """The person picks a result: its message is posted, as theirs, in the chat where they
        typed the query; the message."""
        user = self._state.user(user_id)
        return inline.choose(
            self._state, user, query_id, result_id, chat_id=chat_id, chat_type=chat_type
        )

    def user_opens_link(self, user_id: int, url: str) -> JSON:
        """A person presses a ``t.me/<bot>?start=…`` button and then Start; the Message."""
        return inline.open_link(self._state, self._state.user(user_id), url)

    def served(self, file_id: str) -> int:
        """How many bytes of the file were downloaded."""
        return self._state.served.get(self._state.files[file_id].file_path, 0)

    def webhook_update(self, item: JSON | str) -> JSON:
        """Take the pending Update carrying ``item`` off the queue, for the test to post it.

        ``item`` is a Message that ``user_says`` and its siblings returned, or a callback query
        id from ``user_presses``. LookupError when no pending update carries it.
        """
        return people.take_update(self._state, item)

    async def take_updates(self) -> list[JSON]:
        """Wait until updates are pending while a webhook is set; take them all off the queue,
        as Telegram does to send them to the webhook."""
        state = self._state
        while not await state.changes.wait_until(
            lambda: bool(state.updates) and state.webhook is not None, _WEBHOOK_WAIT
        ):
            pass
        taken, state.updates[:] = list(state.updates), []
        return taken

    # Faults

    def fail_next(
        self,
        method: str,
        *,
        status: int = 429,
        retry_after: int | None = 1,
        description: str | None = None,
        count: int = 1,
    ) -> None:
        """Answer the next ``count`` requests of ``method`` with this error instead.

        ``retry_after`` goes out (as ``parameters.retry_after``) with status 429 only; the
        description defaults to the Bot API's for the status ("Too Many Requests: retry after 1").
        """
        failures = self._state.faults.setdefault(method.lower(), deque())
        failures.extend(
            ApiError(status, description, retry_after=retry_after) for _ in range(count)
        )

    def bot_added(
        self,
        user_id: int,
        chat_id: int,
        *,
        title: str,
        chat_type: str = "channel",
        status: str = "administrator",
        can_post: bool = True,
    ) -> JSON | None:
        """The person adds the bot to a channel or group (or changes its rights there, or,
        with status ``left``, removes it); the ``my_chat_member`` update, None where the bot's
        allowed_updates leave it out."""
        user = self._state.user(user_id)
        return members.change_bot(
            self._state,
            user,
            chat_id,
            chat_type=chat_type,
            title=title,
            status=status,
            can_post=can_post,
        )

    def member_changed(
        self, user_id: int, chat_id: int, *, status: str, can_post: bool = True
    ) -> JSON | None:
        """An administrator makes the person a plain ``member`` of a channel or group, or an
        ``administrator`` with or without the right to post (channels); the ``chat_member``
        update, None where the bot's allowed_updates leave it out."""
        return members.change_member(
            self._state, user_id, chat_id, status=status, can_post=can_post
        )

    def user_leaves(self, user_id: int, chat_id: int) -> None:
        """The person leaves a channel or group: getChatMember names them ``left`` there."""
        members.user_leaves(self._state, user_id, chat_id)

    def block(self, chat_id: int) -> None:
        """The user blocks the bot: requests for that chat get 403 from now on."""
        self._state.blocked.add(chat_id)

    # Waiting

    async def wait_for(
        self,
        predicate: Callable[[], bool],
        # Generous for a busy machine: it costs nothing when the condition comes.
        timeout: float = 30,
    ) -> None:
        """Wait until ``predicate()`` holds, checked after every request and user action.

        AssertionError after ``timeout`` seconds, naming the predicate and the last requests.
        """
        if not await self._state.changes.wait_until(predicate, timeout):
            recent = "\n".join(f"  {_described(call)}" for call in self.calls[-_CALLS_SHOWN:])
            raise AssertionError(
                f"not true after {timeout:g} s: {_source(predicate)}\n"
                f"last requests (of {len(self.calls)}):\n{recent or '  none'}"
            )


class _EmbeddedServer(uvicorn.Server):
    """A uvicorn server for tests: no signal handling, and no ticking at 0.1 s to notice a
    stop or the end of connections, so each test's server starts and stops in milliseconds."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self._started = asyncio.Event()
        self._stopping = asyncio.Event()

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        self._started.set()

    async def main_loop(self) -> None:
        await self.on_tick(0)  # sets the Date and Server headers
        await self._stopping.wait()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()
        for connection in list(self.server_state.connections):
            connection.shutdown()  # idle ones close now, busy ones after their response
        if self.server_state.tasks:
            await asyncio.wait(
                self.server_state.tasks, timeout=self.config.timeout_graceful_shutdown
            )
        for server in self.servers:
            await server.wait_closed()

    def stop(self) -> None:
        """Stop serving once the requests being answered are answered."""
        self.should_exit = True
        self._stopping.set()

    async def until_started(self, serving: asyncio.Task[None]) -> None:
        """Return once the server accepts connections; raise if it stopped or took too long."""
        started = asyncio.create_task(self._started.wait())
        try:
            done, _ = await asyncio.wait(
                {started, serving}, timeout=_START_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            started.cancel()
        if serving in done:
            serving.result()
            raise RuntimeError("the fake Telegram server stopped while starting")
        if started not in done:
            raise TimeoutError(f"the fake Telegram server did not start in {_START_TIMEOUT} s")


def _source(predicate: Callable[[], Any]) -> str:
    try:
        return inspect.getsource(predicate).strip()
    except (OSError, TypeError):
        return repr(predicate)


def _described(call: Call) -> str:
    shown = {k: v for k, v in call.params.items() if k in ("chat_id", "message_id", "text")}
    if call.response is None:
        outcome = "(waiting)"
    elif call.ok:
        outcome = "ok"
    else:
        outcome = f"{call.response['error_code']} {call.response['description']}"
    at = time.monotonic() - call.at
    return f"{call.method} {shown} -> {outcome} ({at:.2f} s ago)"[:300]
