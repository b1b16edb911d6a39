"""The content calendar: plans, each run of a plan (claimed before it orders), the channels
and groups a user added the bot to, and the owner's chat of an order sent to one.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "plan",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_user_id", sa.Integer(), nullable=False),
        sa.Column("draft_id", sa.String(length=12), nullable=True),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("rhythm", sa.String(length=64), nullable=False),
        sa.Column("time_zone", sa.String(length=64), nullable=False),
        sa.Column("titles", sa.JSON(), nullable=False),
        sa.Column("title_choices", sa.JSON(), nullable=True),
        sa.Column("next_title", sa.Integer(), nullable=False),
        sa.Column("tone", sa.Integer(), nullable=True),
        sa.Column("size", sa.Integer(), nullable=True),
        sa.Column("cost", sa.Numeric(precision=12, scale=2), nullable=True),
        sa.Column("client_id", sa.Integer(), nullable=True),
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("chat_id", sa.String(length=64), nullable=False),
        sa.Column("thread_id", sa.String(length=64), nullable=True),
        sa.Column("target_chat_id", sa.String(length=64), nullable=True),
        sa.Column("target_title", sa.String(length=255), nullable=True),
        sa.Column("target_asked", sa.Boolean(), nullable=False),
        sa.Column("paused_reason", sa.String(length=32), nullable=True),
        sa.Column("next_run_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["chat_user_id"],
            ["chat_user.id"],
            name="fk_plan_chat_user_id_chat_user",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["draft_id"], ["draft.id"], name="fk_plan_draft_id_draft", ondelete="SET NULL"
        ),
        sa.ForeignKeyConstraint(
            ["client_id"], ["client.id"], name="fk_plan_client_id_client", ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_plan"),
    )
    op.create_index("ix_plan_chat_user_id", "plan", ["chat_user_id"])
    op.create_index("ix_plan_draft_id", "plan", ["draft_id"])
    op.create_index("ix_plan_next_run_at", "plan", ["next_run_at"])
    op.create_table(
        "plan_run",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("plan_id", sa.Integer(), nullable=False),
        sa.Column("run_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("draft_id", sa.String(length=12), nullable=True),
        sa.Column("titles", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["plan_id"], ["plan.id"], name="fk_plan_run_plan_id_plan", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["draft_id"], ["draft.id"], name="fk_plan_run_draft_id_draft", ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_plan_run"),
        sa.UniqueConstraint("plan_id", "run_at", name="uq_plan_run_plan_id_run_at"),
    )
    op.create_index("ix_plan_run_plan_id", "plan_run", ["plan_id"])
    op.create_index("ix_plan_run_draft_id", "plan_run", ["draft_id"])
    op.create_table(
        "chat_target",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_user_id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("chat_id", sa.String(length=64), nullable=False),
        sa.Column("title", sa.String(length=255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["chat_user_id"],
            ["chat_user.id"],
            name="fk_chat_target_chat_user_id_chat_user",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_chat_target"),
        sa.UniqueConstraint(
            "chat_user_id",
            "platform",
            "chat_id",
            name="uq_chat_target_chat_user_id_platform_chat_id",
        ),
    )
    op.create_index("ix_chat_target_chat_user_id", "chat_target", ["chat_user_id"])
    for table in ("draft", "job"):
        with op.batch_alter_table(table) as batch_op:
            batch_op.add_column(sa.Column("owner_chat_id", sa.String(length=64), nullable=True))


def downgrade() -> None:
    """Undo this revision."""
    for table in ("job", "draft"):
        with op.batch_alter_table(table) as batch_op:
            batch_op.drop_column("owner_chat_id")
    op.drop_table("chat_target")
    op.drop_table("plan_run")
    op.drop_table("plan")
