"""team namesakes: a birth date on a team roster's player

Two players of one team event may share a name (two 张伟 of two teams, or of one team born on
different days): the team or a new ``birth_date`` column tells them apart. Stored player codes
keep their meaning (an id that never changes; for the players entered so far their name or the
CSV's ``id``), so lineups, board games, the 擂台赛 log and drafts stay as they are; only players
entered from now on may get a code that is not their name (``张伟 (白虎)`` for a namesake).

Downgrading drops the column (the birth dates are lost; the codes stay unique).

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-01 21:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("team_roster", sa.Column("birth_date", sa.Date(), nullable=True))


def downgrade() -> None:
    # plain ALTER TABLE … DROP COLUMN: never a copy of a table others refer to (see 0012)
    with op.batch_alter_table("team_roster", recreate="never") as batch_op:
        batch_op.drop_column("birth_date")
