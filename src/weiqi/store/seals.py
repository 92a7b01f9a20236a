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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from weiqi.errors import RecordRefused
from weiqi.messages import Msg
from weiqi.referee.signature import Players, board_seal, holds, record_key
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
