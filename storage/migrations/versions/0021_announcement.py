"""Announcement: when a chat that only a template reaches (WhatsApp's 24-hour window) was last
told that an article waits, so that every replica, and a restarted one, tells it once.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | Sequence[str] | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "announcement",
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("chat_id", sa.String(length=64), nullable=False),
        sa.Column("announced_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("platform", "chat_id"),
    )
    op.create_index(
        op.f("ix_announcement_announced_at"), "announcement", ["announced_at"], unique=False
    )


def downgrade() -> None:
    """Undo this revision."""
    op.drop_index(op.f("ix_announcement_announced_at"), table_name="announcement")
    op.drop_table("announcement")
