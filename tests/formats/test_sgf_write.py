"""Writing SGF: the properties we promise, round trips, and interop with sgfmill itself."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import sgf

from weiqi import __version__
from weiqi.errors import InputError
from weiqi.formats.sgf import Point, SgfGame, SgfMove, SgfNode, read_sgf, write_sgf
from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result


def root_properties(data: bytes) -> dict[str, str]:
    root = sgf.Sgf_game.from_bytes(data).get_root()
    return {ident: root.get_raw(ident).decode("utf-8") for ident in root.properties()}


def test_root_properties_written() -> None:
    game = SgfGame(
        size=19,
        komi=Fraction(15, 4),
        handicap=0,
        result=Result.by_count(Color.WHITE, Fraction(5, 4)),
        black_player="柯洁",
        white_player="朴廷桓",
        black_rank="九段",
        white_rank="9p",
        date="2024-01-02",
        event="农心杯",
        round="第3局",
        time_limit=7200,
        overtime="5x60 byo-yomi",
    )
    assert root_properties(write_sgf(game)) == {
        "FF": "4",
        "GM": "1",
        "CA": "UTF-8",
        "AP": f"weiqi:{__version__}",
        "SZ": "19",
        "KM": "7.5",
        "HA": "0",
        "RU": "Chinese",
        "RE": "W+2.5",
        "PB": "柯洁",
        "PW": "朴廷桓",
        "BR": "九段",
        "WR": "9p",
        "DT": "2024-01-02",
        "EV": "农心杯",
        "RO": "第3局",
        "TM": "7200",
        "OT": "5x60 byo-yomi",
    }


@pytest.mark.parametrize(
    ("stones", "km"),
    [
        (Fraction(15, 4), "7.5"),
        (Fraction(0), "0"),
        (Fraction(13, 4), "6.5"),
        (Fraction(-1, 2), "-1"),
        (Fraction(30), "60.0"),
    ],
)
def test_r_score_3_komi_written_in_points(stones: Fraction, km: str) -> None:
    """R-SCORE-3: komi in stones is written as KM in points (stones × 2)."""
    assert root_properties(write_sgf(SgfGame(komi=stones)))["KM"] == km


def test_unreadable_result_text_is_written_back_unchanged() -> None:
    game = read_sgf("(;SZ[9]RE[B+])")
    assert root_properties(write_sgf(game))["RE"] == "B+"


def test_result_value_wins_over_stale_text() -> None:
    game = read_sgf("(;SZ[9]RE[B+R])")
    game.result = Result.win(Color.WHITE, Reason.TIME)
    assert root_properties(write_sgf(game))["RE"] == "W+T"


def test_moves_passes_times_and_comments() -> None:
    game = SgfGame(size=9)
    game.root.setup_black = [(2, 2), (6, 6)]
    game.play(Color.WHITE, (4, 4), time_left=58.5, overtime_left=3)
    game.play(Color.BLACK, None, comment="虚着")
    node = game.play(Color.WHITE, (0, 8))
    node.add_comment("第3手: 白方警告一次 (R-PEN-1)")
    node.set_property("N", "判罚")
    nodes = sgf.Sgf_game.from_bytes(write_sgf(game)).get_main_sequence()
    raw = [{i: n.get_raw_list(i) for i in n.properties()} for n in nodes]
    assert raw[0]["AB"] == [b"cg", b"gc"]
    assert raw[1] == {"W": [b"ee"], "WL": [b"58.5"], "OW": [b"3"]}
    assert raw[2] == {"B": [b""], "C": ["虚着".encode()]}
    assert raw[3] == {
        "W": [b"ii"],
        "C": ["第3手: 白方警告一次 (R-PEN-1)".encode()],
        "N": ["判罚".encode()],
    }


def test_set_property_refuses_modelled_properties() -> None:
    with pytest.raises(ValueError, match="own field"):
        SgfNode().set_property("C", "use add_comment")
    with pytest.raises(ValueError, match="not an SGF property name"):
        SgfNode().set_property("bad name", "x")


def test_off_board_move_is_refused() -> None:
    game = SgfGame(size=9)
    with pytest.raises(InputError, match="off the 9×9 board"):
        game.play(Color.BLACK, (9, 0))


def test_writing_in_gb18030_for_old_chinese_software() -> None:
    game = SgfGame(black_player="李喆", white_player="陈耀烨")
    data = write_sgf(game, encoding="GB18030")
    assert "李喆".encode("gb18030") in data
    assert b"CA[GB18030]" in data
    assert read_sgf(data).black_player == "李喆"


def test_writing_in_a_charset_that_cannot_hold_the_names_fails_clearly() -> None:
    with pytest.raises(InputError, match="cannot be written in ISO-8859-1"):
        write_sgf(SgfGame(black_player="古力"), encoding="latin-1")


def test_read_write_read_keeps_variations_setup_and_extras() -> None:
    text = (
        "(;GM[1]FF[4]SZ[13]KM[375]RU[Chinese]GN[对局]AB[dd][jj]C[开始]"
        "(;W[gg]WL[100]OW[5];B[]TR[aa](;W[cc]LB[dd:甲])(;W[kk]C[a\\]b]))"
        "(;W[dj];AE[dd]AW[dd]))"
    )
    first = read_sgf(text)
    again = read_sgf(write_sgf(first))
    assert shape(again.root) == shape(first.root)
    assert again.komi == first.komi == Fraction(15, 4)
    assert again.root.extra == {"GN": ["对局"]}
    assert again.notes == []


def shape(node: SgfNode) -> object:
    """Everything a node holds, recursively (the records here are short)."""
    return (
        node.move,
        node.setup_black,
        node.setup_white,
        node.setup_empty,
        node.comment,
        node.black_time_left,
        node.white_time_left,
        node.black_overtime_left,
        node.white_overtime_left,
        node.extra,
        [shape(child) for child in node.children],
    )


# -- property tests -----------------------------------------------------------------------------

COMMENT_TEXT = st.text(
    st.sampled_from(list("abc []\\:;()\n中文黑白 ")),
    min_size=1,
    max_size=12,
)

# SimpleText (PB, PW, …) maps a newline to a space by the SGF spec, so names have none.
NAME_TEXT = st.text(st.sampled_from(list("ab []\\:中文 ")), min_size=1, max_size=12)


@st.composite
def games(draw: st.DrawFn) -> tuple[SgfGame, list[tuple[SgfMove, str | None, float | None]]]:
    size = draw(st.integers(2, 25))
    points = st.tuples(st.integers(0, size - 1), st.integers(0, size - 1))
    moves = draw(
        st.lists(
            st.tuples(
                st.sampled_from(Color),
                st.none() | points,
                st.none() | COMMENT_TEXT,
                st.none() | st.integers(0, 36000).map(lambda t: t / 10),
            ),
            max_size=40,
        )
    )
    game = SgfGame(
        size=size,
        komi=draw(st.none() | st.integers(-200, 200).map(lambda q: Fraction(q, 4))),
        handicap=draw(st.none() | st.integers(0, min(9, size * size))),
        black_player=draw(st.none() | NAME_TEXT),
        white_player=draw(st.none() | NAME_TEXT),
    )
    game.root.setup_black = sorted(set(draw(st.lists(points, max_size=5))))
    expected = []
    for color, point, comment, seconds in moves:
        game.play(color, point, comment=comment, time_left=seconds)
        expected.append((SgfMove(color, point), comment, seconds))
    return game, expected


@settings(max_examples=60, deadline=None)
@given(games())
def test_round_trip_random_records(
    case: tuple[SgfGame, list[tuple[SgfMove, str | None, float | None]]],
) -> None:
    """Random move lists (any size, passes, comments with brackets and Chinese) survive
    write → read unchanged."""
    game, expected = case
    back = read_sgf(write_sgf(game))
    got = []
    for node in back.main_line():
        assert node.move is not None
        mover_time = (
            node.black_time_left if node.move.color is Color.BLACK else node.white_time_left
        )
        got.append((node.move, node.comment, mover_time))
    assert got == expected
    assert back.size == game.size
    assert back.komi == game.komi
    assert back.handicap == game.handicap
    assert (back.black_player, back.white_player) == (game.black_player, game.white_player)
    assert back.root.setup_black == game.root.setup_black
    assert back.notes == []


@settings(max_examples=40, deadline=None)
@given(games())
def test_sgfmill_reads_what_we_write(
    case: tuple[SgfGame, list[tuple[SgfMove, str | None, float | None]]],
) -> None:
    game, expected = case
    theirs = sgf.Sgf_game.from_bytes(write_sgf(game))
    assert theirs.get_size() == game.size
    moves = [node.get_move() for node in theirs.get_main_sequence()[1:]]
    assert moves == [(m.color.value.lower(), m.point) for m, _, _ in expected]
    if game.komi is not None:
        assert Fraction(theirs.get_komi()) == game.komi * 2


def test_we_read_what_sgfmill_writes() -> None:
    theirs = sgf.Sgf_game(size=13)
    theirs.root.set("KM", 7.5)
    theirs.root.set("PB", "常昊")
    theirs.root.set_setup_stones([(3, 3)], [(9, 9)])
    for color, move in [("w", (6, 6)), ("b", None), ("w", (0, 12))]:
        theirs.extend_main_sequence().set_move(color, move)
    ours = read_sgf(theirs.serialise())
    assert ours.komi == Fraction(15, 4)
    assert ours.black_player == "常昊"
    assert (ours.root.setup_black, ours.root.setup_white) == ([(3, 3)], [(9, 9)])
    assert [str(m) for m in ours.moves()] == ["W G7", "B pass", "W N1"]


def test_main_line_points_are_listed_in_the_given_orientation() -> None:
    point: Point = (0, 0)
    game = SgfGame(size=5)
    game.play(Color.BLACK, point)
    assert b";B[ae]" in write_sgf(game)


@st.composite
def trees(draw: st.DrawFn) -> SgfGame:
    """A random tree: each node a move, a setup or a comment, with up to three children."""
    size = draw(st.integers(2, 19))
    points = st.tuples(st.integers(0, size - 1), st.integers(0, size - 1))
    game = SgfGame(size=size)
    frontier = [game.root]
    for _ in range(draw(st.integers(0, 25))):
        parent = draw(st.sampled_from(frontier))
        if len(parent.children) >= 3:
            continue
        node = parent.add_child()
        kind = draw(st.sampled_from(["move", "setup", "comment"]))
        if kind == "move":
            node.move = SgfMove(draw(st.sampled_from(Color)), draw(st.none() | points))
        elif kind == "setup":
            node.setup_black = sorted(set(draw(st.lists(points, min_size=1, max_size=3))))
            node.setup_white = sorted(
                set(draw(st.lists(points, max_size=3))) - set(node.setup_black)
            )
        else:
            node.add_comment(draw(COMMENT_TEXT))
        frontier.append(node)
    return game


@settings(max_examples=60, deadline=None)
@given(trees())
def test_round_trip_random_trees(game: SgfGame) -> None:
    """Variations survive write → read: the same tree, node for node."""
    assert shape(read_sgf(write_sgf(game)).root) == shape(game.root)
