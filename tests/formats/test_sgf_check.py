"""``weiqi check``'s one-pass reader (issue #15): the same verdicts, notes and errors as the full
reader plus :func:`replay`, every game of a file, and the record defects of the issue."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weiqi.formats.sgf import read_sgf
from weiqi.formats.sgf_check import MAX_MOVES, GameCheck, check_sgf, check_sgf_slowly
from weiqi.formats.sgf_replay import ReplayError, first_player, replay
from weiqi.rules.color import Color

CORPUS = Path(__file__).resolve().parents[2] / "bench" / "data"


def outcome(games: list[GameCheck]) -> list[tuple[object, ...]]:
    return [
        (g.number, g.moves if g.failure is None else None, g.error, g.notes, str(g.failure))
        for g in games
    ]


def both(data: bytes | str) -> list[tuple[object, ...]]:
    raw = data.encode() if isinstance(data, str) else data
    fast = outcome(list(check_sgf(raw, source="g.sgf")))
    assert fast == outcome(list(check_sgf_slowly(raw, source="g.sgf")))
    return fast


def one(data: bytes | str) -> GameCheck:
    raw = data.encode() if isinstance(data, str) else data
    (game,) = check_sgf(raw, source="g.sgf")
    return game


@pytest.mark.parametrize(
    "path", sorted(CORPUS.glob("gnugo-19x19/*.sgf"))[:5] + sorted(CORPUS.glob("archive/*.sgf"))
)
def test_the_benchmark_corpus_reads_the_same_both_ways(path: Path) -> None:
    games = both(path.read_bytes())
    assert games and all(g[2] is None and g[4] == "None" for g in games)


@pytest.mark.parametrize(
    "record",
    [
        "(;SZ[9];B[ee];W[ee])",
        "(;SZ[9];B[ee];W[dd];B[ee])",
        "(;SZ[9];B[ee];B[dd])",
        "(;SZ[9]PL[W];W[ee];B[zz])",
        "(;SZ[9];B[ee]W[dd])",
        "(;SZ[9];B[ee][dd])",
        "(;SZ[9];B[e5])",
        "(;SZ[9];B[ee];AB[aa];W[dd])",
        "(;SZ[9];AB[aa]AW[ab][ba];B[cc])",
        "(;SZ[9];B[ee](;W[dd];B[zz])(;W[e5]))",
        "(;SZ[9]B[ee];W[dd])",
        "(;SZ[9];B[ee]BL[10]C[a;b(c)\\]];W[dd]WL[-1];B[cc]OB[x])",
        "(;SZ[9];B[ee] ; W [dd]\n;B[]\n;W[tt];B[cc])",
        "(;SZ[9];b[ee];White[dd])",
        "(;SZ[9];B[ee]",
        "(;SZ[9];B[ee]))",
        "(;SZ[9]()",
        "(;SZ[9];B[ee];W[dd]PL[X])",
        "(;SZ[9]HA[20];B[ee])",
        "(;SZ[9]GM[1]GM[1]KM[6.5]KM[0];B[ee])",
        "(;SZ[9];B[ee])(;SZ[5];B[cc];W[cc])junk ;B[aa]",
        "(;SZ[9];B[ee])(;SZ[99];B[cc])(;SZ[5];B[aa])",
        "(;SZ[9];B[ee])\n(;SZ[5];B[cc](;W[dd])(;W[zz]B[aa]))",
    ],
)
def test_awkward_records_read_the_same_both_ways(record: str) -> None:
    both(record)


POINT = st.text("abcdejstz", min_size=0, max_size=2)
NODE = st.one_of(
    st.builds(lambda c, p: f";{c}[{p}]", st.sampled_from("BW"), POINT),
    st.builds(
        lambda c, p, t: f";{c}[{p}]{c}L[{t}]",
        st.sampled_from("BW"),
        POINT,
        st.sampled_from(["10", "3.5", "x", "-1"]),
    ),
    st.builds(lambda c, p: f";A{c}[{p}]", st.sampled_from("BWE"), POINT),
    st.builds(lambda t: f";C[{t}]", st.sampled_from(["", "a;b", "(x)", "\\]"])),
    st.sampled_from([";PL[W]", ";PL[B]", ";PL[Q]", ";", ";B[aa]W[bb]"]),
)
TREE = st.recursive(
    st.lists(NODE, min_size=1, max_size=8).map("".join),
    lambda sub: st.builds(
        lambda seq, kids: seq + "".join(f"({k})" for k in kids),
        st.lists(NODE, min_size=1, max_size=4).map("".join),
        st.lists(sub, min_size=0, max_size=3),
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(
    root=st.sampled_from(["SZ[5]", "SZ[5]HA[2]AB[bb][dd]", "SZ[5]AB[cc]", "SZ[5]KM[0]PL[W]"]),
    tree=TREE,
    games=st.integers(1, 3),
    tail=st.sampled_from(["", "\n", " ;B[aa]", "(;"]),
)
def test_random_records_read_the_same_both_ways(
    root: str, tree: str, games: int, tail: str
) -> None:
    both(f"(;{root}{tree})" * games + tail)


SGF_CHARS = st.sampled_from(list("()[];\\:BWACKMSZHEabdtz9 \n中]"))


@settings(max_examples=300, deadline=None)
@given(st.text(SGF_CHARS, max_size=40))
def test_any_text_reads_the_same_both_ways(text: str) -> None:
    both(text)


def test_every_game_of_a_collection_is_checked() -> None:
    """Issue #15 (6): a multi-game file reports each of its games."""
    games = list(check_sgf(b"(;SZ[9];B[ee])\n(;SZ[9];B[ee];W[ee])\n(;SZ[9];B[aa];W[bb])"))
    assert [(g.number, g.moves, g.error) for g in games] == [
        (1, 1, None),
        (2, 2, ReplayError(2, "E5", "occupied")),
        (3, 2, None),
    ]


def test_an_unreadable_game_does_not_hide_the_next_one() -> None:
    games = list(check_sgf(b"(;SZ[9];B[e5])(;SZ[9];B[aa])", source="g.sgf"))
    assert games[0].failure is not None
    assert games[0].failure.message == "g.sgf, move 1: bad point 'e5' in B[e5]"
    assert (games[1].failure, games[1].moves) == (None, 1)


def test_a_syntax_error_names_line_and_column_in_a_later_game() -> None:
    games = list(check_sgf(b"(;SZ[9];B[aa])\n(;SZ[9];B[bb]\n;W[cc]", source="g.sgf"))
    assert games[1].failure is not None
    assert games[1].failure.message == (
        "g.sgf, line 3, column 7: the file ends inside the game; expected ')'"
    )


def test_r_play_1_setup_without_pl_first_move_says_who_moves() -> None:
    """Issue #15 (2): setup stones without PL, White moves first: legal (problems, 座子)."""
    record = "(;SZ[19]AB[pd][dp]AW[dd][pp];W[qf];B[nc])"
    assert one(record).error is None
    assert first_player(read_sgf(record)) is Color.WHITE
    assert replay(read_sgf(record)).error is None


def test_empty_board_white_first_is_still_wrong_turn() -> None:
    assert one("(;SZ[9];W[ee])").error == ReplayError(1, "E5", "wrong-turn")


def test_a_stone_on_an_occupied_point_is_occupied_whoever_moves() -> None:
    """Issue #15 (2): occupied outranks wrong-turn."""
    record = "(;SZ[9];B[ee];B[ee])"
    assert one(record).error == ReplayError(2, "E5", "occupied")
    assert replay(read_sgf(record)).error == ReplayError(2, "E5", "occupied")


def test_duplicated_root_properties_take_the_first_with_a_note() -> None:
    """Issue #15 (3): GM[1]GM[1] and two KM used to make the file unreadable."""
    game = read_sgf("(;GM[1]GM[1]FF[4]SZ[9]KM[6.5]KM[0];B[ee])")
    assert game.komi == 3.25
    assert game.notes == [
        "root node: GM[1][1] has 2 values; the first, GM[1], was used",
        "root node: KM[6.5][0] has 2 values; the first, KM[6.5], was used",
    ]
    assert one("(;GM[1]GM[1]SZ[9]KM[6.5]KM[0];B[ee])").failure is None


def test_a_truncated_utf8_name_is_replaced_with_a_note() -> None:
    """Issue #15 (4): Fox cuts names by bytes; the moves are ASCII."""
    data = "(;CA[UTF-8]SZ[19]PB[柯洁]PW[".encode() + "柯洁".encode()[:-1] + b"];B[pd])"
    game = read_sgf(data)
    assert game.black_player == "柯洁" and game.white_player == "柯\ufffd"
    assert game.notes == [
        "line 1, byte 33: not UTF-8 text as CA[UTF-8] says; the broken characters were "
        "replaced by \ufffd"
    ]
    assert one(data).failure is None and one(data).moves == 1


def test_latin1_without_ca_is_latin1() -> None:
    """Issue #15 (5): SGF's default charset; used to become GB18030 mojibake."""
    game = read_sgf("(;SZ[19]PB[Müller]PW[Gérard Ñoño];B[pd])".encode("latin-1"))
    assert (game.black_player, game.white_player) == ("Müller", "Gérard Ñoño")
    assert game.notes == ["no CA; the text was read as ISO-8859-1"]


def test_gb_without_ca_is_still_gb() -> None:
    game = read_sgf("(;SZ[19]PB[柯洁]PW[李喆];B[pd])".encode("gbk"))
    assert (game.black_player, game.white_player) == ("柯洁", "李喆")


def test_utf8_labelled_gb2312_is_utf8() -> None:
    """Issue #15 (5): Lizzie writes UTF-8 under CA[GB2312]; 柯洁 became 鏌…"""
    game = read_sgf("(;CA[GB2312]SZ[19]PB[柯洁];B[pd])".encode())
    assert game.black_player == "柯洁"
    assert game.notes == ["CA[GB2312] but the text is UTF-8; read as UTF-8"]


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_byte_order_mark(codec: str) -> None:
    """Issue #15 (5): used to be "no SGF game found"."""
    game = read_sgf("(;SZ[19]PB[柯洁];B[pd])".encode(codec))
    assert game.black_player == "柯洁"
    assert game.notes == [f"the file is {codec.upper()} text without a byte order mark"]


def test_ha_above_nine_is_refused_as_by_score() -> None:
    """Issue #15 (9): HA[20] passed check but failed score; both refuse it now."""
    failure = one("(;SZ[19]HA[20];W[pd])").failure
    assert failure is not None
    assert failure.message.startswith("g.sgf, HA[20]: must be 0 or 2 to 9 stones")


def test_invalid_pl_is_noted() -> None:
    game = read_sgf("(;SZ[9]PL[X];B[ee])")
    assert game.notes == ["root node: PL[X] names neither B nor W; ignored"]


def test_junk_after_the_last_game_is_noted() -> None:
    """Issue #15 (9): a cut or broken record after the last game; prose stays silent."""
    assert read_sgf("(;SZ[9];B[ee]) ;W[dd])").notes == [
        "text after the last game was ignored: ';W[dd])'"
    ]
    assert one("(;SZ[9];B[ee]) ;W[dd])").notes == [
        "text after the last game was ignored: ';W[dd])'"
    ]
    assert one("(;SZ[9];B[ee]) downloaded from somewhere").notes == []


def test_a_main_line_above_the_limit_is_refused() -> None:
    moves = "".join(";B[]" if i % 2 == 0 else ";W[]" for i in range(MAX_MOVES + 1))
    failure = one(f"(;SZ[9]{moves})").failure
    assert failure is not None
    assert failure.message == (
        f"g.sgf, move {MAX_MOVES + 1}: the main line has more than {MAX_MOVES:,} moves, the "
        "most this checker replays; the rest of the file was not read"
    )
