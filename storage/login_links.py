"""One-time login links: issued for a chat user, claimed once by one conditional UPDATE."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, update
from sqlmodel import Session, col

from storage.models import LoginLink

__all__ = ["add_link", "claim_link", "find_link", "prune_links", "release_link"]


def add_link(
    session: Session, *, token_hash: str, user_id: int, chat_id: str, expires_at: datetime
) -> None:
    """Keep a new link of the user; their earlier links stop working, so one is open at a time."""
    session.exec(delete(LoginLink).where(col(LoginLink.chat_user_id) == user_id))
    session.add(
        LoginLink(
            token_hash=token_hash, chat_user_id=user_id, chat_id=chat_id, expires_at=expires_at
        )
    )


def find_link(session: Session, *, token_hash: str) -> LoginLink | None:
    """The link of this token hash; None for one never issued (or replaced, or pruned)."""
    return session.get(LoginLink, token_hash)


def claim_link(session: Session, *, token_hash: str, now: datetime) -> bool:
    """Take an unused, unexpired link for one login; False when it is used, expired or taken.

    One conditional UPDATE: of two logins through one link at once (two replicas, a form
    sent twice), one claims it.
    """
    result = session.exec(
        update(LoginLink)
        .where(
            col(LoginLink.token_hash) == token_hash,
            col(LoginLink.used_at).is_(None),
            col(LoginLink.expires_at) > now,
        )
        .values(used_at=now)
    )
    return bool(result.rowcount)


def release_link(session: Session, *, token_hash: str, claimed_at: datetime) -> None:
    """Open a claimed link again, its login refused; a link claimed since then is left as is."""
    session.exec(
        update(LoginLink)
        .where(col(LoginLink.token_hash) == token_hash, col(LoginLink.used_at) == claimed_at)
        .values(used_at=None)
    )


def prune_links(session: Session, *, before: datetime) -> int:
    """Forget links that expired before ``before``; how many were forgotten."""
    result = session.exec(delete(LoginLink).where(col(LoginLink.expires_at) < before))
    return result.rowcount
