"""Test doubles of the core's ports, a clock tests move by hand, a condition waiter, and the
delivery side of the bot wired to them and to the sandbox upstream."""

from __future__ import annotations

import asyncio
import inspect
import itertools
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Literal

import httpx

from bot.api import ArticleApi
from bot.bootstrap import running_bot
from bot.config import Settings, load_settings
from bot.core.accounts import Accounts
from bot.core.conversation.events import ChatAddress
from bot.core.conversation.screens import Document, Screen
from bot.core.delivery import Delivery
from bot.core.ordering.durations import estimate_seconds
from bot.core.ports import Messenger, MessengerError
from bot.core.upstream import Upstream
from bot.http_clients import http_client
from storage import ChatUser, Database, Job, generate_key, jobs, users

if TYPE_CHECKING:
    # The sandbox (FastAPI, its models) is imported where a rig serves it, not by the unit
    # tests that only want this module's clock and messenger.
    from bot.sandbox import RunningSandbox
    from bot.sandbox.jobs import Job as SandboxJob

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

    @property
    def file_kinds(self) -> list[str]:
        """The extensions of the files posted, in order."""
        return [c.document.filename.rpartition(".")[2] for c in self.documents if c.document]

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
    """The one test clock: it stands still until moved, or with ``ticking`` runs on too.

    Call it for the time; set ``now`` or call ``advance`` to move it.
    """

    def __init__(self, start: datetime | None = None, *, ticking: bool = False) -> None:
        self._start = start or datetime.now(UTC)
        self._ticking = ticking
        self._began = time.monotonic()
        self._offset = timedelta()

    def __call__(self) -> datetime:
        return self.now

    @property
    def now(self) -> datetime:
        """The time the clock shows."""
        ran = time.monotonic() - self._began if self._ticking else 0.0
        return self._start + self._offset + timedelta(seconds=ran)

    @now.setter
    def now(self, moment: datetime) -> None:
        self._offset += moment - self.now

    def advance(self, seconds: float) -> None:
        """Move forward by ``seconds``."""
        self._offset += timedelta(seconds=seconds)


async def wait_until(
    predicate: Callable[[], bool | Awaitable[bool]],
    timeout: float = 30.0,
    interval: float = 0.01,
) -> None:
    """Return once ``predicate`` holds (it may be async); fail the test after ``timeout`` s.

    The default is sized for a machine busy with other work: waiting longer costs nothing
    when the condition comes, and a test that fails only under load is still a failure.
    """
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
    """The bot's delivery side on a database and the sandbox over loopback, one user logged in.

    Every delivery it makes is a bot started by ``bootstrap.running_bot``, as in production.
    """

    sandbox: RunningSandbox
    http: httpx.AsyncClient
    db: Database
    api: ArticleApi
    accounts: Accounts
    clock: ManualClock
    messenger: RecordingMessenger
    user: ChatUser
    settings: Settings
    bots: AsyncExitStack

    @property
    def user_id(self) -> int:
        """The logged-in chat user's id."""
        assert self.user.id is not None
        return self.user.id

    async def delivery(
        self,
        *,
        poll_interval: float = 10.0,
        job_timeout: timedelta = timedelta(days=1),
        create_timeout: float = 30.0,
        reconcile_grace: float = 600.0,
        owner: str = "test",
        platforms: Collection[str] = ("telegram", "slack"),
        api: Upstream | None = None,
        messenger: Messenger | None = None,
        lease_for: timedelta = timedelta(seconds=15),
    ) -> Delivery:
        """The delivery of a new bot on the rig's database; one messenger serves ``platforms``."""
        settings = self.settings.model_copy(
            update={
                "poll_interval_seconds": poll_interval,
                "job_timeout_hours": job_timeout / timedelta(hours=1),
                "article_api_timeout_seconds": create_timeout,
                "reconcile_grace_seconds": reconcile_grace,
                "delivery_lease_seconds": lease_for.total_seconds(),
            }
        )
        bot = await self.bots.enter_async_context(
            running_bot(settings, clock=self.clock, owner=owner, api=api or self.api)
        )
        bot.messengers.update(dict.fromkeys(platforms, messenger or self.messenger))
        return bot.delivery

    def advance(self, seconds: float) -> None:
        """Move the bot's clock and the upstream's clock forward together."""
        self.clock.advance(seconds)
        self.sandbox.state.clock.advance(seconds)

    async def login(self) -> None:
        """Log the rig's user in to the sandbox's demo account."""
        from bot.sandbox import DEMO_EMAIL, DEMO_PASSWORD

        await self.accounts.login(self.user_id, DEMO_EMAIL, DEMO_PASSWORD)

    async def order(
        self,
        title: str,
        *,
        size: int = 1,
        platform: str = "telegram",
        chat_id: str = CHAT_ID,
        thread_id: str | None = None,
    ) -> Job:
        """Order an article upstream and record its job the way the order dialog does."""
        return await place_order(
            self.db,
            self.accounts,
            self.api,
            user_id=self.user_id,
            chat=ChatAddress(platform, chat_id, thread_id),
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
        from bot.sandbox import DEMO_EMAIL

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
        expected_at=now + timedelta(seconds=estimate_seconds(created.estimated_time) or 0),
        created_at=now,
    )
    return await db.run(lambda s: jobs.add_job(s, job=job))


@asynccontextmanager
async def delivery_rig(
    db: Database, *, speed: float = 1.0, failure_rate: float = 0.0
) -> AsyncIterator[DeliveryRig]:
    """A sandbox, a real client and accounts on ``db``, and a Telegram user logged in."""
    from bot.sandbox import running_sandbox

    async with (
        running_sandbox(speed=speed, failure_rate=failure_rate) as sandbox,
        http_client(timeout=5.0) as http,
        AsyncExitStack() as bots,
    ):
        settings = load_settings(
            _env_file=None,
            article_api_url=sandbox.url,
            database_url=db.url,
            token_encryption_key=generate_key(),
        )
        # One attempt: a retry would sleep, and tests inject failures on purpose.
        api = ArticleApi(http, base_url=sandbox.url, read_attempts=1)
        clock = ManualClock(sandbox.state.clock.now())
        # The rig logs in and orders through a bot of its own, which never delivers.
        seller = await bots.enter_async_context(running_bot(settings, clock=clock, api=api))
        accounts = seller.services.accounts
        user = await db.run(
            lambda s: users.get_or_create_user(
                s, platform="telegram", workspace="", external_id=USER_ID
            )
        )
        rig = DeliveryRig(
            sandbox, http, db, api, accounts, clock, RecordingMessenger(), user, settings, bots
        )
        await rig.login()
        yield rig
