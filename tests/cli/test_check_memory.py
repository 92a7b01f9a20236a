"""Issue #15: bounded memory on any input. Each big input is generated here and checked by
``weiqi check`` (or ``score``) in a subprocess whose address space is capped with
``resource.setrlimit``; each either works within the cap or is refused with a message naming
the limit — never a MemoryError or a traceback. (A 100 MB main line used to take 9 GB.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from weiqi.formats.sgf import MAX_NODES
from weiqi.formats.sgf_check import MAX_FILE_BYTES, MAX_MOVES

SRC = Path(__file__).resolve().parents[2] / "src"
MB = 1024 * 1024
# The interpreter with the whole CLI imported maps about 80 MB.
BASE = 160 * MB

RUN = """
import resource, sys
cap = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
sys.argv = ["weiqi", *sys.argv[2:]]
from weiqi.cli import main
main()
"""


def capped(cap: int, *args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", RUN, str(cap), *map(str, args)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(SRC)},
        timeout=120,
        check=False,
    )


def game(moves: int) -> str:
    """A legal 19×19 main line: Black and White fill alternate columns, then pass."""
    letters = "abcdefghijklmnopqrs"
    out = []
    for i in range(moves):
        col, row = divmod(i // 2, 19)
        color = "BW"[i % 2]
        col = 2 * col + (i % 2)
        out.append(f";{color}[{letters[col]}{letters[row]}]" if col < 19 else f";{color}[]")
    return "".join(out)


def one_error_line(run: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert run.returncode == 2, (run.returncode, run.stderr[-2000:])
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), run.stderr[-2000:]
    for fragment in fragments:
        assert fragment in lines[0]


@pytest.mark.slow
def test_a_100_mb_main_line_is_refused_at_the_move_limit(tmp_path: Path) -> None:
    path = tmp_path / "long.sgf"
    node = b";B[];W[]"
    with path.open("wb") as out:
        out.write(b"(;GM[1]SZ[19]")
        chunk = node * (MB // len(node))
        for _ in range(100):
            out.write(chunk)
        out.write(b")")
    assert path.stat().st_size > 100 * MB
    run = capped(BASE + 2 * 100 * MB, "check", path, "--json")
    one_error_line(run, f"move {MAX_MOVES + 1}", f"more than {MAX_MOVES:,} moves")
    # score reads the whole tree: refused by its node limit, counted in constant memory
    run = capped(BASE + 2 * 100 * MB, "score", path, "--json")
    one_error_line(run, f"more than {MAX_NODES:,} nodes")


def test_100000_nested_variations_are_checked(tmp_path: Path) -> None:
    path = tmp_path / "nested.sgf"
    depth = 100_000
    text = "(;GM[1]SZ[19];B[pd](;W[dp])" + "(;W[dd];B[pp]" * depth + ")" * depth + ")"
    path.write_text(text)
    run = capped(BASE, "check", path, "--json")
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout) == {"file": str(path), "legal": True, "moves": 2}


@pytest.mark.slow
def test_10000_games_in_one_file_are_all_checked(tmp_path: Path) -> None:
    path = tmp_path / "collection.sgf"
    record = f"(;GM[1]SZ[19]{game(60)})\n"
    path.write_text(record * 10_000)
    assert path.stat().st_size > 3 * MB
    run = capped(BASE + 2 * path.stat().st_size, "check", path, "--json")
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    assert len(lines) == 10_000
    assert json.loads(lines[-1]) == {"file": str(path), "game": 10_000, "legal": True, "moves": 60}


@pytest.mark.slow
def test_a_large_directory_is_checked_file_by_file(tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    for part in range(10):
        (folder / f"part{part}").mkdir(parents=True)
        for i in range(200):
            (folder / f"part{part}" / f"{i:04d}.sgf").write_text(f"(;SZ[19]{game(20 + i % 7)})")
    run = capped(BASE, "check", folder, "--json")
    assert run.returncode == 0, run.stderr[-2000:]
    assert len(run.stdout.splitlines()) == 2000


def test_a_file_above_the_size_limit_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.sgf"
    with path.open("wb") as out:
        out.truncate(MAX_FILE_BYTES + 1)  # sparse: nothing is written
    run = capped(BASE, "check", path, "--json")
    one_error_line(run, f"more than the {MAX_FILE_BYTES:,} this checker reads")


def test_score_refuses_a_tree_above_the_node_limit(tmp_path: Path) -> None:
    path = tmp_path / "wide.sgf"
    path.write_text("(;SZ[9]" + ";C[x]" * (MAX_NODES + 1) + ")")
    run = capped(BASE, "score", path, "--json")
    one_error_line(run, f"more than {MAX_NODES:,} nodes")
