"""Reading SGF records: game information, moves, setup, variations, encodings, notes."""

from __future__ import annotations

from fractions import Fraction

import pytest

from weiqi.clock.control import TimeControl
from weiqi.clock.notation import sgf_properties
from weiqi.errors import InputError
from weiqi.formats.overtime import Overtime, OvertimeKind
from weiqi.formats.sgf import SgfGame, SgfMove, on_board, read_sgf, sgf_point, write_sgf
from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result

# A Chinese-rules game header as Chinese software writes it (names in Chinese, komi in points).
CHINESE_GAME = """\
(;GM[1]FF[4]CA[UTF-8]AP[某软件:1.0]SZ[19]KM[7.5]HA[0]RU[Chinese]
PB[柯洁]BR[九段]PW[申真谞]WR[9p]DT[2023-05-28]EV[第28届LG杯]RO[决赛第1局]
PC[北京]TM[10800]OT[5x60 byo-yomi]RE[黑胜3/4子]
;B[pd]BL[10795.5]C[开局]
;W[dp]WL[10790]
;B[pq];W[dd]
)"""


def test_game_information_is_typed() -> None:
    game = read_sgf(CHINESE_GAME)
    assert game.size == 19
    assert game.komi == Fraction(15, 4)
    assert game.handicap == 0
    assert game.rules == "Chinese"
    assert (game.black_player, game.black_rank) == ("柯洁", "九段")
    assert (game.white_player, game.white_rank) == ("申真谞", "9p")
    assert (game.date, game.event, game.round) == ("2023-05-28", "第28届LG杯", "决赛第1局")
    assert game.time_limit == 10800
    assert game.overtime == "5x60 byo-yomi"
    assert game.overtime_rule == Overtime(OvertimeKind.BYO_YOMI, 60, periods=5)
    assert game.result == Result.by_count(Color.BLACK, Fraction(3, 4))
    assert game.result_text == "黑胜3/4子"
    assert game.root.extra["PC"] == ["北京"]
    assert game.notes == []


def test_main_line_moves_with_times_and_comments() -> None:
    game = read_sgf(CHINESE_GAME)
    assert game.moves() == [
        SgfMove(Color.BLACK, (15, 15)),
        SgfMove(Color.WHITE, (3, 3)),
        SgfMove(Color.BLACK, (2, 15)),
        SgfMove(Color.WHITE, (15, 3)),
    ]
    first, second = game.main_line()[:2]
    assert first.black_time_left == 10795.5 and first.comment == "开局"
    assert second.white_time_left == 10790 and second.comment is None


def test_points_are_row_col_from_the_bottom_left() -> None:
    """sgf 'aa' is the top-left corner: A19 on 19×19, i.e. row 18, column 0."""
    game = read_sgf("(;SZ[19];B[aa];W[as];B[sa];W[ss])")
    assert [m.point for m in game.moves()] == [(18, 0), (0, 0), (18, 18), (0, 18)]
    assert [str(m) for m in game.moves()] == ["B A19", "W A1", "B T19", "W T1"]


def test_r_play_2_passes_written_as_empty_or_tt() -> None:
    """R-PLAY-2: a pass is ``B[]`` (FF[4]) or ``B[tt]`` (FF[3]) on boards up to 19×19."""
    game = read_sgf("(;SZ[19];B[];W[tt];B[dd])")
    assert [m.point for m in game.moves()] == [None, None, (15, 3)]
    assert game.moves()[0].is_pass


def test_tt_is_a_point_on_boards_above_19() -> None:
    game = read_sgf("(;SZ[21];B[tt])")
    assert game.moves()[0].point == (1, 19)


@pytest.mark.parametrize(
    ("km", "extra", "stones"),
    [
        ("7.5", "", Fraction(15, 4)),  # points, the SGF standard
        ("6.5", "", Fraction(13, 4)),
        ("0", "", Fraction(0)),
        ("0.5", "", Fraction(1, 4)),
        ("-7.5", "", Fraction(-15, 4)),
        ("375", "RU[Chinese]", Fraction(15, 4)),  # Fox: hundredths of a stone
        ("375", "", Fraction(15, 4)),
        ("325", "RU[cn]", Fraction(13, 4)),
        ("650", "RU[Japanese]", Fraction(13, 4)),  # hundredths of a point under other rules
        ("7,5", "", Fraction(15, 4)),
        ("51", "", Fraction(51, 2)),  # not a multiple of 25: points, as the spec says
        ("60.0", "", Fraction(30)),  # a decimal point: points
    ],
)
def test_r_score_3_komi_is_read_in_stones(km: str, extra: str, stones: Fraction) -> None:
    """R-SCORE-3: komi is kept in stones; KM in points is halved, Fox's KM[375] is 3¾ stones."""
    game = read_sgf(f"(;SZ[19]KM[{km}]{extra})")
    assert game.komi == stones


def test_hundredths_komi_is_noted() -> None:
    game = read_sgf("(;SZ[19]KM[375]RU[Chinese])")
    assert game.notes == ["KM[375] read as hundredths of a stone: komi 3.75 stones"]


def test_missing_komi_is_none() -> None:
    assert read_sgf("(;SZ[9])").komi is None


def test_setup_stones_at_the_root_and_in_nodes() -> None:
    game = read_sgf("(;SZ[9]HA[2]AB[cc][gg]AW[aa:bb];W[ee];AE[cc]AB[dd];B[ff])")
    assert game.handicap == 2
    assert game.root.setup_black == [(2, 6), (6, 2)]
    assert game.root.setup_white == [(7, 0), (7, 1), (8, 0), (8, 1)]  # compressed list
    setup = game.main_line()[1]
    assert setup.move is None and setup.has_setup
    assert setup.setup_empty == [(6, 2)] and setup.setup_black == [(5, 3)]
    assert [str(m) for m in game.moves()] == ["W E5", "B F4"]


def test_variations_are_kept_as_a_tree() -> None:
    game = read_sgf("(;SZ[9];B[ee](;W[cc];B[gg])(;W[gg]C[变化];B[cc](;W[dd])(;W[ff])))")
    assert [str(m) for m in game.moves()] == ["B E5", "W C7", "B G3"]
    first = game.root.children[0]
    assert len(first.children) == 2
    variation = first.children[1]
    assert variation.comment == "变化"
    assert variation.move == SgfMove(Color.WHITE, (2, 6))
    assert [str(c.move) for c in variation.children[0].children] == ["W D6", "W F4"]
    assert len(list(game.iter_nodes())) == 8


def test_other_properties_are_kept_as_text() -> None:
    game = read_sgf(r"(;SZ[9]GN[名局]XX[private\]value];B[ee]TR[aa][bb]LB[cc:甲]N[第一手])")
    assert game.root.extra == {"GN": ["名局"], "XX": ["private]value"]}
    node = game.main_line()[0]
    assert node.extra == {"TR": ["aa", "bb"], "LB": ["cc:甲"], "N": ["第一手"]}


def test_comments_unescape_brackets_and_backslashes() -> None:
    game = read_sgf("(;SZ[9];B[ee]C[a \\] b \\\\ c\nsecond line])")
    assert game.main_line()[0].comment == "a ] b \\ c\nsecond line"


@pytest.mark.parametrize(
    ("re_text", "expected"),
    [
        ("B+R", Result.win(Color.BLACK, Reason.RESIGNATION)),
        ("W+Resign", Result.win(Color.WHITE, Reason.RESIGNATION)),
        ("B+1.5", Result.by_count(Color.BLACK, Fraction(3, 4))),
        ("W+T", Result.win(Color.WHITE, Reason.TIME)),
        ("0", Result.draw()),
        ("Void", Result.no_result()),
        ("黑中盘胜", Result.win(Color.BLACK, Reason.RESIGNATION)),
        ("白胜1又1/4子", Result.by_count(Color.WHITE, Fraction(5, 4))),
        ("白胜2子", Result.by_count(Color.WHITE, Fraction(2))),
        ("黑胜2.5目", Result.by_count(Color.BLACK, Fraction(5, 4))),
        ("白超时胜", Result.win(Color.WHITE, Reason.TIME)),
        ("和棋", Result.draw()),
    ],
)
def test_r_score_4_results_are_parsed(re_text: str, expected: Result) -> None:
    """R-SCORE-4: RE in SGF or Chinese notation becomes one Result."""
    game = read_sgf(f"(;SZ[19]RE[{re_text}])")
    assert game.result == expected
    assert game.result_text == re_text
    assert game.notes == []


@pytest.mark.parametrize("re_text", ["W+0.7", "black won", "黑胜了"])
def test_unreadable_result_is_kept_as_text_and_noted(re_text: str) -> None:
    game = read_sgf(f"(;SZ[9]RE[{re_text}];B[ee])")
    assert game.result is None
    assert game.result_text == re_text
    assert game.notes == [f"RE[{re_text}]: not a result this program reads; kept as text"]
    assert len(game.moves()) == 1


def test_unknown_result_question_mark_is_not_a_problem() -> None:
    game = read_sgf("(;SZ[9]RE[?])")
    assert game.result is None and game.notes == []


@pytest.mark.parametrize(
    ("ot", "expected"),
    [
        ("5x60 byo-yomi", Overtime(OvertimeKind.BYO_YOMI, 60, periods=5)),
        ("3次30秒", Overtime(OvertimeKind.BYO_YOMI, 30, periods=3)),
        ("5x60", Overtime(OvertimeKind.BYO_YOMI, 60, periods=5)),
        ("25/600 Canadian", Overtime(OvertimeKind.CANADIAN, 600, stones=25)),
    ],
)
def test_r_time_2_overtime_is_parsed(ot: str, expected: Overtime) -> None:
    """R-TIME-2 / R-TIME-4: OT is kept raw and read as byo-yomi periods or Canadian stones."""
    game = read_sgf(f"(;SZ[19]TM[3600]OT[{ot}])")
    assert game.overtime == ot
    assert game.overtime_rule == expected


def test_unknown_overtime_is_kept_and_noted() -> None:
    game = read_sgf("(;SZ[19]OT[hourglass])")
    assert game.overtime == "hourglass" and game.overtime_rule is None
    assert game.notes == ["OT[hourglass]: overtime of an unknown form; kept as text"]


def test_per_move_time_left_and_overtime_counts() -> None:
    game = read_sgf("(;SZ[9];B[ee]BL[30.5]OB[3];W[cc]WL[60]OW[25])")
    black, white = game.main_line()
    assert (black.black_time_left, black.black_overtime_left) == (30.5, 3)
    assert (white.white_time_left, white.white_overtime_left) == (60, 25)


def test_unreadable_time_left_is_noted_not_fatal() -> None:
    game = read_sgf("(;SZ[9];B[ee]BL[soon])")
    node = game.main_line()[0]
    assert node.black_time_left is None
    assert node.extra == {"BL": ["soon"]}
    assert game.notes == ["move 1: BL[soon] is not a number of seconds; kept as text"]


# -- encodings ----------------------------------------------------------------------------------


def test_gb2312_file_is_decoded_by_its_ca() -> None:
    data = "(;CA[gb2312]SZ[19]PB[古力]PW[常昊];B[pd])".encode("gb2312")
    game = read_sgf(data)
    assert (game.black_player, game.white_player) == ("古力", "常昊")
    assert game.notes == []


def test_gbk_characters_under_a_gb2312_label_are_read() -> None:
    """喆 (as in 李喆) is in GBK but not in GB2312; Chinese software writes it under CA[GB2312]."""
    with pytest.raises(UnicodeEncodeError):
        "喆".encode("gb2312")
    data = "(;CA[GB2312]SZ[19]PB[李喆];B[pd])".encode("gbk")
    assert read_sgf(data).black_player == "李喆"


def test_utf8_without_ca_is_read_as_utf8() -> None:
    game = read_sgf("(;SZ[19]PB[聂卫平])".encode())
    assert game.black_player == "聂卫平" and game.notes == []


def test_gbk_without_ca_is_guessed_and_noted() -> None:
    game = read_sgf("(;SZ[19]PB[聂卫平])".encode("gbk"))
    assert game.black_player == "聂卫平"
    assert game.notes == ["no CA; the text was read as GB18030"]


def test_utf8_mislabelled_as_latin1_is_read_as_utf8() -> None:
    game = read_sgf("(;CA[ISO-8859-1]SZ[19]PB[马晓春])".encode())
    assert game.black_player == "马晓春"
    assert game.notes == ["CA[ISO-8859-1] but the text is UTF-8; read as UTF-8"]


def test_latin1_file_is_read_as_latin1() -> None:
    game = read_sgf("(;CA[ISO-8859-1]SZ[19]PB[Müller])".encode("latin-1"))
    assert game.black_player == "Müller" and game.notes == []


def test_gbk_mislabelled_as_utf8_is_read_and_noted() -> None:
    game = read_sgf("(;CA[UTF-8]SZ[19]PB[范廷钰])".encode("gbk"))
    assert game.black_player == "范廷钰"
    assert game.notes == ["CA[UTF-8] does not fit the bytes; read as GB18030"]


def test_utf8_bom_is_skipped() -> None:
    assert read_sgf(b"\xef\xbb\xbf(;SZ[9]PB[\xe5\x8f\xa4])").black_player == "古"


def test_off_board_moves_can_be_kept_for_a_checker() -> None:
    """``weiqi check`` reports an off-board move as illegal instead of refusing the file."""
    game = read_sgf("(;SZ[9];B[ee];W[zz];B[jj];W[tt])", keep_off_board=True)
    points = [m.point for m in game.moves()]
    assert points == [(4, 4), (-17, 25), (-1, 9), None]
    assert [on_board(p, 9) for p in points[:3]] == [True, False, False]
    assert [sgf_point(p, 9) for p in points] == ["ee", "zz", "jj", ""]


def test_kept_off_board_moves_are_still_refused_when_written() -> None:
    game = read_sgf("(;SZ[9];B[zz])", keep_off_board=True)
    with pytest.raises(InputError, match="off the 9×9 board"):
        write_sgf(game)


def test_a_move_in_the_root_node_becomes_the_first_move() -> None:
    game = read_sgf("(;SZ[9]PB[古力]B[ee]BL[60];W[cc])")
    assert [str(m) for m in game.moves()] == ["B E5", "W C7"]
    assert game.main_line()[0].black_time_left == 60
    assert game.root.move is None and game.black_player == "古力"
    assert game.notes == ["the root node holds a move; it is read as the first move"]


def test_bom_with_undecodable_bytes_is_an_input_error() -> None:
    with pytest.raises(InputError, match="not UTF-8 text"):
        read_sgf(b"\xef\xbb\xbf(;SZ[9]PB[\xff\xfe\xff])")


def test_ca_is_not_found_inside_another_property_name() -> None:
    game = read_sgf("(;XCA[ISO-8859-1]SZ[9]PB[古力])".encode("gbk"))
    assert game.black_player == "古力"


@pytest.mark.parametrize(
    ("tm", "ot", "expected"),
    [
        ("3300", "5x60 byo-yomi", TimeControl.chinese(3600)),
        ("3300", "5次1分钟", TimeControl.chinese(3600)),
        ("0", "3x30 byo-yomi", TimeControl.byo_yomi(0, 3, 30)),
        (
            "3600",
            "15/600 Canadian carry-over",
            TimeControl.moves_per_period(3600, 15, 600, carry_over=True),
        ),
        ("1800", "25手10分钟", TimeControl.moves_per_period(1800, 25, 600, carry_over=False)),
        ("600", None, TimeControl.absolute(600)),
        ("300", "10 fischer", TimeControl.fischer(300, 10)),
    ],
)
def test_r_time_2_r_time_4_time_control_from_tm_and_ot(
    tm: str, ot: str | None, expected: TimeControl
) -> None:
    """R-TIME-1/2/4: TM and OT, Chinese forms included, become the clock's time control."""
    game = read_sgf(f"(;SZ[19]TM[{tm}]" + (f"OT[{ot}]" if ot else "") + ")")
    assert game.time_control() == expected


def test_clock_notation_round_trips_through_the_sgf_file() -> None:
    """What the clock writes as TM/OT reads back, through our SGF, as the same time control."""
    controls = [
        TimeControl.chinese(3600),
        TimeControl.byo_yomi(0, 3, 30),
        TimeControl.moves_per_period(3600, 15, 600, carry_over=True),
        TimeControl.moves_per_period(1800, 25, 300, carry_over=False),
        TimeControl.fischer(300, 10),
        TimeControl.absolute(5400),
        TimeControl.untimed(),
    ]
    for control in controls:
        props = sgf_properties(control)
        game = SgfGame(
            time_limit=float(props["TM"]) if "TM" in props else None,
            overtime=props.get("OT"),
        )
        back = read_sgf(write_sgf(game))
        assert back.notes == []
        assert back.time_control() == control


def test_unknown_overtime_has_no_time_control() -> None:
    game = read_sgf("(;SZ[19]TM[600]OT[hourglass])")
    with pytest.raises(InputError, match="OT 'hourglass'"):
        game.time_control()
