"""A delivery record per destination besides the chat (a client's site), each with its own
progress, failures, next try and lease: the site's fields move off Job, their values with them.

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | Sequence[str] | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# A job's site was its client's: the record names it by the client's id.
_MOVE_TO_RECORDS = """
INSERT INTO delivery_record (job_id, kind, target, progress, done, failures, next_try_at)
SELECT id, 'site', CAST(client_id AS VARCHAR(64)), CAST(site_post_id AS VARCHAR(64)),
       site_post_id IS NOT NULL, site_failures,
       CASE WHEN site_post_id IS NULL THEN site_claim_until END
FROM job
WHERE client_id IS NOT NULL AND (site_post_id IS NOT NULL OR site_failures > 0)
"""

_MOVE_BACK = """
UPDATE job SET site_post_id = (
    SELECT CAST(progress AS INTEGER) FROM delivery_record
    WHERE delivery_record.job_id = job.id AND kind = 'site' AND done
)
"""


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "delivery_record",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("job_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("target", sa.String(length=64), nullable=False),
        sa.Column("progress", sa.String(length=64), nullable=True),
        sa.Column("done", sa.Boolean(), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("next_try_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lease_owner", sa.String(length=64), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["job_id"], ["job.id"], name="fk_delivery_record_job_id_job", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_delivery_record"),
        sa.UniqueConstraint(
            "job_id", "kind", "target", name="uq_delivery_record_job_id_kind_target"
        ),
    )
    op.create_index("ix_delivery_record_job_id", "delivery_record", ["job_id"])
    op.create_index("ix_delivery_record_next_try_at", "delivery_record", ["next_try_at"])
    op.execute(_MOVE_TO_RECORDS)
    with op.batch_alter_table("job") as batch_op:
        batch_op.drop_column("site_failures")
        batch_op.drop_column("site_claim_until")
        batch_op.drop_column("site_post_id")
    with op.batch_alter_table("plan") as batch_op:
        batch_op.add_column(
            sa.Column("site_draft", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    """Undo this revision."""
    with op.batch_alter_table("plan") as batch_op:
        batch_op.drop_column("site_draft")
    with op.batch_alter_table("job") as batch_op:
        batch_op.add_column(sa.Column("site_post_id", sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column("site_claim_until", sa.DateTime(timezone=True), nullable=True)
        )
        batch_op.add_column(
            sa.Column("site_failures", sa.Integer(), nullable=False, server_default="0")
        )
    op.execute(_MOVE_BACK)
    op.drop_index("ix_delivery_record_next_try_at", table_name="delivery_record")
    op.drop_index("ix_delivery_record_job_id", table_name="delivery_record")
    op.drop_table("delivery_record")
