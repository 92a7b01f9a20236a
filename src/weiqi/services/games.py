"""One board's game: its referee record (``weiqi.referee.GameRecord``), the result workflow and
the referee's decisions (R-REF-7, R-END-4, R-PEN-1, R-REF-1…6).

A paired board gets its record when first needed: the first infraction, result or ruling.
Every write loads the record (hash chain and stored head checked), appends one event through
the core — which applies the rules and refuses what they do not allow — and stores it in the
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
>>> ev = t.create_tournament(db, local, "Club", EventSettings(system=System.ROUND_ROBIN))
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
weiqi.errors.Conflict: round 1 board 1: the result W+1.5 is confirmed (R-REF-7); only ...
"""

from __future__ import annotations

import csv
import io
import json
import re
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from weiqi.errors import Conflict, InputError, InvalidSetting, NotFound
from weiqi.formats.players_csv import RowsRejected
from weiqi.formats.sgf_referee import record_to_sgf, write_sgf
from weiqi.referee.actors import Actor as GameActor
from weiqi.referee.events import (
    Confirm,
    InfractionRuled,
    LeaveSeat,
    PlayedAgain,
    RequestRecount,
    ResultCorrected,
    ResultEntered,
    RulingMade,
    SheetConfirmed,
)
from weiqi.referee.events import Event as GameEvent
from weiqi.referee.infractions import Infraction, InfractionKind, Penalty
from weiqi.referee.nigiri import ColorAssignment
from weiqi.referee.record import GameRecord
from weiqi.referee.rulings import Ruling, RulingKind
from weiqi.roles import Role
from weiqi.rules.color import Color
from weiqi.rules.result import Outcome, Result
from weiqi.rules.ruleset import Ruleset
from weiqi.rules.vertex import format_vertex, parse_vertex
from weiqi.services.actor import Actor
from weiqi.services.permissions import Action, require, roles_in_event
from weiqi.store.database import Database
from weiqi.store.games import GameRecordRow
from weiqi.store.models import Event as EventModel
from weiqi.store.tournament import EventSettingsRow, GameRow, PlayerRow, RoundRow
from weiqi.tournament.settings import settings_from_dict

#: The size of the boards of an event (the event settings have no other size yet).
BOARD_SIZE = 19

#: Infractions a referee records on a game from the page (the ko and forbidden-point kinds
#: follow from a move itself in strict play mode, R-REF-5, and are not entered by hand).
RECORDABLE = tuple(
    k
    for k in InfractionKind
    if k not in (InfractionKind.KO_WITHOUT_THREAT, InfractionKind.FORBIDDEN_POINT)
)
#: Rulings that end a game (R-END-1(d)); the stone rulings of R-REF-3 need a recorded board.
RULINGS = (
    RulingKind.DRAW,
    RulingKind.REPLAY,
    RulingKind.BOTH_LOSE,
    RulingKind.NO_RESULT,
    RulingKind.FORFEIT,
    RulingKind.TIME_LOSS,
    RulingKind.LOSS,
)


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
    reason: str
    reason_zh: str
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
    seat_leaves: tuple[SeatLeaveItem, ...] = ()
    """Permissions to leave the seat in byo-yomi (R-TIME-2 / Art. 22.7), in order."""


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
        raise InputError("result", "enter a result or Black's count")
    if raw != "0" and _COUNT.fullmatch(raw):
        whole, _, half = raw.partition(".")
        if raw.endswith(("½", " 1/2")):
            return Fraction(int(re.sub(r"\D.*", "", raw))) + Fraction(1, 2)
        return Fraction(int(whole)) + (Fraction(1, 2) if half else 0)
    return Result.parse(raw)


# -- loading ---------------------------------------------------------------------------------


def _game_row(session: Session, event_id: int, number: int, board: int) -> GameRow:
    if session.get(EventModel, event_id) is None:
        raise NotFound(f"event {event_id} does not exist")
    rnd = session.scalar(
        select(RoundRow).where(RoundRow.event_id == event_id, RoundRow.number == number)
    )
    if rnd is None:
        raise NotFound(f"round {number} is not paired")
    game = next((g for g in rnd.games if g.board == board), None)
    if game is None:
        raise NotFound(f"round {number} has no board {board}")
    return game


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

    def game(self, number: int, board: int) -> GameRow:
        """The game on ``board``; ``NotFound`` when the round has none."""
        game = self.games.get(board)
        if game is None:
            raise NotFound(f"round {number} has no board {board}")
        return game


def round_boards(session: Session, event_id: int, number: int) -> RoundBoards:
    """Every board of round ``number`` with its players and records, in four queries."""
    if session.get(EventModel, event_id) is None:
        raise NotFound(f"event {event_id} does not exist")
    rnd = session.scalar(
        select(RoundRow).where(RoundRow.event_id == event_id, RoundRow.number == number)
    )
    if rnd is None:
        raise NotFound(f"round {number} is not paired")
    games = {g.board: g for g in rnd.games}
    ids = [g.id for g in games.values()]
    players = session.scalars(select(PlayerRow).where(PlayerRow.event_id == event_id)).all()
    records = session.scalars(
        select(GameRecordRow).join(GameRow).where(GameRow.round_id == rnd.id)
    ).all()
    settings = session.get(EventSettingsRow, event_id)
    return RoundBoards(games, (rnd, ids, *players, *records, settings))


def _names(session: Session, game: GameRow) -> tuple[str, str]:
    black = session.get(PlayerRow, game.black_id)
    white = session.get(PlayerRow, game.white_id)
    assert black is not None and white is not None
    return black.name, white.name


def _load_record(session: Session, game: GameRow) -> tuple[GameRecordRow | None, GameRecord | None]:
    row = session.get(GameRecordRow, game.id)
    if row is None:
        return None, None
    return row, GameRecord.from_json(row.record_json, row.head)


def game_actor(session: Session, actor: Actor, event_id: int) -> GameActor:
    """Who the user is in a game record: the chief referee (also a site administrator and the
    command line) or a referee (also an organiser entering results)."""
    name = actor.username or "admin"
    roles = roles_in_event(session, actor, event_id)
    if actor.is_admin or Role.CHIEF_REFEREE in roles:
        return GameActor.chief_referee(name)
    return GameActor.referee(name)


def _now(record: GameRecord) -> float:
    """The wall clock, never before the record's last event (times only go forward)."""
    last = record.entries[-1].at if len(record) else 0.0
    return max(time.time(), last)


def _start(session: Session, game: GameRow, by: GameActor) -> GameRecord:
    """A new record for ``game``; a result already stored on the board goes into it first."""
    black, white = _names(session, game)
    handicap = game.handicap if game.handicap >= 2 else 0
    ruleset = Ruleset(board_size=BOARD_SIZE, komi=Fraction(game.komi), handicap=handicap)
    record = GameRecord.start(
        ruleset, ColorAssignment.by_organiser(black, white), referee=by, at=time.time()
    )
    if game.result:
        record.append(ResultEntered(result=Result.parse(game.result)), by, _now(record))
        if game.confirmed:
            record.append(SheetConfirmed(), by, _now(record))
    return record


def _where(game: GameRow) -> str:
    return f"round {game.round.number} board {game.board}"


def _append(
    session: Session,
    actor: Actor,
    event_id: int,
    game: GameRow,
    event: GameEvent,
    expected_seq: int | None,
    as_actor: GameActor | None = None,
    refused_as: str | None = None,
    then: GameEvent | None = None,
) -> GameRecord:
    """Append ``event`` (and ``then`` after it, e.g. the sheet's confirmation of a result: one
    load and one store for both) to the game's record (creating it) and store it; the board's
    result follows. Refused with ``Conflict`` when ``expected_seq`` is not the stored length. With
    ``refused_as``, the core's own refusal of the event (a ``Conflict``) is bad input for that
    field instead (``InvalidSetting``), nothing stored."""
    by = game_actor(session, actor, event_id)
    row, record = _load_record(session, game)
    seq = row.seq if row is not None else 0
    if expected_seq is not None and expected_seq != seq:
        raise Conflict(
            f"{_where(game)}: the game has changed since you loaded it "
            f"({seq} events now, {expected_seq} then); reload the page and try again"
        )
    if record is None:
        record = _start(session, game, by)
    state = record.state
    late_ok = isinstance(event, ResultCorrected | PlayedAgain) or (
        isinstance(event, InfractionRuled) and by.role is Role.CHIEF_REFEREE
    )
    if state.confirmed and not late_ok:
        raise Conflict(
            f"{_where(game)}: the result {state.result} is confirmed (R-REF-7); only the "
            "chief referee may correct it, with a reason"
        )
    try:
        record.append(event, as_actor or by, _now(record))
        if then is not None:
            record.append(then, as_actor or by, _now(record))
    except Conflict as refused:
        if refused_as is None:
            raise
        # The core says "event N: why"; the N of an event never stored means nothing to a user.
        why = re.sub(r"^event \d+: ", "", str(refused))
        raise InvalidSetting(refused_as, f"{_where(game)}: {why}") from None
    _store(session, game, row, record)
    return record


def _store(session: Session, game: GameRow, row: GameRecordRow | None, record: GameRecord) -> None:
    state = record.state
    black, white = state.warnings
    if state.colors_wrong_noted:  # colours swapped on the board after move 10 (R-COLOR-2)
        black, white = white, black
    values = {
        "record_json": record.to_json(),
        "head": record.head,
        "seq": len(record),
        "black_warnings": black,
        "white_warnings": white,
    }
    if row is None:
        session.add(GameRecordRow(game_id=game.id, **values))
        try:
            session.flush()
        except IntegrityError:
            raise Conflict(
                f"{_where(game)}: another referee started this game's record at the same time; "
                "reload the page and try again"
            ) from None
    else:
        done = session.execute(
            update(GameRecordRow)
            .where(GameRecordRow.game_id == game.id, GameRecordRow.seq == row.seq)
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise Conflict(
                f"{_where(game)}: another referee changed this game at the same time; "
                "reload the page and try again"
            )
        session.expire(row)
    game.result = state.result.to_code() if state.result is not None else None
    game.confirmed = state.confirmed


def _who(actor: GameActor | None) -> tuple[str | None, str]:
    """(role or colour, name) of who acted, for pages that name the role in their language."""
    if actor is None:
        return None, ""
    if actor.color is not None:
        return actor.color.value, ""
    return actor.role.value, actor.id or ""


#: The core's reasons for result changes, in Chinese (patterns of ``weiqi.referee.state``).
_REASONS_ZH: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(r"count: Black ([\d.]+) stones, warnings (\d+)/(\d+) as stones \(R-PEN-1\)"),
        r"数子：黑方\1子，警告 黑\2/白\3 各计一子（R-PEN-1）",
    ),
    (re.compile(r"count: Black ([\d.]+) stones"), r"数子：黑方\1子"),
    (
        re.compile(
            r"count again: Black ([\d.]+) stones, warning: .*, warnings (\d+)/(\d+) as "
            r"stones \(R-PEN-1\)"
        ),
        r"警告后重新计算：黑方\1子，警告 黑\2/白\3 各计一子（R-PEN-1）",
    ),
    (re.compile(r"entered from the result sheet: (.*)"), r"按记录表录入：\1"),
    (
        re.compile(r"confirmed: signed by both players on the result sheet and by the referee.*"),
        "双方签字，裁判确认（R-REF-7）",
    ),
    (re.compile(r"confirmed by both players and the referee.*"), "双方棋手和裁判确认（R-REF-7）"),
    (re.compile(r"recount requested.*"), "要求复数（R-REF-7）"),
    (re.compile(r"second warning: .*"), "第二次警告，判负（R-PEN-1）"),
    (re.compile(r"corrected: (.*)"), r"裁判长更正：\1"),
    (re.compile(r"resignation"), "中盘认输"),
    (re.compile(r"replay: (.*)"), r"重赛结果：\1（R-REF-3）"),
    (re.compile(r"playoff: (.*)"), r"加赛结果：\1（R-PLAYOFF）"),
    (re.compile(r"ruling: [a-z_]+: (.*)"), r"裁决：\1"),
]


def reason_zh(reason: str) -> str:
    """The reason of a result change in Chinese where the core's wording is known.

    >>> reason_zh("count: Black 184.5 stones, warnings 1/0 as stones (R-PEN-1)")
    '数子：黑方184.5子，警告 黑1/白0 各计一子（R-PEN-1）'
    >>> reason_zh("corrected: 黑方作弊")
    '裁判长更正：黑方作弊'
    """
    for pattern, text in _REASONS_ZH:
        if pattern.fullmatch(reason):
            return pattern.sub(text, reason)
    return reason


def _stamp(at: float) -> datetime:
    return datetime.fromtimestamp(at, UTC)


def _view(session: Session, event_id: int, game: GameRow) -> GameView:
    event = session.get(EventModel, event_id)
    assert event is not None
    black, white = _names(session, game)
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
                    reason_zh(change.reason),
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
    return GameView(
        event_id=event_id,
        event_name=event.name,
        round=game.round.number,
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
        seat_leaves=tuple(seat_leaves),
    )


# -- reading ---------------------------------------------------------------------------------


def game_view(db: Database, event_id: int, number: int, board: int) -> GameView:
    """The board's players, result, result history, infractions and rulings (public)."""
    with db.transaction() as session:
        return _view(session, event_id, _game_row(session, event_id, number, board))


def round_games(db: Database, event_id: int, number: int) -> list[GameView]:
    """Every board of a round, for the round sheet."""
    with db.transaction() as session:
        rnd = session.scalar(
            select(RoundRow).where(RoundRow.event_id == event_id, RoundRow.number == number)
        )
        if rnd is None:
            if session.get(EventModel, event_id) is None:
                raise NotFound(f"event {event_id} does not exist")
            raise NotFound(f"round {number} is not paired")
        return [_view(session, event_id, g) for g in sorted(rnd.games, key=lambda g: g.board)]


def game_sgf(db: Database, event_id: int, number: int, board: int) -> str:
    """The game's record as SGF (penalties and rulings as comments, the result in RE)."""
    with db.transaction() as session:
        game = _game_row(session, event_id, number, board)
        _, record = _load_record(session, game)
        if record is None:
            record = _start(session, game, GameActor.referee("weiqi"))
        event = session.get(EventModel, event_id)
        assert event is not None
        return write_sgf(record_to_sgf(record, event=event.name, round=str(number))).decode()


def record_warnings(session: Session, event_id: int) -> dict[str, int]:
    """Warnings per player (by core id) in the game records of an event (R-PEN-1), for the
    WARN tie-break (R-RANK-RR B)."""
    rows = session.execute(
        select(
            GameRow.black_id,
            GameRow.white_id,
            GameRecordRow.black_warnings,
            GameRecordRow.white_warnings,
        )
        .join(GameRecordRow, GameRecordRow.game_id == GameRow.id)
        .join(RoundRow, RoundRow.id == GameRow.round_id)
        .where(RoundRow.event_id == event_id)
        # only records with a warning: every board of a big event has a record
        .where((GameRecordRow.black_warnings > 0) | (GameRecordRow.white_warnings > 0))
    )
    totals: dict[str, int] = {}
    for black_id, white_id, bw, ww in rows:
        for pid, n in ((black_id, bw), (white_id, ww)):
            if n:
                totals[str(pid)] = totals.get(str(pid), 0) + n
    return totals


# -- the result workflow ---------------------------------------------------------------------


def enter_and_confirm(
    session: Session, actor: Actor, event_id: int, game: GameRow, result: Result
) -> None:
    """Enter and confirm a result in one step (``weiqi round result``: the signed sheet), in
    the caller's transaction; the caller checks permissions. On a board confirmed as a replay
    ruling or (in a knockout) without a winner, ``result`` is the result of the game played
    again (:func:`played_again_kind`)."""
    if _record_played_again(session, actor, event_id, game, result, None):
        return
    _append(
        session, actor, event_id, game, ResultEntered(result=result), None, then=SheetConfirmed()
    )


def played_again_kind(session: Session, event_id: int, game: GameRow) -> str | None:
    """``"replay"`` or ``"playoff"`` when the board's confirmed result calls for the game to be
    played again and its result recorded on the board; ``None`` when the result is final.

    A replay ruling (重赛, R-REF-3, R-END-1(d)) is played again unless the event scores it
    without replaying (``replay_points``, not in a bracket: a knockout needs a winner); a draw
    or no result in a bracket is settled by a playoff (加赛, R-PLAYOFF)."""
    if not game.confirmed or not game.result:
        return None
    outcome = Result.parse(game.result).outcome
    row = session.get(EventSettingsRow, event_id)
    settings = settings_from_dict(json.loads(row.settings_json)) if row is not None else None
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
    game: GameRow,
    entry: Result | Fraction,
    expected_seq: int | None,
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
            komi = Fraction(game.komi)
            handicap = game.handicap if game.handicap >= 2 else 0
            ruleset = Ruleset(board_size=BOARD_SIZE, komi=komi, handicap=handicap)
        if not 0 <= entry <= ruleset.points or (entry * 2).denominator != 1:
            raise InvalidSetting("black count", f"must be half stones from 0 to {ruleset.points}")
        entry = Result.from_counts(entry - ruleset.black_threshold)
    _append(
        session,
        actor,
        event_id,
        game,
        PlayedAgain(entry, playoff=kind == "playoff"),
        expected_seq,
    )
    return True


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
    board: int,
    text: str,
    expected_seq: int | None = None,
) -> GameView:
    """Enter a board's result: a result code or Black's count in stones, from which komi,
    handicap compensation and warnings give the result (R-SCORE-3, R-PEN-1). Not yet final —
    except the result of a game played again after a replay ruling or as a knockout's playoff
    (:func:`played_again_kind`), which comes from its signed sheet and is confirmed with it."""
    event = _entry_event(text)
    with db.transaction() as session:
        require(session, actor, Action.ENTER_RESULT, event_id)
        game = _game_row(session, event_id, number, board)
        entry = event.result if event.result is not None else event.black_count
        assert entry is not None
        if not _record_played_again(session, actor, event_id, game, entry, expected_seq):
            _append(session, actor, event_id, game, event, expected_seq)
        return _view(session, event_id, game)


def confirm_result(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: int,
    expected_seq: int | None = None,
) -> GameView:
    """The referee confirms the result: final from now on (R-END-4, R-REF-7). When both
    players have acknowledged it, this is the third signature; otherwise it stands for the
    players' signatures on the result sheet."""
    with db.transaction() as session:
        require(session, actor, Action.CONFIRM_RESULT, event_id)
        game = _game_row(session, event_id, number, board)
        _, record = _load_record(session, game)
        signed = record is not None and {
            a.color for a in record.state.confirmations if a.color is not None
        } == {Color.BLACK, Color.WHITE}
        event: GameEvent = Confirm() if signed else SheetConfirmed()
        _append(session, actor, event_id, game, event, expected_seq)
        return _view(session, event_id, game)


def acknowledge_result(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: int,
    color: str,
    expected_seq: int | None = None,
) -> GameView:
    """A player (``B``/``W``) acknowledges the result entered, as the referee at the table
    records it; a new result (a recount, a warning) needs new acknowledgements (R-END-4)."""
    who = _color(color, "player")
    with db.transaction() as session:
        require(session, actor, Action.ENTER_RESULT, event_id)
        game = _game_row(session, event_id, number, board)
        _append(
            session, actor, event_id, game, Confirm(), expected_seq, as_actor=GameActor.player(who)
        )
        return _view(session, event_id, game)


def request_recount(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: int,
    color: str,
    expected_seq: int | None = None,
) -> GameView:
    """A player (``B``/``W``) asks for a recount before confirmation (R-REF-7); the referee at
    the table records it."""
    who = _color(color, "player")
    with db.transaction() as session:
        require(session, actor, Action.ENTER_RESULT, event_id)
        game = _game_row(session, event_id, number, board)
        _append(
            session,
            actor,
            event_id,
            game,
            RequestRecount(),
            expected_seq,
            as_actor=GameActor.player(who),
        )
        return _view(session, event_id, game)


def correct_result(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: int,
    text: str,
    reason: str,
    expected_seq: int | None = None,
) -> GameView:
    """The chief referee changes a confirmed result, with a reason, as a new event in its
    history (R-REF-7, R-REF-6)."""
    result = Result.parse(text)
    if not reason.strip():
        raise InvalidSetting("reason", "a correction states its reason")
    with db.transaction() as session:
        require(session, actor, Action.CORRECT_RESULT, event_id)
        game = _game_row(session, event_id, number, board)
        if not game.confirmed:
            raise Conflict(
                f"{_where(game)}: the result is not confirmed yet; enter the right result instead"
            )
        _append(
            session, actor, event_id, game, ResultCorrected(result, reason.strip()), expected_seq
        )
        return _view(session, event_id, game)


# -- infractions and rulings -----------------------------------------------------------------


def _color(text: str, field: str) -> Color:
    key = text.strip().upper()
    if key in ("B", "BLACK", "黑"):
        return Color.BLACK
    if key in ("W", "WHITE", "白"):
        return Color.WHITE
    raise InvalidSetting(field, f"{text!r} is not B or W")


def _points(text: str) -> tuple[int, ...]:
    points = []
    for vertex in text.replace(",", " ").split():
        p = parse_vertex(vertex, BOARD_SIZE)
        if p is None:
            raise InvalidSetting("points", "a pass is no point")
        points.append(p)
    return tuple(points)


def record_infraction(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: int,
    kind: str,
    offender: str,
    penalty: str | None = None,
    note: str = "",
    points: str = "",
    expected_seq: int | None = None,
) -> GameView:
    """A referee's ruling on an infraction (R-REF-1…6, R-TIME-7); the penalty follows from the
    catalogue — one stone per warning at counting, a second warning loses (R-PEN-1)."""
    try:
        what = InfractionKind(kind)
    except ValueError:
        raise InvalidSetting("infraction", f"{kind!r} is not an infraction") from None
    chosen = None
    if penalty:
        try:
            chosen = Penalty(penalty)
        except ValueError:
            raise InvalidSetting("penalty", f"{penalty!r} is not a penalty") from None
    infraction = Infraction(
        what, _color(offender, "offender"), None, chosen, _points(points), note=note.strip()
    )
    with db.transaction() as session:
        require(session, actor, Action.RULE_INFRACTION, event_id)
        game = _game_row(session, event_id, number, board)
        _append(session, actor, event_id, game, InfractionRuled(infraction), expected_seq)
        return _view(session, event_id, game)


def record_ruling(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: int,
    kind: str,
    reason: str,
    loser: str | None = None,
    expected_seq: int | None = None,
) -> GameView:
    """A referee's decision that ends the game (R-END-1(d), R-REF-3): draw, replay, both lose
    and no result are the chief referee's; forfeit, time loss and loss name the loser."""
    try:
        what = RulingKind(kind)
    except ValueError:
        raise InvalidSetting("ruling", f"{kind!r} is not a ruling") from None
    ruling = Ruling(what, reason.strip(), _color(loser, "loser") if loser else None)
    with db.transaction() as session:
        require(session, actor, Action.RULE_INFRACTION, event_id)
        if ruling.required_role is Role.CHIEF_REFEREE:
            require(session, actor, Action.CHIEF_RULING, event_id)
        game = _game_row(session, event_id, number, board)
        _append(session, actor, event_id, game, RulingMade(ruling), expected_seq)
        return _view(session, event_id, game)


def grant_seat_leave(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    board: int,
    player: str,
    expected_seq: int | None = None,
) -> GameView:
    """A referee lets ``player`` (``B``/``W``) leave the seat (R-TIME-2 / Art. 22.7: in
    byo-yomi, only during the opponent's thinking time, once per game); the clock is not
    touched. The referee core decides: a player not in byo-yomi (when the record keeps the
    clock), to move, already granted once, or a game not in play is refused with
    ``InvalidSetting`` naming why, and nothing is stored. A record without a clock (a game on a
    physical board) takes the referee's word for byo-yomi; whose time it is follows the moves
    the record holds (Black's before any)."""
    who = _color(player, "player")
    with db.transaction() as session:
        require(session, actor, Action.RULE_INFRACTION, event_id)
        game = _game_row(session, event_id, number, board)
        _append(
            session, actor, event_id, game, LeaveSeat(who), expected_seq, refused_as="seat leave"
        )
        return _view(session, event_id, game)


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
) -> int:
    """Enter (and confirm) the results of a round: ``(line, board, text)`` rows, every row or
    none; a bad row anywhere rejects all with its line. A row that repeats a confirmed result
    is left as it is, so a sheet may be sent again. Returns the boards changed."""
    problems: list[tuple[int, str]] = []
    changed = 0
    seen: set[int] = set()
    with db.transaction() as session:
        require(session, actor, Action.ENTER_RESULT, event_id)
        if confirm:
            require(session, actor, Action.CONFIRM_RESULT, event_id)
        try:
            boards = round_boards(session, event_id, number)  # once: linear in the boards
        except NotFound as err:  # every row names it, as a row's own problem would
            raise RowsRejected(source, [(line, err.message) for line, _, _ in rows]) from None
        for line, board, text in rows:
            if board in seen:
                problems.append((line, f"board {board} appears twice"))
                continue
            seen.add(board)
            try:
                event = _entry_event(text)
                game = boards.game(number, board)
                if (
                    game.confirmed
                    and event.result is not None
                    and game.result == event.result.to_code()
                ):
                    continue  # the same sheet sent again
                entry = event.result if event.result is not None else event.black_count
                assert entry is not None
                if _record_played_again(session, actor, event_id, game, entry, None):
                    changed += 1
                    continue
                then = SheetConfirmed() if confirm else None
                _append(session, actor, event_id, game, event, None, then=then)
                changed += 1
            except (NotFound, Conflict, InvalidSetting, InputError) as err:
                problems.append((line, err.message))
        if problems:
            raise RowsRejected(source, problems)  # rolls the transaction back: nothing stored
    return changed


def parse_results_csv(text: str, source: str = "results.csv") -> list[tuple[int, int, str]]:
    """``board,result`` rows with their line numbers (a result is a code or Black's count).

    >>> parse_results_csv("board,result\\n1,B+R\\n2,184.5\\n")
    [(2, 1, 'B+R'), (3, 2, '184.5')]
    """
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    if reader.fieldnames is None or {"board", "result"} - {f.strip() for f in reader.fieldnames}:
        raise InputError(f"{source}, line 1", "columns 'board' and 'result' are required")
    rows: list[tuple[int, int, str]] = []
    problems: list[tuple[int, str]] = []
    for line, rec in enumerate(reader, start=2):
        rec = {k.strip(): (v or "").strip() for k, v in rec.items() if k}
        try:
            board = int(rec["board"])
        except ValueError:
            problems.append((line, f"board {rec['board']!r} is not a number"))
            continue
        rows.append((line, board, rec["result"]))
    if problems:
        raise RowsRejected(source, problems)
    return rows


def vertex_names(points: tuple[int, ...]) -> str:
    """GTP names of points (for showing an infraction's stones)."""
    return " ".join(format_vertex(p, BOARD_SIZE) for p in points)


def record_json(db: Database, event_id: int, number: int, board: int) -> str | None:
    """The stored record's JSON (``None`` without one) — for audits and tests."""
    with db.transaction() as session:
        row, _ = _load_record(session, _game_row(session, event_id, number, board))
        return row.record_json if row is not None else None


__all__ = [
    "RECORDABLE",
    "RULINGS",
    "GameView",
    "HistoryItem",
    "InfractionItem",
    "RulingItem",
    "acknowledge_result",
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
    "record_warnings",
    "request_recount",
    "round_boards",
    "round_games",
]
