"""Replaying a record's main line under the rules (R-PLAY-1, R-KO-1, R-SUICIDE-1, R-HCP-2)."""

from __future__ import annotations

import pytest

from weiqi.errors import InputError
from weiqi.formats.sgf import read_sgf
from weiqi.formats.sgf_replay import ReplayError, first_player, replay, replay_legal
from weiqi.rules.color import Color
from weiqi.rules.vertex import parse_vertex


def sgf_moves(size: int, *vertices: str) -> str:
    """Alternating moves from Black, GTP vertices turned into SGF points (``pass`` → ``[]``)."""
    letters = "abcdefghijklmnopqrstuvwxy"
    nodes = []
    for i, vertex in enumerate(vertices):
        color = "BW"[i % 2]
        if vertex == "pass":
            nodes.append(f";{color}[]")
            continue
        point = parse_vertex(vertex, size)
        assert point is not None
        row, col = divmod(point, size)
        nodes.append(f";{color}[{letters[col]}{letters[size - 1 - row]}]")
    return "".join(nodes)


KO = ["B3", "C3", "A2", "D2", "B1", "C1", "E5", "B2", "C2"]


def test_legal_record_replays_to_its_final_position() -> None:
    game = read_sgf(f"(;SZ[5]{sgf_moves(5, *KO)})")
    result = replay(game)
    assert result.error is None and result.moves == 9
    assert result.board.color_at(parse_vertex("C2", 5) or 0) is Color.BLACK
    assert result.board.color_at(parse_vertex("B2", 5) or 0) is None  # captured


@pytest.mark.parametrize(
    ("moves", "error"),
    [
        ([*KO, "B2"], ReplayError(10, "B2", "ko")),
        (["A2", "E5", "B1", "A1"], ReplayError(4, "A1", "suicide")),
        (["C3", "C3"], ReplayError(2, "C3", "occupied")),
    ],
)
def test_r_ko_1_r_suicide_1_first_illegal_move_is_reported(
    moves: list[str], error: ReplayError
) -> None:
    """R-KO-1 (ko), R-SUICIDE-1 and occupied points: the first illegal move, counted from 1."""
    game = read_sgf(f"(;SZ[5]{sgf_moves(5, *moves)};B[aa])")
    result = replay(game)
    assert result.error == error
    assert result.moves == len(moves) + 1


def test_r_play_1_wrong_turn() -> None:
    """R-PLAY-1: players alternate, Black first on an empty board."""
    assert replay(read_sgf("(;SZ[5];B[cc];B[dd])")).error == ReplayError(2, "D2", "wrong-turn")
    assert replay(read_sgf("(;SZ[5];W[cc])")).error == ReplayError(1, "C3", "wrong-turn")


def test_off_board_move_is_reported_with_its_sgf_point() -> None:
    game = read_sgf("(;SZ[5];B[cc];W[zz])", keep_off_board=True)
    assert replay(game).error == ReplayError(2, "zz", "off-board")


def test_passes_are_moves() -> None:
    result = replay(read_sgf("(;SZ[5];B[];W[tt];B[cc])"))
    assert result.error is None and result.moves == 3


def test_r_hcp_2_handicap_stones_then_white_moves_first() -> None:
    """R-HCP-2: after the handicap stones (AB with HA) White moves first."""
    game = read_sgf("(;SZ[9]HA[2]AB[gc][cg];W[ee];B[dd])")
    assert first_player(game) is Color.WHITE
    result = replay(game)
    assert result.error is None
    assert sorted(result.board.list_stones(Color.BLACK)) == sorted(
        p for p in (parse_vertex(v, 9) for v in ("C3", "G7", "D6")) if p is not None
    )


@pytest.mark.parametrize(
    ("root", "player"),
    [("PL[B]AB[cc][gg]", Color.BLACK), ("AB[cc][gg]", Color.WHITE), ("AB[cc]AW[gg]", Color.BLACK)],
)
def test_first_player(root: str, player: Color) -> None:
    assert first_player(read_sgf(f"(;SZ[9]{root})")) is player


def test_setup_nodes_before_the_first_move_are_part_of_the_start() -> None:
    game = read_sgf("(;SZ[9];AB[cc][gg];AW[ee]AE[gg];B[dd])")
    result = replay(game)
    assert result.error is None
    assert len(result.board.list_stones(Color.BLACK)) == 2  # C7 and D6; G3 was emptied
    assert len(result.board.list_stones(Color.WHITE)) == 1


def test_pl_in_a_setup_node_decides_the_first_player() -> None:
    assert first_player(read_sgf("(;SZ[9];AB[cc]AW[gg]PL[W];W[dd])")) is Color.WHITE


def test_setup_during_the_game_is_refused() -> None:
    game = read_sgf("(;SZ[9];B[cc];AB[dd];W[ee])", source="g.sgf")
    with pytest.raises(InputError) as caught:
        replay(game)
    assert caught.value.message == (
        "g.sgf, node after move 1: setup stones (AB/AW/AE) during the game cannot be "
        "replayed under the rules"
    )


def test_impossible_setup_is_an_input_error() -> None:
    game = read_sgf("(;SZ[2]AB[aa][ab][ba][bb])", source="g.sgf")
    with pytest.raises(InputError) as caught:
        replay(game)
    assert caught.value.message == "g.sgf, setup stones: a group would have no liberties"


def test_replay_legal_names_file_move_vertex_and_reason() -> None:
    game = read_sgf(f"(;SZ[5]{sgf_moves(5, *KO, 'B2')})", source="ko.sgf")
    with pytest.raises(InputError) as caught:
        replay_legal(game)
    assert caught.value.message == "ko.sgf: move 10 at B2: ko"
