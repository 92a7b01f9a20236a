"""SGF export of a game record: penalties and rulings as comments on their node, RE from the
result (R-PEN-1, R-REF-5, R-REF-3, R-COLOR-2 as they show in SGF)."""

from __future__ import annotations

from weiqi.formats.sgf import read_sgf
from weiqi.formats.sgf_referee import record_to_sgf, write_record_sgf
from weiqi.referee.events import InfractionRuled, Move, RulingMade, WrongColors
from weiqi.referee.infractions import Infraction, InfractionKind
from weiqi.referee.rulings import Ruling, RulingKind
from weiqi.rules.ruleset import IllegalMoves, Ruleset

from .scripts import BLACK, CHIEF, KO, REF, WALLS, B, new_game, pass_and_count, play, pt


def test_r_pen_1_penalised_result_is_written_to_re_and_the_warning_to_its_node() -> None:
    """R-PEN-1: the warning is a comment on the move where it was given; RE is the result
    after the penalty (White by ¾ stone = 1.5 points)."""
    rec, clock = new_game()
    play(rec, clock, WALLS[:3])
    rec.append(InfractionRuled(Infraction(InfractionKind.CLOCK_BEFORE_MOVE, B)), REF, clock())
    play(rec, clock, WALLS[3:])
    pass_and_count(rec, clock)
    game = read_sgf(write_record_sgf(rec))
    assert game.result is not None and game.result.to_sgf() == "W+1.5"
    line = game.main_line()
    assert len(line) == 12  # ten moves and two passes
    assert line[2].comment is not None and "警告：黑方着子前按钟" in line[2].comment
    assert "R-TIME-7" in line[2].comment
    assert line[-1].comment is not None and "白胜3/4子" in line[-1].comment
    assert game.black_player == "Li" and game.white_player == "Wang"


def test_r_ref_5_void_ko_capture_is_a_pass_node_with_its_penalty() -> None:
    """R-REF-5: in strict mode the void ko capture shows as Black's pass (the forfeited turn)
    with the void move and the warning in its comment."""
    rec, clock = new_game(mode=IllegalMoves.STRICT)
    play(rec, clock, KO)
    rec.append(Move(pt("B1")), BLACK, clock())
    game = record_to_sgf(rec)
    moves = [str(m) for m in game.moves()]
    assert moves[-1] == "B pass" and len(moves) == 7
    comment = game.last_node().comment or ""
    assert "无效着手：黑 B1，弃权一次" in comment and "警告：黑方未找劫材提劫" in comment
    assert "（R-REF-5，规则）" in comment


def test_r_ref_3_moved_stone_is_a_setup_node_with_the_ruling() -> None:
    """R-REF-3: a stone moved by the chief referee's ruling is an AE/AB set-up node."""
    rec, clock = new_game()
    play(rec, clock, ["C3", "D3"])
    stands = Ruling(RulingKind.STONE_STANDS, "no agreement", points=(pt("C3"), pt("C4")))
    rec.append(RulingMade(stands), CHIEF, clock())
    game = read_sgf(write_record_sgf(rec))
    node = game.main_line()[-1]
    assert node.move is None
    assert node.setup_black == [(3, 2)] and node.setup_empty == [(2, 2)]
    assert node.comment is not None and "移动之子有效" in node.comment


def test_r_color_2_corrected_colors_restart_the_main_line() -> None:
    """R-COLOR-2: a correction within 10 moves restarts the game; the SGF holds the game as
    replayed, with a note in the root."""
    rec, clock = new_game()
    play(rec, clock, ["C3", "D3"])
    rec.append(WrongColors(), REF, clock())
    play(rec, clock, ["B2"])
    game = record_to_sgf(rec)
    assert [str(m) for m in game.moves()] == ["B B2"]
    assert game.root.comment is not None and "R-COLOR-2" in game.root.comment


def test_handicap_stones_are_root_setup() -> None:
    from weiqi.referee.actors import GameActor
    from weiqi.referee.nigiri import ColorAssignment
    from weiqi.referee.record import GameRecord

    rec = GameRecord.start(
        Ruleset.handicap_game(2, size=9),
        ColorAssignment.by_organiser("Li", "Wang"),
        referee=GameActor.referee("r1"),
        at=0,
    )
    game = record_to_sgf(rec)
    assert sorted(game.root.setup_black) == [(2, 2), (6, 6)] and game.handicap == 2


def test_r_ref_2_dropped_stone_replaces_the_move_in_sgf() -> None:
    """R-REF-2: the dropped stone played elsewhere is the move of its node, with the ruling."""
    rec, clock = new_game()
    play(rec, clock, ["C3", "D3"])
    dropped = Ruling(RulingKind.DROPPED_STONE, "Black consents", points=(pt("D4"),))
    rec.append(RulingMade(dropped), REF, clock())
    game = read_sgf(write_record_sgf(rec))
    assert [str(m) for m in game.moves()] == ["B C3", "W D4"]
    assert "掉落之子任选着点" in (game.last_node().comment or "")


def test_clock_times_are_written_per_move() -> None:
    """R-TIME-2 in SGF: TM/OT from the time control, BL/WL (and OB/OW in byo-yomi) per move."""
    from weiqi.clock.control import TimeControl
    from weiqi.referee.events import ClockAction, ClockEvent

    from .scripts import WHITE

    rec, _ = new_game(time_control=TimeControl.byo_yomi(60, 3, 30))
    rec.append(ClockEvent(ClockAction.START), REF, at=10)
    rec.append(Move(pt("C3")), BLACK, at=20)
    rec.press_clock(B, at=21)  # 11 s used: 49 s of main time left
    rec.append(Move(pt("D3")), WHITE, at=100)
    rec.press_clock(rec.state.to_move.opponent, at=101)  # 80 s: into byo-yomi
    game = read_sgf(write_record_sgf(rec))
    assert game.time_limit == 60 and game.overtime == "3x30 byo-yomi"
    first, second = game.main_line()
    assert first.black_time_left == 49 and first.black_overtime_left is None
    assert second.white_overtime_left == 3 and second.white_time_left == 30
