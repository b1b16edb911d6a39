"""Clients' WordPress sites, their application passwords encrypted, and which articles a
plan sends there (each site's post is a delivery record, ``storage.deliveries``)."""

from __future__ import annotations

import logging
from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, delete, or_, update
from sqlmodel import Session, col, select

from storage.crypto import TokenCipher, UndecryptableToken
from storage.inserts import insert_if_absent
from storage.models import Client, ClientSite, DeliveryRecord, Job, Plan, PlanRun, PlanStatus

__all__ = [
    "SITE",
    "StoredSite",
    "forget_site",
    "open_planned_posts",
    "plan_of_post",
    "reencrypt_all",
    "save_site",
    "site_of_client",
    "sites_of_user",
    "with_site",
]

log = logging.getLogger(__name__)

# The delivery records' kind for a client's site; the record's target is the client's id.
SITE = "site"


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


def open_planned_posts(session: Session, *, now: datetime) -> None:
    """Give each finished article of a plan that publishes to its client's site a record for
    that site, due now; a record its paused plan left waiting is due again once it runs."""
    settled = select(DeliveryRecord.job_id).where(
        col(DeliveryRecord.kind) == SITE,
        or_(col(DeliveryRecord.done).is_(True), col(DeliveryRecord.next_try_at).is_not(None)),
    )
    waiting = session.exec(
        select(col(Job.id), col(Plan.client_id))
        .join(PlanRun, col(PlanRun.draft_id) == col(Job.draft_id))
        .join(Plan, col(Plan.id) == col(PlanRun.plan_id))
        .where(
            col(Plan.to_site).is_(True),
            col(Plan.status).in_((PlanStatus.ACTIVE, PlanStatus.DONE)),
            col(Plan.client_id).is_not(None),
            col(Job.content).is_not(None),
            col(Job.id).not_in(settled),
        )
    ).all()
    for job_id, client_id in waiting:
        assert job_id is not None
        row = DeliveryRecord(job_id=job_id, kind=SITE, target=str(client_id), next_try_at=now)
        if not insert_if_absent(session, row, key=("job_id", "kind", "target")):
            session.exec(
                update(DeliveryRecord)
                .where(
                    col(DeliveryRecord.job_id) == job_id,
                    col(DeliveryRecord.kind) == SITE,
                    col(DeliveryRecord.next_try_at).is_(None),
                )
                .values(next_try_at=now)
            )


def plan_of_post(session: Session, *, job_id: int) -> tuple[Plan, datetime] | None:
    """The plan a job's article was ordered by, with its run's time; None for an order."""
    row = session.exec(
        select(Plan, PlanRun.run_at)
        .join(PlanRun, col(PlanRun.plan_id) == col(Plan.id))
        .join(Job, col(Job.draft_id) == col(PlanRun.draft_id))
        .where(col(Job.id) == job_id)
    ).first()
    return None if row is None else (row[0], row[1])


def reencrypt_all(session: Session, *, cipher: TokenCipher) -> int:
    """Re-encrypt every site's application password under the first key; how many moved."""
    rows = session.exec(select(ClientSite).with_for_update()).all()
    return cipher.rotate_each(rows, "app_password", lambda row: f"client {row.client_id}")
