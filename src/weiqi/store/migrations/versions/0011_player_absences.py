"""player absences and McMahon start corrections

A player may sit out one round without withdrawing (``event_player_absences``: one row a round,
deleted with the player), and a McMahon start score may be moved by whole wins for one player
(``event_players.mcmahon_correction``, 0 for every existing player). Both come with OpenGotha
files (its ``participating`` flags and ``smmsCorrection``) and are set by organisers.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 15:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "event_players",
        sa.Column("mcmahon_correction", sa.Integer(), server_default="0", nullable=False),
    )
    op.create_table(
        "event_player_absences",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["event_players.id"],
            name=op.f("fk_event_player_absences_player_id_event_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", "round", name=op.f("pk_event_player_absences")),
    )


def downgrade() -> None:
    op.drop_table("event_player_absences")
    # plain ALTER TABLE … DROP COLUMN: a copy of event_players would cascade to its games
    with op.batch_alter_table("event_players", recreate="never") as batch:
        batch.drop_column("mcmahon_correction")
