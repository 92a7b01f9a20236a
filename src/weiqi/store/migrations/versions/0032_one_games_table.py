"""one games table: a team match's boards join the individual rounds' boards in ``event_games``

A game was stored in one of two tables by its event's kind: ``event_games`` (an individual
round's boards, by Black and White) and ``team_games`` (a team match's boards, by home and away
player and the colour the home team plays), each with a table of records (``game_records``,
``team_game_records``) with the same columns. Every reader of "the games of a round" asked
twice. A team board is a board of its match's round: one table now holds both, a team board
with its match (``match_id``), its sitting and the colour its home team plays
(``home_color``); an individual board has no match. Both name their players by colour
(``black_id``, ``white_id``, either empty on a team board's empty seat), and a team board has
its event's komi and no handicap, as a team board is played. Its records join
``game_records``. A board is unique in its round (an individual board) or in its match's
sitting (a team board): two partial unique indexes, since the boards of two matches of a round
share their numbers.

An individual board keeps its id. A team board gets ``id + offset``, the offset being the
largest id of ``event_games`` before the move, and its record follows it.

A team board's seal covers its id and a record's signature the table and the id it is stored
under (``signing_context``). The seals and signatures keep naming a team board's kind by the
table it was first stored in (``stored_seals.board_labels``), so only the id changes; sealing
and signing take the site's key, which this migration does not have (it is kept outside the
database). The offset and the boards sealed and records signed under the old ids wait in
``site_settings.moved_games`` for the first start, which seals and signs again each one whose
seal or signature held for its old id (``stored_seals.reseal_moved_games``); one that did not
stays refused. What migration 0031 left for that start (``moved_players``: the team boards
sealed over the players' ids before 0031) is carried in the same listing and done by the same
hook; the boards of a 擂台赛 migration 0026 left unsigned (``stage_boards``) are listed under
their new ids.

SQLite keeps foreign keys on while migrating (``store.database``), and rebuilding a table then
deletes every row that refers to it, through ``ON DELETE CASCADE``: a board's record with its
board. So its checks are deferred to the commit (``defer_foreign_keys``), and ``event_games``
is rebuilt only while its records point elsewhere (:func:`_rebuild`).

Downgrade: the team boards and their records go back to ``team_games`` and
``team_game_records``, by home and away player again, under their ``event_games`` ids — the
ids their seals and signatures cover once the first start has sealed them again — or, before
that start, under their ids of 0031 (``id - offset``), the ids their seals still cover, with
the listings that start was to read given back. Either way every seal holds at 0031 as it did
here, and nothing is sealed again.

Revision ID: 0032
Revises: 0031
Create Date: 2026-12-07 10:00:00.000000
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import sqlalchemy as sa
from alembic import op
from alembic.operations import BatchOperations

revision = "0032"
down_revision = "0031"
branch_labels = None
depends_on = None

#: The ``site_settings`` key of the offset and of the team boards sealed and records signed
#: under the old ids, sealed and signed again on the first start
#: (``stored_seals.reseal_moved_games``).
KEY = "moved_games"
#: Migration 0031's listing for the first start, absorbed into :data:`KEY`.
PLAYERS = "moved_players"
#: Migration 0026's listing of the 擂台赛 boards to sign and seal on the first start.
STAGE = "stage_boards"

#: A team event's komi when its settings do not say (``TeamEventSettings.komi``: 3¾ stones).
DEFAULT_KOMI = Fraction(15, 4)

#: The (table, column) that refer to a row of ``event_games``, moved aside while SQLite
#: rebuilds it.
REFERRERS = [("game_records", "game_id")]

#: A record's columns, the same in both tables.
RECORD_COLUMNS = "record_json, head, signature, seq, black_warnings, white_warnings"

#: The old unique constraint of an individual round's boards.
ROUND_BOARD = "uq_event_games_round_id_board"


def _sqlite() -> bool:
    return op.get_bind().dialect.name == "sqlite"


def _defer_foreign_keys() -> None:
    """SQLite: check foreign keys at the commit, not statement by statement. The pragma holds
    only inside a transaction, and the driver opens one at the first write: this writes."""
    op.execute("UPDATE alembic_version SET version_num = version_num")
    op.execute("PRAGMA defer_foreign_keys = ON")


def _rebuild(change: Callable[[BatchOperations], None]) -> None:
    """Rebuild SQLite ``event_games`` with ``change`` (batch mode copies it into a new table and
    drops the old one). The drop would delete, by cascade, every record of a board: the
    records point at negative ids meanwhile, which nothing holds, and back after."""
    for child, column in REFERRERS:
        op.execute(f"UPDATE {child} SET {column} = -{column}")
    with op.batch_alter_table("event_games", recreate="always") as batch:
        change(batch)
    for child, column in REFERRERS:
        op.execute(f"UPDATE {child} SET {column} = -{column}")


def _alter(change: Callable[[BatchOperations], None]) -> None:
    """``change`` to ``event_games``: a rebuild on SQLite, ALTER statements on PostgreSQL."""
    if _sqlite():
        _rebuild(change)
    else:
        with op.batch_alter_table("event_games") as batch:
            change(batch)


def _reset_ids(table: str) -> None:
    """PostgreSQL: the next id of ``table`` after the ids written here by hand (1 for an empty
    table: a new database's first board is board 1, as on SQLite)."""
    if not _sqlite():
        op.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
            f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
        )


def _max_id(table: str) -> int:
    return int(
        op.get_bind().execute(sa.text(f"SELECT COALESCE(MAX(id), 0) FROM {table}")).scalar_one()
    )


def _setting(key: str) -> str | None:
    value = (
        op.get_bind()
        .execute(sa.text("SELECT value FROM site_settings WHERE key = :key"), {"key": key})
        .scalar()
    )
    return None if value is None else str(value)


def _set_setting(key: str, value: object) -> None:
    """Store ``value`` as JSON under ``key`` (replacing what was there)."""
    bind = op.get_bind()
    bind.execute(sa.text("DELETE FROM site_settings WHERE key = :key"), {"key": key})
    bind.execute(
        sa.text("INSERT INTO site_settings (key, value) VALUES (:key, :value)"),
        {"key": key, "value": json.dumps(value)},
    )


def _delete_setting(key: str) -> None:
    op.get_bind().execute(sa.text("DELETE FROM site_settings WHERE key = :key"), {"key": key})


def _komi(event_id: int) -> str:
    """A team event's komi as an individual board stores it (``str`` of a ``Fraction``): its
    settings' (``event_settings``, every event has some since 0029), else the default; read
    here so that this migration stores what it stores whatever the settings' code becomes."""
    stored = (
        op.get_bind()
        .execute(
            sa.text("SELECT settings_json FROM event_settings WHERE event_id = :e"),
            {"e": event_id},
        )
        .scalar()
    )
    value = json.loads(stored).get("komi") if stored else None
    return str(DEFAULT_KOMI if value is None else Fraction(str(value)))


# the colour a team board's home player plays: Black and White from home and away, and back
_BLACK = "CASE WHEN g.home_color = 'B' THEN g.home_player_id ELSE g.away_player_id END"
_WHITE = "CASE WHEN g.home_color = 'B' THEN g.away_player_id ELSE g.home_player_id END"
_HOME = "CASE WHEN home_color = 'B' THEN black_id ELSE white_id END"
_AWAY = "CASE WHEN home_color = 'B' THEN white_id ELSE black_id END"


def _copy_team_boards(offset: int) -> None:
    """Every team board into ``event_games`` under ``id + offset``, in its match's round, with
    its event's komi, and every team board's record into ``game_records`` after it."""
    bind = op.get_bind()
    events = list(
        bind.execute(
            sa.text(
                "SELECT DISTINCT r.event_id FROM team_games g "
                "JOIN team_matches m ON m.id = g.match_id "
                "JOIN event_rounds r ON r.id = m.round_id ORDER BY r.event_id"
            )
        ).scalars()
    )
    for event_id in events:
        bind.execute(
            sa.text(
                "INSERT INTO event_games (id, round_id, match_id, sitting, board, black_id, "
                "white_id, home_color, result, confirmed, handicap, komi, label, seal) "
                f"SELECT g.id + :o, m.round_id, g.match_id, g.sitting, g.board, {_BLACK}, "
                f"{_WHITE}, g.home_color, g.result, g.confirmed, 0, :komi, '', g.seal "
                "FROM team_games g JOIN team_matches m ON m.id = g.match_id "
                "JOIN event_rounds r ON r.id = m.round_id WHERE r.event_id = :e"
            ),
            {"o": offset, "komi": _komi(event_id), "e": event_id},
        )
    bind.execute(
        sa.text(
            f"INSERT INTO game_records (game_id, {RECORD_COLUMNS}) "
            f"SELECT game_id + :o, {RECORD_COLUMNS} FROM team_game_records"
        ),
        {"o": offset},
    )


def _list_for_first_start(offset: int) -> None:
    """Name what the first start is to seal and sign again under the new ids: the offset, the
    sealed boards and signed records by their old ids, and 0031's listing (absorbed); move
    0026's listing to the new ids."""
    bind = op.get_bind()
    boards = int(bind.execute(sa.text("SELECT COUNT(*) FROM team_games")).scalar_one())
    players = _setting(PLAYERS)
    if boards or players is not None:
        sealed = bind.execute(
            sa.text("SELECT id FROM team_games WHERE seal IS NOT NULL ORDER BY id")
        ).scalars()
        signed = bind.execute(
            sa.text(
                "SELECT game_id FROM team_game_records WHERE signature IS NOT NULL ORDER BY game_id"
            )
        ).scalars()
        _set_setting(
            KEY,
            {
                "offset": offset,
                "sealed": list(sealed),
                "signed": list(signed),
                "players": None if players is None else json.loads(players),
            },
        )
    _delete_setting(PLAYERS)
    _shift_stage_listing(offset)


def _shift_stage_listing(by: int) -> None:
    """Add ``by`` to every board of 0026's pending listing (if it is still pending)."""
    stage = _setting(STAGE)
    if stage is not None and by:
        _set_setting(STAGE, [gid + by for gid in json.loads(stage)])


def _partial_unique_indexes() -> None:
    """A board is unique in its round (individual) or in its match's sitting (team)."""
    for name, columns, where in (
        ("uq_event_games_round_board", ["round_id", "board"], "match_id IS NULL"),
        ("uq_event_games_match_board", ["match_id", "sitting", "board"], "match_id IS NOT NULL"),
    ):
        op.create_index(
            name,
            "event_games",
            columns,
            unique=True,
            sqlite_where=sa.text(where),
            postgresql_where=sa.text(where),
        )


def upgrade() -> None:
    if _sqlite():
        _defer_foreign_keys()
    # every id of event_games is below it: a moved team board never meets an individual one
    offset = _max_id("event_games")

    def add_team_columns(batch: BatchOperations) -> None:
        batch.drop_constraint(ROUND_BOARD, type_="unique")
        for column in ("black_id", "white_id"):  # a team board's empty seat
            batch.alter_column(column, existing_type=sa.Integer(), nullable=True)
        batch.add_column(sa.Column("match_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("sitting", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("home_color", sa.String(1), nullable=True))
        batch.create_foreign_key(
            "fk_event_games_match_id_team_matches",
            "team_matches",
            ["match_id"],
            ["id"],
            ondelete="CASCADE",
        )

    _alter(add_team_columns)
    op.create_index("ix_event_games_match_id", "event_games", ["match_id"], unique=False)
    _partial_unique_indexes()
    _copy_team_boards(offset)
    _list_for_first_start(offset)
    # the records first: dropping the boards would delete them by cascade on SQLite
    op.drop_table("team_game_records")
    op.drop_index("ix_team_games_match_id", table_name="team_games")
    op.drop_table("team_games")
    _reset_ids("event_games")


def _pending() -> dict[str, Any] | None:
    """The listing the first start after the upgrade has not read yet (``None`` once it has):
    each team board then goes back under ``id - offset``, the id its seal still covers (a team
    board stored since is above the offset as well)."""
    listed = _setting(KEY)
    return None if listed is None else dict(json.loads(listed))


def downgrade() -> None:
    if _sqlite():
        _defer_foreign_keys()
    pending = _pending()
    shift = int(pending["offset"]) if pending is not None else 0
    op.create_table(
        "team_games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("sitting", sa.Integer(), nullable=False),
        sa.Column("home_player_id", sa.Integer(), nullable=True),
        sa.Column("away_player_id", sa.Integer(), nullable=True),
        sa.Column("home_color", sa.String(length=1), nullable=False),
        sa.Column("result", sa.String(length=16), nullable=True),
        sa.Column("confirmed", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("seal", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["team_matches.id"],
            name="fk_team_games_match_id_team_matches",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_team_games"),
        sa.UniqueConstraint(
            "match_id", "sitting", "board", name="uq_team_games_match_id_sitting_board"
        ),
        sa.ForeignKeyConstraint(
            ["home_player_id"],
            ["event_players.id"],
            name="fk_team_games_home_player_id_event_players",
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["away_player_id"],
            ["event_players.id"],
            name="fk_team_games_away_player_id_event_players",
            ondelete="CASCADE",
        ),
    )
    op.create_index("ix_team_games_match_id", "team_games", ["match_id"], unique=False)
    op.create_table(
        "team_game_records",
        sa.Column("record_json", sa.Text(), nullable=False),
        sa.Column("head", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("black_warnings", sa.Integer(), nullable=False),
        sa.Column("white_warnings", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("signature", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["team_games.id"],
            name="fk_team_game_records_game_id_team_games",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name="pk_team_game_records"),
    )
    team_boards = "SELECT id FROM event_games WHERE match_id IS NOT NULL"
    op.execute(
        sa.text(
            "INSERT INTO team_games (id, match_id, board, sitting, home_player_id, "
            "away_player_id, home_color, result, confirmed, seal) "
            f"SELECT id - :s, match_id, board, sitting, {_HOME}, {_AWAY}, home_color, result, "
            f"confirmed, seal FROM event_games WHERE match_id IS NOT NULL"
        ).bindparams(s=shift)
    )
    op.execute(
        sa.text(
            f"INSERT INTO team_game_records (game_id, {RECORD_COLUMNS}) "
            f"SELECT game_id - :s, {RECORD_COLUMNS} FROM game_records "
            f"WHERE game_id IN ({team_boards})"
        ).bindparams(s=shift)
    )
    # the records first: deleting the boards would delete them by cascade anyway
    op.execute(f"DELETE FROM game_records WHERE game_id IN ({team_boards})")
    op.execute("DELETE FROM event_games WHERE match_id IS NOT NULL")

    def drop_team_columns(batch: BatchOperations) -> None:
        batch.drop_constraint("fk_event_games_match_id_team_matches", type_="foreignkey")
        for column in ("match_id", "sitting", "home_color"):
            batch.drop_column(column)
        for column in ("black_id", "white_id"):
            batch.alter_column(column, existing_type=sa.Integer(), nullable=False)
        batch.create_unique_constraint(ROUND_BOARD, ["round_id", "board"])

    for index in ("uq_event_games_match_board", "uq_event_games_round_board"):
        op.drop_index(index, table_name="event_games")
    op.drop_index("ix_event_games_match_id", table_name="event_games")
    _alter(drop_team_columns)

    if pending is not None:  # the first start's listings, as 0031 and 0026 left them
        if pending.get("players") is not None:
            _set_setting(PLAYERS, pending["players"])
        _shift_stage_listing(-shift)
        _delete_setting(KEY)
    _reset_ids("team_games")
