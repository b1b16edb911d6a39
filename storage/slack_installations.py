"""Slack workspaces that added the app, and the install states already spent.

A workspace's bot token is encrypted like the upstream tokens. Removing a workspace ends,
in the same transaction, everything of its users that would need the token or a user.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import ColumnElement, delete, update
from sqlmodel import Session, col, select

from storage.crypto import TokenCipher, UndecryptableToken
from storage.database import Database
from storage.inserts import insert_if_absent
from storage.models import (
    ChatUser,
    Job,
    JobStatus,
    SlackInstallation,
    SlackOAuthState,
    UpstreamSession,
)

__all__ = [
    "InstalledTeam",
    "RemovedTeam",
    "SlackInstallations",
    "find_installation",
    "reencrypt_all",
    "remove_team",
    "save_installation",
    "spend_state",
    "state_spent",
]

log = logging.getLogger(__name__)

# The chat platform whose users belong to a workspace (``ChatUser.workspace``).
_PLATFORM = "slack"
_UNFINISHED = (JobStatus.PENDING, JobStatus.FINISHED)


@dataclass(frozen=True)
class InstalledTeam:
    """One workspace's installation, its bot token decrypted; ``repr`` leaves the token out."""

    team_id: str
    bot_token: str = field(repr=False)
    enterprise_id: str = ""
    app_id: str | None = None
    bot_id: str | None = None
    bot_user_id: str | None = None
    bot_scopes: str = ""
    installer_user_id: str | None = None
    installed_at: datetime | None = None


@dataclass(frozen=True)
class RemovedTeam:
    """What removing a workspace ended: its jobs (id, request id) and its users' sessions."""

    installations: int
    expired_jobs: list[tuple[int, str]]
    sessions: int


def _of(enterprise_id: str | None, team_id: str) -> tuple[ColumnElement[bool], ...]:
    return (
        col(SlackInstallation.enterprise_id) == (enterprise_id or ""),
        col(SlackInstallation.team_id) == team_id,
    )


def save_installation(session: Session, *, cipher: TokenCipher, team: InstalledTeam) -> None:
    """Store the workspace's installation; a later install replaces the earlier one whole."""
    row = session.exec(
        select(SlackInstallation).where(*_of(team.enterprise_id, team.team_id)).with_for_update()
    ).first() or SlackInstallation(
        enterprise_id=team.enterprise_id or "", team_id=team.team_id, bot_token=b""
    )
    row.app_id, row.bot_id, row.bot_user_id = team.app_id, team.bot_id, team.bot_user_id
    row.bot_scopes, row.installer_user_id = team.bot_scopes, team.installer_user_id
    row.bot_token = cipher.encrypt(team.bot_token)
    if team.installed_at is not None:
        row.installed_at = team.installed_at
    session.add(row)


def find_installation(
    session: Session, *, cipher: TokenCipher, enterprise_id: str | None, team_id: str | None
) -> InstalledTeam | None:
    """The workspace's installation, or None (not installed, or no key decrypts its token).

    Without a team id, the enterprise's latest one; without an enterprise id, the team's own
    (a team id is unique across Slack, and org-wide installs are off).
    """
    statement = select(SlackInstallation)
    if team_id:
        statement = statement.where(col(SlackInstallation.team_id) == team_id)
        if enterprise_id:
            statement = statement.where(col(SlackInstallation.enterprise_id) == enterprise_id)
    elif enterprise_id:
        statement = statement.where(col(SlackInstallation.enterprise_id) == enterprise_id)
    else:
        return None
    row = session.exec(statement.order_by(col(SlackInstallation.installed_at).desc())).first()
    if row is None:
        return None
    try:
        token = cipher.decrypt(row.bot_token)
    except UndecryptableToken:
        log.warning("no configured key decrypts the bot token of Slack team %s", row.team_id)
        return None
    return InstalledTeam(
        team_id=row.team_id,
        bot_token=token,
        enterprise_id=row.enterprise_id,
        app_id=row.app_id,
        bot_id=row.bot_id,
        bot_user_id=row.bot_user_id,
        bot_scopes=row.bot_scopes,
        installer_user_id=row.installer_user_id,
        installed_at=row.installed_at,
    )


def remove_team(
    session: Session, *, enterprise_id: str | None, team_id: str, now: datetime
) -> RemovedTeam:
    """Forget the workspace: its installation, its users' upstream sessions; expire its jobs.

    The jobs' leases end too, so a sender under way cannot record another part.
    """
    # An event of a workspace in a grid may leave the enterprise out; the team decides.
    removing = delete(SlackInstallation).where(col(SlackInstallation.team_id) == team_id)
    if enterprise_id:
        removing = removing.where(col(SlackInstallation.enterprise_id) == enterprise_id)
    removed = session.exec(removing)
    users = select(ChatUser.id).where(
        col(ChatUser.platform) == _PLATFORM, col(ChatUser.workspace) == team_id
    )
    jobs = session.exec(
        select(Job.id, Job.request_id).where(
            col(Job.chat_user_id).in_(users), col(Job.status).in_(_UNFINISHED)
        )
    ).all()
    ids = [job_id for job_id, _ in jobs if job_id is not None]
    if ids:
        session.exec(
            update(Job)
            .where(col(Job.id).in_(ids))
            .values(status=JobStatus.EXPIRED, finished_at=now, lease_owner=None, lease_until=None)
        )
    sessions = session.exec(
        delete(UpstreamSession).where(col(UpstreamSession.chat_user_id).in_(users))
    )
    return RemovedTeam(
        installations=removed.rowcount,
        expired_jobs=[(job_id, request_id) for job_id, request_id in jobs if job_id is not None],
        sessions=sessions.rowcount,
    )


def reencrypt_all(session: Session, *, cipher: TokenCipher) -> int:
    """Re-encrypt every bot token under the cipher's first key; how many moved."""
    rows = session.exec(select(SlackInstallation).with_for_update()).all()
    return cipher.rotate_each(rows, "bot_token", lambda row: f"Slack team {row.team_id}")


def spend_state(session: Session, *, state: str, expires_at: datetime, now: datetime) -> bool:
    """Record an install state as spent until it expires; whether it was not spent before (on
    any replica). States expired by now are dropped: they are refused for their age anyway."""
    session.exec(delete(SlackOAuthState).where(col(SlackOAuthState.expires_at) <= now))
    spent = SlackOAuthState(state=state, expires_at=expires_at)
    return insert_if_absent(session, spent, key=("state",))


def state_spent(session: Session, *, state: str) -> bool:
    """Whether an install with this state was stored already."""
    found = session.exec(select(SlackOAuthState.state).where(col(SlackOAuthState.state) == state))
    return found.first() is not None


class SlackInstallations:
    """The functions above as awaitable calls on one database, for the Slack adapter's stores."""

    def __init__(self, db: Database, cipher: TokenCipher, clock: Callable[[], datetime]) -> None:
        self._db = db
        self._cipher = cipher
        self._clock = clock

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
        """Store (or replace) the workspace's installation, installed now."""
        team = InstalledTeam(
            team_id=team_id,
            bot_token=bot_token,
            enterprise_id=enterprise_id,
            app_id=app_id,
            bot_id=bot_id,
            bot_user_id=bot_user_id,
            bot_scopes=bot_scopes,
            installer_user_id=installer_user_id,
            installed_at=self._clock(),
        )
        await self._db.run(lambda s: save_installation(s, cipher=self._cipher, team=team))

    async def find(self, enterprise_id: str | None, team_id: str | None) -> InstalledTeam | None:
        """The workspace's installation, read now (another replica may have replaced it)."""
        return await self._db.run(
            lambda s: find_installation(
                s, cipher=self._cipher, enterprise_id=enterprise_id, team_id=team_id
            )
        )

    async def remove(self, enterprise_id: str | None, team_id: str) -> RemovedTeam:
        """Forget the workspace and end what of its users needed it."""
        now = self._clock()
        return await self._db.run(
            lambda s: remove_team(s, enterprise_id=enterprise_id, team_id=team_id, now=now)
        )

    async def spend_state(self, state: str, expires_at: datetime) -> bool:
        """Record the install state as spent until ``expires_at``; whether it was not before."""
        now = self._clock()
        return await self._db.run(
            lambda s: spend_state(s, state=state, expires_at=expires_at, now=now)
        )

    async def state_spent(self, state: str) -> bool:
        """Whether the install state was spent."""
        return await self._db.read(lambda s: state_spent(s, state=state))
