"""Everything one sandbox remembers, and the operations that change it."""

from __future__ import annotations

import random
import secrets
import uuid
from collections.abc import Sequence
from datetime import timedelta
from decimal import Decimal

from bot.sandbox.accounts import Account, seed_accounts
from bot.sandbox.catalog import Size
from bot.sandbox.clock import SandboxClock
from bot.sandbox.estimates import estimated_time_text
from bot.sandbox.faults import Faults
from bot.sandbox.jobs import Job, Order
from bot.sandbox.tokens import TokenIssuer
from bot.sandbox.writer import write_article

__all__ = ["SandboxState"]

_FAILURE_MESSAGES = (
    "İçerik üretimi sırasında beklenmeyen bir hata oluştu.",
    "Yapay zeka servisi zamanında yanıt vermedi.",
    "Başlık işlenemedi, lütfen farklı bir başlık deneyin.",
)


class SandboxState:
    """Accounts, tokens, jobs, topics, fault switches and the request log of one sandbox."""

    def __init__(self, *, speed: float = 1.0, seed: int = 0, failure_rate: float = 0.0) -> None:
        if speed <= 0:
            raise ValueError("speed must be positive")
        if not 0.0 <= failure_rate <= 1.0:
            raise ValueError("failure_rate must be between 0 and 1")
        self.speed = speed
        self.seed = seed
        self.failure_rate = failure_rate
        self.clock = SandboxClock()
        self.faults = Faults()
        self.tokens = TokenIssuer(self.clock)
        self.request_log: list[tuple[str, str]] = []
        self.topics: list[str] = []
        self._accounts = {account.email: account for account in seed_accounts()}
        self._jobs: list[Job] = []
        # When set, each job takes this range of multiples of its estimate's lower bound, as
        # real jobs finish around their estimate; by default anywhere in the size's range.
        self.around_estimate: tuple[float, float] | None = None
        # Durations and failures only need to be repeatable, not unpredictable.
        self._rng = random.Random(seed)  # noqa: S311

    @property
    def accounts(self) -> list[Account]:
        """The accounts in the order they were seeded."""
        return list(self._accounts.values())

    @property
    def create_count(self) -> int:
        """Accepted (charged) articles so far, single and bulk together."""
        return len(self._jobs)

    def account(self, email: str) -> Account | None:
        """The account of an e-mail address, matched without regard to case."""
        return self._accounts.get(email.strip().lower())

    def authenticate(self, email: str, password: str) -> Account | None:
        """The account these credentials open, if any."""
        account = self.account(email)
        if account is None or not secrets.compare_digest(account.password, password):
            return None
        return account

    def balance_of(self, email: str) -> Decimal:
        """The balance of an account in TL."""
        return self._require(email).balance

    def open_account(self, email: str, password: str, balance: Decimal) -> Account:
        """Add an account besides the seeded ones (benchmarks give each chat its own)."""
        if self.account(email) is not None:
            raise ValueError(f"{email} has an account already")
        account = Account(email.strip().lower(), password, balance)
        self._accounts[account.email] = account
        return account

    def set_balance(self, email: str, amount: Decimal) -> None:
        """Set the balance of an account in TL."""
        self._require(email).balance = amount

    def estimated_time(self, size: Size) -> str:
        """The `estimatedTime` text of a size at this sandbox's speed."""
        low, high = size.seconds
        return estimated_time_text(low / self.speed, high / self.speed)

    def create_jobs(self, owner: Account, orders: Sequence[Order]) -> list[Job]:
        """Charge `owner` for all orders at once and start their jobs; all or nothing."""
        owner.charge(Decimal(sum(order.size.cost for order in orders)))
        jobs = [self._start(owner, order) for order in orders]
        self._jobs.extend(jobs)
        return jobs

    def jobs_of(self, owner: Account) -> list[Job]:
        """The owner's jobs, newest first."""
        return [job for job in reversed(self._jobs) if job.owner == owner.email]

    def add_topic(self, topic: str) -> int:
        """Remember a topic and return its id."""
        self.topics.append(topic)
        return len(self.topics)

    def _require(self, email: str) -> Account:
        account = self.account(email)
        if account is None:
            raise KeyError(email)
        return account

    def _start(self, owner: Account, order: Order) -> Job:
        low, high = order.size.seconds
        if self.around_estimate is not None:
            low, high = (low * share for share in self.around_estimate)
        seconds = self._rng.uniform(low, high) / self.speed
        fails = self._rng.random() < self.failure_rate
        failure = self._rng.choice(_FAILURE_MESSAGES) if fails else None
        # The text varies with the title and the seed, so a re-run writes the same article.
        text_rng = random.Random(f"{self.seed}:{order.title}")  # noqa: S311
        return Job(
            # A real uuid4: a restarted sandbox must not repeat ids the bot has stored.
            request_id=str(uuid.uuid4()),
            owner=owner.email,
            order=order,
            created_at=self.clock.now(),
            duration=timedelta(seconds=seconds),
            content=None if fails else write_article(order.title, order.size.words, text_rng),
            failure=failure,
        )
