"""roster accounts: a team event's roster player linked to the user who plays its boards online

``event_player_accounts`` links an entrant of an individual event to a user (0015); a team
board's players are roster players, so a link now names either an entrant (``player_id``) or a
roster player (``roster_id``), exactly one of them, under a key of its own (``id``). And a team
event gets its boards' size (``team_events.board_size``, 19 unless set): its boards are played
online on the event's board.

The links are few (one per invited player): the table is read, made again with its new key and
written back (no copy of a table others refer to: nothing refers to this one). Downgrading
drops the roster players' links and the board size.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-02 01:00:00.000000
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

_COLUMNS = ("player_id", "event_id", "invite_hash", "invited_at", "user_id", "linked_at")


def _rows() -> list[dict[str, Any]]:
    table = sa.table("event_player_accounts", *(sa.column(c) for c in _COLUMNS))
    found = op.get_bind().execute(sa.select(table)).mappings().all()
    return [dict(r) for r in found]


def _drop() -> None:
    op.drop_index(op.f("ix_event_player_accounts_user_id"), table_name="event_player_accounts")
    op.drop_index(op.f("ix_event_player_accounts_event_id"), table_name="event_player_accounts")
    op.drop_table("event_player_accounts")


def _common() -> list[Any]:
    return [
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("invite_hash", sa.String(64), nullable=True),
        sa.Column("invited_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("linked_at", sa.DateTime(timezone=True), nullable=True),
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
        sa.UniqueConstraint("invite_hash", name=op.f("uq_event_player_accounts_invite_hash")),
    ]


def _indexes() -> None:
    op.create_index(
        op.f("ix_event_player_accounts_event_id"), "event_player_accounts", ["event_id"]
    )
    op.create_index(op.f("ix_event_player_accounts_user_id"), "event_player_accounts", ["user_id"])


def upgrade() -> None:
    op.add_column(
        "team_events",
        sa.Column("board_size", sa.Integer(), nullable=False, server_default="19"),
    )
    rows = _rows()
    _drop()
    table = op.create_table(
        "event_player_accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("roster_id", sa.Integer(), nullable=True),
        *_common(),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["event_players.id"],
            name=op.f("fk_event_player_accounts_player_id_event_players"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["roster_id"],
            ["team_roster.id"],
            name=op.f("fk_event_player_accounts_roster_id_team_roster"),
            ondelete="CASCADE",
        ),
        sa.CheckConstraint(
            "(player_id IS NULL) <> (roster_id IS NULL)",
            name=op.f("ck_event_player_accounts_entrant_or_roster_player"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event_player_accounts")),
        sa.UniqueConstraint("player_id", name=op.f("uq_event_player_accounts_player_id")),
        sa.UniqueConstraint("roster_id", name=op.f("uq_event_player_accounts_roster_id")),
    )
    _indexes()
    if rows:
        op.bulk_insert(table, rows)


def downgrade() -> None:
    rows = [r for r in _rows() if r["player_id"] is not None]  # roster players' links go
    _drop()
    table = op.create_table(
        "event_player_accounts",
        sa.Column("player_id", sa.Integer(), nullable=False),
        *_common(),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["event_players.id"],
            name=op.f("fk_event_player_accounts_player_id_event_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_event_player_accounts")),
    )
    _indexes()
    if rows:
        op.bulk_insert(table, rows)
    # plain ALTER TABLE … DROP COLUMN: never a copy of a table others refer to (see 0012)
    with op.batch_alter_table("team_events", recreate="never") as batch_op:
        batch_op.drop_column("board_size")
