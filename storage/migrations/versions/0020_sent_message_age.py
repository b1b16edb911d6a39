"""On SentMessage, when the platform accepted the message: housekeeping forgets it once no
failure told later can still come for it.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | Sequence[str] | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("sent_message") as batch_op:
        # Rows from before this revision count from the upgrade on.
        batch_op.add_column(
            sa.Column(
                "sent_at",
                sa.DateTime(timezone=True),
                nullable=False,
                server_default=sa.func.current_timestamp(),
            )
        )
        batch_op.create_index(batch_op.f("ix_sent_message_sent_at"), ["sent_at"], unique=False)


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("sent_message") as batch_op:
        batch_op.drop_index(batch_op.f("ix_sent_message_sent_at"))
        batch_op.drop_column("sent_at")
