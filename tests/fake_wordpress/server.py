"""The fake site served by uvicorn on a free port of 127.0.0.1, with the real fixture's API
(``base_url``, ``username``, ``app_password``, ``mode()``, ``new_app_password()``,
``revoke_app_passwords()``) so one test reads the same against either."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Iterator

import uvicorn

from tests.fake_wordpress.app import create_app
from tests.fake_wordpress.site import MODES, Site, User, new_app_password

__all__ = ["FakeWordPress"]

_START_TIMEOUT = 10.0


class FakeWordPress:
    """A WordPress site with one editor; read what it holds from ``site``."""

    def __init__(self, base_url: str, site: Site, editor: User) -> None:
        self.base_url = base_url
        self.site = site
        self._editor = editor

    @property
    def username(self) -> str:
        """The editor's login."""
        return self._editor.username

    @property
    def app_password(self) -> str:
        """The editor's newest application password, spaced as WordPress shows it."""
        return self._editor.app_passwords[-1]

    @contextlib.contextmanager
    def mode(self, name: str) -> Iterator[None]:
        """Behave like a site with that host or plugin until the block ends."""
        if name not in MODES:
            raise ValueError(f"no such mode: {name}")
        self.site.mode = name
        try:
            yield
        finally:
            self.site.mode = "normal"

    def new_app_password(self) -> str:
        """Another application password for the editor, as WordPress shows it once."""
        password = new_app_password()
        self._editor.app_passwords.append(password)
        return password

    def revoke_app_passwords(self) -> None:
        """Revoke every application password of the editor."""
        self._editor.app_passwords.clear()

    @classmethod
    @contextlib.asynccontextmanager
    async def running(cls) -> AsyncIterator[FakeWordPress]:
        """Serve a fresh site in this loop until the block ends."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        host, port = sock.getsockname()
        site = Site(home=f"http://{host}:{port}")
        released = asyncio.Event()
        config = uvicorn.Config(
            create_app(site, released),
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=1,
        )
        server = uvicorn.Server(config)
        task = asyncio.create_task(server.serve(sockets=[sock]))
        try:
            async with asyncio.timeout(_START_TIMEOUT):
                while not server.started:
                    if task.done():
                        task.result()
                    await asyncio.sleep(0.005)
            yield cls(site.home, site, site.add_user("editor"))
        finally:
            released.set()
            server.should_exit = True
            await task
            sock.close()
