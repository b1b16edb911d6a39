"""Draft: the balance its summary showed, so a confirmed order warns of a low balance
without asking the service again while the balance is plainly enough.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | Sequence[str] | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("draft") as batch_op:
        batch_op.add_column(sa.Column("balance_seen", sa.Numeric(12, 2), nullable=True))


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("draft") as batch_op:
        batch_op.drop_column("balance_seen")
