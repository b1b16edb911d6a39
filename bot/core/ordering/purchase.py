"""The purchase: the one place that charges.

A ready draft is submitted by one conditional move, READY -> SUBMITTED, so a double tap, a
replayed update or a second replica never charges twice. The submitted draft is then placed
upstream, one article or several, and each created job is recorded at once. ``buy`` does
both and answers once: placed (and how), or why not. A create that failed is settled by what
its failure means:

- nothing was charged (the service was not reached, or asked us to slow down): the draft
  goes back to READY and the same ``Onayla`` may be pressed again;
- the service refused it (a 4xx it explains): the draft is closed as failed; where a title
  refused a bulk order, each title goes alone instead, and only the refused are left out;
- it may have been charged (no answer, or one that cannot be read): the draft stays
  submitted, and reconciliation finds its jobs in the user's list, or reports it lost.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from decimal import Decimal
from functools import partial

from sqlmodel import Session

from bot.api import (
    ArticleApiError,
    CreatedJob,
    InsufficientBalance,
    OperationMissing,
    OutcomeUnknown,
    RateLimited,
    RequestRejected,
    TokenRejected,
    ValidationFailed,
)
from bot.core.errors import NotLoggedIn
from bot.core.ordering.durations import estimate_seconds
from bot.core.turn import Turn
from storage import drafts, jobs
from storage.models import Draft, Job
from storage.states import DraftKind, DraftStep

__all__ = ["Bought", "NotBought", "Placed", "Refusal", "buy"]

# What can go wrong while placing an order; each is settled by _settle_failure.
_Failure = ArticleApiError | NotLoggedIn
_FAILURES = (ArticleApiError, NotLoggedIn)


class Refusal(enum.Enum):
    """Why a confirmed draft was not submitted."""

    NOT_YOURS = "not yours"
    # Submitted before: a double tap, a replayed update, another replica.
    ALREADY_PLACED = "already placed"
    # Gone, cancelled, or not ready (a plan's draft is never paid).
    STALE = "stale"


@dataclass(frozen=True, slots=True)
class NotBought:
    """The draft was not submitted, so nothing was charged: why."""

    why: Refusal


@dataclass(frozen=True, slots=True)
class Placed:
    """How placing a submitted draft went: what to tell the user, whether ``Onayla`` may be
    pressed again (nothing was charged), whether the service refused it, and the jobs created."""

    draft: Draft
    text: str
    retry: bool = False
    refused: bool = False
    jobs: list[Job] = field(default_factory=list)

    @property
    def balance_left(self) -> Decimal | None:
        """The balance after the order by its summary's, at most; None when nothing was charged
        or the summary's balance is unknown."""
        seen = self.draft.balance_seen
        if not self.jobs or seen is None:
            return None
        return seen - (self.draft.cost or Decimal(0))


Bought = Placed | NotBought


async def buy(turn: Turn, draft_id: str) -> Bought:
    """Submit the user's ready draft exactly once and place it; else say why not."""
    now = turn.services.clock()
    user_id = turn.user_id
    draft, why = await turn.store(lambda s: _submit(s, draft_id, user_id, now))
    if draft is None:
        return NotBought(why)
    turn.services.operations.order_confirmed()
    return await _place(turn, draft)


def _submit(
    session: Session, draft_id: str, user_id: int, now: datetime
) -> tuple[Draft | None, Refusal]:
    """The draft moved to SUBMITTED; else None and why, read in the same transaction."""
    claimed = drafts.claim_for_submission(session, draft_id=draft_id, user_id=user_id, now=now)
    if claimed is not None:
        return claimed, Refusal.STALE
    found = drafts.get_draft(session, draft_id=draft_id)
    if found is not None and found.chat_user_id != user_id:
        return None, Refusal.NOT_YOURS
    if found is not None and found.step in (DraftStep.SUBMITTED, DraftStep.DONE):
        return None, Refusal.ALREADY_PLACED
    return None, Refusal.STALE


async def _place(turn: Turn, draft: Draft) -> Placed:
    """Order a submitted draft's article(s) upstream and record their jobs."""
    if draft.kind is DraftKind.BULK:
        return await _place_bulk(turn, draft)
    return await _place_single(turn, draft)


async def _place_single(turn: Turn, draft: Draft) -> Placed:
    api = turn.services.api
    title, tone, size = draft.title or "", draft.tone or 0, draft.size or 0
    try:
        created = await turn.upstream(partial(api.create, title=title, tone=tone, size=size))
    except _FAILURES as err:
        return await _settle_failure(turn, draft, err)
    recorded = await _record_jobs(turn, draft, [(title, created)])
    texts = turn.texts
    cost = texts.money(created.cost if created.cost is not None else draft.cost or Decimal(0))
    if created.estimated_time:
        text = texts.order_placed_estimate.format(
            title=title, estimate=texts.duration(created.estimated_time), cost=cost
        )
    else:
        text = texts.order_placed.format(title=title, cost=cost)
    return Placed(draft, text, jobs=recorded)


@dataclass(frozen=True, slots=True)
class _Outcome:
    """How a bulk order's titles went: those placed, the failure that stopped the rest, and
    those the service refused, each with its refusal."""

    placed: list[tuple[str, CreatedJob]]
    failure: _Failure | None = None
    refused: list[tuple[str, RequestRejected]] = field(default_factory=list)


async def _place_bulk(turn: Turn, draft: Draft) -> Placed:
    api = turn.services.api
    items = drafts.draft_items(draft)
    titles = [title for title, _, _ in items]
    try:
        created = await turn.upstream(lambda token: api.bulk_create(token, items))
    except _FAILURES as err:
        # The bulk path is a guess: without it, the same order goes out one article at a time.
        # Where one title refused the whole order (nothing charged), each goes alone too, so
        # only the refused are left out.
        refused_one = len(items) > 1 and isinstance(err, ValidationFailed)
        if isinstance(err, OperationMissing) or refused_one:
            return await _bulk_placed(turn, draft, await _place_one_by_one(turn, draft, items))
        return await _settle_failure(turn, draft, err)
    failure: _Failure | None = None
    if len(created) != len(titles):
        # The answer does not account for every title; the reconciler looks for the rest.
        failure = OutcomeUnknown(f"bulk create answered {len(created)} of {len(titles)} jobs")
    return await _bulk_placed(
        turn, draft, _Outcome(list(zip(titles, created, strict=False)), failure)
    )


async def _bulk_placed(turn: Turn, draft: Draft, outcome: _Outcome) -> Placed:
    """Record what a bulk order placed, settle the draft, and say how it went."""
    placed, failure = outcome.placed, outcome.failure
    if not placed and (failure or outcome.refused):
        settled = await _settle_failure(turn, draft, failure or outcome.refused[-1][1])
        return replace(settled, text=_with_refused(turn, settled.text, outcome))
    # Titles whose outcome is unknown keep the draft submitted, for the reconciler to find.
    settled_now = failure is None or not _ambiguous(failure)
    recorded = await _record_jobs(turn, draft, placed, settled=settled_now)
    total = sum((c.cost or Decimal(0) for _, c in placed), Decimal(0))
    if failure is None:
        # A plan's channel gets the articles; its owner, told here, is told where by the plan.
        template = turn.texts.bulk_placed_away if draft.owner_chat_id else turn.texts.bulk_placed
        text = template.format(count=len(placed), cost=turn.texts.money(total))
    else:
        text = turn.texts.bulk_partly_placed.format(
            count=len(placed),
            total=len(drafts.draft_titles(draft)) - len(outcome.refused),
            cost=turn.texts.money(total),
            reason=_reason(turn, failure),
        )
    return Placed(draft, _with_refused(turn, text, outcome), jobs=recorded)


def _with_refused(turn: Turn, text: str, outcome: _Outcome) -> str:
    """The text, and after it the titles the service refused, named with its reason."""
    if not outcome.refused:
        return text
    titles = ", ".join(title for title, _ in outcome.refused)
    err = outcome.refused[-1][1]
    reason = err.reason or str(err)
    return f"{text}\n{turn.texts.order_titles_refused.format(titles=titles, reason=reason)}"


async def _place_one_by_one(
    turn: Turn, draft: Draft, items: Sequence[tuple[str, int, int]]
) -> _Outcome:
    api = turn.services.api
    outcome = _Outcome([])
    for title, tone, size in items:
        try:
            created = await turn.upstream(partial(api.create, title=title, tone=tone, size=size))
        except ValidationFailed as err:
            # Refused, so not charged: left out of the draft before the next title is ordered,
            # so that reconciliation after a crash does not look for it.
            await turn.store(partial(drafts.drop_title, draft_id=draft.id, title=title))
            outcome.refused.append((title, err))
            continue
        except _FAILURES as err:
            return _Outcome(outcome.placed, err, outcome.refused)
        outcome.placed.append((title, created))
    return outcome


async def _record_jobs(
    turn: Turn, draft: Draft, placed: Sequence[tuple[str, CreatedJob]], *, settled: bool = True
) -> list[Job]:
    now = turn.services.clock()
    chat = turn.origin.chat

    def record(session: Session) -> list[Job]:
        rows = []
        for title, created in placed:
            wait = estimate_seconds(created.estimated_time)
            # The first poll is at the estimate; at once when it cannot be read.
            expected = now + timedelta(seconds=wait) if wait is not None else None
            job = jobs.draft_job(
                draft,
                platform=chat.platform,
                request_id=created.request_id,
                title=title,
                cost=created.cost,
                next_poll_at=expected or now,
                expected_at=expected,
                created_at=now,
            )
            rows.append(jobs.add_job(session, job=job))
        if settled:
            drafts.close_draft(session, draft_id=draft.id, step=DraftStep.DONE)
        return rows

    return await turn.store(record)


def _ambiguous(err: _Failure) -> bool:
    """Whether the failed call may still have been charged."""
    return isinstance(err, ArticleApiError) and err.may_have_charged


def _reason(turn: Turn, err: _Failure) -> str:
    texts = turn.texts
    if _ambiguous(err):
        return texts.order_outcome_unknown
    match err:
        case InsufficientBalance(required=required, current=current) if (
            required and current is not None
        ):
            return texts.order_insufficient.format(
                required=texts.money(required), current=texts.money(current)
            )
        case RequestRejected():
            return texts.order_rejected.format(reason=str(err))
        case RateLimited():
            return texts.service_busy
        case _:
            return texts.service_down


async def _settle_failure(turn: Turn, draft: Draft, err: _Failure) -> Placed:
    """Settle the draft after a failed create: being reconciled, refused, or free to retry."""
    texts = turn.texts
    if _ambiguous(err):
        # It may have been charged: the reconciler finds the job or reports the order lost.
        return Placed(draft, texts.order_outcome_unknown)
    if isinstance(err, RequestRejected) and not isinstance(err, TokenRejected):
        await turn.store(lambda s: drafts.close_draft(s, draft_id=draft.id, step=DraftStep.FAILED))
        return Placed(draft, _reason(turn, err), refused=True)
    # Nothing was charged: the same draft can be confirmed again.
    await turn.store(lambda s: drafts.release_submission(s, draft_id=draft.id))
    if isinstance(err, NotLoggedIn | TokenRejected):
        raise err
    message = texts.service_busy if isinstance(err, RateLimited) else texts.order_not_charged_retry
    return Placed(draft, message, retry=True)
