"""Board, stones, moves, liberties, captures and suicide (RULES.md §1)."""

from __future__ import annotations

import pytest

from weiqi.errors import IllegalMove, InputError, InvalidSetting
from weiqi.rules.board import Board
from weiqi.rules.board_style import CELL_WIDTH_TO_HEIGHT, cell_height
from weiqi.rules.color import Color
from weiqi.rules.handicap import star_points
from weiqi.rules.vertex import COLUMNS, format_vertex, parse_vertex

B, W = Color.BLACK, Color.WHITE


def v(name: str, size: int = 19) -> int:
    point = parse_vertex(name, size)
    assert point is not None
    return point


def names(points: object, size: int) -> set[str]:
    return {format_vertex(p, size) for p in points}  # type: ignore[attr-defined]


# -- R-BOARD ---------------------------------------------------------------------------------


def test_r_board_1_sizes_19_13_9_and_2_to_25() -> None:
    """R-BOARD-1: 19×19 has 361 points; 9 and 13 work; any size 2..25, nothing else."""
    assert len(Board(19).empty_points()) == 361
    for size in (2, 9, 13, 25):
        b = Board(size)
        corner = v(f"{COLUMNS[size - 1]}{size}", size)
        assert b.play(B, corner) == []
        assert b.color_at(corner) is B
    for bad in (1, 26):
        with pytest.raises(InvalidSetting):
            Board(bad)


def test_r_board_1_vertices_gtp_style() -> None:
    """R-BOARD-1: GTP vertices, A1 bottom-left, no I column."""
    assert v("A1") == 0
    assert v("T19") == 360
    assert v("J1") == 8  # I is skipped
    assert format_vertex(v("q16"), 19) == "Q16"
    for bad in ("I3", "Z1", "A0", "A20", "", "D"):
        with pytest.raises(InputError):
            parse_vertex(bad, 19)
    assert all(format_vertex(parse_vertex(format_vertex(p, 13), 13), 13) for p in range(169))


def test_r_board_2_star_points() -> None:
    """R-BOARD-2: nine star points on 19×19, four 3-3 points + tengen on 9×9, four 4-4 points
    + tengen on 13×13."""
    assert names(star_points(19), 19) == {
        "D4", "K4", "Q4", "D10", "K10", "Q10", "D16", "K16", "Q16",
    }  # fmt: skip
    assert names(star_points(9), 9) == {"C3", "G3", "E5", "C7", "G7"}
    assert names(star_points(13), 13) == {"D4", "K4", "G7", "D10", "K10"}


def test_r_board_3_cells_taller_than_wide() -> None:
    """R-BOARD-3: cell width : height = 2.3 : 2.4."""
    assert CELL_WIDTH_TO_HEIGHT == (23, 24)
    assert cell_height(2.3) == pytest.approx(2.4)


def test_r_board_2_diagram_marks_star_points() -> None:
    """R-BOARD-2: the text diagram shows the star points."""
    text = str(Board(9))
    assert text.splitlines()[3].split()[1:-1] == [".", ".", "+", ".", ".", ".", "+", ".", "."]


# -- R-PLAY ----------------------------------------------------------------------------------


def test_r_play_1_black_first_alternate_empty_points_only() -> None:
    """R-PLAY-1: Black first, alternating, one stone on an empty point, stones never move."""
    b = Board(9)
    assert b.to_move is B
    assert b.legality(W, v("E5", 9)) == "wrong-turn"
    b.play(B, v("E5", 9))
    with pytest.raises(IllegalMove) as err:
        b.play(B, v("D5", 9))
    assert err.value.kind == "wrong-turn"
    assert err.value.message == "move 2 at D5: wrong-turn"
    assert b.legality(W, v("E5", 9)) == "occupied"
    b.play(W, v("D5", 9))
    assert b.color_at(v("E5", 9)) is B and b.color_at(v("D5", 9)) is W
    assert b.move_number == 2 and b.to_move is B
    assert b.legality(B, 81) == "off-board"
    assert b.legality(B, -1) == "off-board"


def test_r_play_2_pass_at_any_turn() -> None:
    """R-PLAY-2: a pass is always legal (also in a ko) and hands the move over."""
    b = Board.from_diagram(
        """
        . X O .
        X O . O
        . X O .
        . . . .
        """,
    )
    b.play(B, v("C3", 4))  # takes the ko
    assert b.legality(W, v("B3", 4)) == "ko"
    assert b.is_legal(W, None)
    b.pass_(W)
    assert b.to_move is B and b.passes_in_a_row == 1
    b.pass_(B)
    assert b.passes_in_a_row == 2
    assert b.history[-2:] == [(W, None), (B, None)]


def test_gtp_style_play_lets_either_color_move() -> None:
    """With ``enforce_turn=False`` (GTP ``play``) either colour may move; the opponent of the
    last mover is then to move."""
    b = Board(9, enforce_turn=False)
    b.play(W, v("E5", 9))
    b.play(W, v("E6", 9))
    assert b.to_move is B


# -- R-LIB, R-CAP, R-SUICIDE -----------------------------------------------------------------


def test_r_lib_1_liberties_shared_by_a_group() -> None:
    """R-LIB-1: liberties are orthogonal empty neighbours; connected stones share them."""
    b = Board.from_diagram(
        """
        . . . . .
        . X X . .
        . O X . .
        . . . . .
        . . . . .
        """,
    )
    group = b.group_at(v("B4", 5))
    assert group is not None and group.color is B
    assert names(group.stones, 5) == {"B4", "C4", "C3"}
    assert names(group.liberties, 5) == {"B5", "C5", "A4", "D4", "D3", "C2"}
    assert names(b.liberties(v("B3", 5)), 5) == {"A3", "B2"}
    assert b.liberties(v("A1", 5)) == frozenset() and b.group_at(v("A1", 5)) is None
    assert len(list(b.groups())) == 2


def test_r_cap_1_groups_without_liberties_are_removed() -> None:
    """R-CAP-1: after a move every opponent group without liberties is taken off, several
    groups at once too; the capturer's count goes up."""
    b = Board.from_diagram(
        """
        X O . O X
        X O X O X
        . X . X .
        . . . . .
        . . . . .
        """,
    )
    captured = b.play(B, v("C5", 5))
    assert names(captured, 5) == {"B5", "B4", "D5", "D4"}
    assert b.captures == {B: 4, W: 0}
    assert all(b.color_at(p) is None for p in captured)
    assert b.color_at(v("C5", 5)) is B


def test_r_cap_2_capture_before_self_capture() -> None:
    """R-CAP-2: a stone with no liberty of its own that takes an opponent group stays; only
    the opponent's stones go."""
    b = Board.from_diagram(
        """
        . X O X .
        . O . O .
        . . O . .
        . . . . .
        . . . . .
        """,
    )
    assert b.legality(B, v("C4", 5)) is None
    assert b.play(B, v("C4", 5)) == [v("C5", 5)]
    assert b.color_at(v("C4", 5)) is B
    assert names(b.liberties(v("C4", 5)), 5) == {"C5"}
    assert all(b.color_at(v(x, 5)) is W for x in ("B4", "D4", "C3"))


def test_r_suicide_1_single_and_multi_stone() -> None:
    """R-SUICIDE-1: a move that leaves its group without liberties and captures nothing is
    forbidden, for one stone and for a group of several."""
    single = Board.from_diagram(
        """
        . O . .
        O . . .
        . . . .
        . . . .
        """,
    )
    assert single.legality(B, v("A4", 4)) == "suicide"
    with pytest.raises(IllegalMove, match="suicide"):
        single.play(B, v("A4", 4))
    assert single.color_at(v("A4", 4)) is None and single.move_number == 0
    multi = Board.from_diagram(
        """
        X X . O
        O O O O
        . . . .
        . . . .
        """,
    )
    # Black C4 would join A4-B4 into a group with no liberty left and capture nothing.
    assert multi.legality(B, v("C4", 4)) == "suicide"
    # White C4 is fine: it captures the two black stones.
    multi_w = multi.copy()
    multi_w.pass_(B)
    assert names(multi_w.play(W, v("C4", 4)), 4) == {"A4", "B4"}


def test_setup_refuses_groups_without_liberties_and_changes_nothing() -> None:
    """Setup stones (SGF AB/AW, handicap) must leave every group a liberty; a refused setup
    leaves the board as it was."""
    b = Board(3)
    with pytest.raises(InvalidSetting, match="no liberties"):
        b.setup(black=[0], white=[1, 3])
    assert b.stones_bytes() == bytes(9) and b.to_move is B
    with pytest.raises(InvalidSetting, match="occupied"):
        b.setup(black=[0, 0])
    with pytest.raises(InvalidSetting, match="off the board"):
        b.setup(black=[9])
    b.setup(black=[4], to_move=W)
    assert b.color_at(4) is B and b.to_move is W and b.move_number == 0
    b.play(W, 0)
    with pytest.raises(InvalidSetting, match="before the first move"):
        b.setup(white=[8])


def test_r_end_1_two_consecutive_passes_are_counted() -> None:
    """R-END-1 (c), board part: the board tells how many passes end its history, so the
    referee can end the game at two in a row; a stone in between starts the count again."""
    b = Board(9)
    b.pass_(B)
    b.play(W, v("E5", 9))
    assert b.passes_in_a_row == 0
    b.pass_(B)
    assert b.passes_in_a_row == 1
    b.pass_(W)
    assert b.passes_in_a_row == 2


def test_r_end_2_after_a_proposed_end_play_goes_on() -> None:
    """R-END-2, board part: the proposer passes; an opponent who disagrees plays on, and the
    proposer has the move again."""
    b = Board(9)
    b.play(B, v("E5", 9))
    b.pass_(W)  # White proposes the end
    b.play(B, v("D5", 9))  # Black does not agree and plays on
    assert b.to_move is W and b.is_legal(W, v("C5", 9))


@pytest.mark.parametrize("point", [-1, -81, 81, 1000, 2.0, None, "A1"])
def test_points_off_the_board_are_refused(point: object) -> None:
    """R-BOARD-1: only the board's points can be played; anything else is ``off-board``."""
    b = Board(9)
    b.play(B, 80)  # so that a negative index would land on a stone
    with pytest.raises(IllegalMove, match="off-board"):
        b.play(W, point)  # type: ignore[arg-type]
    if point is not None:  # None is a pass for legality
        assert b.legality(W, point) == "off-board"  # type: ignore[arg-type]
    assert b.move_number == 1
