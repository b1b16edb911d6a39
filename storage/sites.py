"""Clients' WordPress sites, their application passwords encrypted, and the post each
article has there (with the claim of the one press writing it)."""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, delete, or_, update
from sqlmodel import Session, col, select

from storage.crypto import TokenCipher, UndecryptableToken
from storage.inserts import insert_if_absent
from storage.models import Client, ClientSite, Job, Plan, PlanRun, PlanStatus

__all__ = [
    "StoredSite",
    "claim_post",
    "due_planned_posts",
    "forget_site",
    "record_post",
    "reencrypt_all",
    "release_post",
    "save_site",
    "site_of_client",
    "sites_of_user",
    "with_site",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class StoredSite:
    """A client's site as stored; ``app_password`` decrypted only where it is asked for."""

    client_id: int
    url: str
    username: str
    name: str
    app_password: str


def _of_user(user_id: int) -> tuple[ColumnElement[bool], ...]:
    """A live client of the user: a removed client's site is not used."""
    return (
        col(ClientSite.client_id) == col(Client.id),
        col(Client.chat_user_id) == user_id,
        col(Client.removed_at).is_(None),
    )


def site_of_client(
    session: Session, *, cipher: TokenCipher, user_id: int, client_id: int
) -> StoredSite | None:
    """The user's live client's site, its password decrypted; None without one (or when no
    configured key decrypts it)."""
    row = session.exec(
        select(ClientSite)
        .join(Client)
        .where(col(ClientSite.client_id) == client_id, *_of_user(user_id))
    ).first()
    if row is None:
        return None
    try:
        password = cipher.decrypt(row.app_password)
    except UndecryptableToken:
        log.warning("no configured key decrypts the site password of client %s", client_id)
        return None
    return StoredSite(row.client_id, row.url, row.username, row.name, password)


def sites_of_user(session: Session, *, user_id: int) -> dict[int, tuple[str, str]]:
    """The name and address of each live client's site, by client id; no password read."""
    rows = session.exec(select(ClientSite).join(Client).where(*_of_user(user_id)))
    return {row.client_id: (row.name, row.url) for row in rows}


def with_site(session: Session, *, user_id: int, request_ids: Collection[str]) -> set[str]:
    """Which of the user's jobs (by upstream id) are for a live client with a site."""
    if not request_ids:
        return set()
    rows = session.exec(
        select(Job.request_id)
        .join(Client, col(Job.client_id) == col(Client.id))
        .join(ClientSite, col(ClientSite.client_id) == col(Client.id))
        .where(col(Job.chat_user_id) == user_id, col(Job.request_id).in_(list(request_ids)))
        .where(col(Client.removed_at).is_(None))
    )
    return set(rows)


def save_site(
    session: Session,
    *,
    cipher: TokenCipher,
    client_id: int,
    url: str,
    username: str,
    app_password: str,
    name: str,
    now: datetime,
) -> None:
    """Keep the client's site (replacing one it had), its password encrypted."""
    row = ClientSite(
        client_id=client_id,
        url=url,
        username=username,
        app_password=cipher.encrypt(app_password),
        name=name[:200],
        updated_at=now,
    )
    if not insert_if_absent(session, row, key=("client_id",)):
        fields = ("url", "username", "app_password", "name", "updated_at")
        session.exec(
            update(ClientSite)
            .where(col(ClientSite.client_id) == client_id)
            .values({field: getattr(row, field) for field in fields})
        )


def forget_site(session: Session, *, user_id: int, client_id: int) -> bool:
    """Remove the user's client's site, password and all; whether there was one."""
    owned = select(Client.id).where(
        col(Client.id) == client_id, col(Client.chat_user_id) == user_id
    )
    result = session.exec(delete(ClientSite).where(col(ClientSite.client_id).in_(owned)))
    return result.rowcount > 0


def claim_post(
    session: Session, *, job_id: int, user_id: int, now: datetime, until: datetime
) -> tuple[bool, int | None]:
    """Claim the writing of the user's job's post until ``until``: whether it was claimed (not
    while another press holds it), and the post already written for it (None for none)."""
    free = or_(col(Job.site_claim_until).is_(None), col(Job.site_claim_until) <= now)
    result = session.exec(
        update(Job)
        .where(col(Job.id) == job_id, col(Job.chat_user_id) == user_id, free)
        .values(site_claim_until=until)
    )
    if result.rowcount != 1:
        return False, None
    return True, session.exec(select(Job.site_post_id).where(col(Job.id) == job_id)).one()


def due_planned_posts(session: Session, *, now: datetime) -> list[tuple[Job, Plan, datetime]]:
    """The finished articles of plans that publish to their client's site, not yet posted
    there and not held by a claim: each with its plan and its run's time."""
    free = or_(col(Job.site_claim_until).is_(None), col(Job.site_claim_until) <= now)
    rows = session.exec(
        select(Job, Plan, PlanRun.run_at)
        .join(PlanRun, col(PlanRun.draft_id) == col(Job.draft_id))
        .join(Plan, col(Plan.id) == col(PlanRun.plan_id))
        .where(
            col(Plan.to_site).is_(True),
            col(Plan.status).in_((PlanStatus.ACTIVE, PlanStatus.DONE)),
            col(Job.content).is_not(None),
            col(Job.site_post_id).is_(None),
            free,
        )
        .order_by(col(Job.id))
    )
    return [(job, plan, run_at) for job, plan, run_at in rows]


def record_post(session: Session, *, job_id: int, post_id: int) -> None:
    """Keep the post written for a job, let the claim go, and forget the site's failures."""
    session.exec(
        update(Job)
        .where(col(Job.id) == job_id)
        .values(site_post_id=post_id, site_claim_until=None, site_failures=0)
    )


def put_off_post(session: Session, *, job_id: int, until: datetime) -> None:
    """Count one more failure of the site, and leave the post alone until ``until``."""
    session.exec(
        update(Job)
        .where(col(Job.id) == job_id)
        .values(site_claim_until=until, site_failures=col(Job.site_failures) + 1)
    )


def release_post(session: Session, *, job_id: int) -> None:
    """Let a claim go after a write that failed."""
    session.exec(update(Job).where(col(Job.id) == job_id).values(site_claim_until=None))


def reencrypt_all(session: Session, *, cipher: TokenCipher) -> int:
    """Re-encrypt every site's application password under the first key; how many moved."""
    rows = session.exec(select(ClientSite).with_for_update()).all()
    return cipher.rotate_each(rows, "app_password", lambda row: f"client {row.client_id}")
