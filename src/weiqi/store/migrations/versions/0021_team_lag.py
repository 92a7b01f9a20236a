"""team lag allowance: the network-lag allowance of a team event's online boards

An online board forgives network lag out of a per-move quota, as lichess does (``LagPolicy``):
``lag_gain`` seconds a move, at most ``lag_cap``. Every team event gets the default, 1 s a move
and at most 3 s (an event played over the board never uses it); an individual event keeps its
allowance in its settings' JSON, which needs no migration.

Downgrading drops the columns (the allowances are lost).

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-05 20:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "team_events", sa.Column("lag_gain", sa.Float(), nullable=False, server_default="1")
    )
    op.add_column(
        "team_events", sa.Column("lag_cap", sa.Float(), nullable=False, server_default="3")
    )


def downgrade() -> None:
    # plain ALTER TABLE … DROP COLUMN: never a copy of a table others refer to (see 0012)
    with op.batch_alter_table("team_events", recreate="never") as batch_op:
        batch_op.drop_column("lag_cap")
        batch_op.drop_column("lag_gain")
