"""Job: when the service's estimate said it would be done, which the polling policy reads.

Revision ID: 0010
Revises: 0004
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("job") as batch_op:
        batch_op.add_column(sa.Column("expected_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("job") as batch_op:
        batch_op.drop_column("expected_at")
