"""One board's game: its referee record (``weiqi.referee.GameRecord``), the result workflow and
the referee's decisions (R-REF-7, R-END-4, R-PEN-1, R-REF-1…6) — for every game, whatever
competition it belongs to. A board is named by its event, its round and its key: the board
number in an individual event, a :class:`TeamBoard` (match, board, sitting) in a team event;
every function below takes either, and the workflow, permissions and history are the same.

A paired board gets its record when first needed: the first infraction, result or ruling.
Every read and write loads the record with its hash chain, stored head and signature checked
(the head signed with the site's record key, ``services.site.record_signing_key``): a record
that does not verify — rewritten in the database, even with its hash chain recomputed — is
refused with :class:`~weiqi.errors.RecordRefused`, never shown. Every write appends one event
through the core — which applies the rules and refuses what they do not allow — and stores it
(signed) in the
same transaction, guarded by the record's length (``seq``): a referee whose page is out of date
(``expected_seq``) or who loses a race to another referee gets a ``Conflict`` and nothing
changes. The board's result and its confirmation on ``GameRow`` follow the record, so pairing
and standings see it; the warnings of the records count for the WARN tie-break together with
the event-level warnings of ``tournament.add_warning`` (infractions outside a game).

>>> from weiqi.store.database import Database
>>> from weiqi.tournament.settings import EventSettings, System
>>> from weiqi.services import tournament as t
>>> db = Database("sqlite://"); db.upgrade()
>>> local = Actor.local()
>>> from weiqi.services.events import create_event
>>> ev = create_event(db, local, "Club", EventSettings(system=System.ROUND_ROBIN))
>>> t.import_players(db, local, ev.id, "name\\n李\\n王\\n")
2
>>> _ = t.pair_round(db, local, ev.id)
>>> g = enter_result(db, local, ev.id, 1, 1, "184.5")
>>> g.result_zh, g.confirmed
('黑胜1/4子', False)
>>> g = record_infraction(db, local, ev.id, 1, 1, "clock_before_move", "B")
>>> g.result_zh, g.warnings
('白胜3/4子', (1, 0))
>>> confirm_result(db, local, ev.id, 1, 1).confirmed
True
>>> enter_result(db, local, ev.id, 1, 1, "B+R")
Traceback (most recent call last):
...
weiqi.errors.Conflict: round 1 board 1: the result W+1.5 is confirmed; only ...

A team board is the same game: ``enter_result(db, local, team_event, 1, TeamBoard(1, 2), …)``.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from fractions import Fraction

from sqlalchemy import Select, select, update
from sqlalchemy.orm import Session

from weiqi.clock.control import TimeControl
from weiqi.errors import (
    Conflict,
    InputError,
    InvalidSetting,
    NotFound,
    RecordRefused,
    RowsRejected,
)
from weiqi.formats.sgf_referee import record_to_sgf, write_sgf
from weiqi.messages import Msg
from weiqi.referee.actors import GameActor
from weiqi.referee.events import (
    Confirm,
    InfractionRuled,
    LeaveSeat,
    PlayedAgain,
    RecordEvent,
    RequestRecount,
    ResultCorrected,
    ResultEntered,
    RulingMade,
    SheetConfirmed,
)
from weiqi.referee.nigiri import ColorAssignment
from weiqi.referee.record import GameRecord
from weiqi.referee.signature import check_signature
from weiqi.roles import Role
from weiqi.rules.color import Color
from weiqi.rules.result import Outcome, Result
from weiqi.rules.ruleset import Ruleset
from weiqi.services import game_cache, record_cache, referee_input
from weiqi.services.actor import Actor
from weiqi.services.events import (
    details_of,
    event_settings,
    existing_event,
    no_settings,
    round_row,
    time_control_in,
)
from weiqi.services.permissions import Action, require, roles_in_event
from weiqi.services.player_names import matches, namesake_labels, player_labels, search_terms
from weiqi.services.server_clock import SYSTEM_CLOCK, ServerClock
from weiqi.services.site import record_signing_key
from weiqi.store import seals, versions
from weiqi.store.database import Database
from weiqi.store.games import GameRecordRow
from weiqi.store.locks import lock_event, lock_event_shared
from weiqi.store.models import EventRow
from weiqi.store.seals import record_context, seal_row
from weiqi.store.teams import (
    TeamMatchRow,
    TeamRow,
)
from weiqi.store.tournament import EventSettingsRow, GameRow, PlayerRow, RoundRow, team_seats
from weiqi.text import check_upload, stated_reason
from weiqi.tournament.details import EventDetails
from weiqi.tournament.namesakes import Person, labels
from weiqi.tournament.settings import EventSettings


@dataclass(frozen=True)
class HistoryItem:
    """One step of the result's history: who, when, what, why (R-REF-7)."""

    seq: int
    at: datetime
    who: str
    result: str | None
    result_zh: str | None
    previous: str | None
    previous_zh: str | None
    reason: Msg
    """Why, a message value: ``weiqi.i18n.render`` says it in a language."""
    who_role: str | None  # chief_referee, referee, B, W; None: the rules themselves
    who_name: str


@dataclass(frozen=True)
class InfractionItem:
    seq: int
    at: datetime
    move_number: int
    offender: str  # "B" / "W"
    player: str
    kind: str
    kind_zh: str
    kind_en: str
    requirement: str
    penalty: str
    ruled_by: str
    note: str
    ruled_by_role: str | None
    ruled_by_name: str


@dataclass(frozen=True)
class RulingItem:
    seq: int
    at: datetime
    kind: str
    kind_zh: str
    kind_en: str
    reason: str
    loser: str | None
    ruled_by: str
    ruled_by_role: str | None
    ruled_by_name: str


@dataclass(frozen=True)
class SeatLeaveItem:
    """A referee's permission for a player in byo-yomi to leave the seat during the opponent's
    time, once per game (R-TIME-2 / Art. 22.7)."""

    seq: int
    at: datetime
    move_number: int
    player_color: str  # "B" / "W"
    player: str
    granted_by: str
    granted_by_role: str | None
    granted_by_name: str


@dataclass(frozen=True)
class TeamBoard:
    """A board of a team match: the match's number in its round, the board, and the sitting
    (a rotation match plays its boards in several sittings; 0 otherwise)."""

    match: int
    board: int
    sitting: int = 0


#: How a board is named in its round: its number (individual events) or a team match's board.
BoardKey = int | TeamBoard


def no_board(number: int, board: int | str) -> NotFound:
    """The error for a board that round ``number`` does not have (``board``: its number, or a
    team board as :func:`weiqi.services.live.board_ref` names it).

    >>> no_board(3, 12).message
    'round 3 has no board 12'
    """
    return NotFound(Msg("round %(number)s has no board %(board)s", number=number, board=board))


def board_key(board: int, match: int | None, sitting: int = 0) -> BoardKey:
    """How board ``board`` is named in its round: its number, or, on team match ``match``
    (``None``: an individual event's board), its :class:`TeamBoard` at ``sitting``.

    >>> board_key(3, None), board_key(2, 1, 1)
    (3, TeamBoard(match=1, board=2, sitting=1))
    """
    return board if match is None else TeamBoard(match, board, sitting)


#: A game's place as a query selects it (joining its round, and outer-joining its match): the
#: event, the round's number, the match's (``None`` on an individual board), the board and the
#: sitting (:func:`board_key` of the last three names the board).
GAME_PLACE = (
    RoundRow.event_id,
    RoundRow.number,
    TeamMatchRow.number,
    GameRow.board,
    GameRow.sitting,
)


def board_id_query(event_id: int, number: int, board: BoardKey) -> Select[int]:
    """The query of the row id of ``board`` in round ``number``, nothing else read: a live
    move locks it (``FOR UPDATE`` of that row alone), the room's look at the clock finds its
    record by it."""
    query = (
        select(GameRow.id)
        .join(RoundRow, RoundRow.id == GameRow.round_id)
        .where(RoundRow.event_id == event_id, RoundRow.number == number)
    )
    if isinstance(board, TeamBoard):
        return query.join(TeamMatchRow, TeamMatchRow.id == GameRow.match_id).where(
            TeamMatchRow.number == board.match,
            GameRow.board == board.board,
            GameRow.sitting == board.sitting,
        )
    return query.where(GameRow.match_id.is_(None), GameRow.board == board)


@dataclass
class RefereedGame:
    """A game to referee: a board of an individual event's round or of a team match, with what
    the record needs to know of it. Its ``result`` and ``confirmed`` follow the record
    (:func:`_store`)."""

    row: GameRow
    number: int
    board: int
    black: str
    white: str
    komi: Fraction
    handicap: int
    ruleset: Ruleset
    """The game's rules: the event's settings (board size, cycle policy, handicap placement)
    with the pairing's komi and handicap; a team match's boards play the rules' defaults."""
    match: int | None = None
    sitting: int = 0
    black_team: str | None = None
    white_team: str | None = None
    kept: game_cache.KeptBoard[RefereedGame] | None = field(default=None, compare=False, repr=False)
    """What this worker keeps of the board for the next move (``services.game_cache``), when
    the game was loaded for a live move."""

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def result(self) -> str | None:
        return self.row.result

    @property
    def confirmed(self) -> bool:
        return bool(self.row.confirmed)

    @property
    def key(self) -> BoardKey:
        return board_key(self.board, self.match, self.sitting)


@dataclass(frozen=True)
class GameView:
    """A board as its game page shows it."""

    event_id: int
    event_name: str
    round: int
    board: int
    black: str
    white: str
    handicap: int
    komi: Fraction
    result: str | None
    result_zh: str | None
    result_sgf: str | None
    confirmed: bool
    phase: str
    black_count: Fraction | None
    warnings: tuple[int, int]
    history: tuple[HistoryItem, ...]
    infractions: tuple[InfractionItem, ...]
    rulings: tuple[RulingItem, ...]
    seq: int
    """Events in the record (0 without one): send it back as ``expected_seq``."""
    head: str | None
    acknowledged: tuple[str, ...] = ()
    """The players (``B``/``W``) who have acknowledged the result entered (R-END-4)."""
    move_number: int = 0
    stones: tuple[tuple[str, str], ...] = ()
    """The position by GTP vertex when the record holds the moves (online or recorded play)."""
    played_again: str | None = None
    """``"replay"``/``"playoff"`` when the confirmed result calls for the game to be played
    again and its result recorded here (R-REF-3, R-PLAYOFF); see :func:`played_again_kind`."""
    playoff_due: bool = False
    """The game ended without a winner (a draw, no result) in a knockout, which needs one: a
    playoff (加赛) decides it, its result entered on this board once this one is confirmed
    (R-PLAYOFF). ``False`` again once the playoff's result is recorded."""
    seat_leaves: tuple[SeatLeaveItem, ...] = ()
    """Permissions to leave the seat in byo-yomi (R-TIME-2 / Art. 22.7), in order."""
    board_size: int | None = None
    """The record's board size (its ``Ruleset``, from the event settings); ``None`` without one."""
    match: int | None = None
    """A team board's match in its round (``None`` in an individual event)."""
    sitting: int = 0
    black_team: str | None = None
    """A team board's teams (codes) of Black and White."""
    white_team: str | None = None
    stage_game: bool = False
    """A game of a 擂台赛: ``match`` is the game's number in it."""

    @property
    def key(self) -> BoardKey:
        """How the board is named in its round (the argument of the functions here)."""
        return board_key(self.board, self.match, self.sitting)


# -- entries ---------------------------------------------------------------------------------

_COUNT = re.compile(r"\d+(\.5|½| 1/2)?")


def parse_entry(text: str) -> Result | Fraction:
    """A result code (``B+R``, ``W+1.5``, ``0``, ``BL``, ``B+F``, ``Void``, ``Replay``) or
    Black's count in stones (``185``, ``184.5``, ``184½``) — R-SCORE-4/5.

    >>> parse_entry("184.5"), parse_entry("W+R").to_zh(), parse_entry("0").to_zh()
    (Fraction(369, 2), '白中盘胜', '和棋')
    >>> parse_entry("B+0.3")
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: result 'B+0.3': margin must be a multiple of 0.5 points
    """
    raw = text.strip()
    if not raw:
        raise InputError("result", Msg("enter a result or Black's count"))
    if raw != "0" and _COUNT.fullmatch(raw):
        whole, _, half = raw.partition(".")
        if raw.endswith(("½", " 1/2")):
            return Fraction(int(re.sub(r"\D.*", "", raw))) + Fraction(1, 2)
        return Fraction(int(whole)) + (Fraction(1, 2) if half else 0)
    return Result.parse(raw)


# -- loading ---------------------------------------------------------------------------------


def _game_row(session: Session, event_id: int, number: int, board: BoardKey) -> RefereedGame:
    existing_event(session, event_id)
    rnd = round_row(session, event_id, number)
    team = isinstance(board, TeamBoard)
    if team and rnd.revealed_at is None:
        raise Conflict(
            Msg("round %(number)s: the lineups are not revealed, no board is seated", number=number)
        )
    # the one board, not the round's every game (a live move of a 1,000-board round loaded
    # 1,000 rows to find its own)
    game = session.scalar(board_id_query(event_id, number, board).with_only_columns(GameRow))
    if game is None:
        raise no_board(number, board.board if isinstance(board, TeamBoard) else board)
    return refereed_game(session, game)


def _round_paired(session: Session, event_id: int, number: int) -> bool:
    found = session.scalar(
        select(RoundRow.id).where(RoundRow.event_id == event_id, RoundRow.number == number)
    )
    return found is not None


def _game_to_change(
    session: Session,
    event_id: int,
    number: int,
    board: BoardKey,
    expected_seq: int | None,
    *,
    game_only: bool = False,
) -> RefereedGame:
    """The game a write changes, loaded under the event's lock (``store.locks``), so that what
    the write checks (its record's length, its result) stays true until it commits.

    With ``game_only`` (a write that changes this game and nothing else of the event: a live
    move) the event's lock is taken shared and the board's own row locked: the boards of one
    event write in parallel (on PostgreSQL; SQLite has one writer anyway), two writes of one
    board one after the other, and a writer of the whole event waits for both.

    A round that was paired when the request came (or when the page that sends
    ``expected_seq`` was loaded) and is gone once the lock is held was unpaired meanwhile:
    the unpairing won, and this write is a ``Conflict``, not a board that never existed."""
    paired = expected_seq is not None or _round_paired(session, event_id, number)
    if game_only:
        lock_event_shared(session, event_id)
        # the board's row locked before it is read (what is read is the last write's), and
        # that row alone: locking the round's row too would queue every board of the round
        query = board_id_query(event_id, number, board).with_only_columns(GameRow)
        found = session.scalar(query.with_for_update(of=GameRow))
        if isinstance(found, GameRow):  # the round is still paired and has the board
            return _kept_game(session, (event_id, number, board), found)
    else:
        lock_event(session, event_id)
    if paired and not _round_paired(session, event_id, number):
        raise Conflict(
            Msg(
                "round %(number)s was unpaired since you loaded it; nothing was stored",
                number=number,
            )
        )
    return _game_row(session, event_id, number, board)


def read_game(session: Session, event_id: int, number: int, board: BoardKey) -> RefereedGame:
    """The board as :func:`_game_row` gives it, to be read (not locked), from what this worker
    keeps of it while nothing it comes from changed (:func:`_kept_game`); ``NotFound`` as
    :func:`_game_row` says it."""
    query = board_id_query(event_id, number, board).with_only_columns(GameRow)
    found = session.scalar(query)
    if isinstance(found, GameRow):
        return _kept_game(session, (event_id, number, board), found)
    return _game_row(session, event_id, number, board)


def _kept_game(session: Session, place: tuple[int, int, BoardKey], row: GameRow) -> RefereedGame:
    """The board (its ``row`` locked by the caller) as :func:`_game_row` gives it, from what
    this worker kept of it while nothing it was read from changed (``services.game_cache``):
    the shapes are read before what is kept is (on a miss), so that nothing kept is older
    than they say."""
    event_id, number, board = place
    shapes = versions.shapes(session, event_id)
    key = (session.get_bind().engine.url.render_as_string(), event_id, number, board)
    values = _row_values(row)
    kept = game_cache.CACHE.get(key, (shapes.site, shapes.event), values)
    if kept is not None:
        game: RefereedGame = replace(kept.game, row=row, kept=kept)
        return game
    game = _game_row(session, event_id, number, board)
    kept = game_cache.KeptBoard((shapes.site, shapes.event), values, replace(game, kept=None))
    game_cache.CACHE.put(key, kept)
    return replace(game, kept=kept)


def _row_values(row: GameRow) -> tuple[object, ...]:
    """What a board's description is derived from of its own row (which a move writes)."""
    return (row.round_id, row.match_id, row.board, row.sitting, row.black_id, row.white_id,
            row.home_color, row.komi, row.handicap)  # fmt: skip


@dataclass(frozen=True)
class RoundBoards:
    """A round's boards loaded at once for a whole sheet (:func:`round_boards`).

    ``rows`` keeps the round, its players and stored records referenced for the transaction:
    the session's identity map holds a row only while something refers to it, so boards looked
    up one at a time reloaded the whole round (and the lookups of their players and records
    went back to the database) for every board — a sheet took time quadratic in its boards.
    """

    games: dict[int, GameRow]
    rows: tuple[object, ...]
    labels: Mapping[int, str]
    """Every player's label (namesakes told apart), by row id: one computation a sheet."""

    def game(self, number: int, board: int) -> GameRow:
        """The game on ``board``; ``NotFound`` when the round has none."""
        game = self.games.get(board)
        if game is None:
            raise no_board(number, board)
        return game


def round_boards(session: Session, event_id: int, number: int) -> RoundBoards:
    """Every board of round ``number`` with its players and records, in four queries."""
    existing_event(session, event_id)
    rnd = round_row(session, event_id, number)
    games = {g.board: g for g in rnd.games}
    ids = [g.id for g in games.values()]
    players = session.scalars(select(PlayerRow).where(PlayerRow.event_id == event_id)).all()
    records = session.scalars(
        select(GameRecordRow).join(GameRow).where(GameRow.round_id == rnd.id)
    ).all()
    settings = session.get(EventSettingsRow, event_id)
    return RoundBoards(games, (rnd, ids, *players, *records, settings), player_labels(players))


def refereed_game(
    session: Session, game: GameRow, known: Mapping[int, str] | None = None
) -> RefereedGame:
    """A board of either kind of event as a game to referee: the event's rules
    (``settings.ruleset``: board size, cycle policy, handicap placement) with the board's komi
    and handicap, its players named as the event's pages name them (``known``: every player's
    label by row id, when the caller has them, else looked up) and a team board's teams beside
    them. A team board with an empty seat is a forfeit already, no game
    (:func:`refuse_empty_board`)."""
    rnd = game.round
    refuse_empty_board(game, rnd.number)
    settings = event_settings(session, rnd.event_id)
    if settings is None:
        raise no_settings(rnd.event_id)
    black = session.get(PlayerRow, game.black_id)
    white = session.get(PlayerRow, game.white_id)
    assert black is not None and white is not None
    handicap = game.handicap if game.handicap >= 2 else 0  # 1 is 让先: no stones, komi 0
    ruleset = settings.ruleset.with_(komi=Fraction(game.komi), handicap=handicap)
    match = game.match
    if match is None:
        # namesakes told apart
        shown = known or namesake_labels(session, rnd.event_id, black, white)
        return RefereedGame(
            game, rnd.number, game.board, shown[black.id], shown[white.id], ruleset.komi,
            handicap, ruleset,
        )  # fmt: skip
    home_team = session.get(TeamRow, match.home_id)
    away_team = session.get(TeamRow, match.away_id)
    assert home_team is not None and away_team is not None
    black_team, white_team = team_seats(home_team.code, away_team.code, game.home_plays)
    # the team is shown beside each player; a namesake of the same team (born on another
    # day) is told apart as the team's pages do it (张伟 (1990))
    names = []
    for player in (black, white):
        mates = session.execute(
            select(PlayerRow.id, PlayerRow.name, PlayerRow.birth_date).where(
                PlayerRow.team_id == player.team_id, PlayerRow.name == player.name
            )
        )
        names.append(labels(Person(rid, name, "", born) for rid, name, born in mates)[player.id])
    if names[0] == names[1]:  # namesakes of two teams: the record names them apart
        names = [f"{names[0]} ({black_team})", f"{names[1]} ({white_team})"]
    return RefereedGame(
        game, rnd.number, game.board, names[0], names[1], ruleset.komi, 0, ruleset,
        match.number, game.sitting, black_team, white_team,
    )  # fmt: skip


def refuse_empty_board(game: GameRow, number: int) -> None:
    """``Conflict`` for a team board of round ``number`` with a seat left empty: it is a
    forfeit already, no game to play or to enter a result on.

    >>> refuse_empty_board(GameRow(board=2, black_id=7, white_id=None), 3)
    Traceback (most recent call last):
    ...
    weiqi.errors.Conflict: round 3 board 2: an empty board is already a forfeit
    """
    if game.black_id is None or game.white_id is None:
        raise Conflict(
            Msg(
                "round %(number)s board %(board)s: an empty board is already a forfeit",
                number=number,
                board=game.board,
            )
        )


def _ruleset(game: RefereedGame) -> Ruleset:
    return game.ruleset


def _load_record(
    session: Session, game: RefereedGame, *, keep: bool = False
) -> tuple[GameRecordRow | None, GameRecord | None]:
    """The game's stored row and its record, verified (the hash chain, every event, the stored
    head and its signature), or ``(None, None)`` without one; ``RecordRefused`` when what is
    stored cannot be trusted.

    A record this worker kept (``services.record_cache``) is used when the stored text is still
    exactly the one it came from, its signature checked again: no replay. With ``keep`` (a
    caller whose record does not outlive its transaction) the record is kept once the
    transaction commits, for the next one."""
    return _load_stored(session, game.match is not None, game.id, _where(game), keep=keep)


def _load_stored(
    session: Session,
    team: bool,
    game_id: int,
    where: Msg,
    *,
    keep: bool = False,
) -> tuple[GameRecordRow | None, GameRecord | None]:
    """:func:`_load_record` of the record of game ``game_id`` (a team board's if ``team``;
    ``where``: the board, as a refusal names it)."""
    row = session.get(GameRecordRow, game_id)
    if row is None:
        return None, None
    key = _record_key(session, game_id)
    kept = record_cache.CACHE.take(key)
    try:
        signing = record_signing_key(session)
        # the same text, head and signature as verified: from_json would give this record
        same = kept is not None and kept.seq == row.seq and kept.head == row.head
        if kept is not None and same and kept.still() and kept.text == row.record_json:
            check_signature(signing, row.head, row.signature, record_context(team, game_id))
        else:
            record = _verified(row, signing, team)
            kept = record_cache.KeptRecord(record, row.record_json, row.head, row.seq)
    except InputError as err:  # not the user's input: what is stored cannot be trusted
        raise RecordRefused(where, err.msg) from None
    if keep:
        record_cache.note(session, key, kept)
    return row, kept.record


def _record_key(session: Session, game_id: int) -> record_cache.Key:
    """What this worker keeps game ``game_id``'s record under (``services.record_cache``)."""
    return (session.get_bind().engine.url.render_as_string(), "game_records", game_id)


def _load_at(
    session: Session, game: RefereedGame, expected_seq: int | None, *, keep: bool = False
) -> tuple[GameRecordRow | None, GameRecord | None]:
    """The game's record as :func:`_load_record` gives it, refused with ``Conflict`` when
    ``expected_seq`` (the number of events the writer saw; ``None``: not checked) is no longer
    its length: somebody else appended meanwhile."""
    row, record = _load_record(session, game, keep=keep)
    seq = row.seq if row is not None else 0
    if expected_seq is not None and expected_seq != seq:
        raise Conflict(
            Msg(
                "%(game)s: the game has changed since you loaded it (%(seq)s "
                "events now, %(expected_seq)s then); reload the page and try "
                "again",
                game=_where(game),
                seq=seq,
                expected_seq=expected_seq,
            )
        )
    return row, record


def _verified(row: GameRecordRow, key: bytes, team: bool) -> GameRecord:
    """The stored record of ``row`` (a team board's if ``team``) with its chain, stored head
    and signature checked."""
    return GameRecord.from_json(
        row.record_json,
        row.head,
        key=key,
        signature=row.signature,
        context=record_context(team, row.game_id),
    )


def _context(game: RefereedGame) -> str:
    """What the signature of the game's record covers beside its head."""
    return record_context(game.match is not None, game.id)


def game_actor(session: Session, actor: Actor, event_id: int) -> GameActor:
    """Who the user is in a game record: the chief referee (also a site administrator and the
    command line) or a referee (also an organiser entering results)."""
    name = actor.username or "admin"
    roles = roles_in_event(session, actor, event_id)
    if actor.is_admin or Role.CHIEF_REFEREE in roles:
        return GameActor.chief_referee(name)
    return GameActor.referee(name)


def _now(clock: ServerClock, record: GameRecord) -> float:
    """The server's clock, never before the record's last event (times only go forward)."""
    return record.time_from(clock.now().timestamp())


def _start(game: RefereedGame, by: GameActor, clock: ServerClock) -> GameRecord:
    """A new record for ``game``; a result already stored on the board goes into it first."""
    record = GameRecord.start(
        _ruleset(game),
        ColorAssignment.by_organiser(game.black, game.white),
        referee=by,
        at=clock.now().timestamp(),
    )
    if game.result:
        record.append(ResultEntered(result=Result.parse(game.result)), by, _now(clock, record))
        if game.confirmed:
            record.append(SheetConfirmed(), by, _now(clock, record))
    return record


def _where(game: RefereedGame) -> Msg:
    return Msg("round %(round)s board %(board)s", round=game.number, board=game.board)


def _append(
    session: Session,
    actor: Actor,
    event_id: int,
    game: RefereedGame,
    event: RecordEvent | tuple[RecordEvent, ...],
    expected_seq: int | None,
    as_actor: GameActor | None = None,
    refused_as: str | None = None,
    clock: ServerClock = SYSTEM_CLOCK,
) -> GameRecord:
    """Append ``event`` (or several events in turn: a signed sheet's result and confirmation)
    to the game's record (creating it) and store it once; the board's result follows. Refused
    with ``Conflict`` when ``expected_seq`` is not the stored length. With ``refused_as``, the
    core's own refusal of the event (a ``Conflict``) is bad input for that field instead
    (``InvalidSetting``), nothing stored."""
    by = game_actor(session, actor, event_id)
    row, record = _load_at(session, game, expected_seq)
    if record is None:
        record = _start(game, by, clock)
    for one in event if isinstance(event, tuple) else (event,):
        state = record.state
        late_ok = isinstance(one, ResultCorrected | PlayedAgain) or (
            isinstance(one, InfractionRuled) and by.role is Role.CHIEF_REFEREE
        )
        if state.confirmed and not late_ok:
            raise Conflict(
                Msg(
                    "%(game)s: the result %(result)s is confirmed; only "
                    "the chief referee may correct it, with a reason",
                    game=_where(game),
                    result=state.result,
                )
            )
        try:
            record.append(one, as_actor or by, _now(clock, record))
        except Conflict as refused:
            if refused_as is None:
                raise
            # The core says "event N: why"; the N of an event never stored means nothing.
            why = refused.msg
            if why.id == "event %(seq)s: %(reason)s":
                why = (
                    Msg.of(str(why.args["reason"]))
                    if not isinstance(why.args["reason"], Msg)
                    else why.args["reason"]
                )
            raise InvalidSetting(
                refused_as, Msg("%(game)s: %(why)s", game=_where(game), why=why)
            ) from None
    _store(session, game, row, record)
    return record


def _store(
    session: Session,
    game: RefereedGame,
    row: GameRecordRow | None,
    record: GameRecord,
) -> None:
    state = record.state
    black, white = state.warnings
    if state.colors_wrong_noted:  # colours swapped on the board after move 10 (R-COLOR-2)
        black, white = white, black
    text = record.to_json()
    values = {
        "record_json": text,
        "head": record.head,
        "signature": record.signature(record_signing_key(session), _context(game)),
        "seq": len(record),
        "black_warnings": black,
        "white_warnings": white,
    }
    if row is None:
        # Under the event's lock (``_game_to_change``) nobody else creates it meanwhile; were
        # it so, the unique key refuses the second and ``Database.transaction`` says Conflict.
        session.add(GameRecordRow(game_id=game.id, **values))
        session.flush()
    else:
        done = session.execute(
            update(GameRecordRow)
            .where(GameRecordRow.game_id == game.id, GameRecordRow.seq == row.seq)
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise Conflict(
                Msg(
                    "%(game)s: another referee changed this game at the same time; "
                    "reload the page and try again",
                    game=_where(game),
                )
            )
        session.expire(row)
    key = _record_key(session, game.id)
    if record_cache.noted(session, key):  # loaded to be kept: kept as stored now
        record_cache.note(
            session, key, record_cache.KeptRecord(record, text, record.head, len(record))
        )
    before = game.row.result
    game.row.result = state.result.to_code() if state.result is not None else None
    game.row.confirmed = state.confirmed
    # what the standings count of the board, sealed with the record it follows
    seal_row(session, game.row, (black, white), record.head)
    if game.match is not None and game.row.result != before:
        # a 擂台赛 moves on from its game's result (winner_stays_on imports this module)
        from weiqi.services.winner_stays_on import after_board_result

        after_board_result(session, game.row)


def _who(actor: GameActor | None) -> tuple[str | None, str]:
    """(role or colour, name) of who acted, for pages that name the role in their language."""
    if actor is None:
        return None, ""
    if actor.color is not None:
        return actor.color.value, ""
    return actor.role.value, actor.id or ""


def _stamp(at: float) -> datetime:
    return datetime.fromtimestamp(at, UTC)


def _view(session: Session, event_id: int, game: RefereedGame) -> GameView:
    event = session.get(EventRow, event_id)
    assert event is not None
    black, white = game.black, game.white
    row, record = _load_record(session, game)
    result = Result.parse(game.result) if game.result else None
    history: list[HistoryItem] = []
    infractions: list[InfractionItem] = []
    rulings: list[RulingItem] = []
    warnings = (0, 0)
    black_count = None
    acknowledged: tuple[str, ...] = ()
    move_number = 0
    stones: tuple[tuple[str, str], ...] = ()
    seat_leaves: list[SeatLeaveItem] = []
    board_size: int | None = None
    phase = "confirmed" if game.confirmed else ("finished" if result else "not_started")
    if record is not None:
        state = record.state
        times = {e.seq: e.at for e in record.entries}
        previous: Result | None = None
        for change in state.result_history:
            history.append(
                HistoryItem(
                    change.seq,
                    _stamp(change.at),
                    change.actor.describe() if change.actor else "(rules)",
                    change.result.to_code() if change.result else None,
                    change.result.to_zh() if change.result else None,
                    previous.to_code() if previous else None,
                    previous.to_zh() if previous else None,
                    change.reason,
                    *_who(change.actor),
                )
            )
            previous = change.result
        for inf in state.infractions:
            i = inf.infraction
            infractions.append(
                InfractionItem(
                    inf.seq,
                    _stamp(times[inf.seq]),
                    inf.move_number,
                    i.offender.value,
                    state.player(i.offender),
                    i.kind.value,
                    i.kind.zh,
                    i.kind.en,
                    i.kind.requirement,
                    inf.penalty.value,
                    inf.ruled_by.describe() if inf.ruled_by else "(rules)",
                    i.note,
                    *_who(inf.ruled_by),
                )
            )
        for r in state.rulings:
            rulings.append(
                RulingItem(
                    r.seq,
                    _stamp(times[r.seq]),
                    r.ruling.kind.value,
                    r.ruling.kind.zh,
                    r.ruling.kind.en,
                    r.ruling.reason,
                    r.ruling.loser.value if r.ruling.loser else None,
                    r.ruled_by.describe(),
                    *_who(r.ruled_by),
                )
            )
        for entry in record.entries:
            if isinstance(entry.event, LeaveSeat):
                leaver = entry.event.player
                seat_leaves.append(
                    SeatLeaveItem(
                        entry.seq,
                        _stamp(entry.at),
                        entry.move_number,
                        leaver.value,
                        state.player(leaver),
                        entry.actor.describe(),
                        *_who(entry.actor),
                    )
                )
        warnings = state.warnings
        black_count = state.black_count
        phase = state.phase.value
        acknowledged = tuple(
            sorted(a.color.value for a in state.confirmations if a.color is not None)
        )
        move_number = state.move_number
        stones = tuple(sorted(state.stone_map().items()))
        board_size = state.ruleset.board_size if state.ruleset is not None else None
    return GameView(
        event_id=event_id,
        event_name=event.name,
        round=game.number,
        board=game.board,
        black=black,
        white=white,
        handicap=game.handicap,
        komi=Fraction(game.komi),
        result=result.to_code() if result else None,
        result_zh=result.to_zh() if result else None,
        result_sgf=result.to_sgf() if result else None,
        confirmed=game.confirmed,
        phase=phase,
        black_count=black_count,
        warnings=warnings,
        history=tuple(history),
        infractions=tuple(infractions),
        rulings=tuple(rulings),
        seq=row.seq if row is not None else 0,
        head=row.head if row is not None else None,
        acknowledged=acknowledged,
        move_number=move_number,
        stones=stones,
        played_again=played_again_kind(session, event_id, game),
        playoff_due=result is not None and needs_playoff(session, event_id, game, result),
        seat_leaves=tuple(seat_leaves),
        board_size=board_size,
        match=game.match,
        sitting=game.sitting,
        black_team=game.black_team,
        white_team=game.white_team,
        stage_game=_stage_game(session, event_id, game),
    )


def _stage_game(session: Session, event_id: int, game: RefereedGame) -> bool:
    """Whether ``game`` is a game of a 擂台赛 (its match's number is the game's)."""
    from weiqi.services.teams import is_stage  # (teams imports this module)

    return game.match is not None and is_stage(session, event_id)


# -- reading ---------------------------------------------------------------------------------


def game_view(db: Database, event_id: int, number: int, board: BoardKey) -> GameView:
    """The board's players, result, result history, infractions and rulings (public)."""
    with db.transaction() as session:
        return _view(session, event_id, _game_row(session, event_id, number, board))


@dataclass(frozen=True)
class RoundSheet:
    """The round sheet (成绩录入): the boards a search leaves, of how many."""

    event_name: str
    boards: tuple[GameView, ...]
    total: int
    """Every board of the round."""
    search: str = ""
    details: EventDetails = field(default_factory=EventDetails)
    """What heads the sheet: the event's days, venue and time zone, with ``time_control``."""
    time_control: TimeControl | None = None
    """The event's time control (its settings')."""


def round_games(db: Database, event_id: int, number: int) -> list[GameView]:
    """Every board of a round, for the round sheet: an individual round's by board, a team
    round's match by match (its boards once the lineups are revealed)."""
    return list(round_sheet(db, event_id, number).boards)


def round_sheet(db: Database, event_id: int, number: int, search: str = "") -> RoundSheet:
    """Every board of a round, either kind (a team round's by match, sitting and board); with
    ``search``, the boards where a player matches it (``player_names.matches``: name, club,
    rank)."""
    terms = search_terms(search)
    with db.transaction() as session:
        event = existing_event(session, event_id)
        rnd = round_row(session, event_id, number)
        players = {
            p.id: p
            for p in session.scalars(select(PlayerRow).where(PlayerRow.event_id == event_id))
        }
        shown = player_labels(players.values())
        boards_of_round = session.scalars(
            select(GameRow)
            .outerjoin(TeamMatchRow, TeamMatchRow.id == GameRow.match_id)
            .where(GameRow.round_id == rnd.id)
            .order_by(TeamMatchRow.number, GameRow.sitting, GameRow.board)
        ).all()

        def wanted(g: GameRow) -> bool:
            seated = (pid for pid in (g.black_id, g.white_id) if pid is not None)
            return not terms or any(matches(terms, players[pid], shown[pid]) for pid in seated)

        boards = tuple(
            _view(session, event_id, refereed_game(session, g, shown))
            for g in boards_of_round
            if wanted(g)
        )
        return RoundSheet(event.name, boards, len(boards_of_round), search.strip(),
                          details_of(event), time_control_in(session, event_id))  # fmt: skip


def game_sgf(
    db: Database, event_id: int, number: int, board: BoardKey, *, clock: ServerClock = SYSTEM_CLOCK
) -> str:
    """The game's record as SGF (penalties and rulings as comments, the result in RE)."""
    with db.transaction() as session:
        game = _game_row(session, event_id, number, board)
        _, record = _load_record(session, game)
        if record is None:
            record = _start(game, GameActor.referee("weiqi"), clock)
        event = session.get(EventRow, event_id)
        assert event is not None
        announced = time_control_in(session, event_id)
        sgf = record_to_sgf(record, event=event.name, round=str(number), time_control=announced)
        return write_sgf(sgf).decode()


# -- the result workflow ---------------------------------------------------------------------


def enter_and_confirm(
    session: Session,
    actor: Actor,
    event_id: int,
    game: GameRow | RefereedGame,
    result: Result,
    *,
    clock: ServerClock = SYSTEM_CLOCK,
) -> None:
    """Enter and confirm a result in one step (``weiqi round result``: the signed sheet), in
    the caller's transaction; the caller checks permissions. On a board confirmed as a replay
    ruling or (in a knockout) without a winner, ``result`` is the result of the game played
    again (:func:`played_again_kind`)."""
    if isinstance(game, GameRow):
        game = refereed_game(session, game)
    entry = ResultEntered(result=result)
    _record_entry(session, actor, event_id, game, entry, None, confirm=True, clock=clock)


def _event_settings(session: Session, event_id: int) -> EventSettings | None:
    """The settings of individual event ``event_id``; ``None`` for any other."""
    settings = event_settings(session, event_id)
    return settings if isinstance(settings, EventSettings) else None


def needs_playoff(
    session: Session, event_id: int, game: GameRow | RefereedGame, result: Result
) -> bool:
    """Whether ``result`` on the board leaves a knockout game without the winner it needs, so
    that a playoff (加赛, R-PLAYOFF) decides it: a draw or no result on an individual board of
    a bracket, entered or confirmed (a team board's draw is settled at its match)."""
    if result.outcome not in (Outcome.DRAW, Outcome.NO_RESULT):
        return False
    if (game.row if isinstance(game, RefereedGame) else game).match_id is not None:
        return False
    settings = _event_settings(session, event_id)
    return settings is not None and settings.is_bracket


def played_again_kind(session: Session, event_id: int, game: GameRow | RefereedGame) -> str | None:
    """``"replay"`` or ``"playoff"`` when the board's confirmed result calls for the game to be
    played again and its result recorded on the board; ``None`` when the result is final.

    A replay ruling (重赛, R-REF-3, R-END-1(d)) is played again unless the event scores it
    without replaying (``replay_points``, not in a bracket: a knockout needs a winner); a draw
    or no result in a bracket is settled by a playoff (加赛, R-PLAYOFF). A team board scores
    game points for its match: a replay or no result on it is played again (the match's own
    draw is settled at the match, not on a board)."""
    if not game.confirmed or not game.result:
        return None
    outcome = Result.parse(game.result).outcome
    if (game.row if isinstance(game, RefereedGame) else game).match_id is not None:
        return "replay" if outcome in (Outcome.REPLAY, Outcome.NO_RESULT) else None
    settings = _event_settings(session, event_id)
    bracket = settings is not None and settings.is_bracket
    if outcome is Outcome.REPLAY and (
        bracket or settings is None or settings.replay_points is None
    ):
        return "replay"
    if bracket and outcome in (Outcome.DRAW, Outcome.NO_RESULT):
        return "playoff"
    return None


def _record_played_again(
    session: Session,
    actor: Actor,
    event_id: int,
    game: RefereedGame,
    entry: Result | Fraction,
    expected_seq: int | None,
    clock: ServerClock = SYSTEM_CLOCK,
) -> bool:
    """Record ``entry`` (a result or Black's count) as the result of the board's game played
    again when its confirmed result calls for it (see :func:`played_again_kind`), confirmed as
    from the signed sheet; ``False`` (nothing done) when it does not."""
    kind = played_again_kind(session, event_id, game)
    if kind is None:
        return False
    require(session, actor, Action.CONFIRM_RESULT, event_id)
    if isinstance(entry, Fraction):  # a count: komi and handicap; the first game's warnings
        _, record = _load_record(session, game)  # stay with it (R-PEN-1)
        ruleset = record.state.ruleset if record is not None else None
        if ruleset is None:
            ruleset = _ruleset(game)
        if not 0 <= entry <= ruleset.points or (entry * 2).denominator != 1:
            raise InvalidSetting(
                "black count",
                Msg("must be half stones from 0 to %(points)s", points=ruleset.points),
            )
        entry = Result.from_counts(entry - ruleset.black_threshold)
    _append(
        session,
        actor,
        event_id,
        game,
        PlayedAgain(entry, playoff=kind == "playoff"),
        expected_seq,
        clock=clock,
    )
    return True


def _record_entry(
    session: Session,
    actor: Actor,
    event_id: int,
    game: RefereedGame,
    event: ResultEntered,
    expected_seq: int | None,
    *,
    confirm: bool,
    clock: ServerClock,
) -> None:
    """Record a result entered on the board (a result or Black's count): as the result of
    the game played again when the board's confirmed result calls for it
    (:func:`_record_played_again`, confirmed as from the signed sheet), else appended to the
    board's record, with the sheet's confirmation when ``confirm``."""
    entry = event.result if event.result is not None else event.black_count
    assert entry is not None
    if _record_played_again(session, actor, event_id, game, entry, expected_seq, clock=clock):
        return
    events = (event, SheetConfirmed()) if confirm else event
    _append(session, actor, event_id, game, events, expected_seq, clock=clock)


def _entry_event(text: str) -> ResultEntered:
    entry = parse_entry(text)
    if isinstance(entry, Fraction):
        return ResultEntered(black_count=entry)
    return ResultEntered(result=entry)


def enter_result(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: BoardKey,
    text: str,
    expected_seq: int | None = None,
    *,
    clock: ServerClock = SYSTEM_CLOCK,
) -> GameView:
    """Enter a board's result: a result code or Black's count in stones, from which komi,
    handicap compensation and warnings give the result (R-SCORE-3, R-PEN-1). Not yet final —
    except the result of a game played again after a replay ruling or as a knockout's playoff
    (:func:`played_again_kind`), which comes from its signed sheet and is confirmed with it.

    A result entered over another one says which state of the game it replaces
    (``expected_seq``, as the game page does): without it the board must have no result yet,
    so of two referees entering different results at once the second is told of the first
    instead of replacing it unseen."""
    event = _entry_event(text)
    with db.transaction() as session:
        require(session, actor, Action.ENTER_RESULT, event_id)
        game = _game_to_change(session, event_id, number, board, expected_seq)
        if expected_seq is None and game.result is not None and not game.confirmed:
            row, _ = _load_record(session, game)
            raise Conflict(
                Msg(
                    "%(game)s: the result %(result)s is entered already; to replace it, "
                    "reload the game and enter yours again (expected_seq %(seq)s)",
                    game=_where(game),
                    result=game.result,
                    seq=row.seq if row is not None else 0,
                )
            )
        _record_entry(
            session, actor, event_id, game, event, expected_seq, confirm=False, clock=clock
        )
        return _view(session, event_id, game)


def _act(
    db: Database,
    actor: Actor,
    action: Action,
    event_id: int,
    number: int,
    board: BoardKey,
    expected_seq: int | None,
    build: Callable[[Session, RefereedGame], RecordEvent],
    *,
    as_actor: GameActor | None = None,
    refused_as: str | None = None,
    clock: ServerClock,
) -> GameView:
    """One referee action on a board, in one transaction: ``actor`` may take ``action``, the
    board is still the one loaded (``expected_seq``), ``build`` makes the event (or refuses,
    seeing the board), which is appended to its record; the board's view after it."""
    with db.transaction() as session:
        require(session, actor, action, event_id)
        game = _game_to_change(session, event_id, number, board, expected_seq)
        event = build(session, game)
        _append(session, actor, event_id, game, event, expected_seq, as_actor, refused_as, clock)
        return _view(session, event_id, game)


def confirm_result(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: BoardKey,
    expected_seq: int | None = None,
    *,
    clock: ServerClock = SYSTEM_CLOCK,
) -> GameView:
    """The referee confirms the result: final from now on (R-END-4, R-REF-7). When both
    players have acknowledged it, this is the third signature; otherwise it stands for the
    players' signatures on the result sheet."""

    def build(session: Session, game: RefereedGame) -> RecordEvent:
        _, record = _load_record(session, game)
        signed = record is not None and {
            a.color for a in record.state.confirmations if a.color is not None
        } == {Color.BLACK, Color.WHITE}
        return Confirm() if signed else SheetConfirmed()

    return _act(db, actor, Action.CONFIRM_RESULT, event_id, number, board, expected_seq, build,
                clock=clock)  # fmt: skip


def acknowledge_result(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: BoardKey,
    color: str,
    expected_seq: int | None = None,
    *,
    clock: ServerClock = SYSTEM_CLOCK,
) -> GameView:
    """A player (``B``/``W``) acknowledges the result entered, as the referee at the table
    records it; a new result (a recount, a warning) needs new acknowledgements (R-END-4)."""
    who = GameActor.player(referee_input.color(color, "player"))
    return _act(db, actor, Action.ENTER_RESULT, event_id, number, board, expected_seq,
                lambda _s, _g: Confirm(), as_actor=who, clock=clock)  # fmt: skip


def request_recount(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: BoardKey,
    color: str,
    expected_seq: int | None = None,
    *,
    clock: ServerClock = SYSTEM_CLOCK,
) -> GameView:
    """A player (``B``/``W``) asks for a recount before confirmation (R-REF-7); the referee at
    the table records it."""
    who = GameActor.player(referee_input.color(color, "player"))
    return _act(db, actor, Action.ENTER_RESULT, event_id, number, board, expected_seq,
                lambda _s, _g: RequestRecount(), as_actor=who, clock=clock)  # fmt: skip


def correction_problems(text: str, reason: str) -> dict[str, Msg]:
    """Every problem of a correction's fields at once, by field (``result``, ``reason``): a
    result that does not parse, a reason missing or too long; empty when both are fine (the
    board itself is checked by :func:`correct_result`).

    >>> sorted(correction_problems("W+X", " "))
    ['reason', 'result']
    >>> correction_problems("W+R", "the count was wrong")
    {}
    """
    problems: dict[str, Msg] = {}
    try:
        Result.parse(text)
    except InputError as err:
        problems["result"] = err.msg
    try:
        stated_reason(reason, Msg("a correction states its reason"))
    except (InputError, InvalidSetting) as err:
        problems["reason"] = err.reason
    return problems


def correct_result(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: BoardKey,
    text: str,
    reason: str,
    expected_seq: int | None = None,
    *,
    clock: ServerClock = SYSTEM_CLOCK,
) -> GameView:
    """The chief referee changes a confirmed result, with a reason, as a new event in its
    history (R-REF-7, R-REF-6)."""
    result = Result.parse(text)
    reason = stated_reason(reason, Msg("a correction states its reason"))

    def build(_session: Session, game: RefereedGame) -> RecordEvent:
        if not game.confirmed:
            raise Conflict(
                Msg(
                    "%(game)s: the result is not confirmed yet; enter the right result instead",
                    game=_where(game),
                )
            )
        return ResultCorrected(result, reason)

    return _act(db, actor, Action.CORRECT_RESULT, event_id, number, board, expected_seq, build,
                clock=clock)  # fmt: skip


# -- infractions and rulings -----------------------------------------------------------------


def record_infraction(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: BoardKey,
    kind: str,
    offender: str,
    penalty: str | None = None,
    note: str = "",
    points: str = "",
    expected_seq: int | None = None,
    *,
    clock: ServerClock = SYSTEM_CLOCK,
) -> GameView:
    """A referee's ruling on an infraction (R-REF-1…6, R-TIME-7); the penalty follows from the
    catalogue — one stone per warning at counting, a second warning loses (R-PEN-1)."""

    def build(_session: Session, game: RefereedGame) -> RecordEvent:
        size = game.ruleset.board_size
        return InfractionRuled(
            referee_input.infraction(kind, offender, penalty, note, points, size=size)
        )

    return _act(db, actor, Action.RULE_INFRACTION, event_id, number, board, expected_seq, build,
                clock=clock)  # fmt: skip


def record_ruling(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: BoardKey,
    kind: str,
    reason: str,
    loser: str | None = None,
    expected_seq: int | None = None,
    *,
    clock: ServerClock = SYSTEM_CLOCK,
) -> GameView:
    """A referee's decision that ends the game (R-END-1(d), R-REF-3): draw, replay, both lose
    and no result are the chief referee's; forfeit, time loss and loss name the loser."""
    ruling = referee_input.ruling(kind, reason, loser)

    def build(session: Session, _game: RefereedGame) -> RecordEvent:
        if ruling.required_role is Role.CHIEF_REFEREE:  # draw, replay, both lose, no result
            require(session, actor, Action.CHIEF_RULING, event_id)
        return RulingMade(ruling)

    return _act(db, actor, Action.RULE_INFRACTION, event_id, number, board, expected_seq, build,
                clock=clock)  # fmt: skip


def grant_seat_leave(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: BoardKey,
    player: str,
    expected_seq: int | None = None,
    *,
    clock: ServerClock = SYSTEM_CLOCK,
) -> GameView:
    """A referee lets ``player`` (``B``/``W``) leave the seat (R-TIME-2 / Art. 22.7: in
    byo-yomi, only during the opponent's thinking time, once per game); the clock is not
    touched. The referee core decides: a player not in byo-yomi (when the record keeps the
    clock), to move, already granted once, or a game not in play is refused with
    ``InvalidSetting`` naming why, and nothing is stored. A record without a clock (a game on a
    physical board) takes the referee's word for byo-yomi; whose time it is follows the moves
    the record holds (Black's before any)."""
    who = referee_input.color(player, "player")
    return _act(db, actor, Action.RULE_INFRACTION, event_id, number, board, expected_seq,
                lambda _s, _g: LeaveSeat(who), refused_as="seat leave", clock=clock)  # fmt: skip


# -- a whole round ---------------------------------------------------------------------------


def enter_round_results(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    rows: list[tuple[int, int, str]],
    *,
    confirm: bool = True,
    source: str = "results",
    clock: ServerClock = SYSTEM_CLOCK,
) -> int:
    """Enter (and confirm) the results of a round: ``(line, board, text)`` rows, every row or
    none; a bad row anywhere rejects all with its line. A row that repeats a confirmed result
    is left as it is, so a sheet may be sent again. Returns the boards changed."""
    problems: list[tuple[int, Msg]] = []
    changed = 0
    seen: set[int] = set()
    with db.transaction() as session:
        require(session, actor, Action.ENTER_RESULT, event_id)
        if confirm:
            require(session, actor, Action.CONFIRM_RESULT, event_id)
        lock_event(session, event_id)
        try:
            boards = round_boards(session, event_id, number)  # once: linear in the boards
        except NotFound as err:  # every row names it, as a row's own problem would
            raise RowsRejected(source, [(line, err.message) for line, _, _ in rows]) from None
        for line, board, text in rows:
            if board in seen:
                problems.append((line, Msg("board %(board)s appears twice", board=board)))
                continue
            seen.add(board)
            try:
                event = _entry_event(text)
                game = refereed_game(session, boards.game(number, board), boards.labels)
                if (
                    game.confirmed
                    and event.result is not None
                    and game.result == event.result.to_code()
                ):
                    continue  # the same sheet sent again
                _record_entry(
                    session, actor, event_id, game, event, None, confirm=confirm, clock=clock
                )
                changed += 1
            except (NotFound, Conflict, InvalidSetting, InputError) as err:
                problems.append((line, err.msg))
        if problems:
            raise RowsRejected(source, problems)  # rolls the transaction back: nothing stored
    return changed


def parse_results_csv(
    text: str, source: str = "results.csv", *, whole_round: bool = False
) -> list[tuple[int, int, str]]:
    """``board,result`` rows with their line numbers (a result is a code or Black's count);
    ``whole_round``: also refuse a board named twice and a result that is no result code —
    every bad line is listed in one ``RowsRejected``.

    >>> parse_results_csv("board,result\\n1,B+R\\n2,184.5\\n")
    [(2, 1, 'B+R'), (3, 2, '184.5')]
    """
    reader = csv.DictReader(io.StringIO(check_upload(source, text).lstrip("\ufeff")))
    if reader.fieldnames is None or {"board", "result"} - {f.strip() for f in reader.fieldnames}:
        raise InputError(
            Msg("%(source)s, line 1", source=source),
            Msg("columns 'board' and 'result' are required"),
        )
    rows: list[tuple[int, int, str]] = []
    problems: list[tuple[int, Msg]] = []
    seen: set[int] = set()
    for line, rec in enumerate(reader, start=2):
        rec = {k.strip(): (v or "").strip() for k, v in rec.items() if k}
        try:
            board = int(rec["board"])
        except ValueError:
            problems.append((line, Msg("board '%(rec)s' is not a number", rec=str(rec["board"]))))
            continue
        if whole_round:
            if board in seen:
                problems.append((line, Msg("board %(board)s appears twice", board=board)))
                continue
            seen.add(board)
            try:
                Result.parse(rec["result"])
            except InputError as err:
                problems.append((line, err.msg))
                continue
        rows.append((line, board, rec["result"]))
    if problems:
        raise RowsRejected(source, problems)
    return rows


@dataclass(frozen=True)
class RecordCheck:
    """One stored game record as :func:`check_records` found it: its game, its number of
    events, and ``problem`` — what does not verify — or ``None``."""

    event_id: int
    round: int
    board: BoardKey
    events: int
    problem: Msg | None

    @property
    def game(self) -> Msg:
        """The game, named as its event names it."""
        if isinstance(self.board, TeamBoard):
            return Msg(
                "event %(event_id)s round %(round)s match %(match)s board %(board)s",
                event_id=self.event_id,
                round=self.round,
                match=self.board.match,
                board=self.board.board
                if not self.board.sitting
                else f"{self.board.board}/{self.board.sitting + 1}",
            )
        return Msg(
            "event %(event_id)s round %(round)s board %(board)s",
            event_id=self.event_id,
            round=self.round,
            board=self.board,
        )


def check_records(db: Database, event_id: int | None = None) -> list[RecordCheck]:
    """Verify every stored game record (of ``event_id``, or of every event) — hash chain,
    stored head, replay under the rules and the signature under the site's record key — for
    ``weiqi record check`` and audits. Reports every record, refusing none: the caller sees
    which ones fail and why.

    >>> from weiqi.store.database import Database
    >>> from weiqi.tournament.settings import EventSettings, System
    >>> from weiqi.services import tournament as t
    >>> db = Database("sqlite://"); db.upgrade()
    >>> from weiqi.services.events import create_event
    >>> ev = create_event(db, Actor.local(), "Club", EventSettings(System.ROUND_ROBIN))
    >>> t.import_players(db, Actor.local(), ev.id, "name\\n李\\n王\\n")
    2
    >>> _ = t.pair_round(db, Actor.local(), ev.id)
    >>> _ = enter_result(db, Actor.local(), ev.id, 1, 1, "B+R")
    >>> [(str(c.game), c.events, c.problem) for c in check_records(db)]
    [('event 1 round 1 board 1', 2, None)]
    """
    with db.transaction() as session:
        try:
            key: bytes | None = record_signing_key(session)
            missing = None
        except RecordRefused as refused:  # the database's key is not here: nothing verifies
            key, missing = None, refused.reason
        query = (
            select(GameRecordRow, GameRow.match_id, *GAME_PLACE)
            .join(GameRow, GameRow.id == GameRecordRow.game_id)
            .join(RoundRow, RoundRow.id == GameRow.round_id)
            .outerjoin(TeamMatchRow, TeamMatchRow.id == GameRow.match_id)
            .order_by(
                RoundRow.event_id,
                RoundRow.number,
                TeamMatchRow.number,
                GameRow.sitting,
                GameRow.board,
            )
        )
        if event_id is not None:
            query = query.where(RoundRow.event_id == event_id)
        checks = []
        for row, match_id, ev, number, match, board, sitting in session.execute(query):
            problem = missing
            if key is not None:
                try:
                    _verified(row, key, match_id is not None)
                except InputError as err:
                    problem = err.msg
            checks.append(
                RecordCheck(ev, number, board_key(board, match, sitting), row.seq, problem)
            )
        if key is not None:
            checks += _board_checks(session, event_id)
        return checks


#: Why a board whose seal does not hold is left out (``store.seals``).
UNSEALED = Msg(
    "the board's result, confirmation, warnings or players were changed outside weiqi: they "
    "are not what its record was sealed with, so the board counts as not played"
)


def _board_checks(session: Session, event_id: int | None) -> list[RecordCheck]:
    """The boards (of ``event_id``, or of every event) whose seal does not hold."""
    events = select(EventRow.id).order_by(EventRow.id)
    if event_id is not None:
        events = events.where(EventRow.id == event_id)
    out = []
    for ev in session.scalars(events):
        for b in seals.event_boards(session, ev):
            if not b.counts:
                where = board_key(b.board, b.match or None, b.sitting)
                out.append(RecordCheck(ev, b.round, where, 0, UNSEALED))
    return out


def broken_boards(db: Database, actor: Actor, event_id: int) -> list[RecordCheck]:
    """The boards of an event that count as not played because their seal does not hold —
    a result or a warning rewritten in the database — for the chief referee's dashboard
    (those who may correct results).

    >>> from weiqi.store.database import Database
    >>> from weiqi.tournament.settings import EventSettings, System
    >>> from weiqi.services import tournament as t
    >>> db = Database("sqlite://"); db.upgrade()
    >>> from weiqi.services.events import create_event
    >>> ev = create_event(db, Actor.local(), "Club", EventSettings(System.ROUND_ROBIN))
    >>> broken_boards(db, Actor.local(), ev.id)
    []
    """
    with db.transaction() as session:
        require(session, actor, Action.CORRECT_RESULT, event_id)
        return _board_checks(session, event_id)


def record_json(db: Database, event_id: int, number: int, board: BoardKey) -> str | None:
    """The stored record's JSON (``None`` without one) — for audits and tests."""
    with db.transaction() as session:
        row, _ = _load_record(session, _game_row(session, event_id, number, board))
        return row.record_json if row is not None else None


__all__ = [
    "BoardKey",
    "GameView",
    "HistoryItem",
    "InfractionItem",
    "RecordCheck",
    "RefereedGame",
    "RulingItem",
    "TeamBoard",
    "acknowledge_result",
    "broken_boards",
    "check_records",
    "confirm_result",
    "correct_result",
    "enter_and_confirm",
    "enter_result",
    "enter_round_results",
    "game_sgf",
    "game_view",
    "parse_entry",
    "parse_results_csv",
    "played_again_kind",
    "record_infraction",
    "record_ruling",
    "refereed_game",
    "request_recount",
    "round_boards",
    "round_games",
]
