"""board seals

A board's result and confirmation (``event_games``, ``team_games``) and its players' warnings
(``game_records``, ``team_game_records``) are what the standings add up; a record's signed head
does not cover them. Each board now keeps a ``seal``: an HMAC under the site's record key over
the board's players, result, confirmation, warnings and its record's head
(``weiqi.store.seals``). The standings and pages count a board only when its seal holds.

The seal needs the site's key, which this migration does not have (it lives outside the
database, ``weiqi.store.site_key``): the first start after it seals the boards already stored,
each after its record verifies and agrees with the board (``stored_seals.seal_stored_boards``).

Columns are only added (a copy of ``event_games`` or ``team_games`` would cascade).

Revision ID: 0014
Revises: 0013
Create Date: 2027-03-10 10:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

_TABLES = ("event_games", "team_games")


def upgrade() -> None:
    for table in _TABLES:
        op.add_column(table, sa.Column("seal", sa.String(length=64), nullable=True))


def downgrade() -> None:
    for table in _TABLES:
        with op.batch_alter_table(table, recreate="never") as batch_op:
            batch_op.drop_column("seal")
    op.execute("DELETE FROM site_settings WHERE key = 'board_seals'")
