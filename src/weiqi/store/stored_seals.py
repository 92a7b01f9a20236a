"""The seals and signatures the migrations could not write, written on the first start after
them: a migration does not have the site's key (it is kept outside the database), so what it
moved or stored waits in ``site_settings`` for the first start (``site_key.settle``), which
signs and seals it once.

Each hook is run once a database and does nothing the second time: its ``site_settings`` key
is gone (or set, for ``board_seals``). They read the tables as the last migration left them:
one table of boards (``event_games``, a team board with its match) and one of records
(``game_records``)."""

from __future__ import annotations

import json

from sqlalchemy import Connection, text

from weiqi.errors import InputError
from weiqi.referee.record import GameRecord
from weiqi.referee.signature import board_seal, holds, record_key, signing_context
from weiqi.rules.result import Reason, Result
from weiqi.store.seals import board_labels, board_players
from weiqi.store.site_key import site_setting
from weiqi.store.tournament import team_seats


def _delete_setting(connection: Connection, key: str) -> None:
    connection.execute(text("DELETE FROM site_settings WHERE key = :key"), {"key": key})


def _store_seal(connection: Connection, gid: int, seal: str) -> None:
    connection.execute(
        text("UPDATE event_games SET seal = :seal WHERE id = :id"), {"seal": seal, "id": gid}
    )


# -- the boards stored before seals: sealed once, on the first start after migration 0014 ------

_DONE = "board_seals"


def seal_stored_boards(connection: Connection, secret: str) -> int:
    """Seal every board stored before boards had seals, each only when its record verifies
    (chain, head, signature) and says what the board says: its result, confirmation and
    warnings; a team board with an empty seat and no record (a forfeit at the reveal) as it
    is. Once per database (``site_settings.board_seals``); the number of boards sealed."""
    key = record_key(secret)
    if site_setting(connection, _DONE) is not None:
        return 0
    rows = connection.execute(
        text(
            "SELECT g.id, g.match_id, g.black_id, g.white_id, g.home_color, g.result, "
            "g.confirmed, r.record_json, r.head, r.signature, r.black_warnings, "
            "r.white_warnings FROM event_games g LEFT JOIN game_records r ON r.game_id = g.id "
            "WHERE g.seal IS NULL AND (g.result IS NOT NULL OR r.game_id IS NOT NULL) "
            "ORDER BY g.id"
        )
    ).all()
    sealed = 0
    for row in rows:
        gid, match, black, white, color, result, confirmed = row[:7]
        record_json, head, signature, bw, ww = row[7:]
        table, records = board_labels(match is not None)
        warnings = (bw or 0, ww or 0)
        if record_json is None:
            # no record: only a forfeit the pairing or the reveal stored (a withdrawn player,
            # an empty seat) is that
            forfeit = result is not None and Result.parse(result).reason is Reason.FORFEIT
            both_empty = match is not None and black is None and white is None
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
            black_warnings, white_warnings = state.warnings
            if state.colors_wrong_noted:
                black_warnings, white_warnings = white_warnings, black_warnings
            if (said, state.confirmed, (black_warnings, white_warnings)) != (
                result,
                bool(confirmed),
                warnings,
            ):
                continue  # the board says another thing than its record
        players = board_players(black, white, color)
        _store_seal(
            connection,
            gid,
            board_seal(key, table, gid, players, result, bool(confirmed), warnings, head),
        )
        sealed += 1
    connection.execute(
        text("INSERT INTO site_settings (key, value) VALUES (:key, '1')"), {"key": _DONE}
    )
    return sealed


# -- the 擂台赛 games migration 0026 made boards: sealed once, on the first start after it ------

_STAGE = "stage_boards"


def seal_stage_boards(connection: Connection, secret: str) -> int:
    """Sign the records and seal the boards migration 0026 stored for the results of a
    擂台赛's log (``site_settings.stage_boards``, by their ids in ``event_games`` since
    migration 0032), each unless it has been signed or sealed since. Once; the number of
    boards sealed."""
    listed = site_setting(connection, _STAGE)
    if listed is None:
        return 0
    key = record_key(secret)
    sealed = 0
    for gid in json.loads(listed):
        row = connection.execute(
            text(
                "SELECT g.match_id, g.black_id, g.white_id, g.home_color, g.result, "
                "g.confirmed, r.record_json, r.head FROM event_games g "
                "JOIN game_records r ON r.game_id = g.id "
                "WHERE g.id = :id AND g.seal IS NULL AND r.signature IS NULL"
            ),
            {"id": gid},
        ).first()
        if row is None:
            continue
        match, black, white, color, result, confirmed, record_json, head = row
        table, records = board_labels(match is not None)
        try:
            record = GameRecord.from_json(record_json, head)
        except InputError:
            continue  # changed since the migration wrote it: it stays unsigned, refused
        signature = record.signature(key, signing_context(records, gid))
        players = board_players(black, white, color)
        seal = board_seal(key, table, gid, players, result, bool(confirmed), (0, 0), head)
        connection.execute(
            text("UPDATE game_records SET signature = :s WHERE game_id = :id"),
            {"s": signature, "id": gid},
        )
        _store_seal(connection, gid, seal)
        sealed += 1
    _delete_setting(connection, _STAGE)
    return sealed


# -- the team boards migration 0032 moved (and 0031 the players of): sealed again, once ---------

_MOVED = "moved_games"


def _moved_back(player: int | None, offset: int) -> int | None:
    return None if player is None else player - offset


def reseal_moved_games(connection: Connection, secret: str) -> int:
    """Sign and seal again the team boards migration 0032 moved into ``event_games``
    (``site_settings.moved_games``: the offset added to every team board's id, the boards
    sealed and the records signed under the old ids, and what migration 0031 left for this
    start — the offset of the team players' ids and the boards sealed over the old ones — or
    ``null``).

    A record signed at its old id is signed at its new one when its signature verifies there
    (chain, head, signature); a board sealed at its old id is sealed at its new one when its
    seal holds for its old id and, if 0031 listed it, its players' ids before that move —
    checked as the standings check a team board. One that did not hold stays as it is,
    refused before and refused still. Once; the number of boards sealed again."""
    listed = site_setting(connection, _MOVED)
    if listed is None:
        return 0
    moved = json.loads(listed)
    offset = int(moved["offset"])
    players = moved.get("players")
    player_offset = int(players["offset"]) if players is not None else 0
    players_moved = set(players["boards"]) if players is not None else set()
    table, records = board_labels(team=True)  # the moved boards are team boards
    key = record_key(secret)
    for old in moved["signed"]:
        row = connection.execute(
            text(
                "SELECT record_json, head, signature FROM game_records WHERE game_id = :id "
                "AND signature IS NOT NULL"
            ),
            {"id": old + offset},
        ).first()
        if row is None:
            continue  # deleted since (its match re-paired)
        try:
            record = GameRecord.from_json(
                row.record_json,
                row.head,
                key=key,
                signature=row.signature,
                context=signing_context(records, old),
            )
        except InputError:
            continue  # refused before, refused still
        connection.execute(
            text("UPDATE game_records SET signature = :s WHERE game_id = :id"),
            {
                "s": record.signature(key, signing_context(records, old + offset)),
                "id": old + offset,
            },
        )
    resealed = 0
    for old in moved["sealed"]:
        gid = old + offset
        row = connection.execute(
            text(
                "SELECT g.black_id, g.white_id, g.home_color, g.result, g.confirmed, g.seal, "
                "r.head, r.black_warnings, r.white_warnings FROM event_games g "
                "LEFT JOIN game_records r ON r.game_id = g.id "
                "WHERE g.id = :id AND g.match_id IS NOT NULL"
            ),
            {"id": gid},
        ).first()
        if row is None or row.seal is None:
            continue  # deleted since (its match re-paired), or unsealed: nothing to carry over
        black, white, color, result, confirmed, seal, head, bw, ww = row
        warnings = (bw or 0, ww or 0)
        now = board_players(black, white, color)
        before = now  # the same players, in the same order: only the id moved
        if old in players_moved:  # and before that, 0031 moved its players' ids
            home, away = team_seats(black, white, color)
            before = (_moved_back(home, player_offset), _moved_back(away, player_offset), color)
        if not holds(key, table, old, before, result, bool(confirmed), warnings, head, seal):
            continue  # rewritten before the move (or since): refused before, refused still
        seal = board_seal(key, table, gid, now, result, bool(confirmed), warnings, head)
        _store_seal(connection, gid, seal)
        resealed += 1
    _delete_setting(connection, _MOVED)
    return resealed
