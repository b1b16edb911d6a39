"""The messages a platform accepted, each with its article's part: a failure told later (a
status webhook) takes the article back to that part.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | Sequence[str] | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "sent_message",
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("message_id", sa.String(length=128), nullable=False),
        sa.Column("job_id", sa.Integer(), nullable=True),
        sa.Column("part", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["job_id"], ["job.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("platform", "message_id"),
    )
    op.create_index(op.f("ix_sent_message_job_id"), "sent_message", ["job_id"], unique=False)


def downgrade() -> None:
    """Undo this revision."""
    op.drop_index(op.f("ix_sent_message_job_id"), table_name="sent_message")
    op.drop_table("sent_message")
