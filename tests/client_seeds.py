"""Clients put straight into the bot's database, as another chat or replica would add them."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from sqlmodel import Session, col, select

from bot.core.clients.picker import MOST_CLIENTS, name_key
from storage import clients
from storage.models import ChatUser

__all__ = ["add_clients"]


def add_clients(session: Session, *, external_id: str, names: Iterable[str], now: datetime) -> None:
    """Add these clients to the chat user with this id (who has written to the bot)."""
    user = session.exec(select(ChatUser).where(col(ChatUser.external_id) == external_id)).one()
    assert user.id is not None
    for name in names:
        added = clients.add_client(
            session, user_id=user.id, name=name, name_key=name_key(name), now=now, most=MOST_CLIENTS
        )
        assert not isinstance(added, clients.ClientRefused), (name, added)
