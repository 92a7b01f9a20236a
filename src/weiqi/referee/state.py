"""The state of a game as its record makes it, and the rules that turn one event into the next
state: turns, the ending protocol, void moves and forfeited turns, warnings and their
penalties, rulings, confirmation and later corrections (RULES.md §2, §4, §6).

:class:`Referee` is the machine that applies events one by one; it keeps a working
:class:`~weiqi.rules.board.Board` (for ko and superko) and exposes an immutable
:class:`GameState` after every event. It never reads a clock or a random source: all it knows
comes from the events. Every check happens before anything changes, so an event that raises
leaves the machine as it was.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from weiqi.clock.clock import Clock, Status
from weiqi.clock.control import TimeSystem
from weiqi.errors import Conflict, IllegalMove, InvalidSetting, PermissionDenied
from weiqi.frozen import replacer
from weiqi.messages import Msg
from weiqi.referee.actors import GameActor, Role
from weiqi.referee.events import (
    AcceptEnd,
    AgreeDead,
    ClockAction,
    ClockEvent,
    Confirm,
    Dispute,
    InfractionRuled,
    LeaveSeat,
    MarkDead,
    Move,
    Pass,
    PlaceHandicap,
    PlayedAgain,
    ProposeEnd,
    RecordEvent,
    RefuseEnd,
    RequestRecount,
    Resign,
    ResultCorrected,
    ResultEntered,
    RulingMade,
    SheetConfirmed,
    Start,
    WrongColors,
)
from weiqi.referee.infractions import Infraction, InfractionKind, Penalty, penalty_for
from weiqi.referee.nigiri import ColorAssignment
from weiqi.referee.rulings import Ruling, RulingKind
from weiqi.rules.board import Board
from weiqi.rules.color import Color
from weiqi.rules.counting import count
from weiqi.rules.result import Outcome, Reason, Result, format_points
from weiqi.rules.ruleset import HandicapPlacement, IllegalMoves, Ruleset
from weiqi.rules.vertex import format_vertex

#: Wrong colours may be corrected up to and including this move (R-COLOR-2).
COLOR_CORRECTION_LIMIT = 10

#: Warnings in one game that lose it at once (R-PEN-1).
WARNINGS_TO_LOSE = 2


class Phase(enum.Enum):
    """Where a game stands."""

    NOT_STARTED = "not_started"
    PLAYING = "playing"
    COUNTING = "counting"  # play is over; dead stones are being agreed (R-END-3)
    FINISHED = "finished"  # a result, not yet confirmed by both players and a referee
    CONFIRMED = "confirmed"  # final (R-END-4, R-REF-7)


@dataclass(frozen=True)
class Context:
    """Where an event sits in the record: its sequence number, time and author."""

    seq: int
    at: float
    actor: GameActor


def _history(
    s: GameState, ctx: Context, actor: GameActor | None, result: Result | None, why: Msg
) -> tuple[ResultChange, ...]:
    """``s``'s result history with one more change: ``result`` (``None``: reopened) by
    ``actor`` (``None``: by rule) at ``ctx``'s place in the record, for ``why``."""
    return (*s.result_history, ResultChange(ctx.seq, ctx.at, actor, result, why))


def _refused(ctx: Context, reason: Msg) -> Conflict:
    """The conflict an event meets where the game does not allow it, named by its place in
    the record: ``raise _refused(ctx, Msg("the game has already started"))`` reads "event 3:
    the game has already started"."""
    return Conflict(Msg("event %(seq)s: %(reason)s", seq=ctx.seq, reason=reason))


@dataclass(frozen=True)
class InfractionEntry:
    """An infraction as it was ruled and what it cost. ``ruled_by`` is ``None`` when the rules
    themselves void a move in strict play mode (Art. 18.3, 19)."""

    seq: int
    move_number: int
    infraction: Infraction
    penalty: Penalty
    ruled_by: GameActor | None


@dataclass(frozen=True)
class VoidMove:
    """A move that does not count: a double move, a ko capture without a threat, a forbidden
    point (R-REF-1, R-REF-5)."""

    seq: int
    move_number: int
    color: Color
    point: int
    reason: str


@dataclass(frozen=True)
class ForfeitedTurn:
    """弃权一次: a turn lost by a ruling; it counts as a pass (R-REF-5)."""

    seq: int
    move_number: int
    color: Color
    reason: str


@dataclass(frozen=True)
class RulingEntry:
    seq: int
    move_number: int
    ruling: Ruling
    ruled_by: GameActor


@dataclass(frozen=True)
class Sanction:
    """A sanction for the event layer (R-REF-6): prize one place lower, suspension."""

    seq: int
    offender: Color
    player: str
    kind: InfractionKind
    prize_demotion: bool
    suspension: bool


@dataclass(frozen=True)
class ClockEntry:
    """A clock event as data; the clock model (:mod:`weiqi.clock`) reads these."""

    seq: int
    at: float
    action: ClockAction
    color: Color | None
    point: int | None


@dataclass(frozen=True)
class ResultChange:
    """One step of a game's result history: set, confirmed, corrected."""

    seq: int
    at: float
    actor: GameActor | None
    result: Result | None
    reason: Msg
    """Why, as a message value (rendered per language by :func:`weiqi.i18n.render`)."""


#: What a player or a referee may be refused (``PermissionDenied``, "cannot … while …"); listed
#: here so that the catalogues carry them.
_ACTIONS = (
    Msg("agree to the dead stones"),
    Msg("answer a proposal to end the game"),
    Msg("ask for a recount"),
    Msg("confirm the result"),
    Msg("confirm the result sheet"),
    Msg("correct a confirmed result"),
    Msg("correct the colours"),
    Msg("dispute life and death"),
    Msg("enter a result"),
    Msg("forfeit a turn on time"),
    Msg("let a player leave the seat"),
    Msg("mark dead stones"),
    Msg("pass"),
    Msg("play a move"),
    Msg("record the game played again"),
    Msg("resign"),
    Msg("seal a move"),
    Msg("place Black's handicap stones"),
)
_CLOCK_ACTIONS = {
    ClockAction.START: Msg("start the clock"),
    ClockAction.ARRIVE: Msg("arrive the clock"),
    ClockAction.PRESS: Msg("press the clock"),
    ClockAction.PAUSE: Msg("pause the clock"),
    ClockAction.RESUME: Msg("resume the clock"),
    ClockAction.SEAL: Msg("seal the clock"),
    ClockAction.STOP: Msg("stop the clock"),
    ClockAction.CHECK: Msg("check the clock"),
    ClockAction.FORFEIT_TURN: Msg("forfeit turn the clock"),
    ClockAction.ADJUST: Msg("adjust the clock"),
}
assert _CLOCK_ACTIONS.keys() == set(ClockAction)
#: The clock events of a referee (or the system) that may say why (``ClockEvent.reason``).
_REASONED_CLOCK_ACTIONS = frozenset(
    {ClockAction.PAUSE, ClockAction.RESUME, ClockAction.STOP, ClockAction.ADJUST}
)


def _count_reason(black: Fraction, warnings: tuple[int, int]) -> Msg:
    """Why a count gave its result: Black's stones, and the warnings counted as stones."""
    if any(warnings):
        return Msg(
            "count: Black %(black)s stones, warnings "
            "%(black_warnings)s/%(white_warnings)s as stones",
            black=black,
            black_warnings=warnings[0],
            white_warnings=warnings[1],
        )
    return Msg("count: Black %(black)s stones", black=black)


def _played_again(playoff: bool, result: Result) -> Msg:
    if playoff:
        return Msg("playoff: %(result)s", result=result)
    return Msg("replay: %(result)s", result=result)


@dataclass(frozen=True)
class GameState:
    """Everything a record says about its game after some events. Equal records give equal
    states (replaying is exact)."""

    phase: Phase = Phase.NOT_STARTED
    ruleset: Ruleset | None = None
    assigned: ColorAssignment | None = None
    #: Who plays Black and White on the board (differs from ``assigned`` when wrong colours
    #: were found after move 10: the game stands, pairing uses ``assigned``, R-COLOR-2).
    black: str = ""
    white: str = ""
    stones: bytes = b""
    to_move: Color = Color.BLACK
    #: Moves, passes and forfeited turns played (the SGF node number of the last one).
    move_number: int = 0
    passes_in_a_row: int = 0
    captures: tuple[int, int] = (0, 0)
    end_proposed_by: Color | None = None
    dead_stones: tuple[int, ...] = ()
    dead_marked_by: Color | None = None
    warnings: tuple[int, int] = (0, 0)
    infractions: tuple[InfractionEntry, ...] = ()
    void_moves: tuple[VoidMove, ...] = ()
    forfeited_turns: tuple[ForfeitedTurn, ...] = ()
    rulings: tuple[RulingEntry, ...] = ()
    sanctions: tuple[Sanction, ...] = ()
    #: The clock events as recorded, and the clock they make (``None`` when untimed).
    clock_log: tuple[ClockEntry, ...] = ()
    clock: Clock | None = None
    colors_corrected: bool = False
    #: Free handicap placement (R-HCP-2) still to come before the first move.
    handicap_pending: bool = False
    colors_wrong_noted: bool = False
    black_count: Fraction | None = None
    result: Result | None = None
    result_history: tuple[ResultChange, ...] = ()
    confirmations: tuple[GameActor, ...] = ()
    #: The colour whose stone was the last move, while a take-back claim is still possible.
    last_stone_by: Color | None = None
    #: Permissions to leave the seat in byo-yomi, (Black's, White's): one each per game
    #: (Art. 22.7).
    seat_leaves: tuple[int, int] = (0, 0)
    #: The result was entered from the result sheet of a physical board (``ResultEntered``):
    #: infractions the referee ruled at the board may still be entered until confirmation.
    from_sheet: bool = False

    def warnings_of(self, color: Color) -> int:
        return self.warnings[0 if color is Color.BLACK else 1]

    def player(self, color: Color) -> str:
        return self.black if color is Color.BLACK else self.white

    @property
    def pairing_colors(self) -> tuple[str, str]:
        """``(black, white)`` for later pairing: the assigned colours (R-COLOR-2)."""
        if self.assigned is None:
            return (self.black, self.white)
        return (self.assigned.black, self.assigned.white)

    def color_at(self, point: int) -> Color | None:
        v = self.stones[point]
        return None if v == 0 else Color.BLACK if v == 1 else Color.WHITE

    def stone_map(self) -> dict[str, str]:
        """The stones by GTP vertex, ``{"D4": "B", …}`` (what a board diagram draws)."""
        if self.ruleset is None:
            return {}
        size = self.ruleset.board_size
        return {format_vertex(p, size): "BW"[v - 1] for p, v in enumerate(self.stones) if v}

    @property
    def confirmed(self) -> bool:
        return self.phase is Phase.CONFIRMED

    @property
    def board_recorded(self) -> bool:
        """Whether the record holds the moves; without them it is kept beside a physical board
        and cannot check what only the board shows (capture points, the last stone)."""
        return self.move_number > 0


#: ``dataclasses.replace`` without its cost (most of a replay's time): the fields are plain values
#: the referee has already checked.
_evolve = replacer(GameState)


def _bump(pair: tuple[int, int], color: Color, by: int = 1) -> tuple[int, int]:
    b, w = pair
    return (b + by, w) if color is Color.BLACK else (b, w + by)


def _check_margin(result: Result, ruleset: Ruleset) -> None:
    """A win by count cannot be by more than the board holds: a count of every point is the
    par (归本数) over, plus the komi and the handicap's compensation, in stones. ``W+1000`` (500
    stones) on 19×19 is a typo.

    >>> from weiqi.rules.ruleset import Ruleset
    >>> _check_margin(Result.parse("W+1000"), Ruleset())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: result: W+1000 is more than a 19×19 board ... 368.5 points)
    >>> _check_margin(Result.parse("B+361"), Ruleset())
    """
    if result.margin is None:
        return
    most = ruleset.par + abs(ruleset.komi) + ruleset.handicap  # in stones
    if result.margin > most:
        raise InvalidSetting(
            "result",
            Msg(
                "%(result)s is more than a %(size)s×%(size)s board can be won by "
                "(at most %(points)s points)",
                result=result.to_code(),
                size=ruleset.board_size,
                points=format_points(most * 2),
            ),
        )


class Referee:
    """Applies events to a game. Use :meth:`apply`; read :attr:`state`."""

    def __init__(self) -> None:
        self.state = GameState()
        self._board: Board | None = None

    # -- entry point --------------------------------------------------------------------------

    def apply(self, ctx: Context, event: RecordEvent) -> GameState:
        """Apply one event; raise a :class:`~weiqi.errors.WeiqiError` (and change nothing) if
        the rules do not allow it."""
        s = self.state
        if isinstance(event, Start):
            self.state = self._start(ctx, event)
            return self.state
        if s.phase is Phase.NOT_STARTED:
            raise _refused(ctx, Msg("the game has not started"))
        if s.phase is Phase.CONFIRMED and not self._allowed_after_confirmation(event):
            raise _refused(
                ctx,
                Msg(
                    "the result %(result)s is confirmed and can no longer be changed"
                    "; only the chief referee may correct it",
                    result=s.result,
                ),
            )
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise InvalidSetting("event", Msg("unknown event %(name)s", name=type(event).__name__))
        try:
            # Time passes first: a flag that fell before this event ends the game (R-TIME-2).
            self.state = self._tick(ctx, s)
            after = handler(self, ctx, event)
            after = self._clock_follows(ctx, s.phase, after)
        except BaseException:
            self.state = s
            raise
        self.state = after
        return after

    def _clock_follows(self, ctx: Context, was: Phase, s: GameState) -> GameState:
        """The clock follows the game: it stops for good when the game is over, is paused
        while the dead stones are agreed (play is over, R-END-1), and runs again for the
        claimant when a dispute resumes play (R-END-3)."""
        clock = s.clock
        if clock is None or clock.status in (Status.READY, Status.STOPPED):
            return s
        now = ctx.at
        if s.phase in (Phase.FINISHED, Phase.CONFIRMED):
            return _evolve(s, clock=clock.stop(now))
        if s.phase is Phase.COUNTING and was is Phase.PLAYING and clock.status is Status.RUNNING:
            return _evolve(s, clock=clock.pause(now))
        if s.phase is Phase.PLAYING and was is Phase.COUNTING and clock.status is Status.PAUSED:
            clock = clock.resume(now)
            if clock.to_move is not None and clock.to_move is not s.to_move:
                # Hand the clock to the claimant: the other side's running move ends now.
                clock = clock.press(now, clock.to_move)
            return _evolve(s, clock=clock)
        return s

    def _tick(self, ctx: Context, s: GameState) -> GameState:
        if s.clock is None or s.clock.status in (Status.READY, Status.STOPPED):
            return s
        clock = s.clock.advance(ctx.at)
        s = _evolve(s, clock=clock)
        result = clock.result()
        if result is None or s.phase not in (Phase.PLAYING, Phase.COUNTING):
            return s
        if clock.status is Status.FLAGGED and clock.tc.timeout_pass:
            return s  # the player may ask for a forfeited turn instead (Art. 22.5)
        if result.reason is Reason.TIME and clock.flagged is not None:
            why = Msg("time: %(color)s's time ran out", color=clock.flagged)
        elif result.reason is Reason.FORFEIT:
            why = Msg("forfeit: late arrival")
        else:
            why = Msg("forfeit: both players arrived too late")
        return self._finish(s, ctx, result, why, by_rule=True)

    def _no_flag(self, ctx: Context) -> None:
        clock = self.state.clock
        if clock is not None and clock.status is Status.FLAGGED:
            assert clock.flagged is not None
            raise _refused(
                ctx,
                Msg(
                    "%(flagged)s's time has run out: a forfeited turn or a loss on "
                    "time must be ruled first",
                    flagged=clock.flagged,
                ),
            )

    @staticmethod
    def _allowed_after_confirmation(event: RecordEvent) -> bool:
        if isinstance(event, ResultCorrected | ClockEvent | PlayedAgain):
            return True
        return isinstance(event, InfractionRuled) and event.infraction.kind in (
            InfractionKind.CHEATING,
            InfractionKind.CEREMONY_ABSENCE,
        )

    @property
    def board(self) -> Board:
        assert self._board is not None
        return self._board

    # -- helpers ------------------------------------------------------------------------------

    def _vertex(self, point: int) -> str:
        assert self.state.ruleset is not None
        size = self.state.ruleset.board_size
        if 0 <= point < size * size:
            return format_vertex(point, size)
        return str(point)

    def _player(self, ctx: Context, action: str | Msg) -> Color:
        if ctx.actor.role is not Role.PLAYER or ctx.actor.color is None:
            raise PermissionDenied(ctx.actor.msg, action)
        return ctx.actor.color

    def _player_in_phase(self, ctx: Context, action: str | Msg, *phases: Phase) -> Color:
        """The colour of the player who would ``action``, while the game is in one of
        ``phases``: :meth:`_player`'s refusal for anyone else, then :meth:`_in_phase`'s.

        Every event only a player may make (a move, a pass, resigning, answering a proposal,
        marking and agreeing to dead stones, asking for a recount) is checked this way."""
        color = self._player(ctx, action)
        self._in_phase(ctx, action, *phases)
        return color

    def _referee(self, ctx: Context, action: str | Msg, role: Role = Role.REFEREE) -> GameActor:
        actor = ctx.actor
        if not actor.is_referee or (
            role is Role.CHIEF_REFEREE and actor.role is not Role.CHIEF_REFEREE
        ):
            raise PermissionDenied(actor.msg, action)
        return actor

    def _in_phase(self, ctx: Context, what: str | Msg, *phases: Phase) -> None:
        if self.state.phase not in phases:
            raise _refused(
                ctx,
                Msg(
                    "cannot %(what)s while the game is %(phase)s",
                    what=Msg.of(what),
                    phase=self._phase_msg(),
                ),
            )

    def _phase_msg(self) -> Msg:
        return {
            Phase.NOT_STARTED: Msg("not started"),
            Phase.PLAYING: Msg("being played"),
            Phase.COUNTING: Msg("being counted"),
            Phase.FINISHED: Msg("over (%(result)s)", result=self.state.result),
            Phase.CONFIRMED: Msg("confirmed (%(result)s)", result=self.state.result),
        }[self.state.phase]

    def _illegal(self, reason: str, point: int | None) -> IllegalMove:
        vertex = "pass" if point is None else self._vertex(point)
        return IllegalMove(reason, move_number=self.state.move_number + 1, vertex=vertex)

    def _snapshot(self, s: GameState, **changes: object) -> GameState:
        board = self.board
        return _evolve(
            s,
            stones=board.stones_bytes(),
            captures=(board.captures_black, board.captures_white),
            **changes,
        )

    def _finish(
        self, s: GameState, ctx: Context, result: Result, reason: Msg, *, by_rule: bool = False
    ) -> GameState:
        actor = None if by_rule else ctx.actor
        return _evolve(
            s,
            phase=Phase.FINISHED,
            result=result,
            end_proposed_by=None,
            confirmations=(),  # a new result needs new confirmations
            result_history=_history(s, ctx, actor, result, reason),
        )

    # -- start --------------------------------------------------------------------------------

    def _start(self, ctx: Context, e: Start) -> GameState:
        if self.state.phase is not Phase.NOT_STARTED:
            raise _refused(ctx, Msg("the game has already started"))
        self._board = Board.from_ruleset(e.ruleset, enforce_turn=False)
        return self._snapshot(
            GameState(
                phase=Phase.PLAYING,
                ruleset=e.ruleset,
                assigned=e.colors,
                black=e.colors.black,
                white=e.colors.white,
                to_move=self.board.to_move,
                clock=(
                    Clock.new(e.time_control, lag=e.lag, late=e.late)
                    if e.time_control is not None
                    else None
                ),
                handicap_pending=_free_handicap(e.ruleset),
            )
        )

    # -- play ---------------------------------------------------------------------------------

    def _place_handicap(self, ctx: Context, e: PlaceHandicap) -> GameState:
        s = self.state
        assert s.ruleset is not None
        if ctx.actor.color is not Color.BLACK and not ctx.actor.is_referee:
            raise PermissionDenied(ctx.actor.msg, "place Black's handicap stones")
        if not s.handicap_pending:
            raise _refused(ctx, Msg("no handicap stones are to be placed freely"))
        if len(e.points) != s.ruleset.handicap:
            raise InvalidSetting(
                "handicap",
                Msg(
                    "%(handicap)s stones to place, %(points)s given",
                    handicap=s.ruleset.handicap,
                    points=len(e.points),
                ),
            )
        self.board.place_handicap(e.points)
        return self._snapshot(s, to_move=self.board.to_move, handicap_pending=False)

    def _move(self, ctx: Context, e: Move) -> GameState:
        color = self._player_in_phase(ctx, "play a move", Phase.PLAYING)
        self._no_flag(ctx)
        s = self.state
        if s.handicap_pending:
            raise _refused(ctx, Msg("Black places the handicap stones first"))
        strict = s.ruleset is not None and s.ruleset.play_mode is IllegalMoves.STRICT
        point = e.point
        board = self.board
        if not (type(point) is int and 0 <= point < board.size * board.size):
            raise self._illegal("off-board", point)
        if board.color_at(point) is not None:
            raise self._illegal("occupied", point)
        if color is not s.to_move:
            if not strict:
                raise self._illegal("wrong-turn", point)
            # R-REF-1: the second of two moves in a row is void, with a warning.
            return self._void(ctx, s, color, point, InfractionKind.DOUBLE_MOVE, forfeit=False)
        reason = board.legality(color, point)
        if reason is not None:
            if not strict or reason not in ("ko", "superko", "suicide"):
                raise self._illegal(reason, point)
            kind = (
                InfractionKind.FORBIDDEN_POINT
                if reason == "suicide"
                else InfractionKind.KO_WITHOUT_THREAT
            )
            return self._void(ctx, s, color, point, kind, forfeit=True)
        board.play(color, point)
        s = self._snapshot(
            s,
            to_move=color.opponent,
            move_number=s.move_number + 1,
            passes_in_a_row=0,
            end_proposed_by=None,
            last_stone_by=color,
        )
        if board.cycle_result is not None:
            # R-KO-2: the event's cycle rule ends the game on a repetition.
            s = self._finish(s, ctx, board.cycle_result, Msg("repetition"))
        return s

    def _void(
        self,
        ctx: Context,
        s: GameState,
        color: Color,
        point: int,
        kind: InfractionKind,
        *,
        forfeit: bool,
    ) -> GameState:
        """Strict play mode: the attempted move stands in the record but is void (Art. 17.2,
        18.3, 19); a forfeited turn counts as a pass."""
        s = _evolve(
            s,
            void_moves=(*s.void_moves, VoidMove(ctx.seq, s.move_number, color, point, kind.value)),
        )
        if forfeit:
            s = self._pass_turn(s, color)
            s = _evolve(
                s,
                forfeited_turns=(
                    *s.forfeited_turns,
                    ForfeitedTurn(ctx.seq, s.move_number, color, kind.value),
                ),
            )
            if s.passes_in_a_row >= 2:
                s = _evolve(s, phase=Phase.COUNTING)
        infraction = Infraction(kind, color, points=(point,), note="void move (strict play)")
        return self._penalise(ctx, s, infraction, ruled_by=None)

    def _pass_turn(self, s: GameState, color: Color) -> GameState:
        self.board.pass_(color)
        return self._snapshot(
            s,
            to_move=color.opponent,
            move_number=s.move_number + 1,
            passes_in_a_row=s.passes_in_a_row + 1,
            last_stone_by=None,
        )

    def _pass(self, ctx: Context, e: Pass | ProposeEnd) -> GameState:
        color = self._player_in_phase(ctx, "pass", Phase.PLAYING)
        self._no_flag(ctx)
        s = self.state
        if color is not s.to_move:
            raise self._illegal("wrong-turn", None)
        if s.handicap_pending:
            raise _refused(ctx, Msg("Black places the handicap stones first"))
        proposal = s.end_proposed_by
        s = self._pass_turn(s, color)
        if isinstance(e, ProposeEnd):
            proposal = color  # R-END-2: the player to move proposes the end and passes
        s = _evolve(s, end_proposed_by=proposal)
        if s.passes_in_a_row >= 2:
            # R-END-1(c): two passes in a row end play; a pass after a proposal agrees to it.
            s = _evolve(s, phase=Phase.COUNTING, end_proposed_by=None)
        return s

    def _resign(self, ctx: Context, e: Resign) -> GameState:
        color = self._player_in_phase(ctx, "resign", Phase.PLAYING, Phase.COUNTING)
        return self._finish(
            self.state, ctx, Result.win(color.opponent, Reason.RESIGNATION), Msg("resignation")
        )

    # -- the end of play ----------------------------------------------------------------------

    def _answer_end(self, ctx: Context, e: AcceptEnd | RefuseEnd) -> GameState:
        color = self._player_in_phase(ctx, "answer a proposal to end the game", Phase.PLAYING)
        s = self.state
        if s.end_proposed_by is None:
            raise _refused(ctx, Msg("nobody has proposed to end the game"))
        if s.end_proposed_by is color:
            raise _refused(ctx, Msg("%(color)s cannot answer their own proposal", color=color))
        if isinstance(e, AcceptEnd):
            return _evolve(s, phase=Phase.COUNTING, end_proposed_by=None)  # R-END-1(a)
        # R-END-2: the opponent plays on (it is their turn); the proposer moves after them.
        return _evolve(s, end_proposed_by=None)

    def _mark_dead(self, ctx: Context, e: MarkDead) -> GameState:
        color = self._player_in_phase(ctx, "mark dead stones", Phase.COUNTING)
        for p in e.stones:
            if not 0 <= p < len(self.state.stones) or self.state.stones[p] == 0:
                raise InvalidSetting("dead stones", Msg("%(p)s holds no stone", p=self._vertex(p)))
        return _evolve(self.state, dead_stones=tuple(sorted(set(e.stones))), dead_marked_by=color)

    def _agree_dead(self, ctx: Context, e: AgreeDead) -> GameState:
        color = self._player_in_phase(ctx, "agree to the dead stones", Phase.COUNTING)
        s = self.state
        if s.dead_marked_by is None:
            raise _refused(ctx, Msg("no dead stones have been marked yet"))
        if s.dead_marked_by is color:
            raise _refused(ctx, Msg("%(color)s cannot agree to their own marking", color=color))
        assert s.ruleset is not None
        counted = count(
            s.stones,
            s.dead_stones,
            s.ruleset,
            {Color.BLACK: s.warnings[0], Color.WHITE: s.warnings[1]},
        )
        s = _evolve(s, black_count=counted.black)
        return self._finish(s, ctx, counted.result, _count_reason(counted.black, s.warnings))

    def _dispute(self, ctx: Context, e: Dispute) -> GameState:
        self._in_phase(ctx, "dispute life and death", Phase.COUNTING)
        s = self.state
        color = e.claimant
        if not e.stones:
            raise InvalidSetting("disputed stones", Msg("name the stones in dispute"))
        for p in e.stones:
            if not 0 <= p < len(s.stones) or s.color_at(p) is not color.opponent:
                raise InvalidSetting(
                    "disputed stones",
                    Msg(
                        "%(p)s holds no %(opponent)s stone for %(color)s to claim dead",
                        p=self._vertex(p),
                        opponent=color.opponent,
                        color=color,
                    ),
                )
        # R-END-3: play resumes and the player who claims the stones are dead moves first.
        return _evolve(
            s,
            phase=Phase.PLAYING,
            to_move=color,
            passes_in_a_row=0,
            dead_stones=(),
            dead_marked_by=None,
        )

    def _leave_seat(self, ctx: Context, e: LeaveSeat) -> GameState:
        """Art. 22.7: in byo-yomi a player may leave the seat during the opponent's thinking
        time only with the referee's permission, once per game; the clock runs regardless."""
        self._referee(ctx, "let a player leave the seat")
        self._in_phase(ctx, "let a player leave the seat", Phase.PLAYING)
        s = self.state
        who = e.player
        if who is s.to_move:
            raise _refused(
                ctx,
                Msg(
                    "it is %(who)s's own time: leaving needs no permission and the count runs on",
                    who=who,
                ),
            )
        clock = s.clock
        if clock is not None and (
            clock.tc.system is not TimeSystem.BYO_YOMI or clock.account(who).main > 0
        ):
            raise _refused(
                ctx,
                Msg(
                    "%(who)s is not in byo-yomi: leaving needs no permission",
                    who=who,
                ),
            )
        if s.seat_leaves[0 if who is Color.BLACK else 1] >= 1:
            raise _refused(
                ctx,
                Msg(
                    "%(who)s has already left the seat once in byo-yomi; only once per game",
                    who=who,
                ),
            )
        return _evolve(s, seat_leaves=_bump(s.seat_leaves, who))

    def _recount(self, ctx: Context, e: RequestRecount) -> GameState:
        self._player_in_phase(ctx, "ask for a recount", Phase.FINISHED)
        s = self.state
        if s.black_count is None:
            raise _refused(ctx, Msg("the result %(result)s was not counted", result=s.result))
        return _evolve(
            s,
            phase=Phase.COUNTING,
            result=None,
            black_count=None,
            confirmations=(),
            result_history=_history(s, ctx, ctx.actor, None, Msg("recount requested")),
        )

    def _confirm(self, ctx: Context, e: Confirm) -> GameState:
        self._in_phase(ctx, "confirm the result", Phase.FINISHED)
        s = self.state
        actor = ctx.actor
        signers = {_signer(a) for a in s.confirmations}
        if _signer(actor) in signers:
            raise _refused(ctx, Msg("%(describe)s has already confirmed", describe=actor.msg))
        s = _evolve(s, confirmations=(*s.confirmations, actor))
        signers.add(_signer(actor))
        if {"B", "W", "referee"} <= signers:
            s = _evolve(
                s,
                phase=Phase.CONFIRMED,
                result_history=_history(
                    s, ctx, actor, s.result, Msg("confirmed by both players and the referee")
                ),
            )
        return s

    # -- clock --------------------------------------------------------------------------------

    def _clock(self, ctx: Context, e: ClockEvent) -> GameState:
        s = self.state
        action = e.action
        what = _CLOCK_ACTIONS[action]
        color: Color | None = None
        if action in (ClockAction.PRESS, ClockAction.SEAL):
            color = self._player(ctx, what)
        elif action is ClockAction.ADJUST:
            # A one-sided change of the readings needs the chief referee (R-TIME-8).
            self._referee(ctx, what, Role.CHIEF_REFEREE)
            if e.color is None or e.seconds is None:
                raise InvalidSetting("clock", Msg("an adjustment names the colour and the seconds"))
            color = e.color
        else:
            self._referee(ctx, what)
            if action is ClockAction.ARRIVE:
                if e.color is None:
                    raise InvalidSetting("clock", Msg("an arrival names the player's colour"))
                color = e.color
        if action is not ClockAction.SEAL and e.point is not None:
            raise InvalidSetting("clock", Msg("only a sealed move names a point"))
        if action not in (ClockAction.ADJUST, ClockAction.ARRIVE) and e.color is not None:
            raise InvalidSetting("clock", Msg("only an adjustment or an arrival names a colour"))
        if action is not ClockAction.ADJUST and e.seconds is not None:
            raise InvalidSetting("clock", Msg("only an adjustment names seconds"))
        if e.reason and action not in _REASONED_CLOCK_ACTIONS:
            raise InvalidSetting(
                "clock", Msg("only a pause, a resumption, a stop or an adjustment states a reason")
            )
        if action is not ClockAction.START and (e.absent or e.scheduled is not None):
            raise InvalidSetting("clock", Msg("only the start names absent players and a schedule"))
        if e.think is not None:
            if action is not ClockAction.PRESS:
                raise InvalidSetting("clock", Msg("only a press of the clock states a think time"))
            if not _seconds(e.think):
                raise InvalidSetting(
                    "clock",
                    Msg("a think time is a number of seconds >= 0, not %(value)s", value=e.think),
                )
        if action is ClockAction.SEAL:
            self._in_phase(ctx, "seal a move", Phase.PLAYING)
            if color is not s.to_move:
                raise _refused(ctx, Msg("only the player to move seals a move"))
        if action is ClockAction.FORFEIT_TURN:
            self._in_phase(ctx, "forfeit a turn on time", Phase.PLAYING)
            # the log says whose turn was forfeited (the event itself names nobody)
            color = s.clock.flagged if s.clock is not None else None
        s = _evolve(
            s, clock_log=(*s.clock_log, ClockEntry(ctx.seq, ctx.at, action, color, e.point))
        )
        if s.clock is None:
            return s  # untimed: the events are kept as data
        if action is ClockAction.PRESS and s.phase is Phase.COUNTING:
            return s  # the press after the last pass: the clock already stands still
        clock = s.clock
        now = ctx.at
        if action is ClockAction.START:
            clock = clock.start(now, s.to_move, absent=e.absent, scheduled=e.scheduled)
        elif action is ClockAction.ARRIVE:
            assert color is not None
            clock = clock.arrive(now, color)
        elif action is ClockAction.PRESS:
            assert color is not None
            clock = clock.press(now, color, client_think=e.think)
        elif action is ClockAction.SEAL:
            assert color is not None
            clock = clock.seal(now, color)
        elif action is ClockAction.PAUSE:
            clock = clock.pause(now)
        elif action is ClockAction.RESUME:
            clock = clock.resume(now)
        elif action is ClockAction.STOP:
            clock = clock.stop(now)
        elif action is ClockAction.ADJUST:
            assert color is not None and e.seconds is not None
            clock = clock.adjust(now, color, e.seconds)
        elif action is ClockAction.FORFEIT_TURN:
            flagged = clock.flagged
            clock = clock.forfeit_turn(now)
            assert flagged is not None
            if flagged is not s.to_move:
                raise _refused(ctx, Msg("%(flagged)s is not the player to move", flagged=flagged))
            # R-TIME-2 (Art. 22.5): the last period ran out; at the player's request the turn is
            # forfeited (a pass) and the same byo-yomi goes on.
            s = self._pass_turn(s, flagged)
            s = _evolve(
                s,
                forfeited_turns=(
                    *s.forfeited_turns,
                    ForfeitedTurn(ctx.seq, s.move_number, flagged, "time"),
                ),
            )
            if s.passes_in_a_row >= 2:
                s = _evolve(s, phase=Phase.COUNTING)
        s = _evolve(s, clock=clock)
        return self._tick(ctx, s)

    # -- infractions and penalties ------------------------------------------------------------

    def _infraction(self, ctx: Context, e: InfractionRuled) -> GameState:
        inf = e.infraction
        s = self.state
        if inf.kind in (InfractionKind.KO_WITHOUT_THREAT, InfractionKind.FORBIDDEN_POINT):
            raise InvalidSetting(
                "infraction",
                Msg(
                    "%(kind)s follows from the move itself: record the move in strict play mode",
                    kind=inf.kind,
                ),
            )
        if s.phase is Phase.CONFIRMED:
            # Cheating found after the result was confirmed (R-REF-6) is the chief referee's.
            self._referee(
                ctx, Msg("rule on %(kind)s after confirmation", kind=inf.kind), Role.CHIEF_REFEREE
            )
        else:
            self._referee(ctx, Msg("rule on %(kind)s", kind=inf.kind))
        conduct_any_time = inf.kind in (InfractionKind.CHEATING, InfractionKind.CEREMONY_ABSENCE)
        late_from_sheet = s.phase is Phase.FINISHED and s.from_sheet
        if (
            not conduct_any_time
            and not late_from_sheet
            and s.phase not in (Phase.PLAYING, Phase.COUNTING)
        ):
            # Art. 16.3: a complaint about the opponent must be made during the game.
            raise _refused(
                ctx,
                Msg(
                    "%(kind)s must be ruled during the game, which is %(phase)s",
                    kind=inf.kind,
                    phase=self._phase_msg(),
                ),
            )
        if (
            inf.kind is InfractionKind.TAKE_BACK
            and s.board_recorded
            and s.last_stone_by is not inf.offender
        ):
            # R-REF-2: claimed by the opponent before their next move.
            raise _refused(
                ctx,
                Msg(
                    "a take-back by %(offender)s must be claimed before the opponent's next move",
                    offender=inf.offender,
                ),
            )
        if inf.kind is InfractionKind.CAPTURE_LIVE_STONES and s.board_recorded:
            self._check_points(inf, must_hold=inf.offender.opponent)
        if inf.kind is InfractionKind.DEAD_STONES_LEFT and s.board_recorded:
            self._check_points(inf, must_hold=None)
        return self._penalise(ctx, s, inf, ruled_by=ctx.actor)

    def _check_points(self, inf: Infraction, must_hold: Color | None) -> None:
        """A capture error is corrected against the record's board, which the rules keep
        right: wrongly removed live stones are on it, dead stones left are off it (R-REF-4)."""
        for p in inf.points:
            holds = self.board.color_at(p) if 0 <= p < len(self.state.stones) else "off"
            if holds != must_hold:
                expected = f"a {must_hold.en} stone" if must_hold else "no stone (captured)"
                raise InvalidSetting(
                    "points",
                    Msg(
                        "%(kind)s: %(p)s should hold %(expected)s",
                        kind=inf.kind,
                        p=self._vertex(p),
                        expected=expected,
                    ),
                )

    def _penalise(
        self, ctx: Context, s: GameState, inf: Infraction, ruled_by: GameActor | None
    ) -> GameState:
        earlier = inf.earlier_in_event + sum(
            1
            for entry in s.infractions
            if entry.infraction.kind is inf.kind and entry.infraction.offender is inf.offender
        )
        penalty = penalty_for(inf.kind, earlier, inf.penalty)
        s = _evolve(
            s,
            infractions=(
                *s.infractions,
                InfractionEntry(ctx.seq, s.move_number, inf, penalty, ruled_by),
            ),
        )
        if inf.kind is InfractionKind.TAKE_BACK:
            s = _evolve(s, last_stone_by=None)
        if inf.prize_demotion or inf.suspension:
            s = _evolve(
                s,
                sanctions=(
                    *s.sanctions,
                    Sanction(
                        ctx.seq,
                        inf.offender,
                        s.player(inf.offender),
                        inf.kind,
                        inf.prize_demotion,
                        inf.suspension,
                    ),
                ),
            )
        ended = s.phase in (Phase.FINISHED, Phase.CONFIRMED)
        who = inf.offender
        what = Msg("%(kind)s by %(color)s", kind=inf.kind, color=who)
        # A result entered from the sheet is open until confirmed: penalties still change it.
        reopen = s.phase is Phase.FINISHED and s.from_sheet
        if penalty is Penalty.WARNING:
            s = _evolve(s, warnings=_bump(s.warnings, who))
            if s.warnings_of(who) >= WARNINGS_TO_LOSE and (reopen or not ended):
                return self._finish(
                    s,
                    ctx,
                    Result.win(who.opponent, Reason.RULING),
                    Msg("second warning: %(what)s", what=what),
                )
            if reopen and s.black_count is not None:
                return self._finish(
                    s,
                    ctx,
                    self._counted(s, s.black_count),
                    Msg(
                        "count again: Black %(black)s stones, warning: %(what)s, "
                        "warnings %(black_warnings)s/%(white_warnings)s as stones",
                        black=s.black_count,
                        what=what,
                        black_warnings=s.warnings[0],
                        white_warnings=s.warnings[1],
                    ),
                )
        elif penalty is Penalty.LOSS:
            return self._decide(s, ctx, Result.win(who.opponent, Reason.RULING), what)
        elif penalty is Penalty.BOTH_LOSE:
            return self._decide(s, ctx, Result.both_lose(), what)
        return s

    def _decide(self, s: GameState, ctx: Context, result: Result, why: Msg) -> GameState:
        """End the game by a decision, or correct a confirmed result with it."""
        if s.phase is Phase.CONFIRMED:
            return _evolve(
                s,
                result=result,
                result_history=_history(
                    s, ctx, ctx.actor, result, Msg("corrected: %(why)s", why=why)
                ),
            )
        return self._finish(s, ctx, result, why)

    @staticmethod
    def _counted(s: GameState, black: Fraction) -> Result:
        """The result of Black's count with komi, handicap compensation and each side's
        warnings as stones (R-SCORE-3, R-HCP-2, R-PEN-1)."""
        assert s.ruleset is not None
        threshold = s.ruleset.black_threshold + s.warnings[0] - s.warnings[1]
        return Result.from_counts(black - threshold)

    # -- results from the sheet ---------------------------------------------------------------

    def _enter_result(self, ctx: Context, e: ResultEntered) -> GameState:
        self._referee(ctx, "enter a result")
        self._in_phase(ctx, "enter a result", Phase.PLAYING, Phase.COUNTING, Phase.FINISHED)
        s = self.state
        assert s.ruleset is not None
        if (e.result is None) == (e.black_count is None):
            raise InvalidSetting(
                "result", Msg("enter either the result or Black's count, not both")
            )
        if e.black_count is not None:
            black = e.black_count
            points = s.ruleset.points
            if not 0 <= black <= points:
                raise InvalidSetting(
                    "black count", Msg("must be between 0 and %(points)s stones", points=points)
                )
            if (black * 2).denominator != 1:
                raise InvalidSetting("black count", Msg("must be a multiple of half a stone"))
            result = self._counted(s, black)
            why = _count_reason(black, s.warnings)
        else:
            assert e.result is not None
            result = e.result
            _check_margin(result, s.ruleset)
            why = Msg("entered from the result sheet: %(result)s", result=result)
        s = _evolve(s, black_count=e.black_count, from_sheet=True)
        return self._finish(s, ctx, result, why)

    def _sheet_confirmed(self, ctx: Context, e: SheetConfirmed) -> GameState:
        actor = self._referee(ctx, "confirm the result sheet")
        self._in_phase(ctx, "confirm the result", Phase.FINISHED)
        s = self.state
        return _evolve(
            s,
            phase=Phase.CONFIRMED,
            confirmations=(GameActor.player(Color.BLACK), GameActor.player(Color.WHITE), actor),
            result_history=_history(
                s,
                ctx,
                actor,
                s.result,
                Msg("confirmed: signed by both players on the result sheet and by the referee"),
            ),
        )

    # -- rulings ------------------------------------------------------------------------------

    def _ruling(self, ctx: Context, e: RulingMade) -> GameState:
        r = e.ruling
        what = Msg("rule %(kind)s", kind=r.kind)
        self._referee(ctx, what, r.required_role)
        self._in_phase(ctx, what, Phase.PLAYING, Phase.COUNTING)
        s = self.state
        s = _evolve(s, rulings=(*s.rulings, RulingEntry(ctx.seq, s.move_number, r, ctx.actor)))
        if r.kind in (RulingKind.STONE_TO_POINT, RulingKind.STONE_STANDS):
            s = self._move_stone(s, r.points[0], r.points[1])
        if r.kind is RulingKind.DROPPED_STONE:
            s = self._replace_dropped(ctx, s, r.points[0])
        result = r.result()
        if result is not None:
            why = Msg("ruling: %(kind)s: %(reason)s", kind=r.kind, reason=r.reason)
            return self._finish(s, ctx, result, why)
        return s

    def _replace_dropped(self, ctx: Context, s: GameState, point: int) -> GameState:
        """R-REF-2: a stone dropped on the board may be picked up and played elsewhere (with the
        opponent's consent, else as the chief referee decides): the last move is replaced."""
        color = s.last_stone_by
        board = self.board
        if color is None or not board.history or board.history[-1][1] is None:
            raise _refused(ctx, Msg("the last event is not a stone to replace"))
        mover, dropped = board.undo()
        assert dropped is not None
        reason = board.legality(color, point)
        if reason is not None:
            board.play(mover, dropped)  # put the dropped stone back as it was
            raise self._illegal(reason, point)
        board.play(color, point)
        return self._snapshot(s)

    def _move_stone(self, s: GameState, source: int, target: int) -> GameState:
        """R-REF-3: a moved stone stands where it was moved or goes to a reasonable point. The
        board restarts from the new position (the superko history begins again there)."""
        board = self.board
        n = board.size * board.size
        if not (0 <= source < n and 0 <= target < n):
            raise InvalidSetting("ruling", Msg("a moved stone's points must be on the board"))
        color = board.color_at(source)
        if color is None:
            raise InvalidSetting(
                "ruling", Msg("no stone stands on %(source)s", source=self._vertex(source))
            )
        if board.color_at(target) is not None:
            raise InvalidSetting(
                "ruling", Msg("%(target)s is occupied", target=self._vertex(target))
            )
        black = set(board.list_stones(Color.BLACK))
        white = set(board.list_stones(Color.WHITE))
        own = black if color is Color.BLACK else white
        own.discard(source)
        own.add(target)
        assert s.ruleset is not None
        fresh = Board(board.size, cycle=s.ruleset.cycle, enforce_turn=False)
        fresh.setup(sorted(black), sorted(white), s.to_move)
        fresh.captures_black, fresh.captures_white = board.captures_black, board.captures_white
        self._board = fresh
        return self._snapshot(s)

    # -- colours ------------------------------------------------------------------------------

    def _wrong_colors(self, ctx: Context, e: WrongColors) -> GameState:
        self._referee(ctx, "correct the colours")
        self._in_phase(ctx, "correct the colours", Phase.PLAYING)
        s = self.state
        assert s.ruleset is not None and s.assigned is not None
        if s.colors_corrected or s.colors_wrong_noted:
            raise _refused(ctx, Msg("the colours have already been dealt with"))
        if s.move_number <= COLOR_CORRECTION_LIMIT:
            # R-COLOR-2: corrected; the game starts again with the assigned colours.
            self._board = Board.from_ruleset(s.ruleset, enforce_turn=False)
            return self._snapshot(
                s,
                to_move=self.board.to_move,
                move_number=0,
                passes_in_a_row=0,
                end_proposed_by=None,
                last_stone_by=None,
                colors_corrected=True,
                handicap_pending=_free_handicap(s.ruleset),
            )
        # Past move 10 the game stands as played; pairing keeps the assigned colours.
        return _evolve(s, black=s.assigned.white, white=s.assigned.black, colors_wrong_noted=True)

    def _played_again(self, ctx: Context, e: PlayedAgain) -> GameState:
        actor = self._referee(ctx, "record the game played again")
        s = self.state
        what = "playoff" if e.playoff else "replay"
        if s.phase is not Phase.CONFIRMED or s.result is None:
            raise _refused(
                ctx,
                Msg(
                    "a %(what)s follows a confirmed result; the game is %(phase)s",
                    what=what,
                    phase=self._phase_msg(),
                ),
            )
        if e.playoff:
            # A playoff settles a game without a winner (R-PLAYOFF); both lose needs none.
            if s.result.outcome in (Outcome.WIN, Outcome.BOTH_LOSE):
                raise _refused(
                    ctx, Msg("the result %(result)s needs no playoff (加赛)", result=s.result)
                )
        elif s.result.outcome is not Outcome.REPLAY:
            raise _refused(
                ctx,
                Msg(
                    "the result %(result)s is no replay ruling (重赛); only a replayed "
                    "game's result may follow a confirmed result",
                    result=s.result,
                ),
            )
        return _evolve(
            s,
            result=e.result,
            black_count=None,
            confirmations=(GameActor.player(Color.BLACK), GameActor.player(Color.WHITE), actor),
            result_history=_history(s, ctx, actor, e.result, _played_again(e.playoff, e.result)),
        )

    def _correct_result(self, ctx: Context, e: ResultCorrected) -> GameState:
        self._referee(ctx, "correct a confirmed result", Role.CHIEF_REFEREE)
        s = self.state
        if s.phase is not Phase.CONFIRMED:
            raise _refused(ctx, Msg("the result is not confirmed yet; a referee rules instead"))
        if not e.reason.strip():
            raise InvalidSetting("reason", Msg("a correction states its reason"))
        assert s.ruleset is not None
        _check_margin(e.result, s.ruleset)
        return _evolve(
            s,
            result=e.result,
            result_history=_history(
                s, ctx, ctx.actor, e.result, Msg("corrected: %(why)s", why=e.reason)
            ),
        )


def _seconds(value: object) -> bool:
    """Whether ``value`` is a finite number of seconds >= 0 (not a flag, not NaN)."""
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and value >= 0
    )


def _free_handicap(ruleset: Ruleset) -> bool:
    return bool(ruleset.handicap and ruleset.handicap_placement is HandicapPlacement.FREE)


def _signer(actor: GameActor) -> str:
    """Confirmation needs Black, White and one referee (R-REF-7)."""
    if actor.role is Role.PLAYER:
        assert actor.color is not None
        return actor.color.value
    return "referee"


_HANDLERS: dict[type[RecordEvent], Callable[[Referee, Context, Any], GameState]] = {
    PlaceHandicap: Referee._place_handicap,
    Move: Referee._move,
    Pass: Referee._pass,
    ProposeEnd: Referee._pass,
    Resign: Referee._resign,
    AcceptEnd: Referee._answer_end,
    RefuseEnd: Referee._answer_end,
    MarkDead: Referee._mark_dead,
    AgreeDead: Referee._agree_dead,
    Dispute: Referee._dispute,
    RequestRecount: Referee._recount,
    LeaveSeat: Referee._leave_seat,
    Confirm: Referee._confirm,
    ClockEvent: Referee._clock,
    InfractionRuled: Referee._infraction,
    RulingMade: Referee._ruling,
    WrongColors: Referee._wrong_colors,
    ResultCorrected: Referee._correct_result,
    ResultEntered: Referee._enter_result,
    SheetConfirmed: Referee._sheet_confirmed,
    PlayedAgain: Referee._played_again,
}
