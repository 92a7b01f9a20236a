"""event progress lanes: a live move changes one of its event's lanes, not the event's one row

A write of a game's progress alone (a live move: its record, its board's row) changed the
event's one row of ``event_versions``, whose lock each move then held until its commit, so the
moves of all of an event's games were stored one after another. It now changes one of the
event's ``event_progress`` lanes, picked at random; the event's version is read as its row's
combined with every lane's (``store.versions``). No rows are needed to begin with: an event
without lanes reads as before.

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-06 07:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event_progress",
        sa.Column("event_id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("lane", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("version", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("event_id", "lane", name=op.f("pk_event_progress")),
    )


def downgrade() -> None:
    op.drop_table("event_progress")
