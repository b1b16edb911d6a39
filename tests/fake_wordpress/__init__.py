"""A fake WordPress site on loopback: the REST API's posts and users/me, XML-RPC's
wp.getUsersBlogs, and the ways real sites refuse, written from WordPress's REST handbook."""

from tests.fake_wordpress.server import FakeWordPress

__all__ = ["FakeWordPress"]
