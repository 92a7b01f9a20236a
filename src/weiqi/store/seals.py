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
from weiqi.referee.signature import (
    Players,
    board_seal,
    holds,
    record_key,
    signing_context,
)
from weiqi.store.games import GameRecordRow
from weiqi.store.site_key import site_key
from weiqi.store.teams import TeamMatchRow
from weiqi.store.tournament import GameRow, RoundRow, team_seats


def board_labels(team: bool) -> tuple[str, str]:
    """The labels a board's seal and its record's signature are made under
    (``board_seal``'s table, ``signing_context``'s): an individual board's (``event_games``,
    ``game_records``), a team board's (``team_games``, ``team_game_records``).

    A seal and a signature name the kind of board by the table it was first stored in, not the
    table it is in: the team boards moved into ``event_games`` (migration 0032) keep the
    labels of their kind, so a board's seal and signature mean the same before and after that
    move, and a downgrade, which takes the team boards back to ``team_games``, keeps every
    seal and signature holding without the site's key.

    >>> board_labels(team=False), board_labels(team=True)
    (('event_games', 'game_records'), ('team_games', 'team_game_records'))
    """
    return ("team_games", "team_game_records") if team else ("event_games", "game_records")


def record_context(team: bool, game_id: int) -> str:
    """What the signature of game ``game_id``'s record covers beside its head (a team
    board's if ``team``: :func:`board_labels`)."""
    return signing_context(board_labels(team)[1], game_id)


def board_players(black_id: int | None, white_id: int | None, home_color: str | None) -> Players:
    """Who plays a board, as its seal covers it: an individual board's Black and White; a team
    board's (``home_color`` set) home player, away player and the colour its home team plays
    — the order a team board's seal has covered since the seals began, when a team board was
    stored by home and away player (``team_games``). Only the id then changes when the team
    boards move (migration 0032), and a seal made after it holds after a downgrade.

    >>> board_players(3, 4, None), board_players(3, 4, "B"), board_players(3, None, "W")
    ((3, 4), (3, 4, 'B'), (None, 3, 'W'))
    """
    if home_color is None:
        return (black_id, white_id)
    return (*team_seats(black_id, white_id, home_color), home_color)


def players_of(row: GameRow) -> Players:
    """Who plays the board, as its seal covers it (:func:`board_players`)."""
    return board_players(row.black_id, row.white_id, row.home_color)


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
    row: GameRow,
    warnings: tuple[int, int] = (0, 0),
    head: str | None = None,
) -> None:
    """Seal ``row`` as it now is (in the caller's transaction)."""
    session.info.pop(_CACHE, None)
    row.seal = board_seal(
        signing_key(session),
        board_labels(row.match_id is not None)[0],
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
    """``columns`` of every board of event ``event_id``, then what its seal covers
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


def event_boards(session: Session, event_id: int) -> list[SealedBoard]:
    """Every seated board of an event, either kind, with its warnings and whether its seal
    holds, in one query (rounds, then a team round's matches, sittings and boards)."""
    key = signing_key(session)
    rows = session.execute(
        sealed_boards(
            event_id,
            GameRow.id,
            RoundRow.number,
            GameRow.board,
            GameRow.match_id,
            TeamMatchRow.number,
            GameRow.sitting,
            GameRow.black_id,
            GameRow.white_id,
            GameRow.home_color,
            GameRow.result,
        )
        .outerjoin(TeamMatchRow, TeamMatchRow.id == GameRow.match_id)
        .order_by(None)
        .order_by(RoundRow.number, TeamMatchRow.number, GameRow.sitting, GameRow.board)
    )
    out = []
    for row in rows:
        gid, number, board, match_id, match, sitting, black, white, color = row[:9]
        result, confirmed, seal, head, bw, ww = row[9:]
        players = board_players(black, white, color)
        warnings = (bw or 0, ww or 0)
        table = board_labels(match_id is not None)[0]
        ok = holds(key, table, gid, players, result, confirmed, warnings, head, seal)
        out.append(
            SealedBoard(
                gid, number, board, players, result, confirmed, warnings, ok, match or 0, sitting
            )
        )
    return out


def broken(boards: Sequence[SealedBoard]) -> frozenset[int]:
    """The ids of the boards whose seal does not hold."""
    return frozenset(b.id for b in boards if not b.counts)


_CACHE = "weiqi.broken_boards"


def broken_in(session: Session, event_id: int) -> frozenset[int]:
    """The ids of the boards of ``event_id`` whose seal does not hold, checked once a
    transaction (:func:`seal_row` forgets it: a board sealed anew is checked again)."""
    cache: dict[int, frozenset[int]] = session.info.setdefault(_CACHE, {})
    found = cache.get(event_id)
    if found is None:
        found = cache[event_id] = broken(event_boards(session, event_id))
    return found
