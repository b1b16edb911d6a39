"""slack_sdk's installation store, on the bot's own database (handed in by bootstrap).

slack_sdk's SQLAlchemy stores keep tokens in plain text, bypass the migrations and need a
driver the lock does not have; these keep the bot token encrypted, in tables of ours.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Protocol

from slack_bolt.error import BoltError
from slack_sdk.oauth.installation_store import Bot, Installation
from slack_sdk.oauth.installation_store.async_installation_store import AsyncInstallationStore

__all__ = [
    "DbInstallationStore",
    "Installations",
    "InstalledTeam",
    "RemovedTeam",
    "token_lookup",
]

log = logging.getLogger(__name__)


class InstalledTeam(Protocol):
    """A workspace's installation as stored, its bot token decrypted."""

    @property
    def team_id(self) -> str: ...
    @property
    def bot_token(self) -> str: ...
    @property
    def enterprise_id(self) -> str: ...
    @property
    def app_id(self) -> str | None: ...
    @property
    def bot_id(self) -> str | None: ...
    @property
    def bot_user_id(self) -> str | None: ...
    @property
    def bot_scopes(self) -> str: ...
    @property
    def installer_user_id(self) -> str | None: ...
    @property
    def installed_at(self) -> datetime | None: ...


class RemovedTeam(Protocol):
    """What removing a workspace ended."""

    @property
    def installations(self) -> int: ...
    @property
    def expired_jobs(self) -> Sequence[tuple[int, str]]: ...
    @property
    def sessions(self) -> int: ...


class Installations(Protocol):
    """The rows behind both stores; every call reads or writes the database now."""

    async def save_team(
        self,
        *,
        team_id: str,
        bot_token: str,
        enterprise_id: str,
        app_id: str | None,
        bot_id: str | None,
        bot_user_id: str | None,
        bot_scopes: str,
        installer_user_id: str | None,
    ) -> None:
        """Store (or replace) the workspace's installation."""

    async def find(self, enterprise_id: str | None, team_id: str | None) -> InstalledTeam | None:
        """The workspace's installation, if any."""

    async def remove(self, enterprise_id: str | None, team_id: str) -> RemovedTeam:
        """Forget the workspace, ending what of its users needed it."""

    async def spend_state(self, state: str, expires_at: datetime) -> bool:
        """Record the install state as spent until ``expires_at``; whether it was not before."""

    async def state_spent(self, state: str) -> bool:
        """Whether the install state was spent."""


def _scopes(value: str | Sequence[str] | None) -> str:
    if value is None or isinstance(value, str):
        return value or ""
    return ",".join(value)


def _bot(team: InstalledTeam) -> Bot:
    return Bot(
        app_id=team.app_id,
        enterprise_id=team.enterprise_id or None,
        team_id=team.team_id,
        bot_token=team.bot_token,
        bot_id=team.bot_id or "",
        bot_user_id=team.bot_user_id or "",
        bot_scopes=team.bot_scopes,
        installed_at=team.installed_at or datetime.now().astimezone(),
    )


class DbInstallationStore(AsyncInstallationStore):
    """One installation per workspace (the bot's; no user tokens): a new one replaces it."""

    def __init__(self, installations: Installations) -> None:
        self._installations = installations

    @property
    def logger(self) -> logging.Logger:
        """The store's logger (slack_sdk asks for it)."""
        return log

    async def async_save(self, installation: Installation) -> None:
        """Store the bot of an install; a workspace's earlier token is replaced at once."""
        if not installation.team_id or not installation.bot_token:
            # Bolt answers its own error class with the failure page; nothing is stored.
            raise BoltError("an installation without a team or a bot token")
        await self._installations.save_team(
            team_id=installation.team_id,
            bot_token=installation.bot_token,
            enterprise_id=installation.enterprise_id or "",
            app_id=installation.app_id,
            bot_id=installation.bot_id,
            bot_user_id=installation.bot_user_id,
            bot_scopes=_scopes(installation.bot_scopes),
            installer_user_id=installation.user_id,
        )

    async def async_save_bot(self, bot: Bot) -> None:
        """Store a bot alone (Bolt's token rotation would; rotation is off)."""
        await self._installations.save_team(
            team_id=bot.team_id or "",
            bot_token=bot.bot_token,
            enterprise_id=bot.enterprise_id or "",
            app_id=bot.app_id,
            bot_id=bot.bot_id,
            bot_user_id=bot.bot_user_id,
            bot_scopes=_scopes(bot.bot_scopes),
            installer_user_id=None,
        )

    async def async_find_bot(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        is_enterprise_install: bool | None = False,
    ) -> Bot | None:
        """The workspace's bot, as stored now."""
        team = await self._installations.find(enterprise_id, team_id)
        return None if team is None else _bot(team)

    async def async_find_installation(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        user_id: str | None = None,
        is_enterprise_install: bool | None = False,
    ) -> Installation | None:
        """The workspace's installation (its bot; the bot asks for no user token)."""
        team = await self._installations.find(enterprise_id, team_id)
        if team is None:
            return None
        bot = _bot(team)
        return Installation(
            app_id=bot.app_id,
            enterprise_id=bot.enterprise_id,
            team_id=bot.team_id,
            bot_token=bot.bot_token,
            bot_id=bot.bot_id,
            bot_user_id=bot.bot_user_id,
            bot_scopes=bot.bot_scopes,
            user_id=team.installer_user_id or "",
            installed_at=bot.installed_at,
        )

    async def async_delete_bot(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        """Forget the workspace (see ``Installations.remove``)."""
        if team_id:
            await self._installations.remove(enterprise_id, team_id)

    async def async_delete_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> None:
        """Forget the workspace; a user alone holds nothing here (no user tokens)."""
        if user_id is None and team_id:
            await self._installations.remove(enterprise_id, team_id)


def token_lookup(installations: Installations) -> Callable[[str], Awaitable[str | None]]:
    """A workspace's bot token as stored now, for each call that needs it."""

    async def token_of(team_id: str) -> str | None:
        team = await installations.find(None, team_id) if team_id else None
        return None if team is None else team.bot_token

    return token_of
