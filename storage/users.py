"""Chat users: who they are, their language, and what the bot waits for them to type."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam, or_, update
from sqlmodel import Session, col, select

from storage.inserts import insert_if_absent
from storage.models import Awaiting, ChatUser
from storage.prepared import Prepared, Transaction

__all__ = [
    "forget_awaited_passwords",
    "get_or_create_user",
    "get_user",
    "set_awaiting",
    "set_locale",
]


# Read with every update: built once, its values bound at each use.
_BY_IDS = select(ChatUser).where(
    col(ChatUser.platform) == bindparam("platform"),
    col(ChatUser.workspace) == bindparam("workspace"),
    col(ChatUser.external_id) == bindparam("external_id"),
)


def get_or_create_user(
    session: Session, *, platform: str, workspace: str, external_id: str
) -> ChatUser:
    """The user with these ids, created if new; two replicas racing get one row."""
    ids = {"platform": platform, "workspace": workspace, "external_id": external_id}
    user = session.exec(_BY_IDS, params=ids).first()
    if user is None:
        new = ChatUser(platform=platform, workspace=workspace, external_id=external_id)
        insert_if_absent(session, new, key=("platform", "workspace", "external_id"))
        user = session.exec(_BY_IDS, params=ids).one()
    return user


def get_user(session: Session, *, user_id: int) -> ChatUser | None:
    """The user with this id, if any."""
    return session.get(ChatUser, user_id)


def set_awaiting(
    session: Session,
    *,
    user_id: int,
    awaiting: Awaiting | None,
    context: str | None = None,
    at: datetime | None = None,
) -> None:
    """Remember what the user's next message answers (``None``: nothing), its context, and
    when that was asked."""
    session.exec(
        update(ChatUser)
        .where(col(ChatUser.id) == user_id)
        .values(awaiting=awaiting, awaiting_context=context, awaiting_since=at)
    )


def forget_awaited_passwords(session: Session, *, before: datetime) -> int:
    """Stop awaiting passwords asked for before ``before``, and erase the e-mail kept for
    them; how many were forgotten."""
    result = session.exec(
        update(ChatUser)
        .where(
            col(ChatUser.awaiting) == Awaiting.PASSWORD,
            or_(col(ChatUser.awaiting_since).is_(None), col(ChatUser.awaiting_since) < before),
        )
        .values(awaiting=None, awaiting_context=None, awaiting_since=None)
    )
    return result.rowcount


# Written with a user's first update: compiled once, and run past the ORM's bookkeeping.
_SET_LOCALE = Prepared(
    update(ChatUser)
    .where(col(ChatUser.id) == bindparam("user_id"))
    .values(locale=bindparam("chosen"))
)


def set_locale(transaction: Transaction, *, user_id: int, locale: str) -> None:
    """Store the language the user chose (rows of the user loaded before keep theirs)."""
    _SET_LOCALE.execute(transaction, {"user_id": user_id, "chosen": locale})
