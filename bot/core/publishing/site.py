"""A client's site as the core sees it: its credentials, a post to write, and the port."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

__all__ = [
    "PostDraft",
    "PostStatus",
    "PublishedPost",
    "SiteCredentials",
    "SitePublisher",
    "site_address",
]

# People paste the admin's address, or the login page's: the site is what comes before.
_ADMIN_TAIL = re.compile(r"/(wp-admin|wp-login\.php)\b.*$", re.IGNORECASE)
_ADDRESS = re.compile(r"^https?://[^\s/?#@]+(/[^\s?#]*)?$", re.IGNORECASE)


def site_address(text: str) -> str | None:
    """The site's address as typed, with ``https://`` where no scheme was given and without
    a trailing ``/`` or an admin page; None when it is no web address."""
    address = text.strip()
    if "://" not in address:
        address = f"https://{address}"
    address = _ADMIN_TAIL.sub("", address).rstrip("/")
    return address if _ADDRESS.match(address) else None


@dataclass(frozen=True, slots=True)
class SiteCredentials:
    """Where the site is and who writes there; the application password never shows in a repr."""

    url: str
    username: str
    app_password: str = field(repr=False)


class PostStatus(enum.StrEnum):
    """The states the bot writes a post in (WordPress's own words)."""

    DRAFT = "draft"
    FUTURE = "future"


@dataclass(frozen=True, slots=True)
class PostDraft:
    """A post to write: Gutenberg block markup, its slug always given (a draft gets none
    otherwise), and for a scheduled one its time in UTC (the site's zone may differ)."""

    title: str
    slug: str
    content: str
    excerpt: str
    status: PostStatus = PostStatus.DRAFT
    date_gmt: datetime | None = None


@dataclass(frozen=True, slots=True)
class PublishedPost:
    """A post as the site has it, read back after the write."""

    post_id: int
    link: str
    edit_link: str
    status: str


class SitePublisher(Protocol):
    """One kind of site (WordPress) behind the core; each call raises a ``SiteError``."""

    async def check(self, creds: SiteCredentials) -> str:
        """Log in as the user and return the site's name."""

    async def publish(
        self, creds: SiteCredentials, draft: PostDraft, known_post_id: int | None
    ) -> PublishedPost:
        """Write the post once: update ``known_post_id`` where it still exists, else the post
        of the same slug and title, else create it; then read it back."""
