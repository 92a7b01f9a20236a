"""team play: where a team event's boards are played and when an online board starts

A team event is played over the board (the default, as every team event so far: the rows get
``board``) or online, its boards played in the game room once its round's lineups are
revealed; an online board starts when both players are in the room (``present``) or at its
round's start time (``round_start``, ``team_rounds.starts_at``), as an individual event's games.

Downgrading drops the columns (the settings are lost).

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-02 02:10:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "team_events",
        sa.Column("play", sa.String(16), nullable=False, server_default="board"),
    )
    op.add_column(
        "team_events",
        sa.Column("game_start", sa.String(16), nullable=False, server_default="present"),
    )


def downgrade() -> None:
    # plain ALTER TABLE … DROP COLUMN: never a copy of a table others refer to (see 0012)
    with op.batch_alter_table("team_events", recreate="never") as batch_op:
        batch_op.drop_column("game_start")
        batch_op.drop_column("play")
