"""Migration 0032 on SQLite and PostgreSQL: a team match's boards move from ``team_games`` into
``event_games`` beside the individual rounds' boards, and their records from
``team_game_records`` into ``game_records`` (issue #10, one competition model: one table for
the games of both kinds).

A database holding an individual event (a warning on a board not played yet), a team event (an
empty seat forfeited, a corrected result), a league division, a 擂台赛 (a warning on the game
in play) and a 全队轮赛制 match of two sittings with a komi of its own is taken back to 0031
and up again: every board reads the same by its event, round, match, sitting and board number
— its players, result, confirmation — and every record by the same key; a team board gets its
event's komi and no handicap. The comparisons are raw SQL, the same on both schemas.

A moved team board's id changes, and its seal and its record's signature cover the id: the
migration, which has no key, leaves them to the first start. Until then the moved boards do
not count (their seals do not hold for the new ids); that start seals and signs again each one
whose seal or signature held before — a board rewritten in the database stays refused — and a
downgrade after it keeps every seal holding under 0031's rules. A downgrade before that start
gives the team boards back their ids and the listings that start was to read (0031's
``moved_players``, 0026's ``stage_boards``). Boards stored after the upgrade get ids of their
own."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from alembic import command
from sqlalchemy import Connection, inspect, text

from tests.store.test_one_players_migration import _stage
from tests.store.test_one_rounds_migration import _individual
from tests.store.test_team_game_migration import LOCAL, T0, _division, _team_event
from weiqi.errors import InputError
from weiqi.league.settings import TeamEventSettings
from weiqi.league.team import TeamType
from weiqi.referee.record import GameRecord
from weiqi.referee.signature import Players, holds, record_key, signing_context
from weiqi.services import games, teams
from weiqi.services.events import create_event
from weiqi.services.games import TeamBoard
from weiqi.services.server_clock import ManualClock
from weiqi.store.database import Database
from weiqi.store.migrate import alembic_config, current_revision, head_revision
from weiqi.store.seals import board_labels, board_players
from weiqi.store.site_key import site_key

#: A board by what names it whatever its table and id: its event, round, match (``None``: an
#: individual board), sitting and board number.
Key = tuple[int, int, int | None, int, int]

ROTATION_KOMI = Fraction(13, 2)


def _rotation(db: Database) -> int:
    """A 全队轮赛制 match of two teams of two (two sittings, the colours swapping: the home
    team plays White in the second), komi 6½, every game played."""
    ev = create_event(
        db,
        LOCAL,
        "轮赛",
        TeamEventSettings(boards=2, team_type=TeamType.ROTATION, komi=ROTATION_KOMI),
    ).id
    teams.import_teams(db, LOCAL, ev, "team,name,rank\nA,A1,5p\nA,A2,4p\nB,B1,5p\nB,B2,4p\n")
    teams.pair_round(db, LOCAL, ev)
    for t in "AB":
        teams.submit_lineup(db, LOCAL, ev, 1, t, [f"{t}1", f"{t}2"], clock=ManualClock(T0))
    teams.reveal_round(db, LOCAL, ev, 1, clock=ManualClock(T0))
    rows = [("A", 1, "B+R", 0), ("A", 2, "W+R", 0), ("A", 1, "W+R", 1), ("A", 2, "B+R", 1)]
    teams.record_results(db, LOCAL, ev, 1, rows)
    return ev


def _build(db: Database) -> dict[int, str]:
    """The events, through the services; each team event's komi as a board stores it."""
    individual = _individual(db)
    games.record_infraction(db, LOCAL, individual, 2, 1, "clock_before_move", "B")
    team_event = _team_event(db)
    games.correct_result(db, LOCAL, team_event, 1, TeamBoard(1, 1), "W+R", "记录表填错")
    division = _division(db)
    st = _stage(db)
    games.record_infraction(db, LOCAL, st, 1, TeamBoard(3, 1), "clock_before_move", "B")
    rotation = _rotation(db)
    default = str(TeamEventSettings().komi)
    return {team_event: default, division: default, st: default, rotation: str(ROTATION_KOMI)}


# -- the boards as stored, read by raw SQL from either schema -----------------------------------


@dataclass(frozen=True)
class Board:
    """One stored board, what its seal covers as that schema's rules say, and its record."""

    id: int
    black: int | None
    white: int | None
    home_color: str | None
    result: str | None
    confirmed: bool
    komi: str | None  # ``None``: a team board at 0031, which has none
    handicap: int | None
    seal: str | None
    labels: tuple[str, str]  # the seal's and the signature's
    players: Players  # as the seal covers them
    record: tuple[str, str, int, int, int] | None  # record_json, head, seq, warnings
    signature: str | None

    @property
    def warnings(self) -> tuple[int, int]:
        return (self.record[3], self.record[4]) if self.record is not None else (0, 0)

    @property
    def head(self) -> str | None:
        return self.record[1] if self.record is not None else None


def _split(connection: Connection) -> bool:
    """Whether the team boards have a table of their own (0031)."""
    return "team_games" in inspect(connection).get_table_names()


#: A board's record (``NULL`` without one), as ``c``.
_RECORD = "c.record_json, c.head, c.seq, c.black_warnings, c.white_warnings, c.signature"


def _record(values: Any) -> tuple[str, str, int, int, int] | None:
    if values[0] is None:
        return None
    record_json, head, seq, black, white = values
    return (record_json, head, seq, black, white)


def _rows(connection: Connection) -> list[tuple[Key, Board]]:
    if not _split(connection):  # 0032: one table, a team board with its match
        query = (
            "SELECT r.event_id, r.number, m.number, g.sitting, g.board, g.id, g.black_id, "
            "g.white_id, g.home_color, g.result, g.confirmed, g.komi, g.handicap, g.seal, "
            f"g.match_id, {_RECORD} FROM event_games g "
            "JOIN event_rounds r ON r.id = g.round_id "
            "LEFT JOIN team_matches m ON m.id = g.match_id "
            "LEFT JOIN game_records c ON c.game_id = g.id"
        )
        out = []
        for row in connection.execute(text(query)):
            event, number, match, sitting, board, gid, black, white, color = row[:9]
            result, confirmed, komi, handicap, seal, match_id = row[9:15]
            labels, players = board_labels(match_id is not None), board_players(black, white, color)
            out.append(
                (
                    (event, number, match, sitting, board),
                    Board(
                        gid, black, white, color, result, bool(confirmed), komi, handicap,
                        seal, labels, players, _record(row[15:20]), row[20],
                    ),
                )
            )  # fmt: skip
        return out
    out = []  # 0031: the individual boards, then the team boards by home and away
    individual = (
        "SELECT r.event_id, r.number, g.board, g.id, g.black_id, g.white_id, g.result, "
        f"g.confirmed, g.komi, g.handicap, g.seal, {_RECORD} FROM event_games g "
        "JOIN event_rounds r ON r.id = g.round_id "
        "LEFT JOIN game_records c ON c.game_id = g.id"
    )
    for row in connection.execute(text(individual)):
        event, number, board, gid, black, white, result, confirmed, komi, handicap = row[:10]
        labels, players = ("event_games", "game_records"), (black, white)
        out.append(
            (
                (event, number, None, 0, board),
                Board(
                    gid, black, white, None, result, bool(confirmed), komi, handicap, row[10],
                    labels, players, _record(row[11:16]), row[16],
                ),
            )
        )  # fmt: skip
    team = (
        "SELECT r.event_id, r.number, m.number, g.sitting, g.board, g.id, g.home_player_id, "
        f"g.away_player_id, g.home_color, g.result, g.confirmed, g.seal, {_RECORD} "
        "FROM team_games g JOIN team_matches m ON m.id = g.match_id "
        "JOIN event_rounds r ON r.id = m.round_id "
        "LEFT JOIN team_game_records c ON c.game_id = g.id"
    )
    for row in connection.execute(text(team)):
        event, number, match, sitting, board, gid, home, away, color = row[:9]
        result, confirmed, seal = row[9:12]
        black, white = (home, away) if color == "B" else (away, home)
        # a team board's seal at 0031: its home and away players and its home team's colour
        labels, players = ("team_games", "team_game_records"), (home, away, color)
        out.append(
            (
                (event, number, match, sitting, board),
                Board(
                    gid, black, white, color, result, bool(confirmed), None, None, seal,
                    labels, players, _record(row[12:17]), row[17],
                ),
            )
        )  # fmt: skip
    return out


def _boards(db: Database) -> dict[Key, Board]:
    with db.engine.connect() as connection:
        rows = _rows(connection)
    boards = dict(rows)
    assert len(boards) == len(rows)  # the natural key names one board
    return boards


def _players(db: Database) -> dict[int, tuple[str, str | None]]:
    with db.engine.connect() as connection:
        rows = connection.execute(text("SELECT id, name, player_code FROM event_players"))
        return {pid: (name, code) for pid, name, code in rows}


def _snapshot(db: Database) -> tuple[dict[Key, tuple[object, ...]], dict[Key, object]]:
    """What each board says (its players by name and code, not id) and each record, by key;
    a team board's komi and handicap left out (0031 has none)."""
    players = _players(db)

    def who(pid: int | None) -> tuple[str, str | None] | None:
        return None if pid is None else players[pid]

    boards = _boards(db)
    said: dict[Key, tuple[object, ...]] = {
        key: (
            who(b.black),
            who(b.white),
            b.home_color,
            b.result,
            b.confirmed,
            b.komi if key[2] is None else None,
            b.handicap if key[2] is None else None,
        )
        for key, b in boards.items()
    }
    records: dict[Key, object] = {k: b.record for k, b in boards.items() if b.record is not None}
    return said, records


def _secret_key(db: Database) -> bytes:
    secret = site_key(db.engine).secret
    assert secret is not None
    return record_key(secret)


def _holding(db: Database) -> dict[Key, bool]:
    """Whether each board counts: its seal holds under the schema's rules (or it was never
    played), as the standings check it."""
    key = _secret_key(db)
    return {
        k: holds(
            key,
            b.labels[0],
            b.id,
            b.players,
            b.result,
            b.confirmed,
            b.warnings,
            b.head,
            b.seal,
        )
        for k, b in _boards(db).items()
    }


def _verifying(db: Database) -> dict[Key, bool]:
    """Whether each board's record verifies where it is stored (its signature included)."""
    key = _secret_key(db)
    out = {}
    for k, b in _boards(db).items():
        if b.record is None:
            continue
        try:
            GameRecord.from_json(
                b.record[0],
                b.record[1],
                key=key,
                signature=b.signature,
                context=signing_context(b.labels[1], b.id),
            )
        except InputError:
            out[k] = False
        else:
            out[k] = True
    return out


# -- the migrations and their listings -----------------------------------------------------------


def _to(db: Database, revision: str, *, down: bool = False) -> None:
    """Up or down to ``revision`` without a start (no key, no hook)."""
    with db.engine.begin() as connection:
        move = command.downgrade if down else command.upgrade
        move(alembic_config(connection), revision)
    assert current_revision(db.engine) == revision


def _setting(db: Database, key: str) -> Any:
    with db.engine.connect() as connection:
        value = connection.execute(
            text("SELECT value FROM site_settings WHERE key = :key"), {"key": key}
        ).scalar()
    return json.loads(value) if value is not None else None


def _max_game_id(db: Database) -> int:
    with db.engine.connect() as connection:
        return int(
            connection.execute(text("SELECT COALESCE(MAX(id), 0) FROM event_games")).scalar_one()
        )


def _tamper(db: Database) -> tuple[Key, Key]:
    """At 0031, rewrite one sealed team board's result and one team record's signature in the
    database, as someone without the key would: both refused, before the move and after."""
    boards = _boards(db)
    team = sorted((b.id, k) for k, b in boards.items() if k[2] is not None)
    board = next(k for _, k in team if boards[k].seal is not None and boards[k].result == "B+R")
    record = next(k for _, k in reversed(team) if boards[k].signature is not None)
    with db.engine.begin() as connection:
        connection.execute(
            text("UPDATE team_games SET result = 'W+R' WHERE id = :id"), {"id": boards[board].id}
        )
        connection.execute(
            text("UPDATE team_game_records SET signature = :s WHERE game_id = :id"),
            {"s": "0" * 64, "id": boards[record].id},
        )
    return board, record


def _check_schema(db: Database, *, split: bool) -> None:
    tables = inspect(db.engine)
    names = set(tables.get_table_names())
    columns = {c["name"]: c for c in tables.get_columns("event_games")}
    indexes = {
        i["name"]: i
        for i in tables.get_indexes("event_games")
        if "duplicates_constraint" not in i  # (PostgreSQL: a unique constraint's own index)
    }
    uniques = {u["name"] for u in tables.get_unique_constraints("event_games")}
    if split:
        assert {"team_games", "team_game_records"} <= names
        assert not {"match_id", "sitting", "home_color"} & set(columns)
        assert not columns["black_id"]["nullable"] and not columns["white_id"]["nullable"]
        assert "uq_event_games_round_id_board" in uniques
        assert set(indexes) == {"ix_event_games_round_id"}
        return
    assert not {"team_games", "team_game_records"} & names
    assert {"match_id", "sitting", "home_color"} <= set(columns)
    assert columns["black_id"]["nullable"] and columns["white_id"]["nullable"]
    assert "uq_event_games_round_id_board" not in uniques
    assert {"ix_event_games_match_id", "uq_event_games_round_board"} <= set(indexes)
    assert indexes["uq_event_games_match_board"]["unique"]
    assert indexes["uq_event_games_match_board"]["column_names"] == ["match_id", "sitting", "board"]


def _round_trip(db: Database, komis: dict[int, str]) -> None:
    """From a database at 0031 built with the services (one board and one record rewritten
    there): up, the first start, down again — everything read by raw SQL."""
    board, record = _tamper(db)
    before = _snapshot(db)
    held, verified = _holding(db), _verifying(db)
    # at 0031 every seal holds and every record verifies, but what was rewritten
    assert [k for k, ok in held.items() if not ok] == [board]
    assert [k for k, ok in verified.items() if not ok] == [record]
    assert all(b.seal is not None for b in _boards(db).values() if b.result is not None)
    ids = {k: b.id for k, b in _boards(db).items()}
    individual = {k: i for k, i in ids.items() if k[2] is None}
    team = {k: i for k, i in ids.items() if k[2] is not None}
    sealed = {ids[k] for k, b in _boards(db).items() if k[2] is not None and b.seal is not None}
    signed = {
        ids[k] for k, b in _boards(db).items() if k[2] is not None and b.signature is not None
    }
    assert individual and team

    # up without a start: the team boards join event_games above every id, their records
    # follow, and their seals and signatures wait for the key
    _to(db, "0032")
    _check_schema(db, split=False)
    offset = max(individual.values())
    moved = _setting(db, "moved_games")
    assert moved == {
        "offset": offset,
        "sealed": sorted(sealed),
        "signed": sorted(signed),
        "players": None,
    }
    boards = _boards(db)
    assert {k: b.id for k, b in boards.items()} == {
        **individual,
        **{k: i + offset for k, i in team.items()},
    }
    said, records = _snapshot(db)
    assert (said, records) == before
    for (event, *_), b in boards.items():
        if event in komis:  # a team board: its event's komi, no handicap
            assert (b.komi, b.handicap) == (komis[event], 0)
    # until the start, the moved boards do not count, the individual ones still do
    pending = _holding(db)
    assert {k for k, ok in pending.items() if not ok} == {
        k for k in team if boards[k].seal is not None
    }
    assert {k for k, ok in _verifying(db).items() if not ok} == {
        k for k in team if boards[k].signature is not None
    }

    # the first start signs and seals again each moved board that held: all count as before
    db.upgrade()
    assert _setting(db, "moved_games") is None
    assert _holding(db) == held and _verifying(db) == verified
    assert _snapshot(db) == before

    # down after the start: the team boards keep their ids, their seals hold at 0031
    _to(db, "0031", down=True)
    _check_schema(db, split=True)
    assert _snapshot(db) == before
    assert {k: b.id for k, b in _boards(db).items()} == {
        **individual,
        **{k: i + offset for k, i in team.items()},
    }
    assert _holding(db) == held and _verifying(db) == verified


def _listings(db: Database) -> None:
    """At 0031, a database whose first start after 0026 and 0031 is still to come (taken down
    to 0025 and up again without a start): 0032 carries their listings, a downgrade gives them
    back, and the first start after 0032 does what theirs would have done."""
    _to(db, "0025", down=True)
    _to(db, "0031")
    stage_boards, moved_players = _setting(db, "stage_boards"), _setting(db, "moved_players")
    assert stage_boards and moved_players and moved_players["boards"]
    before = _snapshot(db)
    ids = {k: b.id for k, b in _boards(db).items()}
    offset = max(i for k, i in ids.items() if k[2] is None)

    _to(db, "0032")
    assert _setting(db, "moved_players") is None
    assert _setting(db, "moved_games")["players"] == moved_players
    assert _setting(db, "stage_boards") == [i + offset for i in stage_boards]
    _to(db, "0031", down=True)  # before the start: the old ids, the listings as they were
    assert {k: b.id for k, b in _boards(db).items()} == ids
    assert _setting(db, "moved_games") is None
    assert _setting(db, "moved_players") == moved_players
    assert _setting(db, "stage_boards") == stage_boards
    assert _snapshot(db) == before

    _to(db, "0032")
    db.upgrade()  # the first start: 0031's and 0026's work done on the moved boards
    for key in ("moved_games", "moved_players", "stage_boards"):
        assert _setting(db, key) is None
    boards = _boards(db)
    held = _holding(db)
    refused = [k for k, ok in held.items() if not ok]
    assert len(refused) == 1 and boards[refused[0]].result == "W+R"  # rewritten at 0031
    assert sum(not ok for ok in _verifying(db).values()) == 1  # the rewritten signature
    stage = {k for k in boards if boards[k].id in {i + offset for i in stage_boards}}
    assert stage and all(boards[k].seal is not None and held[k] for k in stage)


def test_0032_moves_the_team_boards_into_the_games_table_and_back(database_url: str) -> None:
    db = Database(database_url)
    db.upgrade()
    komis = _build(db)
    _to(db, "0031", down=True)
    _check_schema(db, split=True)
    _round_trip(db, komis)
    _listings(db)
    assert current_revision(db.engine) == head_revision()

    # a board stored after the move gets a new id (PostgreSQL's sequence follows the moved
    # ids), an individual and a team board alike
    highest = _max_game_id(db)
    again = (_individual(db), _team_event(db))
    with db.engine.connect() as connection:
        fresh = (
            connection.execute(
                text(
                    "SELECT g.id FROM event_games g JOIN event_rounds r ON r.id = g.round_id "
                    "WHERE r.event_id IN (:a, :b)"
                ),
                {"a": again[0], "b": again[1]},
            )
            .scalars()
            .all()
        )
    assert len(fresh) == 4 + 8 and min(fresh) > highest
    # a moved board is refereed like any other: corrected again, sealed over its new id
    rotation = next(ev for ev, komi in komis.items() if komi == str(ROTATION_KOMI))
    # (its match's last board, sitting 1 board 2, is the record rewritten at 0031: refused)
    games.correct_result(db, LOCAL, rotation, 1, TeamBoard(1, 1, 1), "W+R", "记录表填错")
    held = _holding(db)
    assert all(ok for k, ok in held.items() if k[0] in (rotation, *again))
    db.dispose()
