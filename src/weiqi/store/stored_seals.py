"""The seals and signatures the migrations could not write, written on the first start after
them: a migration does not have the site's key (it is kept outside the database), so what it
moved or stored waits in ``site_settings`` for the first start (``site_key.settle``), which
signs and seals it once.

Each hook is run once a database and does nothing the second time: its ``site_settings`` key
is gone (or set, for ``board_seals``)."""

from __future__ import annotations

import json

from sqlalchemy import Connection, text

from weiqi.errors import InputError
from weiqi.referee.record import GameRecord
from weiqi.referee.signature import board_seal, holds, record_key, signing_context
from weiqi.rules.result import Reason, Result

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
