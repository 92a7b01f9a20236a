"""Filling an event from a rating list: 2,000 players from a 50,000-line EGD list, against a
bare parse of the same list.

The list is made here, in the EGD's "allworld" layout, from a fixed seed: ``--entries`` players
(50,000) with surnames and given names of random syllables (a tenth Chinese in pinyin, some
names shared by several entries, as in the real list), grades 20k…9d and 1p…9p, a few odd lines.
The event (SQLite, a fresh copy each round) has ``--players`` (2,000) drawn from the list: half
with their EGF PIN, the others by name (a fifth of those given name first), and 5 % nobody
the list has.

- ours: ``read_rating_list`` + ``fill_from_rating_list(by="both")``, which commits the changes:
  the whole of ``weiqi player rating-list`` but the process start-up;
- the reference: ``read_rating_list`` alone, the bare parse of the same bytes.

Best of ``--rounds`` (3) alternating rounds. Last line: ``ratio X`` = ours ÷ the parse (the
cost of matching and writing 2,000 players, in parses of the list).

Usage::

    PYTHONPATH=src python bench/rating_lists.py
    PYTHONPATH=src python bench/rating_lists.py --entries 60000 --players 5000
"""

from __future__ import annotations

import argparse
import random
import shutil
import tempfile
import time
from pathlib import Path

from weiqi.formats.rating_lists import read_rating_list
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.rating_lists import fill_from_rating_list
from weiqi.services.tournament import import_players
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

SEED = 2026
SYLLABLES = [
    "ka",
    "ri",
    "mo",
    "sen",
    "ta",
    "lo",
    "vi",
    "der",
    "an",
    "ber",
    "ko",
    "na",
    "stein",
    "mar",
    "el",
    "ho",
    "sa",
    "gun",
    "tor",
    "li",
    "fi",
    "pe",
]
PINYIN = [
    "wang",
    "li",
    "zhang",
    "liu",
    "chen",
    "yang",
    "huang",
    "zhao",
    "wu",
    "zhou",
    "xu",
    "sun",
    "ma",
    "zhu",
    "hu",
    "guo",
    "he",
    "lin",
]
GIVEN = [
    "wei",
    "fang",
    "jun",
    "hao",
    "ming",
    "xiao",
    "long",
    "yu",
    "jie",
    "lei",
    "yan",
    "ting",
    "bo",
    "yang",
    "qiang",
]
GRADES = [f"{k}k" for k in range(20, 0, -1)] + [f"{d}d" for d in range(1, 10)]
PROS = [f"{p}p" for p in range(1, 10)]
COUNTRIES = ["DE", "RU", "FR", "CZ", "PL", "UK", "NL", "HU", "UA", "RO", "CN", "JP", "KR"]


def _word(rng: random.Random, parts: int) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(parts)).capitalize()


def make_list(entries: int, rng: random.Random) -> tuple[bytes, list[tuple[str, str, str]]]:
    """The list's bytes and its players as (PIN, surname, given name)."""
    lines = ["<html><body>", "(12 Mar 2025)", "<pre>"]
    people: list[tuple[str, str, str]] = []
    for n in range(entries):
        pin = str(10_000_000 + n * 7)
        if rng.random() < 0.1:
            surname = rng.choice(PINYIN).capitalize()
            given = rng.choice(GIVEN) + (rng.choice(GIVEN) if rng.random() < 0.7 else "")
            given = given.capitalize()
        else:
            surname, given = _word(rng, rng.randint(2, 4)), _word(rng, rng.randint(1, 3))
        grade = rng.choice(PROS) if rng.random() < 0.002 else rng.choice(GRADES)
        country = rng.choice(COUNTRIES)
        gor = rng.randint(-900, 2950)
        name = f"{surname} {given}"
        lines.append(
            f" {pin:>8}  {name:<37} {country:<2}  {_word(rng, 1)[:4]:<4} {grade:>5}  "
            f"{'--':>3} {gor:>6} {rng.randint(1, 90):>5}  T{rng.randint(100000, 250000)}A"
        )
        people.append((pin, surname, given))
        if n % 5000 == 0:
            lines.append(f" {pin}  Broken Line")
    lines += ["</pre>", "</body></html>"]
    return ("\n".join(lines) + "\n").encode(), people


def make_players(people: list[tuple[str, str, str]], count: int, rng: random.Random) -> str:
    rows = ["name,rank,egf_pin"]
    seen: set[str] = set()
    for pin, surname, given in rng.sample(people, count * 2):
        if len(rows) > count:
            break
        r = rng.random()
        if r < 0.05:
            name, pin_cell = f"Nobody {_word(rng, 3)}", ""
        elif r < 0.5:
            name, pin_cell = f"{surname} {given}", pin
        elif r < 0.6:
            name, pin_cell = f"{given} {surname}", ""
        else:
            name, pin_cell = f"{surname} {given}", ""
        if name in seen:
            continue
        seen.add(name)
        rows.append(f"{name},{rng.choice(GRADES)},{pin_cell}")
    return "\n".join(rows) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=50_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(SEED)
    data, people = make_list(args.entries, rng)
    csv = make_players(people, args.players, rng)
    local = Actor.local()
    with tempfile.TemporaryDirectory() as tmp:
        template = Path(tmp) / "template.sqlite3"
        db = Database(f"sqlite:///{template}")
        db.upgrade()
        event = create_event(db, local, "Bench", EventSettings(System.SWISS, rounds=5)).id
        import_players(db, local, event, csv)
        db.dispose()
        parse_best = fill_best = float("inf")
        report = None
        for n in range(args.rounds):
            start = time.perf_counter()
            listed = read_rating_list(data, "egd")
            parse_best = min(parse_best, time.perf_counter() - start)

            copy = Path(tmp) / f"round{n}.sqlite3"
            shutil.copy(template, copy)
            db = Database(f"sqlite:///{copy}")
            start = time.perf_counter()
            listed = read_rating_list(data, "egd")
            report = fill_from_rating_list(db, local, event, listed.players, by="both")
            fill_best = min(fill_best, time.perf_counter() - start)
            db.dispose()
    assert report is not None
    by_pin = sum(1 for m in report.matched if m.by == "pin")
    print(f"list: {args.entries} entries, {len(data) / 1e6:.1f} MB, {listed.skipped} odd lines")
    print(
        f"event: {args.players} players; matched {len(report.matched)} (by PIN {by_pin}), "
        f"ambiguous {len(report.ambiguous)}, not found {len(report.not_found)}, "
        f"changed {report.changed}"
    )
    print(f"parse alone:           {parse_best * 1000:8.0f} ms")
    print(f"parse + fill + commit: {fill_best * 1000:8.0f} ms")
    print(f"ratio {fill_best / parse_best:.2f}")


if __name__ == "__main__":
    main()
