"""Ko, superko and cycles (R-KO-1, R-KO-2), undo."""

from __future__ import annotations

import pytest

from weiqi.errors import IllegalMove, InputError
from weiqi.rules.board import Board
from weiqi.rules.color import Color
from weiqi.rules.result import Result
from weiqi.rules.ruleset import CyclePolicy, Ruleset
from weiqi.rules.vertex import parse_vertex

B, W = Color.BLACK, Color.WHITE

KO = """
    . X O . .
    X O . O .
    . X O . .
    . . . . .
    . . . . .
"""


def v(name: str, size: int = 5) -> int:
    point = parse_vertex(name, size)
    assert point is not None
    return point


def test_r_ko_1_simple_ko_recapture_is_forbidden() -> None:
    """R-KO-1: the immediate recapture of a single ko repeats the position: reason ``ko``."""
    b = Board.from_diagram(KO)
    assert b.play(B, v("C4")) == [v("B4")]
    assert b.ko_point == v("B4")
    assert b.legality(W, v("B4")) == "ko"
    with pytest.raises(IllegalMove) as err:
        b.play(W, v("B4"))
    assert err.value.message == "move 2 at B4: ko"
    # After a ko threat and its answer the recapture is legal again.
    b.play(W, v("E1"))
    b.play(B, v("D1"))
    assert b.legality(W, v("B4")) is None
    assert b.play(W, v("B4")) == [v("C4")]


def test_r_ko_1_repetition_after_passes_is_superko() -> None:
    """R-KO-1: passes are not checked, but the position they lead to has occurred: retaking
    the ko after two passes recreates the position before the capture (stones and player to
    move), so it is a (super)ko repetition even though it is not an immediate recapture."""
    b = Board.from_diagram(KO)
    b.play(B, v("C4"))
    b.pass_(W)
    b.pass_(B)  # position after C4 again, but passes are never checked
    assert b.ko_point is None
    assert b.legality(W, v("B4")) == "superko"


def _triple_ko(cycle: CyclePolicy) -> tuple[Board, list[tuple[Color, int]]]:
    """Three kos side by side on 12×12; White holds the 1st and 3rd, Black the 2nd."""
    size = 12
    black: list[int] = []
    white: list[int] = []

    def at(k: int, row: int, col: int) -> int:
        return row * size + 4 * k + col

    for k in range(3):
        black += [at(k, 0, 1), at(k, 1, 0), at(k, 2, 1)]
        white += [at(k, 0, 2), at(k, 1, 3), at(k, 2, 2)]
    white += [at(0, 1, 1), at(2, 1, 1)]
    black += [at(1, 1, 2)]
    board = Board(size, cycle=cycle)
    board.setup(black, white, Color.BLACK)
    take_black = [at(k, 1, 2) for k in range(3)]
    take_white = [at(k, 1, 1) for k in range(3)]
    cycle_moves = [
        (B, take_black[0]),
        (W, take_white[1]),
        (B, take_black[2]),
        (W, take_white[0]),
        (B, take_black[1]),
        (W, take_white[2]),  # back to the start position, Black to move
    ]
    return board, cycle_moves


def test_r_ko_1_triple_ko_is_banned_by_default() -> None:
    """R-KO-1, R-KO-2: in a triple ko the sixth capture repeats the whole board: ``superko``."""
    board, moves = _triple_ko(CyclePolicy.BAN)
    start = board.stones_bytes()
    for color, point in moves[:-1]:
        assert len(board.play(color, point)) == 1
    color, point = moves[-1]
    assert board.legality(color, point) == "superko"
    with pytest.raises(IllegalMove, match="superko"):
        board.play(color, point)
    assert board.stones_bytes() != start
    assert board.cycle_result is None


@pytest.mark.parametrize(
    ("policy", "result"),
    [
        (CyclePolicy.NO_RESULT, Result.no_result()),
        (CyclePolicy.DRAW, Result.draw()),
        (CyclePolicy.REPLAY, Result.replay()),
    ],
)
def test_r_ko_2_cycle_policy_ends_the_game(policy: CyclePolicy, result: Result) -> None:
    """R-KO-2: under a supplementary cycle rule the repeating move is played and ends the game
    with the configured outcome; nothing can be played afterwards; undo reopens the game."""
    board, moves = _triple_ko(policy)
    start = board.stones_bytes()
    for color, point in moves:
        assert board.legality(color, point) is None
        board.play(color, point)
    assert board.stones_bytes() == start
    assert board.cycle_result == result
    assert board.legality(B, 143) == "game-over"
    with pytest.raises(IllegalMove, match="game-over"):
        board.pass_(B)
    board.undo()
    assert board.cycle_result is None and board.is_legal(W, moves[-1][1])


@pytest.mark.parametrize("policy", list(CyclePolicy))
def test_r_ko_2_simple_ko_stays_forbidden_under_every_policy(policy: CyclePolicy) -> None:
    """R-KO-2: whatever the cycle policy, the immediate single-ko recapture stays forbidden."""
    b = Board.from_diagram(KO, cycle=policy)
    b.play(B, v("C4"))
    assert b.legality(W, v("B4")) == "ko"


def test_board_from_ruleset_takes_the_cycle_policy() -> None:
    """R-KO-2: the board follows the ruleset's cycle setting."""
    assert Board.from_ruleset(Ruleset.chinese(9).with_(cycle="draw")).cycle is CyclePolicy.DRAW


def test_undo_restores_captures_ko_and_hash() -> None:
    """Undo takes back a capture exactly: stones, capture counts, ko point, hash, turn."""
    b = Board.from_diagram(KO)
    before = (b.stones_bytes(), b.captures, b.ko_point, b.hash, b.to_move)
    b.play(B, v("C4"))
    assert b.undo() == (B, v("C4"))
    assert (b.stones_bytes(), b.captures, b.ko_point, b.hash, b.to_move) == before
    b.play(B, v("C4"))
    b.play(W, v("E1"))
    b.undo()
    assert b.legality(W, v("B4")) == "ko"  # the ko point comes back
    b.pass_(W)
    assert b.undo() == (W, None)
    b.undo()
    with pytest.raises(InputError):
        b.undo()
