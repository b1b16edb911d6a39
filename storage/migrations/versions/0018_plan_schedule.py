"""On Plan, one schedule column for the rhythm and its zone, read back as a ``Schedule``:
``cron mon,thu 09:00`` in ``Europe/Istanbul`` becomes ``cron mon,thu 09:00 Europe/Istanbul``.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | Sequence[str] | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("plan") as batch_op:
        batch_op.add_column(sa.Column("schedule", sa.String(length=96), nullable=True))
    op.execute("UPDATE plan SET schedule = rhythm || ' ' || time_zone")
    with op.batch_alter_table("plan") as batch_op:
        batch_op.alter_column("schedule", existing_type=sa.String(length=96), nullable=False)
        batch_op.drop_column("rhythm")
        batch_op.drop_column("time_zone")


def downgrade() -> None:
    """Undo this revision: the zone is the schedule's last word."""
    with op.batch_alter_table("plan") as batch_op:
        batch_op.add_column(sa.Column("rhythm", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("time_zone", sa.String(length=64), nullable=True))
    plan = sa.table(
        "plan",
        sa.column("id", sa.Integer()),
        sa.column("schedule", sa.String()),
        sa.column("rhythm", sa.String()),
        sa.column("time_zone", sa.String()),
    )
    connection = op.get_bind()
    for plan_id, schedule in connection.execute(sa.select(plan.c.id, plan.c.schedule)).all():
        rhythm, _, zone = schedule.rpartition(" ")
        connection.execute(
            plan.update().where(plan.c.id == plan_id).values(rhythm=rhythm, time_zone=zone)
        )
    with op.batch_alter_table("plan") as batch_op:
        batch_op.alter_column("rhythm", existing_type=sa.String(length=64), nullable=False)
        batch_op.alter_column("time_zone", existing_type=sa.String(length=64), nullable=False)
        batch_op.drop_column("schedule")
