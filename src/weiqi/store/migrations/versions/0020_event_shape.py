"""event shape: a second version of each event, changed by every write but a game's progress

``event_versions.shape`` changes with every write to the event except one that only plays a
game on (its record, its board's row: a live move): what a live move reads of its game and does
not write (the players, their labels and accounts, the settings, the round) can then be kept by
a worker for as long as the shape stays (``services.game_cache``). Existing rows get none
(``NULL``) until the next write that changes their shape gives them a fresh one.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-05 19:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("event_versions", sa.Column("shape", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    # plain ALTER TABLE … DROP COLUMN: never a copy of a table others refer to (see 0012)
    with op.batch_alter_table("event_versions", recreate="never") as batch_op:
        batch_op.drop_column("shape")
