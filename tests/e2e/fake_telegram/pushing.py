"""Telegram's side of a webhook: every update POSTed to the bot until it is answered 2xx.

The URL the bot sets is public; the host's load balancer passes each request on to one of the
replicas behind it, in turn, and to the next one when a replica refuses the connection (the
request never reached it, so any balancer may try it elsewhere). An update whose request ended
any other way (its replica died with it, answered other than 2xx, or took too long) Telegram
sends again after a pause, which doubles at each failure, and the balancer passes it on to the
next replica in turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, replace
from urllib.parse import urlsplit

import httpx

from tests.e2e.fake_telegram.records import JSON
from tests.e2e.fake_telegram.server import FakeTelegram

__all__ = ["Attempt", "WebhookPush", "pushing_updates"]

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
# The pause before an update is sent again, doubled at each failure, up to the longest.
FIRST_RETRY = 0.5
LONGEST_RETRY = 8.0
# How long Telegram waits for the bot's answer to one request.
REQUEST_TIMEOUT = 30.0


@dataclass(frozen=True)
class Attempt:
    """One request of an update to the bot: the replica it reached (None: every replica
    refused the connection) and its status (None: no answer, the connection ended)."""

    update_id: int
    replica: str | None
    status: int | None
    # When it was sent (``time.monotonic()``), and the callback query it carries, if any.
    sent: float = 0.0
    query: str | None = None

    @property
    def delivered(self) -> bool:
        """Whether the bot took the update."""
        return self.status is not None and 200 <= self.status < 300


class WebhookPush:
    """Sends the fake's pending updates to the webhook through a balancer over ``replicas``
    (the base URLs behind it now, which a restart may change)."""

    def __init__(
        self,
        telegram: FakeTelegram,
        http: httpx.AsyncClient,
        replicas: Callable[[], Sequence[str]],
    ) -> None:
        self._telegram = telegram
        self._http = http
        self._replicas = replicas
        self._turn = 0
        self.attempts: list[Attempt] = []
        # The updates each replica has been sent and not yet answered, by replica.
        self.in_hand: dict[str, list[JSON]] = {}

    def redelivered(self) -> int:
        """How many requests carried an update sent before."""
        return len(self.attempts) - len({attempt.update_id for attempt in self.attempts})

    async def run(self) -> None:
        """Send every update as it comes, side by side, each until the bot takes it."""
        async with asyncio.TaskGroup() as sending:
            while True:
                for update in await self._telegram.take_updates():
                    sending.create_task(self._deliver(update))

    async def _deliver(self, update: JSON) -> None:
        pause = FIRST_RETRY
        while not (await self._request(update)).delivered:
            await asyncio.sleep(pause)
            pause = min(pause * 2, LONGEST_RETRY)

    async def _request(self, update: JSON) -> Attempt:
        webhook = self._telegram.webhook
        assert webhook is not None, "updates are taken only while a webhook is set"
        path = urlsplit(str(webhook["url"])).path
        headers = {SECRET_HEADER: str(webhook["secret_token"])}
        replicas = list(self._replicas())
        sent = time.monotonic()
        carried = update.get("callback_query", {}).get("id")
        attempt = Attempt(update["update_id"], None, None, sent, carried)
        # Each replica once at most, from the next in turn: requests side by side move the
        # turn on meanwhile.
        first = self._turn % max(1, len(replicas))
        self._turn += 1
        for replica in replicas[first:] + replicas[:first]:
            in_hand = self.in_hand.setdefault(replica, [])
            in_hand.append(update)
            try:
                answer = await self._http.post(
                    f"{replica}{path}", json=update, headers=headers, timeout=REQUEST_TIMEOUT
                )
            except httpx.ConnectError:
                continue
            except httpx.HTTPError:
                attempt = replace(attempt, replica=replica)
            else:
                attempt = replace(attempt, replica=replica, status=answer.status_code)
            finally:
                in_hand.remove(update)
            break
        self.attempts.append(attempt)
        return attempt


@contextlib.asynccontextmanager
async def pushing_updates(
    telegram: FakeTelegram, replicas: Callable[[], Sequence[str]]
) -> AsyncIterator[WebhookPush]:
    """Telegram sending the updates to the webhook for the block."""
    # A connection kept open to a replica since killed would fail a request it never read.
    async with httpx.AsyncClient(limits=httpx.Limits(max_keepalive_connections=0)) as http:
        push = WebhookPush(telegram, http, replicas)
        task = asyncio.create_task(push.run())
        try:
            yield push
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
