"""Clients of an agency, and the client each draft and job is for.

Revision ID: 0007
Revises: 0004
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "client",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_user_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("name_key", sa.String(length=60), nullable=False),
        sa.Column("tone", sa.Integer(), nullable=True),
        sa.Column("size", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["chat_user_id"],
            ["chat_user.id"],
            name="fk_client_chat_user_id_chat_user",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_client"),
    )
    op.create_index("ix_client_chat_user_id", "client", ["chat_user_id"])
    op.create_index(
        "uq_client_chat_user_id_name_key",
        "client",
        ["chat_user_id", "name_key"],
        unique=True,
        sqlite_where=sa.text("removed_at IS NULL"),
        postgresql_where=sa.text("removed_at IS NULL"),
    )
    with op.batch_alter_table("draft") as batch_op:
        batch_op.add_column(sa.Column("client_id", sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column("client_chosen", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.create_foreign_key(
            "fk_draft_client_id_client", "client", ["client_id"], ["id"], ondelete="SET NULL"
        )
    with op.batch_alter_table("job") as batch_op:
        batch_op.add_column(sa.Column("client_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            "fk_job_client_id_client", "client", ["client_id"], ["id"], ondelete="SET NULL"
        )
        batch_op.create_index("ix_job_client_id", ["client_id"])


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("job") as batch_op:
        batch_op.drop_index("ix_job_client_id")
        batch_op.drop_constraint("fk_job_client_id_client", type_="foreignkey")
        batch_op.drop_column("client_id")
    with op.batch_alter_table("draft") as batch_op:
        batch_op.drop_constraint("fk_draft_client_id_client", type_="foreignkey")
        batch_op.drop_column("client_chosen")
        batch_op.drop_column("client_id")
    op.drop_table("client")
