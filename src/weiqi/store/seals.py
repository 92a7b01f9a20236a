"""A board's seal: what the standings count of a board — who played it, its result and
confirmation, its players' warnings and the head of its record — signed under the site's record
key, so a result or a warning count rewritten in the database (``event_games.result``,
``game_records.black_warnings`` …) no longer counts.

A record's signature (``weiqi.referee.signature``) proves the record; the standings, though,
add up the columns beside it, kept so that a 2,500-board round need not replay 2,500 records.
The seal ties those columns to the record: written in the same transaction as the record
(``services.games``), checked by one HMAC a board when the boards are loaded — bounded cost,
no replay. A board whose seal does not hold counts as not played (its result and warnings
left out), and is named by ``weiqi record check`` and on the chief referee's dashboard.

A board that was never played (no result, no record) has no seal and needs none. A team board
with an empty seat is a forfeit at the reveal: sealed then, without a record.

>>> key = b"k" * 32
>>> s = board_seal(key, "event_games", 7, (3, 4), "B+R", True, (0, 1), "ab" * 32)
>>> holds(key, "event_games", 7, (3, 4), "B+R", True, (0, 1), "ab" * 32, s)
True
>>> holds(key, "event_games", 7, (3, 4), "W+R", True, (0, 1), "ab" * 32, s)  # rewritten
False
>>> holds(key, "event_games", 7, (3, 4), None, False, (0, 0), None, None)  # never played
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Select, select, text
from sqlalchemy.orm import Session

from weiqi.errors import InputError, RecordRefused
from weiqi.messages import Msg
from weiqi.referee.record import GameRecord
from weiqi.referee.signature import Players, board_seal, holds, record_key, signing_context
from weiqi.rules.result import Reason, Result
from weiqi.store.games import GameRecordRow, TeamGameRecordRow
from weiqi.store.site_key import site_key
from weiqi.store.teams import BoardGameRow, TeamMatchRow
from weiqi.store.tournament import GameRow, RoundRow


def players_of(row: GameRow | BoardGameRow) -> Players:
    """Who plays the board, as its seal covers it (the colours included)."""
    if isinstance(row, BoardGameRow):
        return (row.home_player_id, row.away_player_id, row.home_color)
    return (row.black_id, row.white_id)


def signing_key(session: Session) -> bytes:
    """The site's record key for ``session``'s database; ``RecordRefused`` (409, saying why)
    when this process does not have the key the database was signed with."""
    found = site_key(session.get_bind().engine, session.connection())
    if found.secret is None:
        assert found.problem is not None
        raise RecordRefused(Msg("the game records"), found.problem)
    return record_key(found.secret)


def seal_row(
    session: Session,
    row: GameRow | BoardGameRow,
    warnings: tuple[int, int] = (0, 0),
    head: str | None = None,
) -> None:
    """Seal ``row`` as it now is (in the caller's transaction)."""
    session.info.pop(_CACHE, None)
    row.seal = board_seal(
        signing_key(session),
        row.__tablename__,
        row.id,
        players_of(row),
        row.result,
        bool(row.confirmed),
        warnings,
        head,
    )


@dataclass(frozen=True)
class SealedBoard:
    """One board of an event as loaded for counting: ``counts`` whether its seal holds."""

    id: int
    round: int
    board: int
    players: Players
    result: str | None
    confirmed: bool
    warnings: tuple[int, int]
    counts: bool
    match: int = 0
    """A team board's match (0 on an individual board)."""
    sitting: int = 0


def sealed_boards(event_id: int, *columns: Any) -> Select[Any]:
    """``columns`` of every board of individual event ``event_id``, then what its seal covers
    beside them (confirmed, seal, its record's head and warnings: ``None`` without a record),
    rounds then boards: what the standings and the seal check both read."""
    return (
        select(
            *columns,
            GameRow.confirmed,
            GameRow.seal,
            GameRecordRow.head,
            GameRecordRow.black_warnings,
            GameRecordRow.white_warnings,
        )
        .join(RoundRow, RoundRow.id == GameRow.round_id)
        .outerjoin(GameRecordRow, GameRecordRow.game_id == GameRow.id)
        .where(RoundRow.event_id == event_id)
        .order_by(RoundRow.number, GameRow.board)
    )


def individual_boards(session: Session, event_id: int) -> list[SealedBoard]:
    """Every board of an individual event with its warnings and whether its seal holds, in
    one query (rounds then boards)."""
    key = signing_key(session)
    rows = session.execute(
        sealed_boards(
            event_id,
            GameRow.id,
            RoundRow.number,
            GameRow.board,
            GameRow.black_id,
            GameRow.white_id,
            GameRow.result,
        )
    )
    out = []
    for gid, number, board, black, white, result, confirmed, seal, head, bw, ww in rows:
        warnings = (bw or 0, ww or 0)
        ok = holds(key, "event_games", gid, (black, white), result, confirmed, warnings, head, seal)
        out.append(SealedBoard(gid, number, board, (black, white), result, confirmed, warnings, ok))
    return out


def team_boards(session: Session, event_id: int) -> list[SealedBoard]:
    """Every seated board of a team event, as :func:`individual_boards`."""
    key = signing_key(session)
    rows = session.execute(
        select(
            BoardGameRow.id,
            RoundRow.number,
            BoardGameRow.board,
            TeamMatchRow.number,
            BoardGameRow.sitting,
            BoardGameRow.home_player_id,
            BoardGameRow.away_player_id,
            BoardGameRow.home_color,
            BoardGameRow.result,
            BoardGameRow.confirmed,
            BoardGameRow.seal,
            TeamGameRecordRow.head,
            TeamGameRecordRow.black_warnings,
            TeamGameRecordRow.white_warnings,
        )
        .join(TeamMatchRow, TeamMatchRow.id == BoardGameRow.match_id)
        .join(RoundRow, RoundRow.id == TeamMatchRow.round_id)
        .outerjoin(TeamGameRecordRow, TeamGameRecordRow.game_id == BoardGameRow.id)
        .where(RoundRow.event_id == event_id)
        .order_by(RoundRow.number, TeamMatchRow.number, BoardGameRow.sitting, BoardGameRow.board)
    )
    out = []
    for row in rows:
        gid, number, board, match, sitting, home, away, color = row[:8]
        result, confirmed, seal, head, bw, ww = row[8:]
        players = (home, away, color)
        warnings = (bw or 0, ww or 0)
        ok = holds(key, "team_games", gid, players, result, confirmed, warnings, head, seal)
        out.append(
            SealedBoard(
                gid, number, board, players, result, confirmed, warnings, ok, match, sitting
            )
        )
    return out


def broken(boards: Sequence[SealedBoard]) -> frozenset[int]:
    """The ids of the boards whose seal does not hold."""
    return frozenset(b.id for b in boards if not b.counts)


_CACHE = "weiqi.broken_boards"


def broken_in(session: Session, event_id: int, *, team: bool) -> frozenset[int]:
    """The ids of the boards of ``event_id`` whose seal does not hold, checked once a
    transaction (:func:`seal_row` forgets it: a board sealed anew is checked again)."""
    cache: dict[tuple[int, bool], frozenset[int]] = session.info.setdefault(_CACHE, {})
    found = cache.get((event_id, team))
    if found is None:
        boards = team_boards(session, event_id) if team else individual_boards(session, event_id)
        found = cache[(event_id, team)] = broken(boards)
    return found


# -- the boards stored before seals: sealed once, on the first start after migration 0014 ------

_DONE = "board_seals"


def seal_stored_boards(connection: Connection, secret: str) -> int:
    """Seal every board stored before boards had seals, each only when its record verifies
    (chain, head, signature) and says what the board says: its result, confirmation and
    warnings; a team board with an empty seat and no record (a forfeit at the reveal) as it
    is. Once per database (``site_settings.board_seals``); the number of boards sealed."""
    key = record_key(secret)
    done = connection.execute(
        text("SELECT value FROM site_settings WHERE key = :key"), {"key": _DONE}
    ).scalar()
    if done is not None:
        return 0
    sealed = _seal_table(connection, key, "event_games", "game_records", "black_id, white_id")
    sealed += _seal_table(
        connection,
        key,
        "team_games",
        "team_game_records",
        "home_player_id, away_player_id, home_color",
    )
    connection.execute(
        text("INSERT INTO site_settings (key, value) VALUES (:key, '1')"), {"key": _DONE}
    )
    return sealed


def _seal_table(
    connection: Connection, key: bytes, table: str, records: str, player_columns: str
) -> int:
    rows = connection.execute(
        text(
            f"SELECT g.id, {', '.join('g.' + c.strip() for c in player_columns.split(','))}, "
            f"g.result, g.confirmed, r.record_json, r.head, r.signature, "
            f"r.black_warnings, r.white_warnings "
            f"FROM {table} g LEFT JOIN {records} r ON r.game_id = g.id "
            f"WHERE g.seal IS NULL AND (g.result IS NOT NULL OR r.game_id IS NOT NULL)"
        )
    ).all()
    width = len(player_columns.split(","))
    sealed = 0
    for row in rows:
        gid, players = row[0], tuple(row[1 : 1 + width])
        result, confirmed, record_json, head, signature, bw, ww = row[1 + width :]
        warnings = (bw or 0, ww or 0)
        if record_json is None:
            # no record: only a forfeit the pairing or the reveal stored (a withdrawn player,
            # an empty seat) is that
            forfeit = result is not None and Result.parse(result).reason is Reason.FORFEIT
            both_empty = table == "team_games" and players[0] is None and players[1] is None
            if not (forfeit or both_empty):
                continue
        else:
            try:
                record = GameRecord.from_json(
                    record_json,
                    head,
                    key=key,
                    signature=signature,
                    context=signing_context(records, gid),
                )
            except InputError:
                continue  # refused before, refused still: no seal
            state = record.state
            said = state.result.to_code() if state.result is not None else None
            black, white = state.warnings
            if state.colors_wrong_noted:
                black, white = white, black
            if (said, state.confirmed, (black, white)) != (result, bool(confirmed), warnings):
                continue  # the board says another thing than its record
        seal = board_seal(key, table, gid, players, result, bool(confirmed), warnings, head)
        connection.execute(
            text(f"UPDATE {table} SET seal = :seal WHERE id = :id"), {"seal": seal, "id": gid}
        )
        sealed += 1
    return sealed


# -- the 擂台赛 games migration 0026 made boards: sealed once, on the first start after it ------

_STAGE = "stage_boards"


def seal_stage_boards(connection: Connection, secret: str) -> int:
    """Sign the records and seal the boards migration 0026 stored for the results of a
    擂台赛's log (``site_settings.stage_boards``), each unless it has been signed or sealed
    since. Once; the number of boards sealed."""
    listed = connection.execute(
        text("SELECT value FROM site_settings WHERE key = :key"), {"key": _STAGE}
    ).scalar()
    if listed is None:
        return 0
    key = record_key(secret)
    sealed = 0
    for gid in json.loads(listed):
        row = connection.execute(
            text(
                "SELECT g.home_player_id, g.away_player_id, g.home_color, g.result, g.confirmed, "
                "r.record_json, r.head FROM team_games g "
                "JOIN team_game_records r ON r.game_id = g.id "
                "WHERE g.id = :id AND g.seal IS NULL AND r.signature IS NULL"
            ),
            {"id": gid},
        ).first()
        if row is None:
            continue
        home, away, color, result, confirmed, record_json, head = row
        try:
            record = GameRecord.from_json(record_json, head)
        except InputError:
            continue  # changed since the migration wrote it: it stays unsigned, refused
        signature = record.signature(key, signing_context("team_game_records", gid))
        seal = board_seal(
            key, "team_games", gid, (home, away, color), result, bool(confirmed), (0, 0), head
        )
        connection.execute(
            text("UPDATE team_game_records SET signature = :s WHERE game_id = :id"),
            {"s": signature, "id": gid},
        )
        connection.execute(
            text("UPDATE team_games SET seal = :seal WHERE id = :id"), {"seal": seal, "id": gid}
        )
        sealed += 1
    connection.execute(text("DELETE FROM site_settings WHERE key = :key"), {"key": _STAGE})
    return sealed


# -- the team boards migration 0031 moved the players of: sealed again, on the first start ------

_MOVED = "moved_players"


def _moved_back(player: int | None, offset: int) -> int | None:
    return None if player is None else player - offset


def reseal_moved_players(connection: Connection, secret: str) -> int:
    """Seal again each team board migration 0031 moved the players of
    (``site_settings.moved_players``: the offset added to every roster player's id, and the
    boards that were sealed then), each only when its seal holds for its players' ids before
    the move, checked as the standings check a team board (:func:`team_boards`); a board whose
    seal did not hold stays as it is, refused. Once; the number of boards sealed again."""
    listed = connection.execute(
        text("SELECT value FROM site_settings WHERE key = :key"), {"key": _MOVED}
    ).scalar()
    if listed is None:
        return 0
    moved = json.loads(listed)
    offset = int(moved["offset"])
    key = record_key(secret)
    resealed = 0
    for gid in moved["boards"]:
        row = connection.execute(
            text(
                "SELECT g.home_player_id, g.away_player_id, g.home_color, g.result, g.confirmed, "
                "g.seal, r.head, r.black_warnings, r.white_warnings FROM team_games g "
                "LEFT JOIN team_game_records r ON r.game_id = g.id WHERE g.id = :id"
            ),
            {"id": gid},
        ).first()
        if row is None or row.seal is None:
            continue  # deleted since (its match re-paired), or unsealed: nothing to carry over
        home, away, color, result, confirmed, seal, head, bw, ww = row
        warnings = (bw or 0, ww or 0)
        before = (_moved_back(home, offset), _moved_back(away, offset), color)
        if not holds(key, "team_games", gid, before, result, bool(confirmed), warnings, head, seal):
            continue  # rewritten before the move (or since): refused before, refused still
        seal = board_seal(
            key, "team_games", gid, (home, away, color), result, bool(confirmed), warnings, head
        )
        connection.execute(
            text("UPDATE team_games SET seal = :seal WHERE id = :id"), {"seal": seal, "id": gid}
        )
        resealed += 1
    connection.execute(text("DELETE FROM site_settings WHERE key = :key"), {"key": _MOVED})
    return resealed
