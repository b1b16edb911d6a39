"""What the fake site holds: its users with their application passwords, its posts, and the
switches that make it behave like the sites people meet."""

from __future__ import annotations

import itertools
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

__all__ = ["MODES", "Post", "Site", "User", "new_app_password"]

# The real fixture's modes, plus the ones only a fake can show cheaply.
MODES = frozenset(
    {
        "normal",
        "strip_authorization",  # the host drops the Authorization header (Apache CGI)
        "block_rest",  # a security plugin answers 401 rest_authentication_error
        "firewall",  # a firewall's HTML 403 page in front of /wp-json/
        "no_app_passwords",  # application passwords switched off (Wordfence's default)
        "plain_links",  # no /wp-json/: only ?rest_route=
        "early_user_check",  # a plugin reads the user early: invalid_username, incorrect_password
        "https_only",  # every http:// request sent to https:// (301)
    }
)


_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


@dataclass
class User:
    """A user of the site and the application passwords it was given."""

    id: int
    username: str
    role: str
    app_passwords: list[str] = field(default_factory=list)

    def takes(self, password: str) -> bool:
        """WordPress compares application passwords without their spaces."""
        given = "".join(password.split())
        return any(
            secrets.compare_digest(given, "".join(known.split())) for known in self.app_passwords
        )


@dataclass
class Post:
    """A post as ``wp_posts`` holds it."""

    id: int
    author: int
    title: str
    content: str
    excerpt: str
    slug: str
    status: str
    date_gmt: datetime

    def as_json(self, home: str) -> dict[str, Any]:
        """The post in the ``edit`` context, as ``/wp/v2/posts/<id>`` shows it."""
        return {
            "id": self.id,
            "date_gmt": self.date_gmt.strftime("%Y-%m-%dT%H:%M:%S"),
            "slug": self.slug,
            "status": self.status,
            "type": "post",
            "link": f"{home}/?p={self.id}",
            "author": self.author,
            "title": {"raw": self.title, "rendered": self.title},
            "content": {"raw": self.content, "rendered": self.content, "block_version": 1},
            "excerpt": {"raw": self.excerpt, "rendered": f"<p>{self.excerpt}</p>\n"},
        }


@dataclass
class Site:
    """The site's state: users, posts, the current mode and what it was asked."""

    name: str = "Örnek Blog"
    home: str = ""
    users: dict[str, User] = field(default_factory=dict)
    posts: dict[int, Post] = field(default_factory=dict)
    mode: str = "normal"
    # XML-RPC switched off (a plugin, or the host), whatever the mode.
    xmlrpc_off: bool = False
    # Statuses the next requests get from a proxy before they reach WordPress.
    faults: list[int] = field(default_factory=list)
    # How many of the next writes are made but never answered (the client times out).
    lost_answers: int = 0
    writes_in_flight: int = 0
    most_writes_at_once: int = 0
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def add_user(self, username: str, role: str = "editor") -> User:
        """A user with one application password."""
        user = User(next(self._ids), username, role, [new_app_password()])
        self.users[username] = user
        return user

    def new_post(self, author: int) -> Post:
        """An empty draft, as ``wp_insert_post`` starts one."""
        post = Post(next(self._ids), author, "", "", "", "", "draft", self.now())
        self.posts[post.id] = post
        return post

    def now(self) -> datetime:
        """The site's clock, in UTC."""
        return datetime.now(UTC)


def new_app_password() -> str:
    """24 letters and digits in groups of four, as WordPress shows a new one."""
    raw = "".join(secrets.choice(_LETTERS) for _ in range(24))
    return " ".join(raw[i : i + 4] for i in range(0, 24, 4))
