"""One whole game as a referee records it from a physical board (strict play mode): nigiri,
clock, a double move, a clock pressed too early, a refused end, a life-and-death dispute
played out, counting with warnings, confirmation, a correction found later, JSON and SGF."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

from weiqi.clock.control import TimeControl
from weiqi.formats.sgf import read_sgf
from weiqi.formats.sgf_referee import write_record_sgf
from weiqi.referee.actors import GameActor
from weiqi.referee.events import (
    AgreeDead,
    ClockAction,
    ClockEvent,
    Confirm,
    Dispute,
    InfractionRuled,
    MarkDead,
    Move,
    Pass,
    ProposeEnd,
    RefuseEnd,
)
from weiqi.referee.infractions import Infraction, InfractionKind, Penalty
from weiqi.referee.nigiri import ColorAssignment, Contestant, Guess, Nigiri
from weiqi.referee.record import GameRecord, replay
from weiqi.referee.state import Phase
from weiqi.rules.color import Color
from weiqi.rules.result import Outcome, Result
from weiqi.rules.ruleset import IllegalMoves, Ruleset
from weiqi.rules.vertex import parse_vertex

REF = GameActor.referee("r7")
CHIEF = GameActor.chief_referee("c1")


class Game:
    def __init__(self) -> None:
        nigiri = Nigiri.draw(
            Contestant("Gu", rank=9, born=date(1983, 2, 1)),
            Contestant("Chang", rank=9, born=date(1976, 7, 3)),
            Guess.ODD,
            seed=20261129,
        )
        self.now = 0.0
        self.rec = GameRecord.start(
            Ruleset.chinese(9).with_(play_mode=IllegalMoves.STRICT),
            ColorAssignment.by_nigiri(nigiri),
            referee=REF,
            at=self.tick(),
            time_control=TimeControl.byo_yomi(600, 3, 30),
        )
        self.rec.append(ClockEvent(ClockAction.START), REF, self.tick())

    def tick(self) -> float:
        self.now += 5
        return self.now

    def move(self, color: Color, vertex: str, press: bool = True) -> None:
        point = parse_vertex(vertex, 9)
        event = Pass() if point is None else Move(point)
        self.rec.append(event, GameActor.player(color), self.tick())
        if press:
            self.rec.press_clock(color, self.tick())

    def event(self, event: object, actor: GameActor) -> None:
        self.rec.append(event, actor, self.tick())  # type: ignore[arg-type]


def test_a_whole_refereed_game() -> None:
    """R-COLOR-1, R-REF-1, R-TIME-7, R-END-2, R-END-3, R-PEN-1, R-END-4, R-REF-7, R-REF-6."""
    g = Game()
    B, W = Color.BLACK, Color.WHITE
    walls = [(f"E{i}", f"F{i}") for i in range(1, 10)]
    for i, (b, w) in enumerate(walls):
        if i == 3:
            # R-TIME-7: Black presses before the stone is down; the referee warns.
            g.rec.press_clock(B, g.tick())
            g.move(B, b, press=False)
            g.event(InfractionRuled(Infraction(InfractionKind.CLOCK_BEFORE_MOVE, B)), REF)
        else:
            g.move(B, b)
        g.move(W, w)
        if i == 2:
            # R-REF-1: White plays again at once; strict mode voids it with a warning.
            g.event(Move(parse_vertex("G5", 9) or 0), GameActor.player(W))
    s = g.rec.state
    assert s.warnings == (1, 1) and [v.reason for v in s.void_moves] == ["double_move"]

    # R-END-2: Black proposes the end; White does not agree and invades; Black passes too.
    g.event(ProposeEnd(), GameActor.player(B))
    g.rec.press_clock(B, g.tick())
    g.event(RefuseEnd(), GameActor.player(W))
    g.move(W, "B5")
    g.move(B, "pass")
    g.move(W, "pass")
    assert g.rec.state.phase is Phase.COUNTING

    # R-END-3: Black marks B5 dead, White says it lives: play resumes, Black first.
    b5 = parse_vertex("B5", 9) or 0
    g.event(MarkDead((b5,)), GameActor.player(B))
    g.event(Dispute((b5,), claimant=B), GameActor.player(W))
    assert g.rec.state.phase is Phase.PLAYING and g.rec.state.to_move is B
    for vertex in ["B4", "B6", "C5"]:
        g.move(B, vertex)
        g.move(W, "pass")
    g.move(B, "A5")  # captures B5
    assert g.rec.state.color_at(b5) is None and g.rec.state.captures == (1, 0)
    g.move(W, "pass")
    g.move(B, "pass")
    g.event(MarkDead(()), GameActor.player(W))
    g.event(AgreeDead(), GameActor.player(B))

    # R-PEN-1: Black 45 on the board against 44¼ is a win by ¾; a warning each cancels out.
    s = g.rec.state
    assert s.black_count == 45
    assert s.result == Result.by_count(B, Fraction(3, 4))
    assert s.black == "Chang" or s.black == "Gu"

    for actor in (GameActor.player(B), GameActor.player(W), REF):
        g.event(Confirm(), actor)
    assert g.rec.state.confirmed

    # R-REF-6: an agreed game found two rounds later: the chief referee rules both lose.
    cheat = Infraction(InfractionKind.CHEATING, W, penalty=Penalty.BOTH_LOSE, suspension=True)
    g.event(InfractionRuled(cheat), CHIEF)
    s = g.rec.state
    assert s.result is not None and s.result.outcome is Outcome.BOTH_LOSE
    assert [h.result.to_code() if h.result else None for h in g.rec.history()] == [
        "B+1.5",
        "B+1.5",
        "BL",
    ]

    # Replay, JSON with the stored head, SGF.
    head = g.rec.head
    again = GameRecord.from_json(g.rec.to_json(), head=head)
    assert again.state == replay(g.rec) == s
    sgf = read_sgf(write_record_sgf(g.rec))
    assert sgf.result is not None and sgf.result.to_sgf() == "Void"
    comments = "\n".join(n.comment or "" for n in [sgf.root, *sgf.main_line()])
    for text in ["猜先", "连下两着", "着子前按钟", "作弊", "双方均负"]:
        assert text in comments, text
