"""The fake Cloud API as tests use it: the Graph API served on loopback, people who write to
the bot through signed webhooks, and what the bot sent, read back."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import socket
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
import uvicorn

from tests.e2e.fake_slack.server import _Server
from tests.e2e.fake_whatsapp import webhooks
from tests.e2e.fake_whatsapp.graph import graph_app
from tests.e2e.fake_whatsapp.limits import RE_ENGAGEMENT, GraphError
from tests.e2e.fake_whatsapp.pairs import PairRate, Pairs
from tests.e2e.fake_whatsapp.records import APP_SECRET, PHONE_NUMBER_ID, Media, Sent
from tests.fakes import wait_until

__all__ = ["FakeWhatsApp"]


@dataclass
class _Faults:
    """Errors the test asked for: the next sends to a person fail with them."""

    pending: dict[str, list[GraphError]] = field(default_factory=dict)

    def next_for(self, person: str) -> GraphError | None:
        waiting = self.pending.get(person) or []
        return waiting.pop(0) if waiting else None


class FakeWhatsApp:
    """One business phone number on the Cloud API, and the people who write to it.

    ``window_errors`` says how a send outside the 24-hour window is refused: ``"answer"``
    in the send's own answer, ``"status"`` accepted and then failed by a status webhook.
    """

    def __init__(
        self,
        url: str,
        *,
        clock: Callable[[], float],
        pair_rate: PairRate,
        window_errors: str = "answer",
    ) -> None:
        self.url = url
        self.api_url = url
        self.clock = clock
        self.pairs = Pairs(clock, pair_rate)
        self.window_errors = window_errors
        self.webhook_url: str | None = None
        self.sent: list[Sent] = []
        self.refused: list[tuple[str, GraphError]] = []
        self.media: dict[str, Media] = {}
        self.reactions: list[Sent] = []
        self.read: list[str] = []
        # The ids of the messages whose status the bot's webhook took, in order.
        self.told: list[str] = []
        self.faults = _Faults()
        self._ids = itertools.count(1)
        self._http = httpx.AsyncClient(timeout=10)
        self.app = graph_app(self)

    @classmethod
    @contextlib.asynccontextmanager
    async def running(
        cls,
        *,
        clock: Callable[[], float] = time.time,
        pair_rate: PairRate | None = None,
        window_errors: str = "answer",
    ) -> AsyncIterator[FakeWhatsApp]:
        """Serve a fresh fake on a free port of 127.0.0.1 in this loop until the block ends."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.bind(("127.0.0.1", 0))
            host, port = sock.getsockname()
            fake = cls(
                f"http://{host}:{port}",
                clock=clock,
                pair_rate=pair_rate or PairRate(),
                window_errors=window_errors,
            )
            server = _Server(
                uvicorn.Config(fake.app, log_level="warning", access_log=False, lifespan="off")
            )
            task = asyncio.create_task(server.serve(sockets=[sock]))
            try:
                await server.until_started(task)
                yield fake
            finally:
                server.stop()
                await task
                await fake._http.aclose()
        finally:
            sock.close()

    def new_id(self, prefix: str = "wamid.") -> str:
        """A fresh id of a message or a medium."""
        return f"{prefix}{next(self._ids):08d}"

    # What the Graph API does with a send (graph.py calls it).

    def accept(self, message: dict[str, Any], kind: str) -> tuple[Sent, GraphError | None]:
        """Record a send the Cloud API takes; the error of a later ``failed`` status, if any.

        Raises ``GraphError`` where it refuses the send in its answer.
        """
        person = str(message["to"])
        fault = self.faults.next_for(person)
        if fault is not None:
            raise fault
        late: GraphError | None = None
        if kind != "template" and not self.pairs.window_open(person):
            closed = GraphError(RE_ENGAGEMENT, "more than 24 hours since the customer replied")
            if self.window_errors == "answer":
                raise closed
            late = closed
        self.pairs.take(person)
        sent = Sent(self.new_id(), person, kind, dict(message[kind]), self.clock())
        (self.reactions if kind == "reaction" else self.sent).append(sent)
        return sent, late

    # People writing to the bot.

    async def post_webhook(self, value: dict[str, Any], *, secret: str = APP_SECRET) -> int:
        """POST a notification to the bot's webhook, signed with ``secret``; the status code."""
        assert self.webhook_url is not None, "tell the fake where the bot's webhook is"
        body = webhooks.notification(PHONE_NUMBER_ID, value)
        headers = {
            webhooks.SIGNATURE_HEADER: webhooks.sign(body, secret),
            "Content-Type": "application/json",
        }
        answer = await self._http.post(self.webhook_url, content=body, headers=headers)
        return answer.status_code

    async def user_sends(self, person: str, message: dict[str, Any], *, name: str = "Ayşe") -> str:
        """The person sends a message of any type; its id. Their window opens."""
        message_id = self.new_id()
        self.pairs.heard(person)
        value = webhooks.message_value(
            person, {"id": message_id, **message}, name=name, at=int(self.clock())
        )
        status = await self.post_webhook(value)
        assert status == 200, status
        return message_id

    async def user_says(self, person: str, text: str) -> str:
        """The person writes a text."""
        return await self.user_sends(person, {"type": "text", "text": {"body": text}})

    async def user_chooses(self, person: str, sent: Sent, title: str) -> str:
        """The person taps a reply button, or picks a list's row, of a message of the bot."""
        choice = sent.choices[title]
        kind = "button_reply" if sent.content["type"] == "button" else "list_reply"
        reply = {"type": kind, kind: {"id": choice, "title": title}}
        message = {"type": "interactive", "interactive": reply, "context": {"id": sent.id}}
        return await self.user_sends(person, {"context": {"from": PHONE_NUMBER_ID}, **message})

    async def user_presses_template_button(self, person: str, sent: Sent, text: str) -> str:
        """The person taps a quick reply button of a template message."""
        message = {
            "type": "button",
            "button": {"payload": text, "text": text},
            "context": {"from": PHONE_NUMBER_ID, "id": sent.id},
        }
        return await self.user_sends(person, message)

    async def user_sends_document(
        self, person: str, filename: str, content: bytes, mime_type: str = "text/plain"
    ) -> str:
        """The person sends a file: stored as a medium, announced by its id."""
        media_id = self.new_id("media.")
        self.media[media_id] = Media(content, mime_type, filename)
        document = {"id": media_id, "filename": filename, "mime_type": mime_type}
        return await self.user_sends(person, {"type": "document", "document": document})

    async def status(
        self, sent: Sent, status: str, errors: list[dict[str, Any]] | None = None
    ) -> int:
        """Tell the bot a status of a message it sent."""
        value = webhooks.status_value(sent.id, sent.to, status, at=int(self.clock()), errors=errors)
        answer = await self.post_webhook(value)
        self.told.append(sent.id)
        return answer

    # What tests read back.

    def to(self, person: str) -> list[Sent]:
        """What the bot sent the person, in order."""
        return [sent for sent in self.sent if sent.to == person]

    def last_to(self, person: str, containing: str = "") -> Sent | None:
        """The newest message to the person whose text holds ``containing``."""
        return next((s for s in reversed(self.to(person)) if containing in s.text), None)

    async def until(self, person: str, containing: str, *, since: int = 0) -> Sent:
        """Wait for a message to the person, from index ``since`` on, holding ``containing``."""

        def found() -> Sent | None:
            return next((s for s in self.to(person)[since:] if containing in s.text), None)

        await wait_until(lambda: found() is not None)
        sent = found()
        assert sent is not None
        return sent
