"""Articles a user has at the article service, written there directly (as from its own site),
so tests of finding and sharing need not order each one through a chat."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from bot.sandbox import RunningSandbox
from bot.sandbox.catalog import SIZES, TONES
from bot.sandbox.jobs import Job, Order

# The sandbox writes a short article within two seconds of its clock at the tests' speed.
_DONE_AFTER = 5.0


def written(sandbox: RunningSandbox, email: str, titles: Sequence[str]) -> list[Job]:
    """Finished short articles of these titles in the account, the last one the newest."""
    state = sandbox.state
    account = state.account(email)
    assert account is not None
    state.set_balance(email, Decimal(10_000))
    jobs = []
    for title in titles:
        jobs.extend(state.create_jobs(account, [Order(title, TONES[0], SIZES[0])]))
        state.clock.advance(0.01)  # each a little newer than the one before
    state.clock.advance(_DONE_AFTER)
    return jobs


def listings(sandbox: RunningSandbox) -> int:
    """How many own-articles calls the service has answered."""
    return sum(1 for _, path in sandbox.state.request_log if path.endswith("/makalelerim"))
