"""The tables: chat users, their upstream sessions, drafts, jobs, and bookkeeping.

The states in their columns are the core's (``bot.core.states``); this module maps them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

from sqlalchemy import JSON, Column, Numeric, String, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from bot.core.states import Awaiting, DraftKind, DraftStep, JobStatus
from storage.column_types import StrEnumType, UTCDateTime

__all__ = [
    "Awaiting",
    "ChatUser",
    "Draft",
    "DraftKind",
    "DraftStep",
    "Job",
    "JobStatus",
    "LoginAttempt",
    "ProcessedUpdate",
    "UpstreamSession",
    "utcnow",
]


def utcnow() -> datetime:
    """The current time, timezone-aware in UTC."""
    return datetime.now(UTC)


def _timestamp(*, nullable: bool = False, index: bool = False) -> Column[datetime]:
    return Column(UTCDateTime(), nullable=nullable, index=index)


# Named constraints let later migrations drop or change them on SQLite, where a table is
# altered by rebuilding it and an unnamed constraint cannot be pointed at.
SQLModel.metadata.naming_convention = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


# Table rows.


class ChatUser(SQLModel, table=True):
    """One person on one chat platform (and Slack workspace)."""

    __tablename__ = "chat_user"
    __table_args__ = (UniqueConstraint("platform", "workspace", "external_id"),)

    id: int | None = Field(default=None, primary_key=True)
    platform: str = Field(sa_type=String(16))
    workspace: str = Field(default="", sa_type=String(64))
    external_id: str = Field(sa_type=String(64))
    locale: str | None = Field(default=None, sa_type=String(8))
    awaiting: Awaiting | None = Field(default=None, sa_type=StrEnumType(Awaiting, 16))
    # Non-secret context of the awaited input, e.g. the e-mail while the password is awaited.
    awaiting_context: str | None = Field(default=None, sa_type=String(320))
    created_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp())


class UpstreamSession(SQLModel, table=True):
    """A chat user's tokens at one upstream URL, encrypted; never a password."""

    __tablename__ = "upstream_session"
    __table_args__ = (UniqueConstraint("chat_user_id", "upstream_url"),)

    id: int | None = Field(default=None, primary_key=True)
    chat_user_id: int = Field(foreign_key="chat_user.id", index=True, ondelete="CASCADE")
    upstream_url: str = Field(sa_type=String(255))
    access_token: bytes = Field(description="Fernet token of the access token")
    access_expires_at: datetime = Field(sa_column=_timestamp())
    refresh_token: bytes = Field(description="Fernet token of the refresh token")
    refresh_expires_at: datetime = Field(sa_column=_timestamp())
    version: int = 0
    updated_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp())
    # The e-mail logged in with, masked (``d***@example.com``): enough to name the account.
    account: str | None = Field(default=None, sa_type=String(320))


class Draft(SQLModel, table=True):
    """An order in progress; its id is in every button of that order."""

    __tablename__ = "draft"

    id: str = Field(primary_key=True, sa_type=String(12))
    chat_user_id: int = Field(foreign_key="chat_user.id", index=True, ondelete="CASCADE")
    kind: DraftKind = Field(default=DraftKind.SINGLE, sa_type=StrEnumType(DraftKind, 8))
    step: DraftStep = Field(default=DraftStep.TITLE, sa_type=StrEnumType(DraftStep, 12), index=True)
    chat_id: str = Field(sa_type=String(64))
    thread_id: str | None = Field(default=None, sa_type=String(64))
    title: str | None = Field(default=None, sa_type=String(255))
    titles: list[str] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    # A list read from a file: each title's own [tone, size] (null where the buttons choose),
    # and the [title, reason] of each line refused.
    title_choices: list[list[int | None]] | None = Field(
        default=None, sa_column=Column(JSON, nullable=True)
    )
    refused_titles: list[list[str]] | None = Field(
        default=None, sa_column=Column(JSON, nullable=True)
    )
    tone: int | None = None
    size: int | None = None
    cost: Decimal | None = Field(default=None, sa_column=Column(Numeric(12, 2), nullable=True))
    created_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp())
    submitted_at: datetime | None = Field(default=None, sa_column=_timestamp(nullable=True))


class Job(SQLModel, table=True):
    """A created upstream job, from the create call's answer to delivery."""

    __tablename__ = "job"

    id: int | None = Field(default=None, primary_key=True)
    request_id: str = Field(sa_type=String(128), unique=True)
    chat_user_id: int = Field(foreign_key="chat_user.id", index=True, ondelete="CASCADE")
    draft_id: str | None = Field(
        default=None, foreign_key="draft.id", sa_type=String(12), index=True, ondelete="SET NULL"
    )
    platform: str = Field(sa_type=String(16))
    chat_id: str = Field(sa_type=String(64))
    thread_id: str | None = Field(default=None, sa_type=String(64))
    title: str = Field(sa_type=String(255))
    tone: int
    size: int
    cost: Decimal | None = Field(default=None, sa_column=Column(Numeric(12, 2), nullable=True))
    status: JobStatus = Field(
        default=JobStatus.PENDING, sa_type=StrEnumType(JobStatus, 12), index=True
    )
    progress: int | None = None
    progress_message_id: str | None = Field(default=None, sa_type=String(64))
    # A sentence around a title of up to 255 characters, so longer than any title.
    progress_text: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    next_poll_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp(index=True))
    # When the service's estimate said the job would be done (its lower bound): the polling
    # policy polls every interval from then on. None for jobs ordered before it was kept.
    expected_at: datetime | None = Field(default=None, sa_column=_timestamp(nullable=True))
    failures: int = 0
    # When the upstream last listed the job; a job never listed is not taken for a gone one.
    last_seen_at: datetime | None = Field(default=None, sa_column=_timestamp(nullable=True))
    content: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    failure_reason: str | None = Field(default=None, sa_type=String(500))
    parts_sent: int = 0
    file_sent: bool = False
    created_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp())
    finished_at: datetime | None = Field(default=None, sa_column=_timestamp(nullable=True))
    delivered_at: datetime | None = Field(default=None, sa_column=_timestamp(nullable=True))
    lease_owner: str | None = Field(default=None, sa_type=String(64))
    lease_until: datetime | None = Field(default=None, sa_column=_timestamp(nullable=True))


class ProcessedUpdate(SQLModel, table=True):
    """An incoming platform update already handled (Telegram update_id, Slack event_id)."""

    __tablename__ = "processed_update"

    source: str = Field(primary_key=True, sa_type=String(32))
    update_id: str = Field(primary_key=True, sa_type=String(128))
    processed_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp(index=True))


class LoginAttempt(SQLModel, table=True):
    """A failed login, for throttling per chat user, per target e-mail and for the whole bot."""

    __tablename__ = "login_attempt"

    id: int | None = Field(default=None, primary_key=True)
    chat_user_id: int | None = Field(
        default=None, foreign_key="chat_user.id", index=True, ondelete="CASCADE"
    )
    attempted_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp(index=True))
    # The e-mail tried, as a keyed hash (HMAC-SHA256, hex): counted, never readable.
    email_hash: str | None = Field(default=None, sa_type=String(64), index=True)
