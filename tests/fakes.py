"""Test doubles of the core's ports, a clock tests move by hand, a condition waiter, and the
delivery side of the bot wired to them and to the sandbox upstream."""

from __future__ import annotations

import asyncio
import inspect
import itertools
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal

import httpx

from bot.api import ArticleApi
from bot.core.accounts import Accounts
from bot.core.delivery import Delivery
from bot.core.durations import estimate_seconds
from bot.core.events import ChatAddress
from bot.core.ports import Messenger, MessengerError
from bot.core.screens import Document, Screen
from bot.sandbox import DEMO_EMAIL, DEMO_PASSWORD, RunningSandbox, running_sandbox
from bot.sandbox.jobs import Job as SandboxJob
from storage import ChatUser, Database, Job, TokenCipher, generate_key, jobs, users

__all__ = [
    "CHAT_ID",
    "USER_ID",
    "Call",
    "DeliveryRig",
    "ManualClock",
    "RecordingMessenger",
    "delivery_rig",
    "place_order",
    "wait_until",
]

# The chat user every rig logs in, as their platform names them.
USER_ID = "42"

# The chat every order of the rig comes from.
CHAT_ID = "chat-1"

CallKind = Literal["send", "edit", "delete", "send_document"]


@dataclass(frozen=True, slots=True)
class Call:
    """One messenger call that went through: what, where, and with which message id."""

    kind: CallKind
    chat: ChatAddress
    message_id: str | None = None
    screen: Screen | None = None
    document: Document | None = None

    @property
    def text(self) -> str:
        """The screen's plain text, or the document's caption."""
        if self.screen is not None:
            return self.screen.text
        return self.document.caption if self.document is not None else ""


class RecordingMessenger(Messenger):
    """Records every call that went through; can be told to fail the next calls."""

    def __init__(self, *, limit: int = 4096) -> None:
        self.limit = limit
        self.calls: list[Call] = []
        self._ids = itertools.count(1)
        # One entry per upcoming call: None lets it through, an error class makes it raise.
        self._plan: deque[type[Exception] | None] = deque()

    def fail_next(
        self, count: int = 1, *, error: type[Exception] = MessengerError, after: int = 0
    ) -> None:
        """Let ``after`` calls through, then make the ``count`` calls after them raise ``error``."""
        self._plan.extend([None] * after + [error] * count)

    def of_kind(self, kind: CallKind) -> list[Call]:
        """The calls of one kind, in order."""
        return [call for call in self.calls if call.kind == kind]

    @property
    def sent(self) -> list[Call]:
        """The messages posted, in order."""
        return self.of_kind("send")

    @property
    def edits(self) -> list[Call]:
        """The messages edited, in order."""
        return self.of_kind("edit")

    @property
    def documents(self) -> list[Call]:
        """The files posted, in order."""
        return self.of_kind("send_document")

    async def send(self, chat: ChatAddress, screen: Screen) -> str | None:
        """Record a posted message; its id is the next number."""
        self._go_ahead()
        message_id = str(next(self._ids))
        self.calls.append(Call("send", chat, message_id, screen=screen))
        return message_id

    async def edit(self, chat: ChatAddress, message_id: str, screen: Screen) -> None:
        """Record an edit."""
        self._go_ahead()
        self.calls.append(Call("edit", chat, message_id, screen=screen))

    async def delete(self, chat: ChatAddress, message_id: str) -> None:
        """Record a deletion."""
        self._go_ahead()
        self.calls.append(Call("delete", chat, message_id))

    async def send_document(self, chat: ChatAddress, document: Document) -> None:
        """Record a posted file."""
        self._go_ahead()
        self.calls.append(Call("send_document", chat, document=document))

    def fits(self, screen: Screen) -> bool:
        """Whether the screen's text is within the limit (Telegram's is 4,096 characters)."""
        return len(screen.text) <= self.limit

    def _go_ahead(self) -> None:
        error = self._plan.popleft() if self._plan else None
        if error is not None:
            raise error("injected failure")


class ManualClock:
    """A clock that stands still until a test moves it; call it for the time."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move forward by ``seconds``."""
        self.now += timedelta(seconds=seconds)


async def wait_until(
    predicate: Callable[[], bool | Awaitable[bool]],
    timeout: float = 5.0,
    interval: float = 0.01,
) -> None:
    """Return once ``predicate`` holds (it may be async); fail the test after ``timeout`` s."""
    try:
        async with asyncio.timeout(timeout):
            while True:
                outcome = predicate()
                if await outcome if inspect.isawaitable(outcome) else outcome:
                    return
                await asyncio.sleep(interval)
    except TimeoutError:
        raise AssertionError(f"condition not met within {timeout} s") from None


@dataclass
class DeliveryRig:
    """The bot's delivery side on SQLite and a sandbox over loopback, one user logged in."""

    sandbox: RunningSandbox
    http: httpx.AsyncClient
    db: Database
    api: ArticleApi
    accounts: Accounts
    clock: ManualClock
    messenger: RecordingMessenger
    user: ChatUser

    @property
    def user_id(self) -> int:
        """The logged-in chat user's id."""
        assert self.user.id is not None
        return self.user.id

    def delivery(
        self,
        *,
        poll_interval: float = 10.0,
        job_timeout: timedelta = timedelta(days=1),
        create_timeout: float = 30.0,
        reconcile_grace: float = 600.0,
        owner: str = "test",
        platforms: Collection[str] = ("telegram", "slack"),
        api: ArticleApi | None = None,
    ) -> Delivery:
        """A new Delivery on the rig's parts; the one messenger serves each of ``platforms``."""
        return Delivery(
            db=self.db,
            api=api or self.api,
            accounts=self.accounts,
            messengers=dict.fromkeys(platforms, self.messenger),
            clock=self.clock,
            owner=owner,
            poll_interval=timedelta(seconds=poll_interval),
            job_timeout=job_timeout,
            create_timeout=timedelta(seconds=create_timeout),
            reconcile_grace=timedelta(seconds=reconcile_grace),
        )

    def advance(self, seconds: float) -> None:
        """Move the bot's clock and the upstream's clock forward together."""
        self.clock.advance(seconds)
        self.sandbox.state.clock.advance(seconds)

    async def login(self) -> None:
        """Log the rig's user in to the sandbox's demo account."""
        await self.accounts.login(self.user_id, DEMO_EMAIL, DEMO_PASSWORD)

    async def order(
        self, title: str, *, size: int = 1, platform: str = "telegram", thread_id: str | None = None
    ) -> Job:
        """Order an article upstream and record its job the way the order dialog does."""
        return await place_order(
            self.db,
            self.accounts,
            self.api,
            user_id=self.user_id,
            chat=ChatAddress(platform, CHAT_ID, thread_id),
            title=title,
            size=size,
            now=self.clock(),
        )

    async def job(self, job_id: int | None) -> Job:
        """The job's row as stored now."""
        assert job_id is not None
        row = await self.db.run(lambda s: jobs.get_job(s, job_id=job_id))
        assert row is not None
        return row

    def upstream_seconds(self, request_id: str) -> float:
        """How long the sandbox takes to write this job, in sandbox seconds."""
        return self._upstream_job(request_id).duration.total_seconds()

    def upstream_content(self, request_id: str) -> str:
        """The article the sandbox writes for this job."""
        content = self._upstream_job(request_id).content
        assert content is not None
        return content

    def _upstream_job(self, request_id: str) -> SandboxJob:
        state = self.sandbox.state
        account = state.account(DEMO_EMAIL)
        assert account is not None
        (job,) = [job for job in state.jobs_of(account) if job.request_id == request_id]
        return job


async def place_order(
    db: Database,
    accounts: Accounts,
    api: ArticleApi,
    *,
    user_id: int,
    chat: ChatAddress,
    title: str,
    size: int,
    now: datetime,
) -> Job:
    """Order an article upstream for the chat user and record its job as the order dialog does."""
    created = await accounts.call(
        user_id, lambda token: api.create(token, title=title, tone=1, size=size)
    )
    job = Job(
        request_id=created.request_id,
        chat_user_id=user_id,
        platform=chat.platform,
        chat_id=chat.chat_id,
        thread_id=chat.thread_id,
        title=title,
        tone=1,
        size=size,
        cost=created.cost,
        next_poll_at=now + timedelta(seconds=estimate_seconds(created.estimated_time) or 0),
        created_at=now,
    )
    return await db.run(lambda s: jobs.add_job(s, job=job))


@asynccontextmanager
async def delivery_rig(
    db: Database, *, speed: float = 1.0, failure_rate: float = 0.0
) -> AsyncIterator[DeliveryRig]:
    """A sandbox, a real client and accounts on ``db``, and a Telegram user logged in."""
    async with (
        running_sandbox(speed=speed, failure_rate=failure_rate) as sandbox,
        httpx.AsyncClient(timeout=5.0) as http,
    ):
        # One attempt: a retry would sleep, and tests inject failures on purpose.
        api = ArticleApi(http, base_url=sandbox.url, read_attempts=1)
        clock = ManualClock(sandbox.state.clock.now())
        accounts = Accounts(db=db, api=api, cipher=TokenCipher(generate_key()), clock=clock)
        user = await db.run(
            lambda s: users.get_or_create_user(
                s, platform="telegram", workspace="", external_id=USER_ID
            )
        )
        rig = DeliveryRig(sandbox, http, db, api, accounts, clock, RecordingMessenger(), user)
        await rig.login()
        yield rig
