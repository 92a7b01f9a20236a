"""A game record as a line of board nodes with the referee's notes on them, ready for a game
record format (SGF export lives in :mod:`weiqi.formats`): each move, pass or forfeited turn is a
node; warnings, void moves, rulings and result changes become comments on the node where they
happened (Chinese first, English second).

>>> from weiqi.referee.record import GameRecord
>>> from weiqi.referee.actors import GameActor
>>> from weiqi.referee.nigiri import ColorAssignment
>>> from weiqi.referee.events import InfractionRuled
>>> from weiqi.referee.infractions import Infraction, InfractionKind
>>> from weiqi.rules.ruleset import Ruleset
>>> rec = GameRecord.start(Ruleset.chinese(9), ColorAssignment.by_organiser("Li", "Wang"),
...                        referee=GameActor.referee("r1"), at=0)
>>> _ = rec.play(Color.BLACK, "E5", at=1)
>>> _ = rec.append(InfractionRuled(Infraction(InfractionKind.CLOCK_BEFORE_MOVE, Color.BLACK)),
...                GameActor.referee("r1"), at=2)
>>> line = timeline(rec)
>>> line.nodes[0].move
(<Color.BLACK: 'B'>, 40)
>>> print(line.nodes[0].comments[0])
警告：黑方着子前按钟（R-TIME-7，裁判 r1）/ warning: Black, pressing the clock before the move
"""

from __future__ import annotations

from dataclasses import dataclass, field

from weiqi.clock.account import View
from weiqi.clock.control import TimeControl
from weiqi.referee.actors import GameActor, Role
from weiqi.referee.events import ClockAction, ClockEvent, Move
from weiqi.referee.infractions import Penalty
from weiqi.referee.record import GameRecord
from weiqi.referee.rulings import RulingKind
from weiqi.referee.state import COLOR_CORRECTION_LIMIT, Context, GameState, Referee
from weiqi.rules.color import Color
from weiqi.rules.result import Result
from weiqi.rules.ruleset import Ruleset
from weiqi.rules.vertex import format_vertex

_PENALTY_ZH = {
    Penalty.NONE: "记录",
    Penalty.WARNING: "警告",
    Penalty.LOSS: "判负",
    Penalty.BOTH_LOSE: "双方均负",
}


@dataclass
class Node:
    """One board node: a move (``point`` ``None`` = a pass or forfeited turn) or a set-up of
    stones (a ruling that moved a stone), with comments."""

    move: tuple[Color, int | None] | None = None
    #: The mover's clock when they pressed after this move: main time left, or in byo-yomi the
    #: time left in the period and the periods left (SGF ``BL``/``WL``, ``OB``/``OW``).
    time_left: float | None = None
    overtime_left: int | None = None
    add_black: list[int] = field(default_factory=list)
    add_white: list[int] = field(default_factory=list)
    clear: list[int] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


@dataclass
class Timeline:
    """The record as board nodes: ``root`` comments (colours, nigiri, restarts) then
    ``nodes`` along the game; ``result`` the current result."""

    ruleset: Ruleset
    time_control: TimeControl | None
    black: str
    white: str
    #: Stones on the board before the first move (handicap).
    start_black: list[int]
    root_comments: list[str]
    nodes: list[Node]
    result: Result | None


def _who(actor: GameActor | None) -> str:
    if actor is None:
        return "规则"
    if actor.role is Role.CHIEF_REFEREE:
        return f"裁判长 {actor.id}"
    if actor.role is Role.REFEREE:
        return f"裁判 {actor.id}"
    assert actor.color is not None
    return f"{actor.color.zh}方"


def timeline(record: GameRecord) -> Timeline:
    """Walk the record event by event and lay it out as board nodes with notes."""
    referee = Referee()
    root: list[str] = []
    nodes: list[Node] = []
    before = GameState()
    start_black: list[int] = []
    for entry in record.entries:
        state = referee.apply(Context(entry.seq, entry.at, entry.actor), entry.event)
        if state.ruleset is None:  # pragma: no cover - a record always starts with Start
            continue
        size = state.ruleset.board_size
        notes: list[str] = []
        if entry.seq == 0:
            start_black = [p for p, v in enumerate(state.stones) if v == 1]
            assert state.assigned is not None
            a = state.assigned
            root.append(f"黑 {a.black} / 白 {a.white}（{'猜先' if a.nigiri else '赛会编排'}）")
            if a.nigiri is not None:
                n = a.nigiri
                root.append(
                    f"猜先：{n.holder} 握子 {n.count} 枚，{n.guesser} 猜"
                    f"{'单' if n.guess.value == 'odd' else '双'}（种子 {n.seed}）"
                )
        elif state.move_number < before.move_number or (
            state.colors_corrected and not before.colors_corrected
        ):
            nodes.clear()
            root.append(f"第{before.move_number}手前拿错黑白棋，已改正，对局重新开始（R-COLOR-2）")
        elif state.move_number > before.move_number:
            if isinstance(entry.event, Move) and len(state.void_moves) == len(before.void_moves):
                nodes.append(Node(move=(before.to_move, entry.event.point)))
            else:
                nodes.append(Node(move=(before.to_move, None)))
        elif state.stones != before.stones:
            dropped = [
                r.ruling
                for r in state.rulings[len(before.rulings) :]
                if r.ruling.kind is RulingKind.DROPPED_STONE
            ]
            last = nodes[-1] if nodes else None
            if dropped and last is not None and last.move is not None:
                # R-REF-2: the dropped stone was played elsewhere; the move is that point.
                last.move = (last.move[0], dropped[0].points[0])
            else:
                nodes.append(_setup(before, state))
        if (
            isinstance(entry.event, ClockEvent)
            and entry.event.action is ClockAction.PRESS
            and state.clock is not None
            and entry.actor.color is not None
        ):
            _note_time(nodes, entry.actor.color, state.clock.remaining(entry.at, entry.actor.color))
        if isinstance(entry.event, ClockEvent) and entry.event.action in _NOTED_CLOCK:
            notes.append(_clock_note(entry.event, entry.actor))
        for void in state.void_moves[len(before.void_moves) :]:
            notes.append(
                f"无效着手：{void.color.zh} {format_vertex(void.point, size)}"
                + ("，弃权一次" if state.forfeited_turns != before.forfeited_turns else "")
                + f" / void move: {void.color.en} {format_vertex(void.point, size)}"
            )
        for inf in state.infractions[len(before.infractions) :]:
            i = inf.infraction
            notes.append(
                f"{_PENALTY_ZH[inf.penalty]}：{i.offender.zh}方{i.kind.zh}"
                f"（{i.kind.requirement}，{_who(inf.ruled_by)}）"
                f"/ {inf.penalty.value}: {i.offender.en}, {i.kind.en}"
            )
        for ruling in state.rulings[len(before.rulings) :]:
            r = ruling.ruling
            notes.append(
                f"裁决：{r.kind.zh}（{_who(ruling.ruled_by)}）/ ruling: {r.kind.value}: {r.reason}"
            )
        if state.seat_leaves != before.seat_leaves:
            who = Color.BLACK if state.seat_leaves[0] != before.seat_leaves[0] else Color.WHITE
            notes.append(
                f"{who.zh}方读秒期间经裁判员许可离席（每局一次，第22条7款，{_who(entry.actor)}）"
                f"/ {who.en} leaves the seat in byo-yomi with the referee's permission"
            )
        if state.colors_wrong_noted and not before.colors_wrong_noted:
            black, white = state.pairing_colors
            notes.append(
                f"拿错黑白棋，第{COLOR_CORRECTION_LIMIT}手后不予改正；"
                f"编排仍按 黑 {black} / 白 {white}（R-COLOR-2）"
            )
        for change in state.result_history[len(before.result_history) :]:
            shown = change.result.to_zh() if change.result is not None else "待定"
            notes.append(f"结果：{shown}（{_who(change.actor)}）/ {change.reason}")
        if notes:
            (nodes[-1].comments if nodes else root).extend(notes)
        before = state
    final = referee.state
    assert final.ruleset is not None
    time_control = final.clock.tc if final.clock is not None else None
    return Timeline(
        final.ruleset,
        time_control,
        final.black,
        final.white,
        start_black,
        root,
        nodes,
        final.result,
    )


#: The clock events of a referee (or the system) that the record's notes show (R-TIME-5,
#: R-TIME-8): who paused, resumed or corrected the clock, and why.
_NOTED_CLOCK = (ClockAction.PAUSE, ClockAction.RESUME, ClockAction.ADJUST)


def _clock_note(event: ClockEvent, actor: GameActor) -> str:
    """A pause, a resumption or a clock correction as a note.

    >>> _clock_note(ClockEvent(ClockAction.PAUSE, reason="server restart"),
    ...             GameActor.referee("system"))
    '暂停计时（系统：server restart）/ clock paused: server restart'
    >>> _clock_note(ClockEvent(ClockAction.ADJUST, color=Color.BLACK, seconds=-30,
    ...                        reason="fault"), GameActor.chief_referee("li"))
    '更正计时：黑方 -30秒（裁判长 li：fault）/ clock corrected: Black -30 s: fault'
    """
    who = "系统" if actor.role is Role.REFEREE and actor.id == "system" else _who(actor)
    why = f"：{event.reason}" if event.reason else ""
    en_why = f": {event.reason}" if event.reason else ""
    if event.action is ClockAction.ADJUST and event.color is not None:
        seconds = f"{event.seconds or 0:+g}"
        return (
            f"更正计时：{event.color.zh}方 {seconds}秒（{who}{why}）"
            f"/ clock corrected: {event.color.en} {seconds} s{en_why}"
        )
    if event.action is ClockAction.PAUSE:
        return f"暂停计时（{who}{why}）/ clock paused{en_why}"
    return f"恢复计时（{who}{why}）/ clock resumed{en_why}"


def _note_time(nodes: list[Node], color: Color, left: View) -> None:
    """Put the presser's time on the last node when it is their move (a press before the move,
    R-TIME-7, leaves no time on any node)."""
    node = nodes[-1] if nodes else None
    if node is None or node.move is None or node.move[0] is not color:
        return
    if left.in_overtime and left.period is not None:
        node.time_left, node.overtime_left = left.period, left.periods
    else:
        node.time_left, node.overtime_left = left.main, None


def _setup(before: GameState, after: GameState) -> Node:
    node = Node()
    for p, (old, new) in enumerate(zip(before.stones, after.stones, strict=True)):
        if old == new:
            continue
        if new == 1:
            node.add_black.append(p)
        elif new == 2:
            node.add_white.append(p)
        else:
            node.clear.append(p)
    return node
