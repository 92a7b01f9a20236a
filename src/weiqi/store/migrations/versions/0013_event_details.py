"""event details

An event announces its days (``start_date``, ``end_date``), its venue, its time zone (an IANA
name; every time its pages show is in it, ``Asia/Shanghai`` for the events there are) and its
time control (a ``TimeControl`` settings string such as ``55m+5x60s``, empty if none).

Columns are only added: ``events`` is referred to by every other table, and a copy of it would
cascade (SQLite's batch mode recreates a table to drop a column; downgrading drops them with a
plain ALTER TABLE … DROP COLUMN instead).

Revision ID: 0013
Revises: 0012
Create Date: 2027-03-01 10:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

_COLUMNS = ("time_control", "time_zone", "venue", "end_date", "start_date")


def upgrade() -> None:
    op.add_column("events", sa.Column("start_date", sa.Date(), nullable=True))
    op.add_column("events", sa.Column("end_date", sa.Date(), nullable=True))
    op.add_column("events", sa.Column("venue", sa.String(200), nullable=False, server_default=""))
    op.add_column(
        "events",
        sa.Column("time_zone", sa.String(64), nullable=False, server_default="Asia/Shanghai"),
    )
    op.add_column(
        "events", sa.Column("time_control", sa.String(100), nullable=False, server_default="")
    )


def downgrade() -> None:
    # plain ALTER TABLE … DROP COLUMN: never a copy of a table others refer to
    with op.batch_alter_table("events", recreate="never") as batch:
        for name in _COLUMNS:
            batch.drop_column(name)
