"""The initial schema: chat users, upstream sessions, drafts, jobs and bookkeeping.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | Sequence[str] | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "chat_user",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("workspace", sa.String(length=64), nullable=False),
        sa.Column("external_id", sa.String(length=64), nullable=False),
        sa.Column("locale", sa.String(length=8), nullable=True),
        sa.Column("awaiting", sa.String(length=16), nullable=True),
        sa.Column("awaiting_context", sa.String(length=320), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_chat_user"),
        sa.UniqueConstraint(
            "platform",
            "workspace",
            "external_id",
            name="uq_chat_user_platform_workspace_external_id",
        ),
    )
    op.create_table(
        "processed_update",
        sa.Column("source", sa.String(length=32), nullable=False),
        sa.Column("update_id", sa.String(length=128), nullable=False),
        sa.Column("processed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("source", "update_id", name="pk_processed_update"),
    )
    op.create_index("ix_processed_update_processed_at", "processed_update", ["processed_at"])
    op.create_table(
        "draft",
        sa.Column("id", sa.String(length=12), nullable=False),
        sa.Column("chat_user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("step", sa.String(length=12), nullable=False),
        sa.Column("chat_id", sa.String(length=64), nullable=False),
        sa.Column("thread_id", sa.String(length=64), nullable=True),
        sa.Column("title", sa.String(length=255), nullable=True),
        sa.Column("titles", sa.JSON(), nullable=True),
        sa.Column("tone", sa.Integer(), nullable=True),
        sa.Column("size", sa.Integer(), nullable=True),
        sa.Column("cost", sa.Numeric(precision=12, scale=2), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("submitted_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["chat_user_id"],
            ["chat_user.id"],
            name="fk_draft_chat_user_id_chat_user",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_draft"),
    )
    op.create_index("ix_draft_chat_user_id", "draft", ["chat_user_id"])
    op.create_index("ix_draft_step", "draft", ["step"])
    op.create_table(
        "login_attempt",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_user_id", sa.Integer(), nullable=True),
        sa.Column("attempted_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["chat_user_id"],
            ["chat_user.id"],
            name="fk_login_attempt_chat_user_id_chat_user",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_login_attempt"),
    )
    op.create_index("ix_login_attempt_attempted_at", "login_attempt", ["attempted_at"])
    op.create_index("ix_login_attempt_chat_user_id", "login_attempt", ["chat_user_id"])
    op.create_table(
        "upstream_session",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_user_id", sa.Integer(), nullable=False),
        sa.Column("upstream_url", sa.String(length=255), nullable=False),
        sa.Column("access_token", sa.LargeBinary(), nullable=False),
        sa.Column("access_expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("refresh_token", sa.LargeBinary(), nullable=False),
        sa.Column("refresh_expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["chat_user_id"],
            ["chat_user.id"],
            name="fk_upstream_session_chat_user_id_chat_user",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_upstream_session"),
        sa.UniqueConstraint(
            "chat_user_id", "upstream_url", name="uq_upstream_session_chat_user_id_upstream_url"
        ),
    )
    op.create_index("ix_upstream_session_chat_user_id", "upstream_session", ["chat_user_id"])
    op.create_table(
        "job",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("request_id", sa.String(length=128), nullable=False),
        sa.Column("chat_user_id", sa.Integer(), nullable=False),
        sa.Column("draft_id", sa.String(length=12), nullable=True),
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("chat_id", sa.String(length=64), nullable=False),
        sa.Column("thread_id", sa.String(length=64), nullable=True),
        sa.Column("title", sa.String(length=255), nullable=False),
        sa.Column("tone", sa.Integer(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("cost", sa.Numeric(precision=12, scale=2), nullable=True),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("progress", sa.Integer(), nullable=True),
        sa.Column("progress_message_id", sa.String(length=64), nullable=True),
        sa.Column("progress_text", sa.String(length=255), nullable=True),
        sa.Column("next_poll_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("content", sa.Text(), nullable=True),
        sa.Column("failure_reason", sa.String(length=500), nullable=True),
        sa.Column("parts_sent", sa.Integer(), nullable=False),
        sa.Column("file_sent", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("delivered_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lease_owner", sa.String(length=64), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["chat_user_id"],
            ["chat_user.id"],
            name="fk_job_chat_user_id_chat_user",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["draft_id"], ["draft.id"], name="fk_job_draft_id_draft", ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_job"),
        sa.UniqueConstraint("request_id", name="uq_job_request_id"),
    )
    op.create_index("ix_job_chat_user_id", "job", ["chat_user_id"])
    op.create_index("ix_job_draft_id", "job", ["draft_id"])
    op.create_index("ix_job_next_poll_at", "job", ["next_poll_at"])
    op.create_index("ix_job_status", "job", ["status"])


def downgrade() -> None:
    """Undo this revision."""
    op.drop_table("job")
    op.drop_table("upstream_session")
    op.drop_table("login_attempt")
    op.drop_table("draft")
    op.drop_table("processed_update")
    op.drop_table("chat_user")
