"""player accounts: an entrant of an individual event linked to the user who plays it online

One row per entrant (``event_player_accounts``): the SHA-256 of an unspent one-time invitation
code, and the user who redeemed it (issue #11, live online play).

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01 18:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event_player_accounts",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("invite_hash", sa.String(64), nullable=True),
        sa.Column("invited_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("linked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["event_players.id"],
            name=op.f("fk_event_player_accounts_player_id_event_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["events.id"],
            name=op.f("fk_event_player_accounts_event_id_events"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["users.id"],
            name=op.f("fk_event_player_accounts_user_id_users"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_event_player_accounts")),
        sa.UniqueConstraint("invite_hash", name=op.f("uq_event_player_accounts_invite_hash")),
    )
    op.create_index(
        op.f("ix_event_player_accounts_event_id"), "event_player_accounts", ["event_id"]
    )
    op.create_index(op.f("ix_event_player_accounts_user_id"), "event_player_accounts", ["user_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_event_player_accounts_user_id"), table_name="event_player_accounts")
    op.drop_index(op.f("ix_event_player_accounts_event_id"), table_name="event_player_accounts")
    op.drop_table("event_player_accounts")
