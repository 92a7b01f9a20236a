"""entry claims: a user asks to play as an entrant (or roster player), the organisers decide

A new table, ``entry_claims`` (issue #11): who claims which entrant of which event, their note
to the organisers, when, and what became of it (pending, approved, declined with a reason, or
withdrawn). Nothing stored before changes; downgrading drops the claims.

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-06 10:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "entry_claims",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("roster_id", sa.Integer(), nullable=True),
        sa.Column("note", sa.String(200), nullable=False, server_default=""),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("state", sa.String(16), nullable=False, server_default="pending"),
        sa.Column("decided_by", sa.Integer(), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reason", sa.String(200), nullable=False, server_default=""),
        sa.Column("closed_by", sa.String(32), nullable=True),
        sa.CheckConstraint(
            "(player_id IS NULL) <> (roster_id IS NULL)",
            name=op.f("ck_entry_claims_entrant_or_roster_player"),
        ),
        sa.CheckConstraint(
            "state IN ('pending', 'approved', 'declined', 'withdrawn')",
            name=op.f("ck_entry_claims_state"),
        ),
        sa.ForeignKeyConstraint(
            ["event_id"], ["events.id"], name=op.f("fk_entry_claims_event_id_events"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_entry_claims_user_id_users"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["event_players.id"],
            name=op.f("fk_entry_claims_player_id_event_players"), ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["roster_id"], ["team_roster.id"],
            name=op.f("fk_entry_claims_roster_id_team_roster"), ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["decided_by"], ["users.id"], name=op.f("fk_entry_claims_decided_by_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_entry_claims")),
    )  # fmt: skip
    op.create_index(op.f("ix_entry_claims_event_id"), "entry_claims", ["event_id"])
    op.create_index(op.f("ix_entry_claims_user_id"), "entry_claims", ["user_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_entry_claims_user_id"), table_name="entry_claims")
    op.drop_index(op.f("ix_entry_claims_event_id"), table_name="entry_claims")
    op.drop_table("entry_claims")
