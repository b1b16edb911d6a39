"""ArticleShare: the keys of the deep links under articles shared through inline mode.

Revision ID: 0009
Revises: 0004
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "article_share",
        sa.Column("key", sa.String(length=32), nullable=False),
        sa.Column("chat_user_id", sa.Integer(), nullable=False),
        sa.Column("request_id", sa.String(length=128), nullable=False),
        sa.Column("title", sa.String(length=255), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["chat_user_id"],
            ["chat_user.id"],
            name="fk_article_share_chat_user_id_chat_user",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("key", name="pk_article_share"),
        sa.UniqueConstraint(
            "chat_user_id", "request_id", name="uq_article_share_chat_user_id_request_id"
        ),
    )
    op.create_index("ix_article_share_chat_user_id", "article_share", ["chat_user_id"])


def downgrade() -> None:
    """Undo this revision."""
    op.drop_index("ix_article_share_chat_user_id", table_name="article_share")
    op.drop_table("article_share")
