"""The channels and groups each user added the bot to: where their plans may post."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import delete, update
from sqlmodel import Session, col, select

from storage.inserts import insert_if_absent
from storage.models import ChatTarget

__all__ = ["drop_chat", "get_target", "record_target", "targets_of_user"]


def record_target(
    session: Session, *, user_id: int, platform: str, chat_id: str, title: str, now: datetime
) -> None:
    """Keep the chat as one of the user's targets, under its current title."""
    row = ChatTarget(
        chat_user_id=user_id, platform=platform, chat_id=chat_id, title=title, created_at=now
    )
    if not insert_if_absent(session, row, key=("chat_user_id", "platform", "chat_id")):
        session.exec(
            update(ChatTarget)
            .where(
                col(ChatTarget.chat_user_id) == user_id,
                col(ChatTarget.platform) == platform,
                col(ChatTarget.chat_id) == chat_id,
            )
            .values(title=title)
        )


def drop_chat(session: Session, *, platform: str, chat_id: str) -> None:
    """Forget a chat the bot was removed from, for every user."""
    session.exec(
        delete(ChatTarget).where(
            col(ChatTarget.platform) == platform, col(ChatTarget.chat_id) == chat_id
        )
    )


def targets_of_user(session: Session, *, user_id: int, platform: str) -> list[ChatTarget]:
    """The user's channels and groups on a platform, by title."""
    return list(
        session.exec(
            select(ChatTarget)
            .where(col(ChatTarget.chat_user_id) == user_id, col(ChatTarget.platform) == platform)
            .order_by(col(ChatTarget.title))
        )
    )


def get_target(session: Session, *, target_id: int) -> ChatTarget | None:
    """The target with this id, if any."""
    return session.get(ChatTarget, target_id)
