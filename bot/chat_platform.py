"""What each chat platform's package offers the process, and what the process hands it.

Bootstrap keeps the table of them (``bot.bootstrap.CHAT_PLATFORMS``) and loops over it: the
core learns each platform's rules from it, and ``serve_chats`` starts the ones asked for.
"""

from __future__ import annotations

import asyncio
from collections.abc import MutableMapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Protocol

from starlette.routing import BaseRoute

from bot.config import Settings
from bot.core.clock import Clock
from bot.core.platforms import ChatRules
from bot.core.ports import Messenger
from bot.core.routing.conversations import Conversations
from storage import Database, TokenCipher

__all__ = ["ChatHost", "ChatPlatform", "RunningChat"]


@dataclass(frozen=True, slots=True)
class ChatHost:
    """What a platform is handed to start: the settings, the core, where to register its
    messenger, and the process's stop (which a chat may set itself: the terminal's user
    leaving)."""

    settings: Settings
    conversations: Conversations
    messengers: MutableMapping[str, Messenger]
    clock: Clock
    stop: asyncio.Event
    # What a platform's own stored state is kept with (Slack's workspaces), through storage.
    db: Database
    cipher: TokenCipher


class RunningChat(Protocol):
    """A started platform: the HTTP routes it needs served, and how it starts taking updates."""

    @property
    def routes(self) -> Sequence[BaseRoute]:
        """The routes the shared HTTP app serves for it (a webhook, Slack's events)."""

    async def connected(self) -> bool:
        """Whether updates come in, for ``/health``."""

    async def go_live(self) -> None:
        """Start taking updates, once its routes are served."""


class ChatPlatform(Protocol):
    """One chat platform as the process runs it; each adapter package has one."""

    @property
    def name(self) -> str:
        """Its name: the sub-command that runs it, and what its users and jobs store."""

    @property
    def summary(self) -> str:
        """What it is, for the command line's help."""

    @property
    def service(self) -> bool:
        """Whether it runs as a service (``/health``, the start told to the operator), not in
        someone's terminal."""

    def rules(self, settings: Settings) -> ChatRules:
        """What the core decides by it (allow lists, threads, the admin chat), as set up."""

    def configured(self, settings: Settings) -> bool:
        """Whether the settings set it up, so that ``run`` starts it."""

    def require(self, settings: Settings) -> None:
        """Fail naming what it still needs to start."""

    def running(self, host: ChatHost) -> AbstractAsyncContextManager[RunningChat]:
        """Start it for the block, its messenger registered; stop it after."""
