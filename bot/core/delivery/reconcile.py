"""Orders left submitted without all their jobs: adopt the jobs the upstream made, or report.

The process can die, or the create call time out, after the upstream accepted (and charged)
an order but before its ``Job`` row was written. Such a draft stays ``SUBMITTED``, with the
jobs of the titles that were recorded. Once the create call surely ended, the user's
own-articles list is searched for a job of each title still without one, created after the
draft was submitted; a match is adopted and delivered like any other job. The interface does
not promise the list names titles: without them, the jobs created while the order was being
sent are taken, one per title. When none appears within the grace period, the user is told
the order did not go through, or, when the list could not tell, that it is not confirmed.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session

from bot.api import NEWEST_ARTICLES, Article, ArticleApiError
from bot.core.accounts import Accounts
from bot.core.clock import Clock
from bot.core.delivery.outbox import Outbox
from bot.core.errors import NotLoggedIn, SessionExpired
from bot.core.operations.operations import Operations
from bot.core.texts import Texts
from bot.core.texts.money import to_kurus
from bot.core.texts.turkish import fold
from bot.core.upstream import Upstream
from storage import Database, drafts, jobs, users
from storage.models import ChatUser, Draft, Job
from storage.states import DraftStep

__all__ = ["CLOCK_SKEW", "Outbox", "reconcile"]

log = logging.getLogger(__name__)

# The upstream's clock and ours may disagree by this much about when a job was created.
CLOCK_SKEW = timedelta(minutes=2)


@dataclass(frozen=True, slots=True)
class _Settlement:
    """What became of one draft's titles without a job: those with a job found, the rest.

    ``decided`` says whether the list could tell the rest did not reach the upstream.
    """

    adopted: list[tuple[str, Article]]
    unmatched: list[str]
    decided: bool


async def reconcile(
    *,
    db: Database,
    api: Upstream,
    accounts: Accounts,
    outbox: Outbox,
    platforms: Collection[str],
    clock: Clock,
    min_age: timedelta,
    grace: timedelta,
    skew: timedelta = CLOCK_SKEW,
    operations: Operations | None = None,
) -> None:
    """Settle drafts submitted over ``min_age`` (the create call's timeout) ago without all jobs.

    Their upstream jobs are adopted; a title with none after ``grace`` is reported. Only the
    orders of ``platforms`` (those this process delivers for) are looked at.
    """
    now = clock()
    waiting = await db.run(drafts.unsettled_drafts)
    by_user: defaultdict[int, list[Draft]] = defaultdict(list)
    for draft in waiting:
        if draft.submitted_at is not None and now - draft.submitted_at >= min_age:
            by_user[draft.chat_user_id].append(draft)
    run = _Reconciliation(
        db,
        api,
        accounts,
        outbox,
        platforms,
        operations or Operations(clock=clock),
        now=now,
        min_age=min_age,
        grace=grace,
        skew=skew,
    )
    for user_id, due in by_user.items():
        await run.settle_user(user_id, due)


@dataclass(frozen=True, slots=True)
class _Reconciliation:
    """One reconciling round: its collaborators and its moment."""

    db: Database
    api: Upstream
    accounts: Accounts
    outbox: Outbox
    platforms: Collection[str]
    operations: Operations
    now: datetime
    min_age: timedelta
    grace: timedelta
    skew: timedelta

    async def settle_user(self, user_id: int, due: Sequence[Draft]) -> None:
        """Look for the jobs of one user's drafts in one list call, then settle each draft."""
        user = await self.db.run(lambda s: users.get_user(s, user_id=user_id))
        if user is None:
            return
        if user.platform not in self.platforms:
            # Another process delivers for that chat, or its messenger is not registered yet.
            log.info("orders of chat user %s wait for a %s deliverer", user_id, user.platform)
            return
        try:
            listed = await self.accounts.call(
                user_id, lambda token: self.api.articles(token, page_size=NEWEST_ARTICLES)
            )
        except SessionExpired:
            await self.outbox.session_ended(user, self.outbox.addresses.draft_chat(due[0], user))
            return
        except (NotLoggedIn, ArticleApiError) as err:
            # The drafts wait: the next round (or the next login) looks again.
            log.info("cannot reconcile the orders of chat user %s yet: %r", user_id, err)
            return
        for draft in due:
            await self.settle(user, draft, listed)

    async def settle(self, user: ChatUser, draft: Draft, listed: Sequence[Article]) -> None:
        """Adopt the jobs of the titles without one once all appeared; after the grace, report."""
        submitted_at = draft.submitted_at
        assert submitted_at is not None, "only submitted drafts are reconciled"

        def read(session: Session) -> tuple[list[Job], set[str]]:
            recorded = jobs.jobs_of_draft(session, draft_id=draft.id)
            return recorded, _tracked(session, listed)

        recorded, tracked = await self.db.run(read)
        missing = _without_job(drafts.draft_titles(draft), recorded)
        candidates = [article for article in listed if article.request_id not in tracked]
        # The create call runs from the submission for at most ``min_age``.
        window = (submitted_at - self.skew, submitted_at + self.min_age + self.skew)
        settlement = _match(missing, candidates, window)
        if settlement.unmatched and self.now - submitted_at < self.grace:
            return
        done = bool(recorded or settlement.adopted)
        adopted = await self.db.run(lambda s: _adopt(s, user, draft, settlement, self.now, done))
        chat = self.outbox.addresses.draft_chat(draft, user)
        if adopted:
            ids = ", ".join(job.request_id for job in adopted)
            log.info("draft %s adopted upstream job(s) %s", draft.id, ids)
            await self.operations.order_uncertain("adopted")
            found = ", ".join(title for title, _ in settlement.adopted)
            await self.outbox.tell(user, chat, lambda t: t.order_adopted.format(title=found))
        if settlement.unmatched:
            unmatched = ", ".join(settlement.unmatched)
            log.warning(
                "draft %s: no upstream job for %d title(s)%s",
                draft.id,
                len(settlement.unmatched),
                "" if settlement.decided else ", but the list could not tell",
            )
            await self.outbox.tell(
                user, chat, lambda t: _unmatched_text(t, settlement).format(title=unmatched)
            )
            await self.operations.order_uncertain("reported", f"draft {draft.id}")
        for job in adopted:
            await self.outbox.progress.announce(job)


def _unmatched_text(texts: Texts, settlement: _Settlement) -> str:
    # "Did not reach the service" only when the list had titles or times to tell by.
    return texts.order_lost if settlement.decided else texts.order_unconfirmed


def _tracked(session: Session, listed: Sequence[Article]) -> set[str]:
    """The request ids of the list that already have a job row (another draft's, or ours)."""
    return {
        article.request_id
        for article in listed
        if jobs.job_by_request_id(session, request_id=article.request_id) is not None
    }


def _without_job(titles: Sequence[str], recorded: Sequence[Job]) -> list[str]:
    """The titles left when each recorded job takes away one title of its name."""
    left = list(titles)
    for job in recorded:
        taken = next((title for title in left if fold(title) == fold(job.title)), None)
        if taken is not None:
            left.remove(taken)
    return left


def _match(
    titles: Sequence[str], candidates: Sequence[Article], window: tuple[datetime, datetime]
) -> _Settlement:
    """Pair titles with untracked jobs: by title, else (untitled) by creation in ``window``."""
    since, until = window
    # The list is newest first; the oldest match is the one closest to the submission.
    pool = list(reversed(candidates))
    adopted: list[tuple[str, Article]] = []
    unmatched: list[str] = []
    for title in titles:
        found = next(
            (
                a
                for a in pool
                if a.title is not None and fold(a.title) == fold(title) and _created_since(a, since)
            ),
            None,
        )
        if found is None:
            unmatched.append(title)
        else:
            pool.remove(found)
            adopted.append((title, found))
    # Without titles, the jobs created while the order was sent are this order's, in order.
    timed = [
        a
        for a in pool
        if a.title is None and a.created_at is not None and since <= a.created_at <= until
    ]
    paired = list(zip(unmatched, timed, strict=False))
    # An untitled, undated job may be any order, so a title without a job is not yet lost.
    decided = not any(a.title is None and a.created_at is None for a in pool)
    return _Settlement(adopted + paired, unmatched[len(paired) :], decided)


def _created_since(article: Article, since: datetime) -> bool:
    # Without a creation time the job cannot be ruled out; delivering an old article of the
    # same title is better than telling the user to pay again for one that went through.
    return article.created_at is None or article.created_at >= since


def _adopt(
    session: Session,
    user: ChatUser,
    draft: Draft,
    settlement: _Settlement,
    now: datetime,
    done: bool,
) -> list[Job]:
    """Add a job for each adopted title and close the draft (``DONE`` when it has jobs)."""
    titles = len(drafts.draft_titles(draft))
    # A bulk draft's cost is the total of its equally priced titles.
    cost = to_kurus(draft.cost / titles) if draft.cost is not None and titles else None
    rows = [
        jobs.add_job(
            session,
            job=jobs.draft_job(
                draft,
                platform=user.platform,
                request_id=article.request_id,
                title=title,
                cost=cost,
                next_poll_at=now,
                created_at=draft.submitted_at or now,
            ),
        )
        for title, article in settlement.adopted
    ]
    drafts.close_draft(
        session, draft_id=draft.id, step=DraftStep.DONE if done else DraftStep.FAILED
    )
    return rows
