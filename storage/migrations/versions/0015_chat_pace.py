"""ChatPace: each chat's next free send time, shared by every replica (on PostgreSQL).

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | Sequence[str] | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "chat_pace",
        sa.Column("key", sa.String(length=160), nullable=False),
        sa.Column("free_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_chat_pace")),
    )


def downgrade() -> None:
    """Undo this revision."""
    op.drop_table("chat_pace")
