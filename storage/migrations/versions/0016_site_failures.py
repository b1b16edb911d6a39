"""On Job, the site's failures in a row to take the article's post: the wait before the next
try doubles with each.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | Sequence[str] | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("job") as batch_op:
        batch_op.add_column(
            sa.Column("site_failures", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("job") as batch_op:
        batch_op.drop_column("site_failures")
