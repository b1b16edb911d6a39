"""Draft: each title's own tone and size, and the titles refused, of a list read from a file.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("draft") as batch_op:
        batch_op.add_column(sa.Column("title_choices", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("refused_titles", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("draft") as batch_op:
        batch_op.drop_column("refused_titles")
        batch_op.drop_column("title_choices")
