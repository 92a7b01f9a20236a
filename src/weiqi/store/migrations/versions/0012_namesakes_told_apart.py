"""namesakes told apart

Two players of one event may share a name (two 张伟 from different clubs): the club, the birth
date or a new ``licence`` column (an explicit ID, such as a federation number) tells them
apart. The unique constraint over ``(event_id, name)`` becomes one over the digest of the four
(``identity_key``, see ``weiqi.tournament.namesakes``), so the same player still cannot be
entered twice.

SQLite cannot drop a constraint without copying the table, and dropping a copied
``event_players`` would cascade to every game and bye that refers to it (foreign keys are on).
So the column ``name`` is renamed to ``identity_key`` (ALTER TABLE … RENAME COLUMN, on
PostgreSQL too: the constraint follows the column and keeps its name), a new ``name`` column
takes the names, and ``identity_key`` each player's digest.

Downgrading is refused while an event has namesakes (the old constraint cannot hold them).

Revision ID: 0012
Revises: 0011
Create Date: 2027-02-01 10:00:00.000000
"""

from __future__ import annotations

from datetime import date

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def _born(value: object) -> date | None:
    """A birth date as either database returns it (SQLite: text; PostgreSQL: a date)."""
    if value is None or isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])


def upgrade() -> None:
    # the digest of this version of the core (the same function the services store with)
    from weiqi.tournament.namesakes import identity_key

    op.execute("ALTER TABLE event_players RENAME COLUMN name TO identity_key")
    op.add_column(
        "event_players", sa.Column("name", sa.String(200), nullable=False, server_default="")
    )
    op.add_column(
        "event_players", sa.Column("licence", sa.String(64), nullable=False, server_default="")
    )
    bind = op.get_bind()
    rows = bind.execute(
        sa.text("SELECT id, identity_key, club, birth_date FROM event_players")
    ).all()
    for pid, name, club, born in rows:
        bind.execute(
            sa.text("UPDATE event_players SET name = :name, identity_key = :key WHERE id = :id"),
            {"name": name, "key": identity_key(name, club or "", _born(born), ""), "id": pid},
        )


def downgrade() -> None:
    bind = op.get_bind()
    shared = bind.execute(
        sa.text(
            "SELECT event_id, name FROM event_players GROUP BY event_id, name "
            "HAVING count(*) > 1 ORDER BY event_id, name"
        )
    ).first()
    if shared is not None:
        raise RuntimeError(
            f"event {shared[0]} has two players called {shared[1]!r}: rename one before "
            "downgrading below revision 0012"
        )
    bind.execute(sa.text("UPDATE event_players SET identity_key = name"))
    # plain ALTER TABLE … DROP COLUMN: never a copy of a table others refer to (see above)
    with op.batch_alter_table("event_players", recreate="never") as batch_op:
        batch_op.drop_column("licence")
        batch_op.drop_column("name")
    op.execute("ALTER TABLE event_players RENAME COLUMN identity_key TO name")
