"""Orders left submitted without a job: adopt the job the upstream made, or report them lost.

The process can die, or the create call time out, after the upstream accepted (and charged)
an order but before its ``Job`` row was written. Such a draft stays ``SUBMITTED``. Once the
create call surely ended, the user's own-articles list is searched for a job with the
draft's title created after the draft was submitted; a match is adopted and delivered like
any other job. When none appears within the grace period, the order did not go through.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Protocol

from sqlmodel import Session

from bot.api import Article, ArticleApi, ArticleApiError
from bot.core.accounts import Accounts
from bot.core.clock import Clock
from bot.core.errors import NotLoggedIn, SessionExpired
from bot.core.events import ChatAddress
from bot.core.texts import Texts
from bot.core.turkish import fold
from storage import Database, drafts, jobs, users
from storage.models import ChatUser, Draft, DraftStep, Job

__all__ = ["CLOCK_SKEW", "LIST_PAGE_SIZE", "Outbox", "reconcile"]

log = logging.getLogger(__name__)

# The upstream's clock and ours may disagree by this much about when a job was created.
CLOCK_SKEW = timedelta(minutes=2)
# The interface's largest page of the own-articles list.
LIST_PAGE_SIZE = 100
_CENT = Decimal("0.01")


class Outbox(Protocol):
    """How reconciling speaks to users (``Delivery`` is the one implementation)."""

    async def tell(self, user: ChatUser, chat: ChatAddress, say: Callable[[Texts], str]) -> None:
        """Post a short notice in the user's language."""

    async def session_ended(self, user: ChatUser, chat: ChatAddress) -> None:
        """Tell the user their upstream session ended and they must log in again."""

    async def announce(self, job: Job) -> None:
        """Post the progress message of a job."""


@dataclass(frozen=True, slots=True)
class _Settlement:
    """What became of one draft's titles: those with a job found, and those given up."""

    adopted: list[tuple[str, Article]]
    lost: list[str]


async def reconcile(
    *,
    db: Database,
    api: ArticleApi,
    accounts: Accounts,
    outbox: Outbox,
    clock: Clock,
    min_age: timedelta,
    grace: timedelta,
    skew: timedelta = CLOCK_SKEW,
) -> None:
    """Settle drafts submitted over ``min_age`` (the create call's timeout) ago without a job.

    Their upstream jobs are adopted; a title with none after ``grace`` is reported lost.
    """
    now = clock()
    waiting = await db.run(drafts.submitted_drafts_without_jobs)
    by_user: defaultdict[int, list[Draft]] = defaultdict(list)
    for draft in waiting:
        if draft.submitted_at is not None and now - draft.submitted_at >= min_age:
            by_user[draft.chat_user_id].append(draft)
    run = _Reconciliation(db, api, accounts, outbox, now=now, grace=grace, skew=skew)
    for user_id, due in by_user.items():
        await run.settle_user(user_id, due)


@dataclass(frozen=True, slots=True)
class _Reconciliation:
    """One reconciling round: its collaborators and its moment."""

    db: Database
    api: ArticleApi
    accounts: Accounts
    outbox: Outbox
    now: datetime
    grace: timedelta
    skew: timedelta

    async def settle_user(self, user_id: int, due: Sequence[Draft]) -> None:
        """Look for the jobs of one user's drafts in one list call, then settle each draft."""
        user = await self.db.run(lambda s: users.get_user(s, user_id=user_id))
        if user is None:
            return
        try:
            listed = await self.accounts.call(
                user_id, lambda token: self.api.articles(token, page_size=LIST_PAGE_SIZE)
            )
        except SessionExpired:
            await self.outbox.session_ended(user, _chat_of(user, due[0]))
            return
        except (NotLoggedIn, ArticleApiError) as err:
            # The drafts wait: the next round (or the next login) looks again.
            log.info("cannot reconcile the orders of chat user %s yet: %r", user_id, err)
            return
        for draft in due:
            await self.settle(user, draft, listed)

    async def settle(self, user: ChatUser, draft: Draft, listed: Sequence[Article]) -> None:
        """Adopt the draft's jobs once all appeared; after the grace period, report the rest."""
        assert draft.submitted_at is not None, "only submitted drafts are reconciled"
        titles = draft.titles or ([draft.title] if draft.title else [])
        tracked = await self.db.run(lambda s: _tracked(s, listed))
        candidates = [article for article in listed if article.request_id not in tracked]
        settlement = _match(titles, candidates, draft.submitted_at - self.skew)
        if settlement.lost and self.now - draft.submitted_at < self.grace:
            return
        adopted = await self.db.run(lambda s: _adopt(s, user, draft, settlement, self.now))
        chat = _chat_of(user, draft)
        if adopted:
            ids = ", ".join(job.request_id for job in adopted)
            log.info("draft %s adopted upstream job(s) %s", draft.id, ids)
            found = ", ".join(title for title, _ in settlement.adopted)
            await self.outbox.tell(user, chat, lambda t: t.order_adopted.format(title=found))
        if settlement.lost:
            log.warning("draft %s: no upstream job for %d title(s)", draft.id, len(settlement.lost))
            lost = ", ".join(settlement.lost)
            await self.outbox.tell(user, chat, lambda t: t.order_lost.format(title=lost))
        for job in adopted:
            await self.outbox.announce(job)


def _tracked(session: Session, listed: Sequence[Article]) -> set[str]:
    """The request ids of the list that already have a job row (another draft's, or ours)."""
    return {
        article.request_id
        for article in listed
        if jobs.job_by_request_id(session, request_id=article.request_id) is not None
    }


def _match(titles: Sequence[str], candidates: Sequence[Article], since: datetime) -> _Settlement:
    """Pair each title with the oldest untracked job of that title created since ``since``."""
    # The list is newest first; the oldest match is the one closest to the submission.
    pool = [article for article in reversed(candidates) if _created_since(article, since)]
    adopted: list[tuple[str, Article]] = []
    lost: list[str] = []
    for title in titles:
        found = next(
            (a for a in pool if a.title is not None and fold(a.title) == fold(title)), None
        )
        if found is None:
            lost.append(title)
        else:
            pool.remove(found)
            adopted.append((title, found))
    return _Settlement(adopted, lost)


def _created_since(article: Article, since: datetime) -> bool:
    # Without a creation time the job cannot be ruled out; delivering an old article of the
    # same title is better than telling the user to pay again for one that went through.
    return article.created_at is None or article.created_at >= since


def _adopt(
    session: Session, user: ChatUser, draft: Draft, settlement: _Settlement, now: datetime
) -> list[Job]:
    """Add a job for each adopted title and close the draft, in one transaction."""
    titles = len(settlement.adopted) + len(settlement.lost)
    # A bulk draft's cost is the total of its equally priced titles.
    cost = (draft.cost / titles).quantize(_CENT) if draft.cost is not None and titles else None
    rows = [
        jobs.add_job(
            session,
            job=Job(
                request_id=article.request_id,
                chat_user_id=draft.chat_user_id,
                draft_id=draft.id,
                platform=user.platform,
                chat_id=draft.chat_id,
                thread_id=draft.thread_id,
                title=title,
                tone=draft.tone or 0,
                size=draft.size or 0,
                cost=cost,
                next_poll_at=now,
                created_at=draft.submitted_at or now,
            ),
        )
        for title, article in settlement.adopted
    ]
    drafts.close_draft(
        session, draft_id=draft.id, step=DraftStep.DONE if rows else DraftStep.FAILED
    )
    return rows


def _chat_of(user: ChatUser, draft: Draft) -> ChatAddress:
    return ChatAddress(user.platform, draft.chat_id, draft.thread_id, user.external_id)
