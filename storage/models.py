"""The tables: chat users, their upstream sessions, drafts, jobs, and bookkeeping.

The states in their columns (``storage.states``) stand below both storage and the core.
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal

from sqlalchemy import JSON, Column, Index, Integer, Numeric, String, Text, UniqueConstraint, text
from sqlmodel import Field, SQLModel

from storage.column_types import ScheduleType, StrEnumType, UTCDateTime
from storage.schedule import Schedule
from storage.states import Awaiting, DraftKind, DraftStep, JobStatus, PlanStatus, RunStatus

__all__ = [
    "ArticleShare",
    "Awaiting",
    "ChatPace",
    "ChatTarget",
    "ChatUser",
    "Client",
    "ClientSite",
    "DeliveryRecord",
    "Draft",
    "DraftKind",
    "DraftStep",
    "Job",
    "JobStatus",
    "LoginAttempt",
    "LoginLink",
    "Plan",
    "PlanRun",
    "PlanStatus",
    "ProcessedUpdate",
    "RunStatus",
    "Schedule",
    "SlackInstallation",
    "SlackOAuthState",
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
    # When the context was stored: housekeeping erases an e-mail left waiting too long.
    awaiting_since: datetime | None = Field(default=None, sa_column=_timestamp(nullable=True))
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
    # While set and not past, one process is refreshing these tokens; the others wait.
    refreshing_until: datetime | None = Field(default=None, sa_column=_timestamp(nullable=True))


class Client(SQLModel, table=True):
    """A client an agency orders for: a name, and the tone and size its orders usually take.

    Removing a client only marks it, so the orders placed for it keep naming it.
    """

    __tablename__ = "client"
    # One live client per folded name and user; a removed one frees its name.
    __table_args__ = (
        Index(
            "uq_client_chat_user_id_name_key",
            "chat_user_id",
            "name_key",
            unique=True,
            sqlite_where=text("removed_at IS NULL"),
            postgresql_where=text("removed_at IS NULL"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    chat_user_id: int = Field(foreign_key="chat_user.id", index=True, ondelete="CASCADE")
    name: str = Field(sa_type=String(60))
    # The name folded the Turkish way ("İstanbul" and "istanbul" are one client).
    name_key: str = Field(sa_type=String(60))
    tone: int | None = None
    size: int | None = None
    created_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp())
    removed_at: datetime | None = Field(default=None, sa_column=_timestamp(nullable=True))


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
    # Refused titles beyond those listed: only the first few are kept, shortened.
    refused_more: int = Field(
        default=0, sa_column=Column(Integer, nullable=False, server_default="0")
    )
    tone: int | None = None
    size: int | None = None
    cost: Decimal | None = Field(default=None, sa_column=Column(Numeric(12, 2), nullable=True))
    # The balance the summary showed: after the order, what the warning of a low balance
    # starts from, so it asks the service only when that is near the next article's cost.
    balance_seen: Decimal | None = Field(
        default=None, sa_column=Column(Numeric(12, 2), nullable=True)
    )
    # The client the order is for; None for an order without one.
    client_id: int | None = Field(default=None, foreign_key="client.id", ondelete="SET NULL")
    # Whether the client question is answered (a user without clients is never asked it).
    client_chosen: bool = False
    created_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp())
    submitted_at: datetime | None = Field(default=None, sa_column=_timestamp(nullable=True))
    # A plan's run to a channel: the owner's private chat, for all but the article itself.
    owner_chat_id: str | None = Field(default=None, sa_type=String(64))


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
    # An article for a plan's channel: the owner's private chat, where its progress and card go.
    owner_chat_id: str | None = Field(default=None, sa_type=String(64))
    # The client the order was for; None for an order without one.
    client_id: int | None = Field(
        default=None, foreign_key="client.id", index=True, ondelete="SET NULL"
    )


class ClientSite(SQLModel, table=True):
    """A client's WordPress site: where, as whom, and the application password, encrypted."""

    __tablename__ = "client_site"

    id: int | None = Field(default=None, primary_key=True)
    client_id: int = Field(foreign_key="client.id", unique=True, ondelete="CASCADE")
    url: str = Field(sa_type=String(200))
    username: str = Field(sa_type=String(60))
    app_password: bytes = Field(description="Fernet token of the application password")
    # The site's name as it said when last checked.
    name: str = Field(sa_type=String(200))
    updated_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp())


class ProcessedUpdate(SQLModel, table=True):
    """An incoming platform update already handled (Telegram update_id, Slack event_id)."""

    __tablename__ = "processed_update"

    source: str = Field(primary_key=True, sa_type=String(32))
    update_id: str = Field(primary_key=True, sa_type=String(128))
    processed_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp(index=True))


class LoginAttempt(SQLModel, table=True):
    """A failed or pending login, for throttling per chat user, per target e-mail and bot-wide."""

    __tablename__ = "login_attempt"

    id: int | None = Field(default=None, primary_key=True)
    chat_user_id: int | None = Field(
        default=None, foreign_key="chat_user.id", index=True, ondelete="CASCADE"
    )
    attempted_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp(index=True))
    # The e-mail tried, as a keyed hash (HMAC-SHA256, hex): counted, never readable.
    email_hash: str | None = Field(default=None, sa_type=String(64), index=True)
    # Set while the login call is under way: the attempt counts as a failure until then, so
    # concurrent attempts cannot all pass one check. None once it failed.
    pending_until: datetime | None = Field(default=None, sa_column=_timestamp(nullable=True))


class ArticleShare(SQLModel, table=True):
    """An article its owner offered through Telegram's inline mode: the key of its deep link.

    Anyone holding the key (whoever presses the link under the shared opening) may read the
    article; the key is random, so it cannot be guessed from a user or an article id.
    """

    __tablename__ = "article_share"
    __table_args__ = (UniqueConstraint("chat_user_id", "request_id"),)

    key: str = Field(primary_key=True, sa_type=String(32))
    chat_user_id: int = Field(foreign_key="chat_user.id", index=True, ondelete="CASCADE")
    request_id: str = Field(sa_type=String(128))
    title: str = Field(sa_type=String(255))
    created_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp())


class ChatPace(SQLModel, table=True):
    """A chat's send budget that every replica draws from: the next free send time of its
    token bucket (GCRA's theoretical arrival time), on the database's clock."""

    __tablename__ = "chat_pace"

    # The platform and the chat ("telegram:123").
    key: str = Field(primary_key=True, sa_type=String(160))
    free_at: datetime = Field(sa_column=_timestamp())


class SlackInstallation(SQLModel, table=True):
    """A Slack workspace that added the app: its bot user and token (encrypted), one per team."""

    __tablename__ = "slack_installation"
    # "" for a workspace outside Enterprise Grid, so the pair stays unique on every database.
    __table_args__ = (UniqueConstraint("enterprise_id", "team_id"),)

    id: int | None = Field(default=None, primary_key=True)
    enterprise_id: str = Field(default="", sa_type=String(32))
    team_id: str = Field(sa_type=String(32), index=True)
    app_id: str | None = Field(default=None, sa_type=String(32))
    bot_id: str | None = Field(default=None, sa_type=String(32))
    bot_user_id: str | None = Field(default=None, sa_type=String(32))
    bot_scopes: str = Field(default="", sa_column=Column(Text, nullable=False))
    bot_token: bytes = Field(description="Fernet token of the bot token")
    installer_user_id: str | None = Field(default=None, sa_type=String(32))
    installed_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp())


class SlackOAuthState(SQLModel, table=True):
    """An install state already spent, kept until it would have expired: a state is signed, not
    stored, when it is handed out, and installs once on any replica."""

    __tablename__ = "slack_oauth_state"

    state: str = Field(primary_key=True, sa_type=String(128))
    expires_at: datetime = Field(sa_column=_timestamp(index=True))


# The content calendar: plans, and each of their runs.


class Plan(SQLModel, table=True):
    """A plan of the content calendar: titles ordered at the times of its rhythm."""

    __tablename__ = "plan"

    id: int | None = Field(default=None, primary_key=True)
    chat_user_id: int = Field(foreign_key="chat_user.id", index=True, ondelete="CASCADE")
    # The draft it was written in: titles, tone and size until it is saved.
    draft_id: str | None = Field(
        default=None, foreign_key="draft.id", sa_type=String(12), index=True, ondelete="SET NULL"
    )
    status: PlanStatus = Field(default=PlanStatus.MAKING, sa_type=StrEnumType(PlanStatus, 12))
    # When it runs, in the zone it was written in: its rhythm (up to 38 characters) and its
    # zone's name (up to 32) in one column, read back as the value.
    schedule: Schedule = Field(sa_type=ScheduleType(96))
    titles: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    title_choices: list[list[int | None]] | None = Field(
        default=None, sa_column=Column(JSON, nullable=True)
    )
    # How many of its titles were ordered (or skipped) so far.
    next_title: int = 0
    tone: int | None = None
    size: int | None = None
    cost: Decimal | None = Field(default=None, sa_column=Column(Numeric(12, 2), nullable=True))
    client_id: int | None = Field(default=None, foreign_key="client.id", ondelete="SET NULL")
    platform: str = Field(sa_type=String(16))
    chat_id: str = Field(sa_type=String(64))
    thread_id: str | None = Field(default=None, sa_type=String(64))
    # Where its articles go when not the chat it was made in, and that chat's title.
    target_chat_id: str | None = Field(default=None, sa_type=String(64))
    target_title: str | None = Field(default=None, sa_type=String(255))
    # Whether the owner was offered their channels and groups for it.
    target_asked: bool = False
    # Whether its articles also go to its client's site, as posts at the run's time; as
    # drafts instead where ``site_draft`` says so.
    to_site: bool = False
    site_draft: bool = False
    paused_reason: str | None = Field(default=None, sa_type=String(32))
    next_run_at: datetime | None = Field(
        default=None, sa_column=_timestamp(nullable=True, index=True)
    )
    created_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp())


class PlanRun(SQLModel, table=True):
    """One run of a plan, claimed before it orders, so that it orders once."""

    __tablename__ = "plan_run"
    __table_args__ = (UniqueConstraint("plan_id", "run_at"),)

    id: int | None = Field(default=None, primary_key=True)
    plan_id: int = Field(foreign_key="plan.id", index=True, ondelete="CASCADE")
    run_at: datetime = Field(sa_column=_timestamp())
    status: RunStatus = Field(default=RunStatus.CLAIMED, sa_type=StrEnumType(RunStatus, 12))
    owner: str = Field(sa_type=String(64))
    lease_until: datetime = Field(sa_column=_timestamp())
    # The order it placed: the purchase path's own draft, so its jobs are reconciled as any.
    draft_id: str | None = Field(
        default=None, foreign_key="draft.id", sa_type=String(12), index=True, ondelete="SET NULL"
    )
    titles: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp())


class ChatTarget(SQLModel, table=True):
    """A channel or group a user added the bot to, where their plans may post."""

    __tablename__ = "chat_target"
    __table_args__ = (UniqueConstraint("chat_user_id", "platform", "chat_id"),)

    id: int | None = Field(default=None, primary_key=True)
    chat_user_id: int = Field(foreign_key="chat_user.id", index=True, ondelete="CASCADE")
    platform: str = Field(sa_type=String(16))
    chat_id: str = Field(sa_type=String(64))
    title: str = Field(sa_type=String(255))
    created_at: datetime = Field(default_factory=utcnow, sa_column=_timestamp())


class LoginLink(SQLModel, table=True):
    """A one-time link to the login page, for a chat where no password may be typed.

    Only a keyed hash of its token is kept: the database alone cannot open one. It answers
    in the chat it was asked for in, until it expires or a login through it succeeds.
    """

    __tablename__ = "login_link"

    token_hash: str = Field(primary_key=True, sa_type=String(64))
    chat_user_id: int = Field(foreign_key="chat_user.id", index=True, ondelete="CASCADE")
    # Where "logged in" is told: the private chat the link was asked for in.
    chat_id: str = Field(sa_type=String(64))
    expires_at: datetime = Field(sa_column=_timestamp(index=True))
    # Set by the login that claims it; cleared again when that login is refused.
    used_at: datetime | None = Field(default=None, sa_column=_timestamp(nullable=True))


class SentMessage(SQLModel, table=True):
    """A message a platform accepted: the article's part it was, so a failure told later
    takes the article back to it. A row without a job is a failure told before the sender
    recorded its message (a status can overtake the send's answer)."""

    __tablename__ = "sent_message"

    platform: str = Field(primary_key=True, sa_type=String(16))
    message_id: str = Field(primary_key=True, sa_type=String(128))
    job_id: int | None = Field(default=None, foreign_key="job.id", index=True, ondelete="CASCADE")
    part: int | None = None
    # When the platform accepted it (or told its failure first): housekeeping's age of it.
    sent_at: datetime = Field(sa_column=_timestamp(index=True))


class Announcement(SQLModel, table=True):
    """When a chat that takes no message until its person writes (WhatsApp's 24-hour window)
    was last told, by a template, that an article waits: every replica tells it once."""

    __tablename__ = "announcement"

    platform: str = Field(primary_key=True, sa_type=String(16))
    chat_id: str = Field(primary_key=True, sa_type=String(64))
    announced_at: datetime = Field(sa_column=_timestamp(index=True))


class DeliveryRecord(SQLModel, table=True):
    """One place a job's article goes besides its chat (a client's site): how far it got
    there, its failures in a row and when it is tried next, and the lease of whoever writes it.
    """

    __tablename__ = "delivery_record"
    __table_args__ = (UniqueConstraint("job_id", "kind", "target"),)

    id: int | None = Field(default=None, primary_key=True)
    job_id: int = Field(foreign_key="job.id", index=True, ondelete="CASCADE")
    # The destination's kind (which registered publisher writes it) and which one of them.
    kind: str = Field(sa_type=String(16))
    target: str = Field(sa_type=String(64))
    # What the destination keeps of the article once written there (a post's id): a second
    # write updates it.
    progress: str | None = Field(default=None, sa_type=String(64))
    done: bool = False
    failures: int = 0
    # When it is next due on its own; None for one written only on a press.
    next_try_at: datetime | None = Field(
        default=None, sa_column=_timestamp(nullable=True, index=True)
    )
    lease_owner: str | None = Field(default=None, sa_type=String(64))
    lease_until: datetime | None = Field(default=None, sa_column=_timestamp(nullable=True))
