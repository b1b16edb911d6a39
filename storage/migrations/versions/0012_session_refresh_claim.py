"""UpstreamSession: until when one process is refreshing its tokens, so another waits for
the new tokens instead of refreshing with a token being rotated (across replicas too).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | Sequence[str] | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("upstream_session") as batch_op:
        batch_op.add_column(
            sa.Column("refreshing_until", sa.DateTime(timezone=True), nullable=True)
        )


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("upstream_session") as batch_op:
        batch_op.drop_column("refreshing_until")
