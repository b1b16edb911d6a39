"""ClientSite: a client's WordPress site with its application password, encrypted; on Job,
the article's post there and the claim of the one writing it; on Plan, whether its articles
go to its client's site too.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | Sequence[str] | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "client_site",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("client_id", sa.Integer(), nullable=False),
        sa.Column("url", sa.String(length=200), nullable=False),
        sa.Column("username", sa.String(length=60), nullable=False),
        sa.Column("app_password", sa.LargeBinary(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["client_id"],
            ["client.id"],
            name="fk_client_site_client_id_client",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_client_site"),
        sa.UniqueConstraint("client_id", name="uq_client_site_client_id"),
    )
    with op.batch_alter_table("job") as batch_op:
        batch_op.add_column(sa.Column("site_post_id", sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column("site_claim_until", sa.DateTime(timezone=True), nullable=True)
        )
    with op.batch_alter_table("plan") as batch_op:
        batch_op.add_column(
            sa.Column("to_site", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("plan") as batch_op:
        batch_op.drop_column("to_site")
    with op.batch_alter_table("job") as batch_op:
        batch_op.drop_column("site_claim_until")
        batch_op.drop_column("site_post_id")
    op.drop_table("client_site")
