"""Job: the progress text as TEXT (it quotes a title of up to 255 characters), last seen time.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("job") as batch_op:
        batch_op.alter_column(
            "progress_text",
            existing_type=sa.String(length=255),
            type_=sa.Text(),
            existing_nullable=True,
        )
        batch_op.add_column(sa.Column("last_seen_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("job") as batch_op:
        batch_op.drop_column("last_seen_at")
        batch_op.alter_column(
            "progress_text",
            existing_type=sa.Text(),
            type_=sa.String(length=255),
            existing_nullable=True,
        )
