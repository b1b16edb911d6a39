"""Publishing a finished article to a client's site: the port, its errors, the post."""

from bot.core.publishing.drafts import post_draft
from bot.core.publishing.site import (
    PostDraft,
    PostStatus,
    PublishedPost,
    SiteCredentials,
    SitePublisher,
)

__all__ = [
    "PostDraft",
    "PostStatus",
    "PublishedPost",
    "SiteCredentials",
    "SitePublisher",
    "post_draft",
]
