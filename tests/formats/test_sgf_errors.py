"""Malformed SGF: one InputError naming where it went wrong, never another exception."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from weiqi.errors import InputError
from weiqi.formats.sgf import read_sgf


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("", "g.sgf: no SGF game found: expected '(;' to start one"),
        ("just some text", "g.sgf: no SGF game found: expected '(;' to start one"),
        (
            "(;SZ[9];B[ee]",
            "g.sgf, line 1, column 14: the file ends inside the game; expected ')'",
        ),
        (
            "(;SZ[9]\n;B[ee]\n;W[dd",
            "g.sgf, line 3, column 3: a property value '[' that is never closed by ']'",
        ),
        (
            "(;SZ[9];B[ee]}W[dd])",
            "g.sgf, line 1, column 14: unexpected '}'; "
            "expected a property name, '[', ';', '(' or ')'",
        ),
        (
            "(;SZ[9]\n;B[ee]\n;W\n;B[cc])",
            "g.sgf, line 3, column 2: property W has no value; expected '[' after it",
        ),
        (
            "(;SZ[9](;B[aa]);W[bb])",
            "g.sgf, line 1, column 16: a node ';' after ')'; expected '(' or ')'",
        ),
        ("(;SZ[9]())", "g.sgf, line 1, column 9: an empty game tree; expected ';' after '('"),
        (
            "(;SZ[9];[aa])",
            "g.sgf, line 1, column 9: a property value '[…]' without a property name before it",
        ),
        (
            "(;SZ[9];B[aa]\n;W[bb]\n;B[cc]中文]",
            "g.sgf, line 3, column 7: unexpected '中'; "
            "expected a property name, '[', ';', '(' or ')'",
        ),
        ("(;SZ[9];B[aa][bb])", "g.sgf, move 1: B[aa][bb]: a move has exactly one point"),
        ("(;SZ[9];B[aa]W[bb])", "g.sgf, move 1: a node holds both B and W moves"),
        ("(;SZ[9];B[ee];W[zz])", "g.sgf, move 2: bad point 'zz' in W[zz]"),
        ("(;SZ[19];B[pd];W[tt];B[j])", "g.sgf, move 3: bad point 'j' in B[j]"),
        ("(;SZ[9];B[ee];C[x];W[EE])", "g.sgf, move 2: bad point 'EE' in W[EE]"),
        (
            "(;SZ[9];B[aa](;W[bb])(;W[cc];B[qq]))",
            "g.sgf, move 3 (in a variation): bad point 'qq' in B[qq]",
        ),
        ("(;SZ[9];AB[aa][zz])", "g.sgf, node before the first move: bad point 'zz' in AB[aa][zz]"),
        ("(;SZ[9];B[aa];AW[bb:zz])", "g.sgf, node after move 1: bad point 'bb:zz' in AW[bb:zz]"),
        ("(;SZ[9]AB[jj])", "g.sgf, root node: bad point 'jj' in AB[jj]"),
        ("(;SZ[30])", "g.sgf, root node: SZ[30]: board size must be 2 to 25"),
        ("(;SZ[1])", "g.sgf, root node: SZ[1]: board size must be 2 to 25"),
        ("(;SZ[9:11])", "g.sgf, root node: SZ[9:11]: rectangular boards are not supported"),
        ("(;SZ[x])", "g.sgf, root node: SZ[x] is not a board size"),
        ("(;GM[2])", "g.sgf, root node: GM[2]: not a game of Go (GM[1])"),
        ("(;KM[seven])", "g.sgf, root node: KM[seven] is not a number"),
        ("(;HA[x])", "g.sgf, root node: HA[x] is not a number of stones"),
        ("(;HA[-2])", "g.sgf, root node: HA[-2] is not a number of handicap stones"),
    ],
)
def test_malformed_input_names_the_place(data: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        read_sgf(data, source="g.sgf")
    assert caught.value.message == message


def test_undecodable_bytes_name_line_and_byte() -> None:
    data = b"(;CA[UTF-8]SZ[9]\nPB[\xff\xff];B[ee])"
    with pytest.raises(InputError) as caught:
        read_sgf(data, source="g.sgf")
    assert caught.value.message == "g.sgf, line 2, byte 20: not UTF-8 text as CA[UTF-8] says"


def test_error_position_counts_characters_not_bytes() -> None:
    with pytest.raises(InputError) as caught:
        read_sgf("(;PB[聂卫平]PW[马晓春]}", source="g.sgf")
    assert caught.value.message.startswith("g.sgf, line 1, column 17: unexpected '}'")


def test_trailing_text_after_the_game_is_ignored() -> None:
    game = read_sgf("(;SZ[9];B[aa];W[bb]) downloaded from somewhere")
    assert len(game.moves()) == 2 and game.notes == []


def test_a_collection_reads_its_first_game_with_a_note() -> None:
    game = read_sgf("(;SZ[9]PB[甲];B[aa])\n(;SZ[9]PB[乙];B[bb];W[cc])(;broken")
    assert game.black_player == "甲" and len(game.moves()) == 1
    assert game.notes == ["the file holds more than one game; the first was read"]


SGF_CHARS = st.sampled_from(list("()[];\\:BWACKMSZHEabdtz9 \n中]"))


@settings(max_examples=300, deadline=None)
@given(st.text(SGF_CHARS, max_size=40))
def test_any_text_reads_or_raises_input_error(text: str) -> None:
    """Whatever the bytes, the reader returns a game or raises InputError — never a traceback."""
    try:
        read_sgf(text)
    except InputError as err:
        assert err.message


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=60))
def test_any_bytes_read_or_raise_input_error(data: bytes) -> None:
    try:
        read_sgf(b"(;" + data)
    except InputError as err:
        assert err.message
