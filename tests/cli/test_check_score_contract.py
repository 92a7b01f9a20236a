"""Issue #2, ``weiqi check FILE.sgf ... --json`` and ``weiqi score FILE.sgf --json``: the JSON
shapes as the issue writes them, every illegality reason including superko, and unreadable
input as one line with a non-zero exit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.contracts import weiqi

# A random 4×4 game (seed 1) whose move 189 recreates an earlier whole-board position; GNU Go
# (--chinese-rules --situational-superko) answers is_legal B D4 = 0 there too.
SUPERKO = (
    "(;FF[4]SZ[4];B[ca];W[ac];B[bc];W[dd];B[cc];W[db];B[aa];W[cb];B[bb];W[da];B[ba];W[cd];B[];W"
    "[dc];B[bd];W[db];B[dc];W[cb];B[ab];W[dd];B[ad];W[];B[cd];W[];B[da];W[db];B[ac];W[];B[dd];W"
    "[cb];B[dc];W[bc];B[ad];W[aa];B[cc];W[da];B[bd];W[cd];B[ca];W[ac];B[ba];W[ad];B[bb];W[ab];B"
    "[da];W[db];B[bd];W[ad];B[cb];W[aa];B[dd];W[bc];B[db];W[ab];B[ac];W[aa];B[cd];W[];B[bc];W[]"
    ";B[ab];W[];B[ad];W[aa];B[dc];W[cc];B[ca];W[cb];B[dd];W[ba];B[ac];W[ab];B[bb];W[ba];B[bc];W"
    "[da];B[cd];W[db];B[ad];W[aa];B[ab];W[bd];B[dc];W[ac];B[cd];W[ca];B[bb];W[bc];B[];W[dd];B[]"
    ";W[dc];B[];W[cd];B[];W[ad];B[ab];W[dc];B[bd];W[aa];B[da];W[ba];B[cb];W[bc];B[cc];W[ac];B[]"
    ";W[db];B[ad];W[dd];B[ca];W[ac];B[cd];W[dc];B[bc];W[dd];B[];W[ba];B[aa];W[];B[db];W[dc];B[b"
    "a];W[];B[ac];W[dd];B[cd];W[db];B[bc];W[aa];B[da];W[bd];B[ac];W[ab];B[bb];W[ca];B[ad];W[ba]"
    ";B[cc];W[da];B[bd];W[cb];B[ad];W[bb];B[cc];W[ac];B[bd];W[bc];B[cd];W[aa];B[ca];W[ba];B[bc]"
    ";W[dd];B[ab];W[da];B[ac];W[db];B[dc];W[bb];B[dd];W[cb];B[dc];W[ad];B[bc];W[ca];B[cd];W[ab]"
    ";B[dd];W[cc];B[ac];W[da];B[bb];W[cc];B[db];W[ca];B[cb];W[aa];B[cc];W[ab];B[ba];W[aa];B[ca]"
    ";W[];B[ab];W[];B[bd];W[];B[da])"
)
KO = "(;FF[4]SZ[5];B[ba];W[ca];B[ab];W[db];B[bc];W[cc];B[ee];W[bb];B[cb];W[bb])"
FINISHED = "(;FF[4]SZ[5]KM[7.5];B[bb];W[db];B[bc];W[dc];B[bd];W[dd];B[ba];W[da];B[be];W[de])"


@pytest.mark.parametrize(
    ("record", "error"),
    [
        (SUPERKO, {"move": 189, "vertex": "D4", "reason": "superko"}),
        (KO, {"move": 10, "vertex": "B4", "reason": "ko"}),
        ("(;SZ[9];B[ee];W[ee])", {"move": 2, "vertex": "E5", "reason": "occupied"}),
    ],
)
def test_check_json_names_move_vertex_and_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record: str, error: dict[str, object]
) -> None:
    path = tmp_path / "game.sgf"
    path.write_text(record)
    run = weiqi(capsys, "check", str(path), "--json")
    assert run.code == 1
    out = json.loads(run.out)
    assert out == {"file": str(path), "legal": False, "moves": out["moves"], "error": error}


def test_check_json_is_one_object_per_file_per_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good, bad = tmp_path / "good.sgf", tmp_path / "bad.sgf"
    good.write_text(FINISHED)
    bad.write_text(KO)
    run = weiqi(capsys, "check", str(good), str(bad), "--json")
    lines = [json.loads(line) for line in run.out.splitlines()]
    assert lines[0] == {"file": str(good), "legal": True, "moves": 10}
    assert lines[1]["legal"] is False and run.code == 1


def test_score_json_has_exactly_the_issue_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.sgf"
    path.write_text(FINISHED)
    run = weiqi(capsys, "score", str(path), "--json")
    assert run.code == 0, run.err
    out = json.loads(run.out)
    assert list(out) == ["black", "white", "shared", "komi", "handicap_compensation", "winner",
                         "margin", "result", "result_zh"]  # fmt: skip
    assert out["komi"] == 3.75  # KM[7.5] points ÷ 2
    assert out["black"] + out["white"] == 25


# The final position of GNU Go's regression game olympiad2004/9x9/kin-gnu.sgf (GoKing–GNU Go).
KIN_GNU = (
    "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Chinese]RE[W+55.5];B[ec];W[ee];B[cd];W[ce];B[gd];W[dd];B[dc]"
    ";W[cc];B[be];W[bd];B[bf];W[bh];B[cf];W[df];B[cg];W[ch];B[dg];W[eg];B[dh];W[eh];B[ci];W[ae]"
    ";B[bi];W[ag];B[af];W[ad];B[di];W[ai];B[gf];W[ei];B[ah];W[cb];B[bg];W[fa];B[db];W[da];B[fc]"
    ";W[hg];B[gg];W[gh];B[hf];W[hh];B[hc];W[gb];B[ic];W[fe];B[];W[])"
)


def test_score_auto_dead_json_adds_the_uncertain_chains(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """R-END-3: with ``--auto-dead`` the JSON keeps the issue's keys in order and adds
    ``uncertain``, the chains the proposal is unsure of (colour, stones, proposed status, share
    of playouts kept), for the players' confirmation to look at first. Without it, no new key."""
    path = tmp_path / "kin-gnu.sgf"
    path.write_text(KIN_GNU)
    out = json.loads(weiqi(capsys, "score", str(path), "--auto-dead", "--json").out)
    assert list(out) == ["black", "white", "shared", "komi", "handicap_compensation", "winner",
                         "margin", "result", "result_zh", "uncertain"]  # fmt: skip
    assert out["result"] == "W+55.5"  # as GNU Go and the record; W+8.5 before
    chains = {chain["stones"][0]: chain for chain in out["uncertain"]}
    assert chains["D7"] == {
        "color": "B",
        "stones": ["D7", "D8", "E7", "F7"],
        "proposed": "dead",
        "kept": chains["D7"]["kept"],
    }
    assert all(0.4 <= chain["kept"] <= 0.8 for chain in out["uncertain"])
    assert "uncertain" not in json.loads(weiqi(capsys, "score", str(path), "--json").out)


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (b"", "no SGF game"),
        (bytes(range(256)) * 8, "no SGF game"),
        (b"(;FF[4]SZ[9]", "ends inside the game"),
        (b"(;FF[4]SZ[99999999999999999999];B[aa])", "board size"),
        # The message used to spell the komi out to 1,000 digits.
        (b"(;FF[4]SZ[9]KM[1e999];B[aa])", "KM[1000000000000000000\u2026]"),
    ],
)
def test_score_of_unreadable_input_is_one_short_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, fragment: str
) -> None:
    path = tmp_path / "bad.sgf"
    path.write_bytes(data)
    line = weiqi(capsys, "score", str(path), "--json").one_line_error(fragment)
    assert len(line) < 300


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_check_reads_utf16_with_a_byte_order_mark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], codec: str
) -> None:
    """Windows "Unicode" SGF files read as 'no SGF game found'."""
    path = tmp_path / "game.sgf"
    path.write_bytes(("\ufeff" if codec != "utf-16" else "") .encode(codec)
                     + "(;FF[4]SZ[9]PB[常昊];B[ee];W[ee])".encode(codec))  # fmt: skip
    run = weiqi(capsys, "check", str(path), "--json")
    assert json.loads(run.out)["error"] == {"move": 2, "vertex": "E5", "reason": "occupied"}


def test_check_names_a_broken_utf16_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.sgf"
    path.write_bytes(b"\xff\xfe(\x00;\x00\x00\xd8")
    weiqi(capsys, "score", str(path)).one_line_error("UTF-16")
