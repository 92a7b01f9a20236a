"""Big events through the command line: a 10,000-player, 9-round Swiss built and run with the
real ``weiqi`` commands, each timed end to end (start-up included).

The event is created in a fresh SQLite file (``weiqi event create --system swiss --rounds 9
--avoid-same-club``), its players entered with ``weiqi player import`` (ratings, ranks and
about eight players a club), then each round is paired with ``weiqi round pair --json`` and
its whole result sheet entered with ``weiqi round results`` (results drawn from the rating
difference, seed 2026). After the last round, ``weiqi standings --json``.

References, measured in the same run on the same data: ``weiqi version`` (the
command's start-up), the core alone on the event loaded in this process — the Swiss pairing
of the last round (``Swiss.next_round``) and the standings (``weiqi.tournament.ranking``) — and,
for the player import, ``csv`` reading the same file. Each figure is printed with its ratio to
its reference. Targets (issue #15): a round paired ≤ 10 s wall, the standings ≤ 1 s.

``--keep DIR`` also keeps the database as it was before each round was paired
(``before_roundN.sqlite3``). ``--from DIR`` then re-measures on that event without building it
again, best of ``--runs`` (each run from a fresh copy): ``round pair --json`` of the rounds
``--pair`` against the core's pairing of the same round in this process, ``standings --json``
and the table against the core's standings, and ``round results`` of a whole round's sheet
(5,000 boards) against a tenth of it (linear: the ratio of the boards' times is about 10).
Trivial references in the same runs: ``python -c pass`` and ``weiqi version``.

Usage: ``python bench/cli_events.py [--players 10000] [--rounds 9] [--keep DIR] [--src DIR]``
or ``python bench/cli_events.py --from DIR [--runs 3] [--pair 2,6,8,9]``
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import round_sheet
from round_sheet import players_csv, weiqi


def sheet(round_json: str, ratings: dict[str, float], rng: random.Random) -> str:
    """A ``board,result`` CSV for a paired round: 2 % draws, 1 % both lose, else by rating."""
    lines = ["board,result"]
    for p in json.loads(round_json)["pairings"]:
        if p["result"] is not None:
            continue
        x = rng.random()
        if x < 0.01:
            code = "BL"
        elif x < 0.03:
            code = "0"
        else:
            p_black = 1 / (1 + math.pow(10, (ratings[p["white"]] - ratings[p["black"]]) / 400))
            code = "B+R" if rng.random() < p_black else "W+R"
        lines.append(f"{p['board']},{code}")
    return "\n".join(lines) + "\n"


def core_reference(db: str) -> tuple[float, float]:
    """CPU seconds of the core alone on the stored event: next pairing, standings."""
    sys.path.insert(0, str(round_sheet.SRC))
    from weiqi.services.tournament import _load  # the loading under test, not timed
    from weiqi.store.database import Database
    from weiqi.tournament.ranking import standings
    from weiqi.tournament.systems import system_for

    database = Database(f"sqlite:///{db}")
    with database.transaction() as session:
        event, _ = _load(session, 1)
    c0 = time.process_time()
    standings(event)
    t_standings = time.process_time() - c0
    last = event.__class__(event.settings, event.entrants, event.rounds[:-1], event.warnings)
    c0 = time.process_time()
    system_for(last.settings).next_round(last)
    t_pair = time.process_time() - c0
    database.dispose()
    return t_pair, t_standings


def run(folder: Path, players: int, rounds: int, snapshots: bool = False) -> None:
    db = str(folder / "event.sqlite3")
    _, start_wall, start_cpu = weiqi("version")
    print(f"start-up (weiqi version): {start_wall:.2f} s wall, {start_cpu:.2f} s CPU")
    weiqi("event", "create", "--db", db, "--name", "Bench", "--system", "swiss",
          "--rounds", str(rounds), "--avoid-same-club")  # fmt: skip
    text = players_csv(players, players)
    path = folder / "players.csv"
    path.write_text(text, encoding="utf-8")
    c0 = time.process_time()
    ratings = {r["name"]: float(r["rating"]) for r in csv.DictReader(io.StringIO(text))}
    t_csv = time.process_time() - c0
    out, wall, cpu = weiqi("player", "import", "--db", db, str(path))
    assert f"imported {players} players" in out, out
    print(
        f"player import of {players:,}: {wall:.2f} s wall, {cpu:.2f} s CPU "
        f"(csv reading alone {t_csv:.3f} s; {cpu / start_cpu:.1f}× the start-up)"
    )
    rng = random.Random(2026)
    pair_wall: list[float] = []
    pair_cpu: list[float] = []
    for r in range(1, rounds + 1):
        if snapshots:  # the database before this round is paired, to re-measure one round
            shutil.copyfile(db, folder / f"before_round{r}.sqlite3")
        out, wall, cpu = weiqi("round", "pair", "--db", db, "--json")
        pair_wall.append(wall)
        pair_cpu.append(cpu)
        sheet_path = folder / f"round{r}.csv"
        sheet_path.write_text(sheet(out, ratings, rng), encoding="utf-8")
        _out2, s_wall, s_cpu = weiqi("round", "results", "--db", db, "--round", str(r),
                                    str(sheet_path))  # fmt: skip
        boards = len(json.loads(out)["pairings"])
        print(
            f"round {r}: pair {wall:.2f} s wall, {cpu:.2f} s CPU; "
            f"results of {boards:,} boards {s_wall:.2f} s wall, {s_cpu:.2f} s CPU"
        )
    out, st_wall, st_cpu = weiqi("standings", "--db", db, "--json")
    assert len(json.loads(out)) == players
    _, tb_wall, tb_cpu = weiqi("standings", "--db", db)
    core_pair, core_standings = core_reference(db)
    print(
        f"pairing, rounds 1–{rounds}: worst {max(pair_wall):.2f} s wall, "
        f"{max(pair_cpu):.2f} s CPU; last round {pair_wall[-1]:.2f} s wall, "
        f"{pair_cpu[-1]:.2f} s CPU = {pair_cpu[-1] / core_pair:.2f}× the core's "
        f"{core_pair:.2f} s CPU (target ≤ 10 s wall)"
    )
    print(
        f"standings --json of {players:,} × {rounds} rounds: {st_wall:.2f} s wall, "
        f"{st_cpu:.2f} s CPU = {st_cpu / core_standings:.2f}× the core's {core_standings:.2f} s "
        f"CPU (target ≤ 1 s); as a table {tb_wall:.2f} s wall, {tb_cpu:.2f} s CPU"
    )
    print(f"ratio {st_cpu / core_standings:.2f}")


def python_pass() -> tuple[float, float]:
    """Wall and CPU seconds of ``python -c pass`` (the interpreter's own start)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True, env=dict(os.environ))
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def core_round(db: Path) -> tuple[float, float]:
    """CPU seconds of the core alone on a stored event: its next pairing, its standings."""
    sys.path.insert(0, str(round_sheet.SRC))
    from weiqi.services.tournament import _load  # the loading under test, not timed
    from weiqi.store.database import Database
    from weiqi.tournament.ranking import standings
    from weiqi.tournament.systems import system_for

    database = Database(f"sqlite:///{db}")
    with database.transaction() as session:
        event, _ = _load(session, 1)
    database.dispose()
    c0 = time.process_time()
    standings(event)
    t_standings = time.process_time() - c0
    if event.settings.rounds is not None and len(event.rounds) >= event.settings.rounds:
        return 0.0, t_standings
    c0 = time.process_time()
    system_for(event.settings).next_round(event)
    return time.process_time() - c0, t_standings


def best(runs: int, command: object) -> tuple[float, float]:
    """The lowest wall and the lowest CPU seconds of ``runs`` calls of ``command``."""
    assert callable(command)
    times = [command() for _ in range(runs)]
    return min(t[0] for t in times), min(t[1] for t in times)


def remeasure(folder: Path, runs: int, pair_rounds: list[int]) -> None:
    """The figures of the kept event in ``folder``, best of ``runs``, each with its ratio."""
    db = folder / "event.sqlite3"
    work = Path(tempfile.mkdtemp(prefix="cli_events_"))
    # the site key lives beside the database (store.site_key): the copies need it to verify
    key = folder / "weiqi.key"
    if key.exists():
        shutil.copy2(key, work / "weiqi.key")
    try:
        py_wall, py_cpu = best(runs, python_pass)
        up_wall, up_cpu = best(runs, lambda: weiqi("version")[1:])
        print(f"python -c pass: {py_wall:.3f} s wall, {py_cpu:.3f} s CPU")
        print(
            f"start-up (weiqi version): {up_wall:.2f} s wall, {up_cpu:.2f} s CPU "
            f"= {up_wall / py_wall:.1f}× python -c pass"
        )
        copy = work / "event.sqlite3"
        for r in pair_rounds:
            snapshot = folder / f"before_round{r}.sqlite3"
            core, _ = core_round(snapshot)

            def pair_once(snapshot: Path = snapshot) -> tuple[float, float]:
                shutil.copyfile(snapshot, copy)
                return weiqi("round", "pair", "--db", str(copy), "--json")[1:]

            wall, cpu = best(runs, pair_once)
            print(
                f"round pair, round {r}: {wall:.2f} s wall, {cpu:.2f} s CPU = {cpu / core:.2f}× "
                f"the core's {core:.2f} s CPU (target ≤ 10 s wall)"
            )
        _, core_standings = core_round(db)
        st_wall, st_cpu = best(runs, lambda: weiqi("standings", "--db", str(db), "--json")[1:])
        tb_wall, tb_cpu = weiqi("standings", "--db", str(db))[1:]
        print(
            f"standings --json: {st_wall:.2f} s wall, {st_cpu:.2f} s CPU = "
            f"{st_cpu / core_standings:.2f}× the core's {core_standings:.2f} s CPU, "
            f"{st_wall / py_wall:.0f}× python -c pass (target ≤ 1 s); as a table "
            f"{tb_wall:.2f} s wall, {tb_cpu:.2f} s CPU"
        )
        last = max(
            int(p.stem.removeprefix("before_round")) for p in folder.glob("before_round*.sqlite3")
        )
        sheet_text = (folder / f"round{last}.csv").read_text(encoding="utf-8").splitlines()
        tenth = work / "tenth.csv"
        tenth.write_text("\n".join(sheet_text[: 1 + (len(sheet_text) - 1) // 10]) + "\n")
        whole = work / "whole.csv"
        whole.write_text("\n".join(sheet_text) + "\n")
        figures = {}
        for name, path in (("tenth", tenth), ("whole", whole)):

            def results_once(path: Path = path) -> tuple[float, float]:
                shutil.copyfile(folder / f"before_round{last}.sqlite3", copy)
                weiqi("round", "pair", "--db", str(copy), "--json")
                return weiqi("round", "results", "--db", str(copy), "--round", str(last),
                             str(path))[1:]  # fmt: skip

            figures[name] = best(runs, results_once)
        boards = len(sheet_text) - 1
        t_wall, t_cpu = figures["tenth"]
        w_wall, w_cpu = figures["whole"]
        print(
            f"round results: {boards // 10:,} boards {t_cpu:.2f} s CPU ({t_wall:.2f} s wall), "
            f"{boards:,} boards {w_cpu:.2f} s CPU ({w_wall:.2f} s wall); without the start-up "
            f"{(w_cpu - up_cpu) / max(t_cpu - up_cpu, 1e-9):.1f}× for 10× the boards"
        )
        print(f"ratio {st_cpu / core_standings:.2f}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--keep", type=Path, help="build the event in this folder and keep it")
    ap.add_argument("--src", type=Path, help="run the weiqi of this src/ folder instead")
    ap.add_argument("--from", dest="source", type=Path, help="re-measure a --keep folder")
    ap.add_argument("--runs", type=int, default=3, help="with --from: best of this many")
    ap.add_argument("--pair", default="2,6,8,9", help="with --from: the rounds to pair")
    args = ap.parse_args()
    if args.src is not None:
        round_sheet.SRC = args.src.resolve()
    if args.source is not None:
        remeasure(args.source, args.runs, [int(r) for r in args.pair.split(",")])
        return
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        (args.keep / "event.sqlite3").unlink(missing_ok=True)
        run(args.keep, args.players, args.rounds, snapshots=True)
        return
    with tempfile.TemporaryDirectory() as tmp:
        run(Path(tmp), args.players, args.rounds)


if __name__ == "__main__":
    main()
