"""Drafts: article orders in progress, and the once-only step that pays for one."""

from __future__ import annotations

import secrets
from datetime import datetime

from sqlalchemy import and_, delete, func, or_, update
from sqlmodel import Session, col, select

from storage.models import Draft, DraftKind, DraftStep, Job

__all__ = [
    "cancel_open_drafts",
    "claim_for_submission",
    "close_draft",
    "create_draft",
    "draft_items",
    "draft_titles",
    "drop_title",
    "get_draft",
    "new_draft_id",
    "open_draft",
    "prune_drafts",
    "release_submission",
    "save_draft",
    "unsettled_drafts",
]

OPEN_STEPS = (DraftStep.TITLE, DraftStep.CLIENT, DraftStep.TONE, DraftStep.SIZE, DraftStep.READY)
CLOSED_STEPS = (DraftStep.DONE, DraftStep.FAILED, DraftStep.CANCELLED)


def create_draft(
    session: Session, *, user_id: int, chat_id: str, thread_id: str | None, kind: DraftKind
) -> Draft:
    """A new draft waiting for its title; its short random id goes into its buttons."""
    draft = Draft(
        id=new_draft_id(),
        chat_user_id=user_id,
        chat_id=chat_id,
        thread_id=thread_id,
        kind=kind,
    )
    session.add(draft)
    session.flush()
    return draft


def new_draft_id() -> str:
    """A draft's short random id; it goes into its buttons."""
    return secrets.token_urlsafe(6)


def get_draft(session: Session, *, draft_id: str) -> Draft | None:
    """The draft with this id, if any."""
    return session.get(Draft, draft_id)


def open_draft(session: Session, *, user_id: int) -> Draft | None:
    """The user's newest draft that is not submitted or closed."""
    return session.exec(
        select(Draft)
        .where(col(Draft.chat_user_id) == user_id, col(Draft.step).in_(OPEN_STEPS))
        .order_by(col(Draft.created_at).desc())
        .limit(1)
    ).first()


def save_draft(session: Session, *, draft: Draft) -> Draft | None:
    """Store the changes of an open draft; None when it is gone, submitted or closed.

    Submitting and closing have their own conditional steps; a stale copy saved here must
    not move a submitted draft back to ``READY``, where it could be paid for again.
    """
    if draft.step not in OPEN_STEPS:
        raise ValueError(f"save_draft keeps drafts open; {draft.step} has its own function")
    stored = session.get(Draft, draft.id, with_for_update=True, populate_existing=True)
    if stored is None or stored.step not in OPEN_STEPS:
        return None
    return session.merge(draft)


def cancel_open_drafts(session: Session, *, user_id: int) -> int:
    """Cancel the user's drafts that are not submitted yet; how many there were."""
    result = session.exec(
        update(Draft)
        .where(col(Draft.chat_user_id) == user_id, col(Draft.step).in_(OPEN_STEPS))
        .values(step=DraftStep.CANCELLED)
    )
    return result.rowcount


def claim_for_submission(
    session: Session, *, draft_id: str, user_id: int, now: datetime
) -> Draft | None:
    """Move the user's ready draft to ``SUBMITTED``; the draft only for the one call that did.

    One conditional UPDATE, so a double tap, a replayed update, another replica or another
    user's press finds the draft no longer ready and gets ``None``: an order is paid once.
    """
    result = session.exec(
        update(Draft)
        .where(
            col(Draft.id) == draft_id,
            col(Draft.chat_user_id) == user_id,
            col(Draft.step) == DraftStep.READY,
            # A plan's draft is saved, never paid: its runs are orders of their own.
            col(Draft.kind) != DraftKind.PLAN,
        )
        .values(step=DraftStep.SUBMITTED, submitted_at=now)
    )
    if result.rowcount != 1:
        return None
    return session.get(Draft, draft_id, populate_existing=True)


def release_submission(session: Session, *, draft_id: str) -> None:
    """Make a submitted draft ready again, for when the create call surely was not sent."""
    session.exec(
        update(Draft)
        .where(col(Draft.id) == draft_id, col(Draft.step) == DraftStep.SUBMITTED)
        .values(step=DraftStep.READY, submitted_at=None)
    )


def close_draft(session: Session, *, draft_id: str, step: DraftStep) -> None:
    """End the draft as ``DONE``, ``FAILED`` or ``CANCELLED``."""
    if step not in CLOSED_STEPS:
        raise ValueError(f"{step} does not close a draft")
    session.exec(update(Draft).where(col(Draft.id) == draft_id).values(step=step))


def drop_title(session: Session, *, draft_id: str, title: str) -> None:
    """Leave a title the service refused out of a submitted draft, with its own choices, so
    that reconciliation does not look for a job of it."""
    draft = session.get(Draft, draft_id, with_for_update=True, populate_existing=True)
    if draft is None or draft.step is not DraftStep.SUBMITTED or title not in (draft.titles or []):
        return
    at = list(draft.titles or []).index(title)
    draft.titles = [t for index, t in enumerate(draft.titles or []) if index != at]
    if draft.title_choices:
        draft.title_choices = [c for index, c in enumerate(draft.title_choices) if index != at]
    session.add(draft)


def prune_drafts(session: Session, *, closed_before: datetime, idle_before: datetime) -> int:
    """Delete closed drafts made before ``closed_before`` and open ones left since
    ``idle_before``; never a submitted one, which reconciliation still reads."""
    result = session.exec(
        delete(Draft).where(
            or_(
                and_(col(Draft.step).in_(CLOSED_STEPS), col(Draft.created_at) < closed_before),
                and_(col(Draft.step).in_(OPEN_STEPS), col(Draft.created_at) < idle_before),
            )
        )
    )
    return result.rowcount


def draft_titles(draft: Draft) -> list[str]:
    """The titles the draft orders: a bulk draft's list, or a single draft's one title."""
    if draft.kind is not DraftKind.SINGLE:
        return list(draft.titles or [])
    return [draft.title or ""]


def draft_items(draft: Draft) -> list[tuple[str, int, int]]:
    """Each title the draft orders with its tone and size: a file row's own, else the draft's."""
    titles = draft_titles(draft)
    own = draft.title_choices or [[None, None]] * len(titles)
    return [
        (title, tone or draft.tone or 0, size or draft.size or 0)
        for title, (tone, size) in zip(titles, own, strict=True)
    ]


def unsettled_drafts(session: Session) -> list[Draft]:
    """Submitted drafts with fewer jobs than titles, oldest first: orders to reconcile."""
    job_count = (
        select(func.count(col(Job.id))).where(col(Job.draft_id) == col(Draft.id)).scalar_subquery()
    )
    rows = session.exec(
        select(Draft, job_count)
        .where(col(Draft.step) == DraftStep.SUBMITTED)
        .order_by(col(Draft.submitted_at))
    )
    # Few drafts are submitted at a time, and counting a JSON list differs per database.
    return [draft for draft, jobs in rows if jobs < len(draft_titles(draft))]
