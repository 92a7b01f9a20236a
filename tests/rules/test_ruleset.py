"""Ruleset values and handicap placement (R-HCP-1/2, R-KO-2 settings, R-BOARD-2)."""

from __future__ import annotations

import subprocess
from fractions import Fraction

import pytest

from tests.programs import GNUGO
from weiqi.errors import InvalidSetting
from weiqi.rules.board import Board
from weiqi.rules.color import Color
from weiqi.rules.handicap import fixed_handicap_points, max_fixed_handicap
from weiqi.rules.ruleset import CyclePolicy, HandicapPlacement, IllegalMoves, Ruleset
from weiqi.rules.vertex import format_vertex, parse_vertex


def test_chinese_preset_is_the_written_rules() -> None:
    """R-SCORE-3, R-KO-2: 19×19, komi 3¾ stones, every repetition banned, no handicap."""
    r = Ruleset.chinese()
    assert (r.board_size, r.komi, r.cycle, r.handicap) == (19, Fraction(15, 4), CyclePolicy.BAN, 0)
    assert r.handicap_placement is HandicapPlacement.FIXED and r.play_mode is IllegalMoves.ONLINE
    assert r.black_threshold == Fraction(737, 4)


def test_r_hcp_1_no_komi_preset() -> None:
    """R-HCP-1: 让先 is Black without komi."""
    assert Ruleset.no_komi(9).komi == 0
    assert Ruleset.no_komi(9).black_threshold == Fraction(81, 2)


def test_r_hcp_2_handicap_preset() -> None:
    """R-HCP-2: N stones, no komi, compensation N/2 stones."""
    for n in range(2, 10):
        r = Ruleset.handicap_game(n)
        assert r.komi == 0 and r.handicap_compensation == Fraction(n, 2)
        assert r.black_threshold == Fraction(361, 2) + Fraction(n, 2)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"board_size": 1}, "board_size"),
        ({"board_size": 26}, "board_size"),
        ({"board_size": "19"}, "board_size"),
        ({"komi": Fraction(1, 3)}, "komi"),
        ({"komi": "lots"}, "komi"),
        ({"komi": 400}, "komi"),
        ({"cycle": "forever"}, "cycle"),
        ({"handicap": 1}, "handicap"),
        ({"handicap": 10}, "handicap"),
        ({"handicap_placement": "anywhere"}, "handicap_placement"),
        ({"play_mode": "lenient"}, "play_mode"),
        ({"board_size": 8, "handicap": 5}, "handicap"),
    ],
)
def test_invalid_settings_name_the_field(changes: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidSetting) as err:
        Ruleset().with_(**changes)
    assert err.value.field == field


def test_settings_accept_their_text_forms() -> None:
    """R-KO-2: the cycle policy is one of ban | no_result | draw | replay."""
    r = Ruleset(komi="3.75", cycle="no_result", handicap_placement="free", play_mode="strict")  # type: ignore[arg-type]
    assert r.komi == Fraction(15, 4) and r.cycle is CyclePolicy.NO_RESULT
    assert Ruleset(board_size=8, handicap=5, handicap_placement="free").handicap == 5  # type: ignore[arg-type]
    assert [c.value for c in CyclePolicy] == ["ban", "no_result", "draw", "replay"]


def test_r_hcp_2_handicap_stones_and_white_moves_next() -> None:
    """R-HCP-2: fixed handicap goes on the star points; free placement is Black's choice;
    White moves next either way."""
    b = Board.from_ruleset(Ruleset.handicap_game(9))
    assert sorted(format_vertex(p, 19) for p in b.list_stones(Color.BLACK)) == sorted(
        ["D4", "K4", "Q4", "D10", "K10", "Q10", "D16", "K16", "Q16"]
    )
    assert b.to_move is Color.WHITE and b.move_number == 0
    free = Board.from_ruleset(Ruleset.handicap_game(3, placement=HandicapPlacement.FREE))
    assert free.list_stones(Color.BLACK) == [] and free.to_move is Color.BLACK
    points = [parse_vertex(v, 19) for v in ("C3", "R17", "K10")]
    free.place_handicap([p for p in points if p is not None])
    assert len(free.list_stones(Color.BLACK)) == 3 and free.to_move is Color.WHITE
    with pytest.raises(InvalidSetting):
        free.place_handicap([0, 1])
    with pytest.raises(InvalidSetting):
        Board(19).place_handicap([0])


def test_r_hcp_2_fixed_points_on_9_13_19() -> None:
    """R-HCP-2: the standard points of 2…9 stones (GTP v2 §4.1.1)."""
    expected_19 = {
        2: "D4 Q16",
        3: "D4 Q16 D16",
        4: "D4 Q16 D16 Q4",
        5: "D4 Q16 D16 Q4 K10",
        6: "D4 Q16 D16 Q4 D10 Q10",
        7: "D4 Q16 D16 Q4 D10 Q10 K10",
        8: "D4 Q16 D16 Q4 D10 Q10 K4 K16",
        9: "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10",
    }
    for n, names in expected_19.items():
        got = {format_vertex(p, 19) for p in fixed_handicap_points(n, 19)}
        assert got == set(names.split())
    assert {format_vertex(p, 9) for p in fixed_handicap_points(4, 9)} == {"C3", "G3", "C7", "G7"}
    assert {format_vertex(p, 13) for p in fixed_handicap_points(2, 13)} == {"D4", "K10"}
    assert max_fixed_handicap(6) == 0
    with pytest.raises(InvalidSetting):
        fixed_handicap_points(1, 19)


@pytest.mark.gnugo
def test_r_hcp_2_fixed_handicap_matches_gnu_go() -> None:
    """R-HCP-2: our placement and order equal GNU Go's ``fixed_handicap`` on every size."""
    commands = []
    cases = []
    for size in range(7, 20):
        for n in range(2, max_fixed_handicap(size) + 1):
            commands += [f"boardsize {size}", "clear_board", f"fixed_handicap {n}"]
            cases.append((size, n))
    out = subprocess.run(
        [GNUGO, "--mode", "gtp"],
        input="\n".join(commands) + "\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    answers = [block.strip() for block in out.split("\n\n") if block.strip()]
    placements = answers[2::3][: len(cases)]
    assert len(placements) == len(cases)
    for (size, n), answer in zip(cases, placements, strict=True):
        ours = " ".join(format_vertex(p, size) for p in fixed_handicap_points(n, size))
        assert answer == f"= {ours}", (size, n)
