"""The login page behind the one-time links (``bot.core.login_links``), on the one HTTP app.

- ``render``: the page as plain HTML for a phone's browser, with no JavaScript;
- ``routes``: ``GET`` and ``POST`` of ``/giris/<token>``, the CSRF cookie, the headers.
"""

from bot.login_page.routes import login_routes

__all__ = ["login_routes"]
