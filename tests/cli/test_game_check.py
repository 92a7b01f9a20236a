"""``weiqi check`` and ``weiqi score``.

The main cases run the CLI as a user runs it, in a subprocess; the many small variations run
the same entry point (``weiqi.cli.main``: argument parsing, one-line errors, exit codes)
in-process, since each subprocess pays the whole CLI's start-up.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from weiqi.cli import main

SRC = Path(__file__).resolve().parents[2] / "src"


def weiqi(*args: str | Path) -> subprocess.CompletedProcess[str]:
    """Run ``python -m weiqi`` in a subprocess."""
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    return subprocess.run(
        [sys.executable, "-m", "weiqi", *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


@pytest.fixture
def cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run ``weiqi.cli.main`` in-process with the given arguments, like :func:`weiqi`."""

    def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
        monkeypatch.setattr(sys, "argv", ["weiqi", *map(str, args)])
        capsys.readouterr()
        code: int | str | None = 0
        try:
            main()
        except SystemExit as exit_:
            code = exit_.code
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(args, int(code or 0), out, err)

    return run


def write(tmp_path: Path, name: str, text: str, encoding: str = "utf-8") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode(encoding))
    return path


# Black owns columns A–C, White D–E of a 5×5 board; then Black E3 inside White's area, passes.
WALL = "(;GM[1]FF[4]SZ[5]KM[{km}]{extra};B[ce];W[de];B[cd];W[dd];B[cc];W[dc];B[cb];W[db];B[ca]"
WALL += ";W[da];B[ec];W[];B[])"
KO = "(;SZ[5];B[bc];W[cc];B[ad];W[dd];B[be];W[ce];B[ea];W[bd];B[cd];W[bd];B[aa])"


def test_check_json_legal_and_illegal(tmp_path: Path) -> None:
    legal = write(tmp_path, "legal.sgf", WALL.format(km="0", extra=""))
    ko = write(tmp_path, "ko.sgf", KO)
    run = weiqi("check", legal, ko, "--json")
    assert run.returncode == 1, run.stderr
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert lines == [
        {"file": str(legal), "legal": True, "moves": 13},
        {
            "file": str(ko),
            "legal": False,
            "moves": 11,
            "error": {"move": 10, "vertex": "B2", "reason": "ko"},
        },
    ]
    assert run.stderr == ""


@pytest.mark.parametrize(
    ("record", "error"),
    [
        ("(;SZ[5];B[cc];W[cc])", {"move": 2, "vertex": "C3", "reason": "occupied"}),
        ("(;SZ[5];B[cc];B[dd])", {"move": 2, "vertex": "D2", "reason": "wrong-turn"}),
        ("(;SZ[5];B[ad];W[ee];B[be];W[ae])", {"move": 4, "vertex": "A1", "reason": "suicide"}),
        ("(;SZ[5];B[cc];W[zz])", {"move": 2, "vertex": "zz", "reason": "off-board"}),
    ],
)
def test_check_reasons(
    cli: Callable[..., subprocess.CompletedProcess[str]],
    tmp_path: Path,
    record: str,
    error: dict[str, object],
) -> None:
    path = write(tmp_path, "g.sgf", record)
    run = cli("check", path, "--json")
    assert run.returncode == 1
    assert json.loads(run.stdout)["error"] == error


def test_check_human_output_and_exit_codes(
    cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    legal = write(tmp_path, "legal.sgf", WALL.format(km="0", extra=""))
    run = cli("check", legal)
    assert run.returncode == 0
    assert "legal" in run.stdout and "13" in run.stdout


def test_check_unreadable_file_is_one_line_and_others_still_checked(tmp_path: Path) -> None:
    broken = write(tmp_path, "broken.sgf", "(;SZ[5];B[cc]\n;W[dd]")
    legal = write(tmp_path, "legal.sgf", WALL.format(km="0", extra=""))
    run = weiqi("check", broken, legal, tmp_path / "missing.sgf", "--json")
    assert run.returncode == 2
    assert json.loads(run.stdout) == {"file": str(legal), "legal": True, "moves": 13}
    assert run.stderr.splitlines() == [
        f"error: {broken}, line 2, column 7: the file ends inside the game; expected ')'",
        f"error: {tmp_path / 'missing.sgf'}: No such file or directory",
    ]


def test_r_score_1_score_json(tmp_path: Path) -> None:
    """R-SCORE-1…3: area count in stones; komi from KM (points ÷ 2); E3 alive unless dead."""
    path = write(tmp_path, "wall.sgf", WALL.format(km="7.5", extra=""))
    run = weiqi("score", path, "--dead", "E3", "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {
        "black": 15.0,
        "white": 10.0,
        "shared": 0,
        "komi": 3.75,
        "handicap_compensation": 0.0,
        "winner": "W",
        "margin": 1.25,
        "result": "W+2.5",
        "result_zh": "白胜1又1/4子",
    }


def test_r_end_3_auto_dead_proposes_the_lone_stone(
    cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    """R-END-3: --auto-dead adds the dead-stone proposal; here White's area holds one lost
    black stone, so the count equals naming it with --dead."""
    path = write(tmp_path, "wall.sgf", WALL.format(km="7.5", extra=""))
    auto = cli("score", path, "--auto-dead", "--json")
    named = cli("score", path, "--dead", "E3", "--json")
    assert auto.returncode == 0, auto.stderr
    proposed = json.loads(auto.stdout)
    assert proposed.pop("uncertain") == []  # no group here is in doubt
    assert proposed == json.loads(named.stdout)


def test_score_all_stones_alive_without_dead(
    cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    path = write(tmp_path, "wall.sgf", WALL.format(km="0", extra=""))
    out = json.loads(cli("score", path, "--json").stdout)
    # E3 alive: E1, E2, E4, E5 touch both colours and are shared.
    assert (out["black"], out["white"], out["shared"]) == (18.0, 7.0, 4)
    assert (out["winner"], out["margin"], out["result_zh"]) == ("B", 5.5, "黑胜5又1/2子")


@pytest.mark.parametrize(
    ("komi", "winner", "margin", "result"),
    [("2.5", "B", 0.0, "0"), ("0", "B", 2.5, "B+5"), ("15/4", "W", 1.25, "W+2.5")],
)
def test_r_score_3_komi_option_in_stones(
    cli: Callable[..., subprocess.CompletedProcess[str]],
    tmp_path: Path,
    komi: str,
    winner: str | None,
    margin: float,
    result: str,
) -> None:
    """R-SCORE-3: --komi is in stones and overrides KM; a count of exactly the threshold is a
    draw (winner null)."""
    path = write(tmp_path, "wall.sgf", WALL.format(km="100.0", extra=""))
    out = json.loads(cli("score", path, "--dead", "E3", "--komi", komi, "--json").stdout)
    assert out["result"] == result and out["margin"] == margin
    assert out["winner"] == (None if result == "0" else winner)


def test_komi_defaults_to_three_and_three_quarters(
    cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    path = write(tmp_path, "wall.sgf", "(;SZ[5];B[cc])")
    assert json.loads(cli("score", path, "--json").stdout)["komi"] == 3.75


def test_fox_komi_is_read_in_stones(
    cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    path = write(tmp_path, "fox.sgf", WALL.format(km="375", extra="RU[Chinese]"))
    assert json.loads(cli("score", path, "--json").stdout)["komi"] == 3.75


def test_human_output_shows_the_readers_notes(
    cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    path = write(tmp_path, "fox.sgf", WALL.format(km="375", extra="RU[Chinese]"))
    note = f"note: {path}: KM[375] read as hundredths of a stone: komi 3.75 stones"
    assert note in cli("score", path).stdout.splitlines()
    assert note in cli("check", path).stdout.splitlines()
    # Issue #15 (6): the JSON carries the notes too, under "notes".
    report = json.loads(cli("check", path, "--json").stdout)
    assert report["notes"] == ["KM[375] read as hundredths of a stone: komi 3.75 stones"]


def test_r_hcp_2_handicap_compensation_from_ha(
    cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    """R-HCP-2: HA gives the compensation (half the handicap stones)."""
    path = write(tmp_path, "h.sgf", "(;SZ[9]HA[2]KM[0.5]AB[gc][cg];W[ee])")
    out = json.loads(cli("score", path, "--json").stdout)
    assert (out["komi"], out["handicap_compensation"]) == (0.25, 1.0)


def test_score_chinese_gb2312_file_human_output(
    cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    record = WALL.format(km="7.5", extra="CA[gb2312]PB[古力]PW[常昊]")
    path = write(tmp_path, "gb.sgf", record, encoding="gb2312")
    run = cli("score", path, "--dead", "E3")
    assert run.returncode == 0, run.stderr
    assert "白胜1又1/4子" in run.stdout and "W+2.5" in run.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dead", "A1"], "error: dead stones: A1 holds no stone"),
        (["--dead", "Z9"], "error: vertex 'Z9': not a point of a 5×5 board"),
        (["--dead", "pass"], "error: --dead pass: names no stone"),
        (["--komi", "lots"], "error: komi: 'lots' is not a number of stones"),
        (["--komi", "1/3"], "error: komi: must be a multiple of 1/4 stone"),
    ],
)
def test_score_bad_options_are_one_line(
    cli: Callable[..., subprocess.CompletedProcess[str]],
    tmp_path: Path,
    args: list[str],
    message: str,
) -> None:
    path = write(tmp_path, "g.sgf", "(;SZ[5];B[cc])")
    run = cli("score", path, *args)
    assert run.returncode == 2
    assert run.stderr.strip() == message
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize(
    ("root", "message"),
    [
        ("KM[3.75]", "KM[3.75]: komi must be a multiple of 1/4 stone; give --komi in stones"),
        ("HA[12]", "HA[12]: must be 0 or 2 to 9 stones (1 stone is 让先: komi 0)"),
    ],
)
def test_score_unusable_record_settings_name_the_property(
    cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path, root: str, message: str
) -> None:
    path = write(tmp_path, "g.sgf", f"(;SZ[9]{root})")
    run = cli("score", path)
    assert run.returncode == 2
    assert run.stderr.strip() == f"error: {path}, {message}"


def test_score_illegal_record_is_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, "ko.sgf", KO)
    run = weiqi("score", path)
    assert run.returncode == 2
    assert run.stderr.strip() == f"error: {path}: move 10 at B2: ko"


def test_score_unreadable_file_is_one_line(
    cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    path = write(tmp_path, "bad.sgf", "(;SZ[5];B[cc]W[dd])")
    run = cli("score", path)
    assert run.returncode == 2
    assert run.stderr.strip() == f"error: {path}, move 1: a node holds both B and W moves"


def test_check_json_reports_every_game_of_a_collection_with_notes(
    cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    """Issue #15 (6): every game of a multi-game file, numbered, with the reader's notes."""
    path = write(tmp_path, "games.sgf", "(;SZ[9];B[ee])\n(;SZ[9]KM[375];B[ee];W[ee]) ;B[aa])")
    run = cli("check", path, "--json")
    assert run.returncode == 1
    assert [json.loads(line) for line in run.stdout.splitlines()] == [
        {"file": str(path), "game": 1, "legal": True, "moves": 1},
        {
            "file": str(path),
            "game": 2,
            "legal": False,
            "moves": 2,
            "error": {"move": 2, "vertex": "E5", "reason": "occupied"},
            "notes": [
                "KM[375] read as hundredths of a stone: komi 3.75 stones",
                "text after the last game was ignored: ';B[aa])'",
            ],
        },
    ]
    human = cli("check", path).stdout
    assert f"{path} #2" in human and "move 2 at E5: occupied" in human


def test_check_a_directory_checks_its_sgf_files(
    cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    (tmp_path / "sub").mkdir()
    write(tmp_path, "b.sgf", "(;SZ[9];B[ee])")
    write(tmp_path, "sub/a.SGF", "(;SZ[9];B[ee];W[ee])")
    write(tmp_path, "notes.txt", "not a record")
    run = cli("check", tmp_path, "--json")
    files = [json.loads(line)["file"] for line in run.stdout.splitlines()]
    assert files == [str(tmp_path / "b.sgf"), str(tmp_path / "sub" / "a.SGF")]
    assert run.returncode == 1


@pytest.mark.parametrize("moves", [";W[pd];B[dd]", ";B[pd]"], ids=["white-first", "black-first"])
def test_ha_above_nine_is_refused_by_check_and_score_alike(
    cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path, moves: str
) -> None:
    """Issue #15 (9): HA[20] passed check but failed score; now both refuse it for its HA,
    whoever moves first (score said "wrong-turn" when Black did)."""
    path = write(tmp_path, "ha20.sgf", f"(;SZ[19]HA[20]{moves})")
    checked, scored = cli("check", path, "--json"), cli("score", path, "--json")
    assert checked.returncode == scored.returncode == 2
    reason = "HA[20]: must be 0 or 2 to 9 stones"
    assert checked.stderr == scored.stderr
    assert reason in checked.stderr and len(checked.stderr.splitlines()) == 1


def test_setup_without_pl_white_first_is_legal_in_check_and_score(
    cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    """Issue #15 (2): the four pre-placed stones of old Chinese games, White moving first."""
    path = write(tmp_path, "zuozi.sgf", "(;SZ[19]AB[pd][dp]AW[dd][pp];W[qf];B[nc])")
    assert json.loads(cli("check", path, "--json").stdout) == {
        "file": str(path),
        "legal": True,
        "moves": 2,
    }
    assert cli("score", path, "--json").returncode == 0
