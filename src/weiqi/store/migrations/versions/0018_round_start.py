"""round start: when an individual event's round starts (online rounds, issue #11)

An organiser sets the start of a round (typed in the event's time zone, stored in UTC); an
online event whose games start at the round's start time has the server start each game's
clock then, whether or not its players are in the room.

Downgrading drops the column (the start times are lost).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-02 01:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("event_rounds", sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    # plain ALTER TABLE … DROP COLUMN: never a copy of a table others refer to (see 0012)
    with op.batch_alter_table("event_rounds", recreate="never") as batch_op:
        batch_op.drop_column("starts_at")
