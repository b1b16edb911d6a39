"""Plans of the content calendar and their runs; a run is claimed once before it orders."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta
from decimal import Decimal

from sqlalchemy import func, or_, update
from sqlmodel import Session, col, select

from storage.drafts import new_draft_id
from storage.inserts import insert_if_absent
from storage.models import (
    ChatUser,
    Draft,
    DraftKind,
    DraftStep,
    Plan,
    PlanRun,
    PlanStatus,
    RunStatus,
)

__all__ = [
    "LISTED",
    "claim_run",
    "count_plans",
    "due_plans",
    "finish_run",
    "get_plan",
    "link_run_draft",
    "pause_plans_of_client",
    "pause_plans_of_user",
    "plan_of_draft",
    "plans_of_user",
    "run_chat",
    "save_plan",
    "set_site_draft",
    "set_status",
    "set_target",
    "start_plan",
    "stop_run",
    "withdraw_run_draft",
]

# The plans /takvim lists.
LISTED = (PlanStatus.ACTIVE, PlanStatus.PAUSED)


def start_plan(session: Session, *, plan: Plan) -> Plan:
    """Store a plan being written; it is saved by ``save_plan``."""
    session.add(plan)
    session.flush()
    return plan


def get_plan(session: Session, *, plan_id: int) -> Plan | None:
    """The plan with this id, if any."""
    return session.get(Plan, plan_id, populate_existing=True)


def plan_of_draft(session: Session, *, draft_id: str) -> Plan | None:
    """The plan written in this draft, if it is still being written."""
    return session.exec(
        select(Plan).where(col(Plan.draft_id) == draft_id, col(Plan.status) == PlanStatus.MAKING)
    ).first()


def save_plan(session: Session, *, plan: Plan, draft: Draft, next_run_at: datetime) -> bool:
    """Save a plan from its draft's titles, tone and size; false when saved already (a double
    tap) or no longer the owner's to save."""
    result = session.exec(
        update(Plan)
        .where(
            col(Plan.id) == plan.id,
            col(Plan.chat_user_id) == draft.chat_user_id,
            col(Plan.status) == PlanStatus.MAKING,
        )
        .values(
            status=PlanStatus.ACTIVE,
            titles=list(draft.titles or []),
            title_choices=draft.title_choices,
            tone=draft.tone,
            size=draft.size,
            cost=draft.cost,
            client_id=draft.client_id,
            next_run_at=next_run_at,
        )
    )
    if result.rowcount != 1:
        return False
    session.exec(update(Draft).where(col(Draft.id) == draft.id).values(step=DraftStep.DONE))
    return True


def plans_of_user(session: Session, *, user_id: int) -> list[Plan]:
    """The user's active and paused plans, oldest first."""
    return list(
        session.exec(
            select(Plan)
            .where(col(Plan.chat_user_id) == user_id, col(Plan.status).in_(LISTED))
            .order_by(col(Plan.id))
        )
    )


def count_plans(session: Session, *, user_id: int) -> int:
    """How many active and paused plans the user has; the user's row is locked first, so two
    plans saved at once are counted one after the other."""
    session.get(ChatUser, user_id, with_for_update=True, populate_existing=True)
    return session.exec(
        select(func.count())
        .select_from(Plan)
        .where(col(Plan.chat_user_id) == user_id, col(Plan.status).in_(LISTED))
    ).one()


def set_status(
    session: Session,
    *,
    plan_id: int,
    user_id: int,
    status: PlanStatus,
    since: Collection[PlanStatus],
    reason: str | None = None,
    next_run_at: datetime | None = None,
) -> bool:
    """Move the user's plan to ``status`` if it is at one of ``since``; whether it moved."""
    values: dict[str, object] = {"status": status, "paused_reason": reason}
    if next_run_at is not None:
        values["next_run_at"] = next_run_at
    result = session.exec(
        update(Plan)
        .where(
            col(Plan.id) == plan_id,
            col(Plan.chat_user_id) == user_id,
            col(Plan.status).in_(since),
        )
        .values(**values)
    )
    return result.rowcount == 1


def due_plans(session: Session, *, now: datetime, limit: int) -> list[Plan]:
    """Active plans whose next run is due, at most ``limit``, taken round-robin by owner: each
    owner's most overdue first, then each one's second, and so on; so one owner's many plans
    due at once never keep another's out of a tick."""
    turn = (
        func.row_number()
        .over(partition_by=col(Plan.chat_user_id), order_by=(col(Plan.next_run_at), col(Plan.id)))
        .label("turn")
    )
    due = (
        select(col(Plan.id).label("plan_id"), turn)
        .where(col(Plan.status) == PlanStatus.ACTIVE, col(Plan.next_run_at) <= now)
        .subquery()
    )
    return list(
        session.exec(
            select(Plan)
            .join(due, col(Plan.id) == due.c.plan_id)
            .order_by(due.c.turn, col(Plan.next_run_at), col(Plan.id))
            .limit(limit)
        )
    )


def claim_run(
    session: Session, *, plan: Plan, owner: str, now: datetime, lease: timedelta
) -> PlanRun | None:
    """Claim the plan's due run for ``owner``: the run for the one claimer that got it, else None.

    A new run is claimed by inserting it; a claimed one whose lease ran out (its claimer died
    before it ordered) by one conditional UPDATE. Either way one statement, so of several
    replicas one wins.
    """
    assert plan.id is not None
    assert plan.next_run_at is not None
    current = session.get(Plan, plan.id, populate_existing=True)
    if current is None or current.status is not PlanStatus.ACTIVE:
        return None
    if current.next_run_at != plan.next_run_at:
        # Paused, deleted or moved on since it was found due.
        return None
    run = PlanRun(
        plan_id=plan.id,
        run_at=plan.next_run_at,
        owner=owner,
        lease_until=now + lease,
        created_at=now,
    )
    if not insert_if_absent(session, run, key=("plan_id", "run_at")):
        result = session.exec(
            update(PlanRun)
            .where(
                col(PlanRun.plan_id) == plan.id,
                col(PlanRun.run_at) == plan.next_run_at,
                col(PlanRun.status) == RunStatus.CLAIMED,
                or_(col(PlanRun.lease_until) < now, col(PlanRun.owner) == owner),
            )
            .values(owner=owner, lease_until=now + lease)
        )
        if result.rowcount != 1:
            return None
    return session.exec(
        select(PlanRun)
        .where(col(PlanRun.plan_id) == plan.id, col(PlanRun.run_at) == plan.next_run_at)
        .execution_options(populate_existing=True)
    ).one()


def link_run_draft(
    session: Session,
    *,
    run: PlanRun,
    user_id: int,
    titles: list[str],
    cost: Decimal,
    plan: Plan,
    owner_chat_id: str,
) -> Draft | None:
    """The order of a claimed run, ready to be submitted through the purchase path; None when
    the run is no longer this claimer's, or has its order already. An order for a channel keeps
    ``owner_chat_id``, where all but the article goes."""
    draft = Draft(
        id=new_draft_id(),
        chat_user_id=user_id,
        kind=DraftKind.BULK,
        step=DraftStep.READY,
        chat_id=run_chat(plan)[0],
        thread_id=run_chat(plan)[1],
        titles=titles,
        title_choices=_choices_of(plan, titles),
        tone=plan.tone,
        size=plan.size,
        cost=cost,
        client_id=plan.client_id,
        client_chosen=True,
        owner_chat_id=owner_chat_id if plan.target_chat_id else None,
    )
    session.add(draft)
    session.flush()
    result = session.exec(
        update(PlanRun)
        .where(
            col(PlanRun.id) == run.id,
            col(PlanRun.owner) == run.owner,
            col(PlanRun.draft_id).is_(None),
        )
        .values(draft_id=draft.id, titles=titles)
    )
    if result.rowcount != 1:
        session.delete(draft)
        return None
    return draft


def run_chat(plan: Plan) -> tuple[str, str | None]:
    """Where the plan's runs deliver: the chat (and thread) it was made in, or the channel or
    group picked for it."""
    if plan.target_chat_id in (None, plan.chat_id):
        return plan.chat_id, plan.thread_id
    return plan.target_chat_id, None


def _choices_of(plan: Plan, titles: list[str]) -> list[list[int | None]] | None:
    if not plan.title_choices:
        return None
    own = dict(zip(plan.titles, plan.title_choices, strict=False))
    return [own.get(title, [None, None]) for title in titles]


def finish_run(
    session: Session,
    *,
    run: PlanRun,
    status: RunStatus,
    next_title: int,
    next_run_at: datetime | None,
) -> bool:
    """End the run and move its plan on (to its next run, or done); once, however many claimers
    get here: the plan moves only from this run's time."""
    session.exec(update(PlanRun).where(col(PlanRun.id) == run.id).values(status=status))
    values: dict[str, object] = {"next_title": next_title, "next_run_at": next_run_at}
    if next_run_at is None:
        values["status"] = PlanStatus.DONE
    result = session.exec(
        update(Plan)
        .where(col(Plan.id) == run.plan_id, col(Plan.next_run_at) == run.run_at)
        .values(**values)
    )
    return result.rowcount == 1


def stop_run(session: Session, *, run: PlanRun, reason: str) -> bool:
    """End the run without an order and pause its plan with the reason; whether it paused it
    (false when another claimer settled the run first)."""
    session.exec(update(PlanRun).where(col(PlanRun.id) == run.id).values(status=RunStatus.STOPPED))
    result = session.exec(
        update(Plan)
        .where(
            col(Plan.id) == run.plan_id,
            col(Plan.next_run_at) == run.run_at,
            col(Plan.status) == PlanStatus.ACTIVE,
        )
        .values(status=PlanStatus.PAUSED, paused_reason=reason)
    )
    return result.rowcount == 1


def set_target(
    session: Session,
    *,
    plan_id: int,
    chat_id: str | None,
    title: str | None,
    to_site: bool = False,
) -> None:
    """Where the plan's articles go: a channel or group, or (None) the chat it was made in;
    and with ``to_site``, to its client's site too."""
    session.exec(
        update(Plan)
        .where(col(Plan.id) == plan_id, col(Plan.status) == PlanStatus.MAKING)
        .values(target_chat_id=chat_id, target_title=title, target_asked=True, to_site=to_site)
    )


def set_site_draft(session: Session, *, plan_id: int, draft: bool) -> None:
    """Whether the plan's articles go to its client's site as drafts, not scheduled posts."""
    session.exec(
        update(Plan)
        .where(col(Plan.id) == plan_id, col(Plan.status) == PlanStatus.MAKING)
        .values(site_draft=draft)
    )


def pause_plans_of_client(session: Session, *, user_id: int, client_id: int) -> int:
    """Pause the user's running plans for a client being removed; how many there were."""
    result = session.exec(
        update(Plan)
        .where(
            col(Plan.chat_user_id) == user_id,
            col(Plan.client_id) == client_id,
            col(Plan.status) == PlanStatus.ACTIVE,
        )
        .values(status=PlanStatus.PAUSED, paused_reason="client")
    )
    return result.rowcount


def pause_plans_of_user(session: Session, *, user_id: int, reason: str) -> list[Plan]:
    """Pause the user's running plans with the reason; the plans paused, oldest first."""
    running = list(
        session.exec(
            select(Plan)
            .where(col(Plan.chat_user_id) == user_id, col(Plan.status) == PlanStatus.ACTIVE)
            .order_by(col(Plan.id))
            .with_for_update()
        )
    )
    paused = []
    for plan in running:
        result = session.exec(
            update(Plan)
            .where(col(Plan.id) == plan.id, col(Plan.status) == PlanStatus.ACTIVE)
            .values(status=PlanStatus.PAUSED, paused_reason=reason)
        )
        if result.rowcount == 1:
            paused.append(plan)
    return paused


def withdraw_run_draft(session: Session, *, draft_id: str) -> bool:
    """Cancel a run's order that was never submitted (a run too late to make); false when it
    was submitted meanwhile, and is the purchase path's to follow."""
    result = session.exec(
        update(Draft)
        .where(col(Draft.id) == draft_id, col(Draft.step) == DraftStep.READY)
        .values(step=DraftStep.CANCELLED)
    )
    return result.rowcount == 1
