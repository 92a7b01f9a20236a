"""one rounds table: a team event's rounds join the individual events' in ``event_rounds``

A round was stored in one of two tables by its event's kind: ``event_rounds`` (an individual
event's: published, its pairing's explanation, its start) and ``team_rounds`` (a team event's:
its date on the league calendar, start, lineup deadline, reveal and the team with the bye).
Every reader of "the rounds of an event" asked twice (the event list, the online games'
scheduled starts, the seals). One table now holds both; a team event's round has its matches
(``team_matches``) and lineups (``team_lineups``) under it where an individual event's has its
games and byes, and ``published`` is true from its pairing (the public has always seen a team
round's matches at once; its boards, from the reveal).

A team round keeps nothing of its old id: it gets ``id + offset`` above every id of both
tables, and its matches and lineups follow it.

SQLite keeps foreign keys on while migrating (``store.database``), and dropping or rebuilding
a table then deletes every row that refers to it, through ``ON DELETE CASCADE``: a team
match's boards with it. So its checks are deferred to the commit (``defer_foreign_keys``), and
a table is rebuilt only while the rows that refer to it point elsewhere (:func:`_rebuild`).

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-06 13:30:00.000000
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import sqlalchemy as sa
from alembic import op
from alembic.operations import BatchOperations

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None

#: A team round's own columns, as they were in ``team_rounds`` and are now in ``event_rounds``.
TEAM_COLUMNS = ("date", "lineup_deadline", "revealed_at", "bye_team_id")

#: The tables under a round of a team event (their ``round_id`` moves to the one table).
UNDER_A_TEAM_ROUND = ("team_matches", "team_lineups")

#: Each table this migration rebuilds on SQLite, and the (table, column) that refer to it.
REFERRERS = {
    "team_matches": [("team_games", "match_id")],
    "team_lineups": [("team_lineup_boards", "lineup_id")],
    "event_rounds": [("event_games", "round_id"), ("event_byes", "round_id")],
}


def _sqlite() -> bool:
    return op.get_bind().dialect.name == "sqlite"


def _defer_foreign_keys() -> None:
    """SQLite: check foreign keys at the commit, not statement by statement. The pragma holds
    only inside a transaction, and the driver opens one at the first write: this writes."""
    op.execute("UPDATE alembic_version SET version_num = version_num")
    op.execute("PRAGMA defer_foreign_keys = ON")


def _rebuild(table: str, change: Callable[[BatchOperations], None]) -> None:
    """Rebuild SQLite ``table`` with ``change`` (batch mode copies it into a new table and drops
    the old one). The drop would delete, by cascade, every row that refers to the old table's
    rows: those rows point at negative ids meanwhile, which nothing holds, and back after."""
    for child, column in REFERRERS[table]:
        op.execute(f"UPDATE {child} SET {column} = -{column}")
    with op.batch_alter_table(table, recreate="always") as batch:
        change(batch)
    for child, column in REFERRERS[table]:
        op.execute(f"UPDATE {child} SET {column} = -{column}")


def _point_rounds_at(parent: str, old: str) -> None:
    """Make the tables under a team round refer to ``parent``'s rounds, not ``old``'s."""
    for table in UNDER_A_TEAM_ROUND:

        def change(batch: BatchOperations, table: str = table) -> None:
            batch.drop_constraint(f"fk_{table}_round_id_{old}", type_="foreignkey")
            batch.create_foreign_key(
                f"fk_{table}_round_id_{parent}", parent, ["round_id"], ["id"], ondelete="CASCADE"
            )

        if _sqlite():
            _rebuild(table, change)
        else:
            with op.batch_alter_table(table) as batch:
                change(batch)


def _shift(tables: Iterable[str], offset: int) -> None:
    """Add ``offset`` to the round of every row of ``tables``."""
    for table in tables:
        op.execute(sa.text(f"UPDATE {table} SET round_id = round_id + :o").bindparams(o=offset))


def _reset_ids(table: str) -> None:
    """PostgreSQL: the next id of ``table`` after the ids written here by hand."""
    if not _sqlite():
        op.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
            f"GREATEST((SELECT MAX(id) FROM {table}), 1))"
        )


def upgrade() -> None:
    bind = op.get_bind()
    if _sqlite():
        _defer_foreign_keys()

    def add_team_columns(batch: BatchOperations) -> None:
        batch.add_column(sa.Column("date", sa.Date(), nullable=True))
        for name in ("lineup_deadline", "revealed_at"):
            batch.add_column(sa.Column(name, sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("bye_team_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_event_rounds_bye_team_id_teams",
            "teams",
            ["bye_team_id"],
            ["id"],
            ondelete="CASCADE",
        )

    if _sqlite():
        _rebuild("event_rounds", add_team_columns)
    else:
        with op.batch_alter_table("event_rounds") as batch:
            add_team_columns(batch)
    # above every id of both tables: a moved match never points at a team round still there
    offset = bind.execute(
        sa.text(
            "SELECT MAX(COALESCE((SELECT MAX(id) FROM event_rounds), 0), "
            "COALESCE((SELECT MAX(id) FROM team_rounds), 0))"
            if _sqlite()
            else "SELECT GREATEST(COALESCE((SELECT MAX(id) FROM event_rounds), 0), "
            "COALESCE((SELECT MAX(id) FROM team_rounds), 0))"
        )
    ).scalar_one()
    op.execute(
        sa.text(
            "INSERT INTO event_rounds (id, event_id, number, seed, published, explanation_json, "
            "starts_at, date, lineup_deadline, revealed_at, bye_team_id) "
            "SELECT id + :o, event_id, number, seed, :published, '{}', starts_at, date, "
            "lineup_deadline, revealed_at, bye_team_id FROM team_rounds"
        ).bindparams(o=offset, published=True)
    )
    if _sqlite():
        _shift(UNDER_A_TEAM_ROUND, offset)
        _point_rounds_at("event_rounds", "team_rounds")
    else:
        # PostgreSQL checks each statement: the references go before the rows move
        for table in UNDER_A_TEAM_ROUND:
            op.drop_constraint(f"fk_{table}_round_id_team_rounds", table, type_="foreignkey")
        _shift(UNDER_A_TEAM_ROUND, offset)
        for table in UNDER_A_TEAM_ROUND:
            op.create_foreign_key(
                f"fk_{table}_round_id_event_rounds",
                table,
                "event_rounds",
                ["round_id"],
                ["id"],
                ondelete="CASCADE",
            )
    op.drop_index("ix_team_rounds_event_id", table_name="team_rounds")
    op.drop_table("team_rounds")
    _reset_ids("event_rounds")


def downgrade() -> None:
    if _sqlite():
        _defer_foreign_keys()
    op.create_table(
        "team_rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("date", sa.Date(), nullable=True),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lineup_deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revealed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("seed", sa.Integer(), nullable=True),
        sa.Column("bye_team_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["bye_team_id"],
            ["teams.id"],
            name="fk_team_rounds_bye_team_id_teams",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["event_id"], ["events.id"], name="fk_team_rounds_event_id_events", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_team_rounds"),
        sa.UniqueConstraint("event_id", "number", name="uq_team_rounds_event_id_number"),
    )
    op.create_index("ix_team_rounds_event_id", "team_rounds", ["event_id"], unique=False)
    team_events = "SELECT event_id FROM team_events"
    op.execute(
        "INSERT INTO team_rounds (id, event_id, number, date, starts_at, lineup_deadline, "
        "revealed_at, seed, bye_team_id) SELECT id, event_id, number, date, starts_at, "
        f"lineup_deadline, revealed_at, seed, bye_team_id FROM event_rounds "
        f"WHERE event_id IN ({team_events})"
    )
    if _sqlite():
        _point_rounds_at("team_rounds", "event_rounds")
    else:
        for table in UNDER_A_TEAM_ROUND:
            op.drop_constraint(f"fk_{table}_round_id_event_rounds", table, type_="foreignkey")
            op.create_foreign_key(
                f"fk_{table}_round_id_team_rounds",
                table,
                "team_rounds",
                ["round_id"],
                ["id"],
                ondelete="CASCADE",
            )
    op.execute(f"DELETE FROM event_rounds WHERE event_id IN ({team_events})")

    def drop_team_columns(batch: BatchOperations) -> None:
        batch.drop_constraint("fk_event_rounds_bye_team_id_teams", type_="foreignkey")
        for name in TEAM_COLUMNS:
            batch.drop_column(name)

    if _sqlite():
        _rebuild("event_rounds", drop_team_columns)
    else:
        with op.batch_alter_table("event_rounds") as batch:
            drop_team_columns(batch)
    _reset_ids("team_rounds")
