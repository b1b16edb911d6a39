"""Articles offered through Telegram's inline mode, by the key their deep link carries."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from sqlmodel import Session, col, select

from storage.inserts import insert_if_absent
from storage.models import ArticleShare

__all__ = ["share_keys", "shared_article"]


def share_keys(
    session: Session, *, user_id: int, titles: Mapping[str, str], new_key: Callable[[], str]
) -> dict[str, str]:
    """The deep-link key of each of the user's articles (request id -> title), made once each.

    Asked again for the same article, the same key comes back, so a link posted earlier keeps
    working; two replicas making one at once keep the first.
    """
    for request_id, title in titles.items():
        row = ArticleShare(
            key=new_key(), chat_user_id=user_id, request_id=request_id, title=title[:255]
        )
        insert_if_absent(session, row, key=("chat_user_id", "request_id"))
    rows = session.exec(
        select(ArticleShare).where(
            ArticleShare.chat_user_id == user_id, col(ArticleShare.request_id).in_(list(titles))
        )
    )
    return {row.request_id: row.key for row in rows}


def shared_article(session: Session, *, key: str) -> ArticleShare | None:
    """The article a deep link names; None for a key never handed out."""
    return session.get(ArticleShare, key)
