"""Upstream sessions: a chat user's tokens at one upstream URL, encrypted at rest."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Table, and_, bindparam, delete, inspect, or_, update
from sqlalchemy import select as core_select
from sqlmodel import Session, SQLModel, col, select

from storage.crypto import TokenCipher, UndecryptableToken
from storage.inserts import dialect_insert
from storage.models import ChatUser, UpstreamSession, utcnow
from storage.prepared import Prepared, Transaction, loaded

__all__ = [
    "AccessToken",
    "StoredSession",
    "Tokens",
    "claim_refresh",
    "delete_session",
    "load_session",
    "reencrypt_all",
    "release_refresh",
    "save_session",
    "swap_tokens",
    "user_with_access_token",
]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Tokens:
    """An access and a refresh token with their expiry times; ``repr`` leaves the tokens out."""

    access_token: str = field(repr=False)
    access_expires_at: datetime
    refresh_token: str = field(repr=False)
    refresh_expires_at: datetime


@dataclass(frozen=True)
class AccessToken:
    """A session's access token and when it expires: what an answer's upstream call needs,
    and no more (the refresh token stays encrypted until a refresh)."""

    token: str = field(repr=False)
    expires_at: datetime


@dataclass(frozen=True)
class StoredSession:
    """Decrypted tokens as stored, with the version a later swap must name."""

    user_id: int
    upstream_url: str
    tokens: Tokens
    version: int
    account: str | None = None

    @property
    def access(self) -> AccessToken:
        """Its access token and when that expires."""
        return AccessToken(self.tokens.access_token, self.tokens.access_expires_at)


def _encrypted(cipher: TokenCipher, tokens: Tokens) -> dict[str, Any]:
    return {
        "access_token": cipher.encrypt(tokens.access_token),
        "access_expires_at": tokens.access_expires_at,
        "refresh_token": cipher.encrypt(tokens.refresh_token),
        "refresh_expires_at": tokens.refresh_expires_at,
        "updated_at": utcnow(),
        # New tokens end any refresh under way.
        "refreshing_until": None,
    }


# Read with most updates: built once, its values bound at each use.
_SESSION_OF = select(UpstreamSession).where(
    col(UpstreamSession.chat_user_id) == bindparam("user_id"),
    col(UpstreamSession.upstream_url) == bindparam("upstream_url"),
)
_LOCKED_SESSION_OF = _SESSION_OF.with_for_update()


def _table(model: type[SQLModel]) -> Table:
    table = inspect(model).local_table
    assert isinstance(table, Table)
    return table


_USER_TABLE, _SESSION_TABLE = _table(ChatUser), _table(UpstreamSession)
_USERS, _SESSIONS = _USER_TABLE.c, _SESSION_TABLE.c
# Read with every update, past the ORM and SQLAlchemy's execution (each costs more than the
# statement): the chat user with their access token at an upstream, if they have one.
_USER_WITH_ACCESS_TOKEN = Prepared(
    core_select(*_USERS, _SESSIONS.access_token, _SESSIONS.access_expires_at)
    .select_from(
        _USER_TABLE.outerjoin(
            _SESSION_TABLE,
            and_(
                _SESSIONS.chat_user_id == _USERS.id,
                _SESSIONS.upstream_url == bindparam("upstream_url"),
            ),
        )
    )
    .where(
        _USERS.platform == bindparam("platform"),
        _USERS.workspace == bindparam("workspace"),
        _USERS.external_id == bindparam("external_id"),
    )
)


def _of(user_id: int, upstream_url: str) -> tuple[Any, ...]:
    return (
        col(UpstreamSession.chat_user_id) == user_id,
        col(UpstreamSession.upstream_url) == upstream_url,
    )


def _warn_undecryptable(user_id: int, upstream_url: str, outcome: str) -> None:
    logger.warning(
        "stored tokens of chat user %s at %s match no configured key; %s",
        user_id,
        upstream_url,
        outcome,
    )


def save_session(
    session: Session,
    *,
    cipher: TokenCipher,
    user_id: int,
    upstream_url: str,
    tokens: Tokens,
    account: str | None = None,
) -> StoredSession:
    """Store the tokens of a fresh login, replacing any earlier session at that URL.

    ``account`` names the account for the user (a masked e-mail); it is not a secret.
    """
    values = {**_encrypted(cipher, tokens), "account": account}
    version = col(UpstreamSession.version)
    statement = (
        dialect_insert(session, UpstreamSession)
        .values(chat_user_id=user_id, upstream_url=upstream_url, version=1, **values)
        .on_conflict_do_update(
            index_elements=["chat_user_id", "upstream_url"], set_={**values, "version": version + 1}
        )
        .returning(version)
    )
    stored_version: int = session.exec(statement).scalar_one()
    return StoredSession(user_id, upstream_url, tokens, stored_version, account)


def load_session(
    session: Session,
    *,
    cipher: TokenCipher,
    user_id: int,
    upstream_url: str,
    for_update: bool = False,
) -> StoredSession | None:
    """The user's tokens at that URL; ``None`` when there are none or no key decrypts them.

    ``for_update`` locks the row until the transaction ends (PostgreSQL; SQLite locks the
    whole database for a write transaction anyway).
    """
    query = _LOCKED_SESSION_OF if for_update else _SESSION_OF
    row = session.exec(query, params={"user_id": user_id, "upstream_url": upstream_url}).first()
    if row is None:
        return None
    try:
        tokens = Tokens(
            access_token=cipher.decrypt(row.access_token),
            access_expires_at=row.access_expires_at,
            refresh_token=cipher.decrypt(row.refresh_token),
            refresh_expires_at=row.refresh_expires_at,
        )
    except UndecryptableToken:
        _warn_undecryptable(user_id, upstream_url, "a new login is needed")
        return None
    return StoredSession(user_id, upstream_url, tokens, row.version, row.account)


def user_with_access_token(
    transaction: Transaction,
    *,
    cipher: TokenCipher,
    platform: str,
    workspace: str,
    external_id: str,
    upstream_url: str,
) -> tuple[ChatUser, AccessToken | None] | None:
    """The chat user with these ids and their access token at that URL (None when logged out
    or when no key decrypts it), in one statement; None when there is no such user yet."""
    params = {
        "platform": platform,
        "workspace": workspace,
        "external_id": external_id,
        "upstream_url": upstream_url,
    }
    row = _USER_WITH_ACCESS_TOKEN.first(transaction, params)
    if row is None:
        return None
    user = loaded(ChatUser, {column.key: getattr(row, column.key) for column in _USERS})
    assert user.id is not None
    if row.access_token is None:
        return user, None
    try:
        token = cipher.decrypt_remembered(row.access_token)
    except UndecryptableToken:
        _warn_undecryptable(user.id, upstream_url, "a new login is needed")
        return user, None
    return user, AccessToken(token, row.access_expires_at)


def swap_tokens(
    session: Session,
    *,
    cipher: TokenCipher,
    user_id: int,
    upstream_url: str,
    expected_version: int,
    tokens: Tokens,
) -> StoredSession | None:
    """Store refreshed tokens only if nobody did since ``expected_version``; else ``None``."""
    result = session.exec(
        update(UpstreamSession)
        .where(*_of(user_id, upstream_url), col(UpstreamSession.version) == expected_version)
        .values(version=expected_version + 1, **_encrypted(cipher, tokens))
    )
    if result.rowcount != 1:
        return None
    return StoredSession(user_id, upstream_url, tokens, expected_version + 1)


def claim_refresh(
    session: Session,
    *,
    user_id: int,
    upstream_url: str,
    version: int,
    now: datetime,
    until: datetime,
) -> bool:
    """Mark the session at ``version`` as being refreshed until ``until``; whether this call
    did. Nobody else may claim it meanwhile, unless the claim has run out (its claimer died)."""
    result = session.exec(
        update(UpstreamSession)
        .where(
            *_of(user_id, upstream_url),
            col(UpstreamSession.version) == version,
            or_(
                col(UpstreamSession.refreshing_until).is_(None),
                col(UpstreamSession.refreshing_until) <= now,
            ),
        )
        .values(refreshing_until=until)
    )
    return result.rowcount == 1


def release_refresh(session: Session, *, user_id: int, upstream_url: str, version: int) -> None:
    """End a refresh claimed on the session at ``version`` that stored no new tokens."""
    session.exec(
        update(UpstreamSession)
        .where(*_of(user_id, upstream_url), col(UpstreamSession.version) == version)
        .values(refreshing_until=None)
    )


def delete_session(
    session: Session, *, user_id: int, upstream_url: str, expected_version: int | None = None
) -> bool:
    """Forget the user's tokens at that URL; whether there were any.

    With ``expected_version``, only if nobody stored tokens since that version.
    """
    statement = delete(UpstreamSession).where(*_of(user_id, upstream_url))
    if expected_version is not None:
        statement = statement.where(col(UpstreamSession.version) == expected_version)
    result = session.exec(statement)
    return result.rowcount > 0


def reencrypt_all(session: Session, *, cipher: TokenCipher) -> int:
    """Re-encrypt every stored token under the cipher's first key; how many sessions moved.

    Sessions no configured key decrypts are left as they are, with a warning.
    """
    # Locked, so a refresh running meanwhile cannot be overwritten by its old tokens.
    rows = session.exec(select(UpstreamSession).with_for_update()).all()
    moved = 0
    for row in rows:
        try:
            access_token = cipher.rotate(row.access_token)
            refresh_token = cipher.rotate(row.refresh_token)
        except UndecryptableToken:
            _warn_undecryptable(row.chat_user_id, row.upstream_url, "left as they are")
            continue
        row.access_token, row.refresh_token = access_token, refresh_token
        moved += 1
    return moved
