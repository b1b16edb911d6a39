"""Abuse: login reservations' expiry, refused titles beyond those kept, the e-mail's age.

Revision ID: 0006
Revises: 0004
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("login_attempt") as batch_op:
        batch_op.add_column(sa.Column("pending_until", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("draft") as batch_op:
        batch_op.add_column(
            sa.Column("refused_more", sa.Integer(), nullable=False, server_default="0")
        )
    with op.batch_alter_table("chat_user") as batch_op:
        batch_op.add_column(sa.Column("awaiting_since", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("chat_user") as batch_op:
        batch_op.drop_column("awaiting_since")
    with op.batch_alter_table("draft") as batch_op:
        batch_op.drop_column("refused_more")
    with op.batch_alter_table("login_attempt") as batch_op:
        batch_op.drop_column("pending_until")
