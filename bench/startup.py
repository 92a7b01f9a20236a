"""Start-up benchmark: how long the light ``weiqi`` commands take, against ``python -c pass``.

Runs each command the way a user does (the ``weiqi`` script of this interpreter's environment,
else ``python -m weiqi``) on small inputs, so nearly all of its time is start-up: ``--help``,
``check`` and ``score`` of a short record, ``gtp`` answering ``quit``, ``clock show``,
``nigiri``; then ``round pair`` of a 1,000-player Swiss event (start-up plus one real pairing,
a fresh copy of the same database each time). The reference, ``python -c pass`` with the same
interpreter, is measured in the same run, alternating with the commands, and so is the floor
under any of our commands: importing typer, the pydantic typer 0.29 coerces every parameter with,
and rich. Each command is run
``--runs`` times; the figures are the best wall clock and the best CPU time (user + system of the
child, which does not depend on the other jobs of a shared machine). Target: the light commands
≤ 0.15 s each. Last line: ``ratio X`` = the slowest light command's best wall time ÷ the
reference's.

``--before SRC`` also runs every command from another source tree in the same rounds (``python -m
weiqi`` with ``PYTHONPATH=SRC``, e.g. ``git archive 022978f src | tar -x -C /tmp/old`` for the
commit before lazy loading) and prints its figures beside.

Usage: ``python bench/startup.py [--runs 7] [--players 1000] [--before SRC]``
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

TARGET_S = 0.15

RECORD = (
    "(;GM[1]FF[4]CA[UTF-8]SZ[9]KM[7.5]RU[Chinese]PB[张三]PW[李四]"
    ";B[ee];W[gc];B[cg];W[gg];B[ce];W[ge];B[dc];W[ec];B[ed];W[fd];B[eb];W[fb];B[fc];W[gd]"
    ";B[db];W[fe];B[ef];W[ff];B[eg];W[fh];B[eh];W[fi];B[ei];W[];B[])"
)


@dataclass
class Timing:
    """Best wall and CPU seconds over the runs of one command."""

    label: str
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def best_wall(self) -> float:
        return min(self.wall)

    def best_cpu(self) -> float:
        return min(self.cpu)


def weiqi_command() -> list[str]:
    """The ``weiqi`` script beside this interpreter, else ``python -m weiqi``."""
    script = Path(sys.executable).with_name("weiqi")
    return [str(script)] if script.exists() else [sys.executable, "-m", "weiqi"]


def run_once(
    argv: list[str], stdin: str | None, timing: Timing, env: dict[str, str] | None = None
) -> None:
    """Run ``argv`` once, adding its wall clock and its CPU time to ``timing``."""
    before = os.times()
    start = time.perf_counter()
    done = subprocess.run(
        argv,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    wall = time.perf_counter() - start
    after = os.times()
    if done.returncode != 0:
        raise SystemExit(f"{timing.label}: exit {done.returncode}\n{done.stderr}")
    timing.wall.append(wall)
    timing.cpu.append(
        (after.children_user - before.children_user)
        + (after.children_system - before.children_system)
    )


def make_event(weiqi: list[str], directory: Path, players: int) -> Path:
    """A Swiss event of ``players`` players, ready for round 1, as an SQLite file."""
    db = directory / "event.sqlite3"
    csv_path = directory / "players.csv"
    with csv_path.open("w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["name", "rank", "rating"])
        for i in range(players):
            out.writerow([f"P{i:05d}", f"{1 + i % 9}k", 1500 + (i * 37) % 900])
    for argv in (
        ["event", "create", "--db", str(db), "--name", "bench", "--system", "swiss", "--rounds=9"],
        ["player", "import", "--db", str(db), str(csv_path)],
    ):
        subprocess.run([*weiqi, *argv], check=True, capture_output=True)
    return db


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--before", type=Path, help="another src/ tree to time beside this one")
    args = parser.parse_args()

    weiqi = weiqi_command()
    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        record = directory / "one.sgf"
        record.write_text(RECORD, encoding="utf-8")
        light: list[tuple[str, list[str], str | None]] = [
            ("weiqi --help", ["--help"], None),
            ("weiqi check one.sgf", ["check", str(record)], None),
            ("weiqi score one.sgf", ["score", str(record)], None),
            ("weiqi gtp (quit)", ["gtp"], "quit\n"),
            ("weiqi clock show", ["clock", "show", "60m incl 5x60s"], None),
            (
                "weiqi nigiri",
                ["nigiri", "张三 5d 1990-03-01", "李四 3d 1995-07-02", "--guess=odd", "--seed=7"],
                None,
            ),
        ]
        template = make_event(weiqi, directory, args.players)
        reference = Timing("python -c pass")
        floor = Timing("floor: import typer, pydantic, rich")
        timings = {label: Timing(label) for label, _, _ in light}
        pair_label = f"weiqi round pair ({args.players} players)"
        pair = Timing(pair_label)
        before = {label: Timing(label) for label in [*timings, pair_label]}
        old_env = {**os.environ, "PYTHONPATH": str(args.before)} if args.before else None
        old = [sys.executable, "-m", "weiqi"]
        copy = directory / "copy.sqlite3"
        for _ in range(args.runs):
            run_once([sys.executable, "-c", "pass"], None, reference)
            run_once([sys.executable, "-c", "import typer, pydantic, rich.console"], None, floor)
            for label, argv, stdin in light:
                run_once([*weiqi, *argv], stdin, timings[label])
                if old_env is not None:
                    run_once([*old, *argv], stdin, before[label], old_env)
            shutil.copyfile(template, copy)
            run_once([*weiqi, "round", "pair", "--db", str(copy)], None, pair)
            if old_env is not None:
                shutil.copyfile(template, copy)
                old_pair = [*old, "round", "pair", "--db", str(copy)]
                run_once(old_pair, None, before[pair_label], old_env)

    ref = reference.best_wall()
    print(f"load average {os.getloadavg()[0]:.1f}, best of {args.runs} runs, {' '.join(weiqi)}")
    extra = "   before: wall s   cpu s   ÷ ref" if old_env is not None else ""
    print(f"{'command':<40} {'wall s':>7} {'cpu s':>7} {'÷ ref':>7}{extra}")
    print(f"{reference.label:<40} {ref:7.3f} {reference.best_cpu():7.3f} {1:7.1f}")
    for t in [floor, *timings.values(), pair]:
        line = f"{t.label:<40} {t.best_wall():7.3f} {t.best_cpu():7.3f} {t.best_wall() / ref:7.1f}"
        if old_env is not None and t.label in before:
            b = before[t.label]
            line += f"   {b.best_wall():15.3f} {b.best_cpu():7.3f} {b.best_wall() / ref:7.1f}"
        print(line)
    slowest = max(timings.values(), key=Timing.best_wall)
    verdict = "within" if slowest.best_wall() <= TARGET_S else "above"
    print(f"slowest light command: {slowest.label}, {verdict} the {TARGET_S} s target")
    print(f"ratio {slowest.best_wall() / ref:.1f}")


if __name__ == "__main__":
    main()
