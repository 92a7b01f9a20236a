"""GNU Go's verdict on finished game records: the oracle of ``bench/dead_stones.py --records``.

    python bench/gnugo_verdicts.py DIR_OR_SGF... --out verdicts.jsonl [--jobs 2]

Every record whose main line ends with two passes (``B[]``/``W[]``, or ``tt`` on boards up to
19×19) is loaded into GNU Go 3.8 (``--mode gtp --chinese-rules``, ``loadsgf``), which is asked for
``list_stones``, ``final_status_list dead`` and ``seki`` and ``final_score``. One JSON object per
record and line: ``file``, ``size``, ``komi`` (points), ``record`` (the file's ``RE``), ``dead``,
``seki``, ``black``, ``white`` (GTP vertices) and ``score`` (GNU Go's ``final_score``). Records
GNU Go refuses are left out. The regression games of GNU Go's own source tree
(``regression/games/``) are the set measured in ``bench/README.md``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from weiqi.engines.gtp import EngineError, SimpleEngine  # noqa: E402
from weiqi.engines.selfplay import GNUGO  # noqa: E402
from weiqi.rules.color import Color  # noqa: E402

_MOVE = re.compile(rb";\s*([BW])\[([a-zA-Z]{0,2})\]")
_SIZE = re.compile(rb"SZ\[(\d+)")
_RESULT = re.compile(rb"RE\[([^\]]*)\]")
_KOMI = re.compile(rb"KM\[([^\]]*)\]")


def two_pass_records(paths: list[Path]) -> Iterator[Path]:
    """The SGF files under ``paths`` whose last two moves are passes of both colours (a cheap
    textual test; variations are not looked at)."""
    for path in paths:
        files = sorted(path.rglob("*.sgf")) if path.is_dir() else [path]
        for file in files:
            data = file.read_bytes()
            moves = _MOVE.findall(data)
            size_match = _SIZE.search(data)
            size = int(size_match.group(1)) if size_match else 19
            if len(moves) < 10:
                continue
            last = moves[-2:]
            passes = all(v == b"" or (v == b"tt" and size <= 19) for _, v in last)
            if passes and last[0][0] != last[1][0]:
                yield file


def _size(file: Path) -> int:
    found = _SIZE.search(file.read_bytes())
    return int(found.group(1)) if found else 19


def verdict(gnugo: SimpleEngine, file: Path) -> dict[str, object] | None:
    """GNU Go's statement on the final position of one record, or ``None`` if it refuses it."""
    data = file.read_bytes()
    try:
        gnugo.command(f"loadsgf {file}")
        size = int(gnugo.command("query_boardsize"))
        record = _RESULT.search(data)
        komi = _KOMI.search(data)
        return {
            "file": str(file),
            "size": size,
            "komi": float(gnugo.command("get_komi")),
            "record": record.group(1).decode("latin-1") if record else "",
            "km": komi.group(1).decode("latin-1") if komi else "",
            "dead": sorted(gnugo.final_status_list("dead")),
            "seki": sorted(gnugo.final_status_list("seki")),
            "black": sorted(gnugo.list_stones(Color.BLACK)),
            "white": sorted(gnugo.list_stones(Color.WHITE)),
            "score": gnugo.command("final_score"),
        }
    except (EngineError, ValueError):
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--jobs", type=int, default=1, help="GNU Go processes at once")
    parser.add_argument("--sizes", default="9,13,19", help="board sizes to keep, e.g. 9,13")
    args = parser.parse_args(argv)
    sizes = {int(s) for s in args.sizes.split(",")}
    files = [f for f in two_pass_records(args.paths) if _size(f) in sizes]
    start = time.perf_counter()
    chunks = [files[i :: args.jobs] for i in range(args.jobs)]
    lock = threading.Lock()
    found_count = 0

    with open(args.out, "w", encoding="utf-8") as handle:

        def run(chunk: list[Path]) -> None:
            nonlocal found_count
            with SimpleEngine.popen([GNUGO, "--mode", "gtp", "--chinese-rules"], timeout=300) as g:
                for file in chunk:
                    found = verdict(g, file)
                    if found is None:
                        continue
                    with lock:  # written as it comes, so a stopped run keeps what it did
                        handle.write(json.dumps(found, separators=(",", ":")) + "\n")
                        handle.flush()
                        found_count += 1
                    print(f"{file}: {found['score']}", flush=True)

        with ThreadPoolExecutor(args.jobs) as pool:
            list(pool.map(run, chunks))
    took = time.perf_counter() - start
    print(f"{found_count} of {len(files)} two-pass records in {took:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
