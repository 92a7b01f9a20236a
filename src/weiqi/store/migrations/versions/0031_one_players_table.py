"""one players table: a team's roster players join the event's players in ``event_players``

A player of an event was stored in one of two tables by its event's kind: ``event_players``
(an individual event's entrants) and ``team_roster`` (a team event's players, each on a team).
Every reader of "the players of an event" asked twice, and every table that names a player
had two columns for it: an account link and an entry claim named an entrant (``player_id``)
or a roster player (``roster_id``), exactly one of the two. A team's players are the event's
players: one table now holds both, a team player with its team (``team_id``), its place on
the roster (``position``), its id in lineups and files (``player_code``), whether it is a 外援
(``foreign``) or protected in a draft, and its place in the team's declared order
(``declared_position``). Every reference follows: a team board's two players, a lineup's
boards, an account link and an entry claim name ``event_players`` rows, and the last two have
one column for it again (``player_id``, never empty).

A roster player keeps nothing of its old id: it gets ``id + offset`` above every id of both
tables, and every row that named it follows. Its country is the roster's nationality; its
``identity_key`` (unique per event) is the digest of its player code and its team, which no
two players of a team share.

A team board's seal covers its players' ids (``store.seals``), so moving them breaks every
sealed team board. Sealing takes the site's key, which this migration does not have (it is
kept outside the database): the offset and the sealed boards wait in
``site_settings.moved_players`` for the first start, which seals again each board whose seal
held for the old ids (``stored_seals.reseal_moved_players``); one that did not hold stays refused.

SQLite keeps foreign keys on while migrating (``store.database``), and dropping or rebuilding
a table then deletes every row that refers to it, through ``ON DELETE CASCADE``: a board's
record with its board. So its checks are deferred to the commit (``defer_foreign_keys``), and
a table is rebuilt only while the rows that refer to it point elsewhere (:func:`_rebuild`).

Downgrade: the team players go back to ``team_roster`` under their ``event_players`` ids, the
ids the boards' seals cover once the first start has sealed them again; before that start,
under their ids of 0030 (``id - offset``), the ids their seals still cover. Either way every
seal holds at 0030 as it did here, and nothing is sealed again.

Revision ID: 0031
Revises: 0030
Create Date: 2026-12-07 07:00:00.000000
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic import op
from alembic.operations import BatchOperations

revision = "0031"
down_revision = "0030"
branch_labels = None
depends_on = None

#: The ``site_settings`` key of the moved ids' offset and the team boards sealed over the old
#: ones, sealed again on the first start (``stored_seals.reseal_moved_players``).
KEY = "moved_players"

#: A team player's own columns, as they are in ``event_players``.
TEAM_COLUMNS = ("team_id", "position", "player_code", "foreign", "protected", "declared_position")

#: The columns of a team board and a lineup's board that name a player.
BOARD_PLAYERS = {
    "team_games": ("home_player_id", "away_player_id"),
    "team_lineup_boards": ("player_id",),
}

#: The tables whose rows name a player once as an entrant (``player_id``), once as a roster
#: player (``roster_id``); the account link's ``player_id`` is unique, the claim's is not.
LINKS = ("event_player_accounts", "entry_claims")

#: Each table this migration rebuilds on SQLite, and the (table, column) that refer to it.
REFERRERS: dict[str, list[tuple[str, str]]] = {
    "event_players": [
        ("event_games", "black_id"),
        ("event_games", "white_id"),
        ("event_byes", "player_id"),
        ("event_player_absences", "player_id"),
        ("event_player_accounts", "player_id"),
        ("entry_claims", "player_id"),
    ],
    "team_games": [("team_game_records", "game_id")],
    "team_lineup_boards": [],
    "event_player_accounts": [],
    "entry_claims": [],
}

#: ``team_roster`` and ``event_players`` as this migration reads and writes them (typed: a
#: date and a flag read back on SQLite as they were written).
_ROSTER = sa.table(
    "team_roster",
    *(sa.column(c, sa.Integer()) for c in ("id", "team_id", "position", "rating")),
    *(sa.column(c, sa.String()) for c in ("player_code", "name", "rank", "nationality")),
    sa.column("birth_date", sa.Date()),
    sa.column("foreign", sa.Boolean()),
    sa.column("protected", sa.Boolean()),
    sa.column("declared_position", sa.Integer()),
)
_PLAYERS = sa.table(
    "event_players",
    *(sa.column(c, sa.Integer()) for c in ("id", "event_id", "team_id", "position")),
    *(sa.column(c, sa.String()) for c in ("identity_key", "name", "licence", "rank", "club")),
    *(sa.column(c, sa.String()) for c in ("country", "region", "extra_json", "player_code")),
    sa.column("rating", sa.Float()),
    sa.column("birth_date", sa.Date()),
    *(sa.column(c, sa.Integer()) for c in ("withdrawn_after", "joined_round", "warnings")),
    sa.column("mcmahon_correction", sa.Integer()),
    sa.column("foreign", sa.Boolean()),
    sa.column("protected", sa.Boolean()),
    sa.column("declared_position", sa.Integer()),
)


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


def _alter(table: str, change: Callable[[BatchOperations], None]) -> None:
    """``change`` to ``table``: a rebuild on SQLite, ALTER statements on PostgreSQL."""
    if _sqlite():
        _rebuild(table, change)
    else:
        with op.batch_alter_table(table) as batch:
            change(batch)


def _reset_ids(table: str) -> None:
    """PostgreSQL: the next id of ``table`` after the ids written here by hand (1 for an empty
    table: a new database's first player is player 1, as on SQLite)."""
    if not _sqlite():
        op.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
            f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
        )


def _identity_key(player_code: str, team_id: int) -> str:
    """A team player's ``identity_key``: ``weiqi.tournament.namesakes.identity_key`` of its
    player code with its team as the licence, written out here so that this migration stores
    what it stores whatever that function becomes."""
    parts = (player_code, "", "", f"team {team_id}")
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()


def _max_id(table: str) -> int:
    return int(
        op.get_bind().execute(sa.text(f"SELECT COALESCE(MAX(id), 0) FROM {table}")).scalar_one()
    )


def _shift_boards(by: int) -> None:
    """Add ``by`` to every player a team board or a lineup's board names (none stays none)."""
    if by == 0:
        return
    for table, columns in BOARD_PLAYERS.items():
        moved = ", ".join(f"{c} = {c} + :by" for c in columns)
        op.execute(sa.text(f"UPDATE {table} SET {moved}").bindparams(by=by))


def _point_boards_at(parent: str, old: str) -> None:
    """SQLite: rebuild the team boards and the lineups' boards with their players referring to
    ``parent``'s rows, not ``old``'s (their ids already are ``parent``'s)."""
    for table, columns in BOARD_PLAYERS.items():

        def change(
            batch: BatchOperations, table: str = table, columns: tuple[str, ...] = columns
        ) -> None:
            for column in columns:
                batch.drop_constraint(f"fk_{table}_{column}_{old}", type_="foreignkey")
                batch.create_foreign_key(
                    f"fk_{table}_{column}_{parent}", parent, [column], ["id"], ondelete="CASCADE"
                )

        _rebuild(table, change)


def _move_boards(parent: str, old: str, by: int) -> None:
    """Add ``by`` to the players of the team boards and lineups, now ``parent``'s rows."""
    if _sqlite():  # its checks wait for the commit: the ids move first, the tables after
        _shift_boards(by)
        _point_boards_at(parent, old)
        return
    # PostgreSQL checks each statement: the references go before the ids move
    for table, columns in BOARD_PLAYERS.items():
        for column in columns:
            op.drop_constraint(f"fk_{table}_{column}_{old}", table, type_="foreignkey")
    _shift_boards(by)
    for table, columns in BOARD_PLAYERS.items():
        for column in columns:
            op.create_foreign_key(
                f"fk_{table}_{column}_{parent}",
                table,
                parent,
                [column],
                ["id"],
                ondelete="CASCADE",
            )


def _check_name(table: str) -> str:
    # op.f: the check constraints' naming convention would add its prefix once more
    return op.f(f"ck_{table}_entrant_or_roster_player")


def _copy_roster(offset: int) -> None:
    """Every roster player into ``event_players`` under ``id + offset``, with its team's event."""
    bind = op.get_bind()
    teams = sa.table("teams", sa.column("id", sa.Integer()), sa.column("event_id", sa.Integer()))
    rows = bind.execute(
        sa.select(_ROSTER, teams.c.event_id)
        .join(teams, teams.c.id == _ROSTER.c.team_id)
        .order_by(_ROSTER.c.id)
    ).mappings()
    players: list[dict[str, Any]] = [
        {
            "id": r["id"] + offset,
            "event_id": r["event_id"],
            "identity_key": _identity_key(r["player_code"], r["team_id"]),
            "name": r["name"],
            "licence": "",
            "rank": r["rank"],
            "rating": float(r["rating"]),
            "club": "",
            "country": r["nationality"],
            "region": "",
            "birth_date": r["birth_date"],
            "extra_json": "{}",
            "withdrawn_after": None,
            "joined_round": 1,
            "warnings": 0,
            "mcmahon_correction": 0,
            **{c: r[c] for c in TEAM_COLUMNS},
        }
        for r in rows
    ]
    if players:  # a roster is a few dozen players: one statement, its rows bound
        bind.execute(sa.insert(_PLAYERS), players)


def _record_sealed_boards(offset: int) -> None:
    """Name the sealed team boards and the offset for the first start to seal again."""
    bind = op.get_bind()
    boards = list(
        bind.execute(
            sa.text("SELECT id FROM team_games WHERE seal IS NOT NULL ORDER BY id")
        ).scalars()
    )
    if boards:
        bind.execute(
            sa.text("INSERT INTO site_settings (key, value) VALUES (:key, :value)"),
            {"key": KEY, "value": json.dumps({"offset": offset, "boards": boards})},
        )


def upgrade() -> None:
    if _sqlite():
        _defer_foreign_keys()

    def add_team_columns(batch: BatchOperations) -> None:
        batch.add_column(sa.Column("team_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("position", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("player_code", sa.String(200), nullable=True))
        for flag in ("foreign", "protected"):
            batch.add_column(
                sa.Column(flag, sa.Boolean(), nullable=False, server_default=sa.false())
            )
        batch.add_column(sa.Column("declared_position", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_event_players_team_id_teams", "teams", ["team_id"], ["id"], ondelete="CASCADE"
        )
        batch.create_unique_constraint(
            "uq_event_players_team_id_player_code", ["team_id", "player_code"]
        )

    _alter("event_players", add_team_columns)
    op.create_index("ix_event_players_team_id", "event_players", ["team_id"], unique=False)
    # an index, not a constraint: as the roster's was (migration 0009)
    op.create_index(
        "ix_event_players_team_id_declared_position",
        "event_players",
        ["team_id", "declared_position"],
        unique=True,
    )
    # above every id of both tables: a moved board never names a roster id still there
    offset = max(_max_id("event_players"), _max_id("team_roster"))
    _copy_roster(offset)
    _move_boards("event_players", "team_roster", offset)

    for table in LINKS:
        # one statement sets the one and clears the other: the check holds at every row
        op.execute(
            sa.text(
                f"UPDATE {table} SET player_id = roster_id + :o, roster_id = NULL "
                "WHERE roster_id IS NOT NULL"
            ).bindparams(o=offset)
        )

        def drop_roster_id(batch: BatchOperations, table: str = table) -> None:
            batch.drop_constraint(_check_name(table), type_="check")
            batch.drop_constraint(f"fk_{table}_roster_id_team_roster", type_="foreignkey")
            if table == "event_player_accounts":
                batch.drop_constraint(f"uq_{table}_roster_id", type_="unique")
            batch.drop_column("roster_id")
            batch.alter_column("player_id", existing_type=sa.Integer(), nullable=False)

        _alter(table, drop_roster_id)

    _record_sealed_boards(offset)
    # nothing refers to the roster any more: dropping it deletes nothing else
    op.drop_index("ix_team_roster_team_id_declared_position", table_name="team_roster")
    op.drop_index("ix_team_roster_team_id", table_name="team_roster")
    op.drop_table("team_roster")
    _reset_ids("event_players")


def _unsealed_offset() -> int:
    """The offset of the ids the first start after the upgrade has not sealed the boards over
    yet (0 once it has): each team player then goes back under ``id - offset``, the id its
    boards' seals still cover. (A team player added since is above the offset as well.)"""
    bind = op.get_bind()
    moved = bind.execute(
        sa.text("SELECT value FROM site_settings WHERE key = :key"), {"key": KEY}
    ).scalar()
    if moved is None:
        return 0
    offset = int(json.loads(moved)["offset"])
    lowest = bind.execute(
        sa.text("SELECT MIN(id) FROM event_players WHERE team_id IS NOT NULL")
    ).scalar()
    return offset if lowest is not None and lowest > offset else 0


def downgrade() -> None:
    if _sqlite():
        _defer_foreign_keys()
    shift = _unsealed_offset()
    op.create_table(
        "team_roster",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("team_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("player_code", sa.String(length=200), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("rank", sa.String(length=16), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("nationality", sa.String(length=100), nullable=False),
        sa.Column("foreign", sa.Boolean(), nullable=False),
        sa.Column("protected", sa.Boolean(), nullable=False),
        sa.Column("declared_position", sa.Integer(), nullable=True),
        sa.Column("birth_date", sa.Date(), nullable=True),
        sa.ForeignKeyConstraint(
            ["team_id"], ["teams.id"], name="fk_team_roster_team_id_teams", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_team_roster"),
        sa.UniqueConstraint("team_id", "player_code", name="uq_team_roster_team_id_player_code"),
    )
    op.create_index("ix_team_roster_team_id", "team_roster", ["team_id"], unique=False)
    op.create_index(
        "ix_team_roster_team_id_declared_position",
        "team_roster",
        ["team_id", "declared_position"],
        unique=True,
    )
    # a roster's columns are never empty: what a team player may leave empty is filled
    op.execute(
        sa.text(
            "INSERT INTO team_roster (id, team_id, position, player_code, name, rank, rating, "
            'nationality, "foreign", protected, declared_position, birth_date) '
            "SELECT id - :s, team_id, COALESCE(position, 0), COALESCE(player_code, name), name, "
            "COALESCE(rank, ''), CAST(ROUND(COALESCE(rating, 0)) AS INTEGER), country, "
            '"foreign", protected, declared_position, birth_date '
            "FROM event_players WHERE team_id IS NOT NULL"
        ).bindparams(s=shift)
    )
    _move_boards("team_roster", "event_players", -shift)

    team_players = "SELECT id FROM event_players WHERE team_id IS NOT NULL"
    for table in LINKS:

        def add_roster_id(batch: BatchOperations, table: str = table) -> None:
            batch.add_column(sa.Column("roster_id", sa.Integer(), nullable=True))
            batch.alter_column("player_id", existing_type=sa.Integer(), nullable=True)
            batch.create_foreign_key(
                f"fk_{table}_roster_id_team_roster",
                "team_roster",
                ["roster_id"],
                ["id"],
                ondelete="CASCADE",
            )
            if table == "event_player_accounts":
                batch.create_unique_constraint(f"uq_{table}_roster_id", ["roster_id"])
            batch.create_check_constraint(
                _check_name(table), "(player_id IS NULL) <> (roster_id IS NULL)"
            )

        _alter(table, add_roster_id)
        op.execute(
            sa.text(
                f"UPDATE {table} SET roster_id = player_id - :s, player_id = NULL "
                f"WHERE player_id IN ({team_players})"
            ).bindparams(s=shift)
        )
    # nothing refers to a team player any more: deleting them deletes nothing else
    op.execute("DELETE FROM event_players WHERE team_id IS NOT NULL")

    def drop_team_columns(batch: BatchOperations) -> None:
        batch.drop_constraint("uq_event_players_team_id_player_code", type_="unique")
        batch.drop_constraint("fk_event_players_team_id_teams", type_="foreignkey")
        for name in TEAM_COLUMNS:
            batch.drop_column(name)

    op.drop_index("ix_event_players_team_id_declared_position", table_name="event_players")
    op.drop_index("ix_event_players_team_id", table_name="event_players")
    _alter("event_players", drop_team_columns)
    op.execute(sa.text("DELETE FROM site_settings WHERE key = :key").bindparams(key=KEY))
    _reset_ids("team_roster")
