"""A finished article as the post to write on a client's site."""

from __future__ import annotations

from datetime import datetime

from bot.core.articles.article import title_slug
from bot.core.publishing.blocks import excerpt, gutenberg
from bot.core.publishing.site import PostDraft, PostStatus

__all__ = ["SLUG_LENGTH", "post_draft"]

# WordPress keeps 200 characters of a slug; a shorter cut leaves room for its "-2".
SLUG_LENGTH = 190


def post_draft(title: str, content: str, *, scheduled_at: datetime | None = None) -> PostDraft:
    """The article as a draft, or as a post scheduled for ``scheduled_at`` (UTC) when given."""
    status = PostStatus.DRAFT if scheduled_at is None else PostStatus.FUTURE
    return PostDraft(
        title=title,
        slug=title_slug(title, SLUG_LENGTH) or "makale",
        content=gutenberg(content),
        excerpt=excerpt(content),
        status=status,
        date_gmt=scheduled_at,
    )
