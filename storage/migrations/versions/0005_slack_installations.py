"""Slack installations (one per workspace, the bot token encrypted) and OAuth install states.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "slack_installation",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("enterprise_id", sa.String(length=32), nullable=False),
        sa.Column("team_id", sa.String(length=32), nullable=False),
        sa.Column("app_id", sa.String(length=32), nullable=True),
        sa.Column("bot_id", sa.String(length=32), nullable=True),
        sa.Column("bot_user_id", sa.String(length=32), nullable=True),
        sa.Column("bot_scopes", sa.Text(), nullable=False),
        sa.Column("bot_token", sa.LargeBinary(), nullable=False),
        sa.Column("installer_user_id", sa.String(length=32), nullable=True),
        sa.Column("installed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_slack_installation"),
        sa.UniqueConstraint(
            "enterprise_id", "team_id", name="uq_slack_installation_enterprise_id_team_id"
        ),
    )
    op.create_index(
        "ix_slack_installation_team_id", "slack_installation", ["team_id"], unique=False
    )
    op.create_table(
        "slack_oauth_state",
        sa.Column("state", sa.String(length=128), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("state", name="pk_slack_oauth_state"),
    )
    op.create_index(
        "ix_slack_oauth_state_expires_at", "slack_oauth_state", ["expires_at"], unique=False
    )


def downgrade() -> None:
    """Undo this revision."""
    op.drop_index("ix_slack_oauth_state_expires_at", table_name="slack_oauth_state")
    op.drop_table("slack_oauth_state")
    op.drop_index("ix_slack_installation_team_id", table_name="slack_installation")
    op.drop_table("slack_installation")
