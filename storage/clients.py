"""Clients: the names an agency orders for, their default tone and size, and removal."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import func, update
from sqlmodel import Session, col, select

from storage.inserts import insert_if_absent
from storage.models import ChatUser, Client

__all__ = [
    "ClientRefused",
    "add_client",
    "client_names",
    "clients_of_user",
    "get_client",
    "remove_client",
    "set_defaults",
]


def clients_of_user(session: Session, *, user_id: int) -> list[Client]:
    """The user's clients that are not removed, by name."""
    return list(
        session.exec(
            select(Client)
            .where(col(Client.chat_user_id) == user_id, col(Client.removed_at).is_(None))
            .order_by(col(Client.name_key), col(Client.id))
        )
    )


def get_client(session: Session, *, user_id: int, client_id: int) -> Client | None:
    """The user's client with this id, removed or not; None for another user's client."""
    client = session.get(Client, client_id)
    return client if client is not None and client.chat_user_id == user_id else None


def client_names(session: Session, *, user_id: int) -> dict[int, Client]:
    """Every client the user ever had, removed ones included, by id: to name past orders."""
    rows = session.exec(select(Client).where(col(Client.chat_user_id) == user_id))
    return {client.id: client for client in rows if client.id is not None}


class ClientRefused(enum.Enum):
    """Why a client was not added."""

    TAKEN = "taken"  # the user has a live client of this folded name
    FULL = "full"  # the user has as many live clients as they may


def add_client(
    session: Session, *, user_id: int, name: str, name_key: str, now: datetime, most: int
) -> Client | ClientRefused:
    """A new client, unless the name is taken or the user has ``most`` live clients already.

    The user's row is locked before the count (SQLite locks at BEGIN IMMEDIATE), so two adds
    at once never both take the last place; the insert is one statement against the unique
    index, so two replicas adding one name make one client.
    """
    session.exec(select(ChatUser.id).where(col(ChatUser.id) == user_id).with_for_update())
    live = col(Client.removed_at).is_(None)
    count = select(func.count()).where(col(Client.chat_user_id) == user_id, live)
    if session.exec(count).one() >= most:
        return ClientRefused.FULL
    row = Client(chat_user_id=user_id, name=name, name_key=name_key, created_at=now)
    if not insert_if_absent(session, row, key=("chat_user_id", "name_key"), where=live):
        return ClientRefused.TAKEN
    return session.exec(
        select(Client).where(
            col(Client.chat_user_id) == user_id,
            col(Client.name_key) == name_key,
            col(Client.removed_at).is_(None),
        )
    ).one()


def set_defaults(
    session: Session, *, user_id: int, client_id: int, tone: int | None, size: int | None
) -> bool:
    """Set a live client's default tone and size (None: none); whether the client was there."""
    result = session.exec(
        update(Client)
        .where(
            col(Client.id) == client_id,
            col(Client.chat_user_id) == user_id,
            col(Client.removed_at).is_(None),
        )
        .values(tone=tone, size=size)
    )
    return result.rowcount == 1


def remove_client(session: Session, *, user_id: int, client_id: int, now: datetime) -> bool:
    """Mark a live client removed; its orders keep it. Whether this call removed it."""
    result = session.exec(
        update(Client)
        .where(
            col(Client.id) == client_id,
            col(Client.chat_user_id) == user_id,
            col(Client.removed_at).is_(None),
        )
        .values(removed_at=now)
    )
    return result.rowcount == 1
