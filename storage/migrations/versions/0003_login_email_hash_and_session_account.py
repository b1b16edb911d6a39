"""Login attempt: the keyed hash of the e-mail tried; upstream session: its masked e-mail.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("login_attempt") as batch_op:
        batch_op.add_column(sa.Column("email_hash", sa.String(length=64), nullable=True))
        batch_op.create_index("ix_login_attempt_email_hash", ["email_hash"])
    with op.batch_alter_table("upstream_session") as batch_op:
        batch_op.add_column(sa.Column("account", sa.String(length=320), nullable=True))


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("upstream_session") as batch_op:
        batch_op.drop_column("account")
    with op.batch_alter_table("login_attempt") as batch_op:
        batch_op.drop_index("ix_login_attempt_email_hash")
        batch_op.drop_column("email_hash")
