"""``weiqi import opengotha`` and ``weiqi export opengotha|egf`` of a big event, end to end.

A 2,000-player, 10-round McMahon event is written as an OpenGotha file (``write_gotha``: every
player with rank, rating, club, country and participation flags, 1 in 50 absent from a round;
each round's games between random neighbours in the list, results by rating, handicaps by rank
difference), then imported into a fresh SQLite file with the real command, exported back, and
its EGF table written. Reference, in the same run on the same file: ``xml.etree`` parsing it
(what any reader of the file pays). Last line: ``ratio X`` = import wall time ÷ that parse.

Usage: ``python bench/opengotha.py [--players 2000] [--rounds 10]``
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from types import MappingProxyType

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from round_sheet import weiqi
from weiqi.formats.opengotha import GothaFile, GothaGame, GothaPlayer, player_key, write_gotha


def event_file(players: int, rounds: int, seed: int = 2026) -> bytes:
    rng = random.Random(seed)
    people = []
    for i in range(players):
        level = rng.randint(-20, 6)
        rank = f"{level}D" if level > 0 else f"{1 - level}K"
        flags = "".join("0" if rng.random() < 0.02 else "1" for _ in range(20))
        people.append(
            {
                "name": f"Name{i:05d}",
                "firstName": f"First{i % 97}",
                "rank": rank,
                "grade": rank,
                "rating": str(2100 + 100 * level + rng.randint(-50, 50)),
                "club": f"C{i // 8:03d}",
                "country": rng.choice(["FR", "DE", "CN", "CZ"]),
                "participating": flags,
                "registeringStatus": "FIN",
                "smmsCorrection": "0",
                "egfPin": str(10_000_000 + i),
            }
        )
    keys = [player_key(p["name"], p["firstName"]) for p in people]
    games = []
    for r in range(1, rounds + 1):
        present = [i for i, p in enumerate(people) if p["participating"][r - 1] == "1"]
        rng.shuffle(present)
        present.sort(key=lambda i: int(people[i]["rating"]) + rng.randint(-300, 300))
        for t, (a, b) in enumerate(zip(present[::2], present[1::2], strict=False), start=1):
            black_wins = rng.random() < 0.5
            games.append(
                GothaGame(
                    r,
                    t,
                    keys[a],
                    keys[b],
                    0,
                    "RESULT_BLACKWINS" if black_wins else "RESULT_WHITEWINS",
                )
            )
    general = {
        "name": "Big open",
        "numberOfRounds": str(rounds),
        "genMMBar": "4D",
        "genMMFloor": "20K",
        "genMMZero": "30K",
        "genMMS2ValueAbsent": "1",
        "genMMS2ValueBye": "2",
        "genRoundDownNBWMMS": "true",
        "komi": "7.5",
        "size": "19",
    }
    return write_gotha(
        GothaFile(
            root=MappingProxyType({"dataVersion": "201"}),
            players=tuple(GothaPlayer(MappingProxyType(p)) for p in people),
            games=tuple(games),
            parameters=MappingProxyType(
                {
                    "GeneralParameterSet": MappingProxyType(general),
                    "PlacementParameterSet": MappingProxyType({}),
                }
            ),
            placement=("MMS", "SOSM", "SOSOSM"),
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.xml"
        path.write_bytes(event_file(args.players, args.rounds))
        size = path.stat().st_size
        t0 = time.perf_counter()
        ET.parse(path)
        parse = time.perf_counter() - t0
        db = str(Path(tmp) / "big.sqlite3")
        out, wall, cpu = weiqi("import", "opengotha", str(path), "--db", db, "--json")
        print(f"file: {args.players} players, {args.rounds} rounds, {size / 1e6:.1f} MB")
        print(f"xml.etree parse (reference): {parse:.3f} s")
        print(f"weiqi import opengotha: {wall:.2f} s wall, {cpu:.2f} s CPU  {out.strip()}")
        _, ewall, _ = weiqi("export", "opengotha", str(Path(tmp) / "back.xml"), "--db", db)
        print(f"weiqi export opengotha: {ewall:.2f} s wall")
        _, hwall, _ = weiqi("export", "egf", str(Path(tmp) / "big.h9"), "--db", db)
        print(f"weiqi export egf: {hwall:.2f} s wall")
        print(f"ratio {wall / parse:.1f}")


if __name__ == "__main__":
    main()
