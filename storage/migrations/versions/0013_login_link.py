"""LoginLink: one-time links to the login page, for chats where no message can be deleted.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | Sequence[str] | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "login_link",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("chat_user_id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.String(length=64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["chat_user_id"],
            ["chat_user.id"],
            name="fk_login_link_chat_user_id_chat_user",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("token_hash", name="pk_login_link"),
    )
    op.create_index("ix_login_link_chat_user_id", "login_link", ["chat_user_id"])
    op.create_index("ix_login_link_expires_at", "login_link", ["expires_at"])


def downgrade() -> None:
    """Undo this revision."""
    op.drop_index("ix_login_link_expires_at", table_name="login_link")
    op.drop_index("ix_login_link_chat_user_id", table_name="login_link")
    op.drop_table("login_link")
