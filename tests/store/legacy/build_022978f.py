"""Build the database of ``legacy_022978f.sqlite3`` with the command line of commit 022978f.

The migration test (``tests/store/test_legacy_upgrade.py``) upgrades a copy of that database
with today's code and compares what today's code reads with what 022978f's code read from it
(``legacy_022978f.json``, written here). This script is run with 022978f's code, not today's::

    git archive 022978f src | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old/src python tests/store/legacy/build_022978f.py tests/store/legacy

It uses that commit's CLI for everything the CLI could do then (every individual system, team
round robin, Swiss, knockout and 擂台赛, a league season closed and its 摘牌 draft, warnings,
withdrawals, lineups), and its services for what only the pages did then (a referee's
infraction ruling and the chief referee's correction, by a named user). The file is committed:
it is the old schema as that code left it, which today's code can no longer write.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from pathlib import Path

from typer.testing import CliRunner

from weiqi.cli import app

OUT = Path(sys.argv[1] if len(sys.argv) > 1 else ".")  # run as a script only (see above)
DB = OUT / "legacy_022978f.sqlite3"
RUN = CliRunner()
TMP = OUT / "_build"


def weiqi(*args: str) -> str:
    """Run one command of 022978f's CLI on the database; stop on any failure."""
    result = RUN.invoke(app, [*args, "--db", f"sqlite:///{DB}"])
    if result.exit_code != 0:
        raise SystemExit(f"weiqi {' '.join(args)} failed:\n{result.output}\n{result.exception!r}")
    return result.output


def weiqi_json(*args: str) -> object:
    return json.loads(weiqi(*args, "--json"))


def csv(name: str, text: str) -> str:
    TMP.mkdir(exist_ok=True)
    path = TMP / name
    path.write_text(text, encoding="utf-8")
    return str(path)


PLAYERS = [
    ("张伟", "5d", 2400, "北京", "CN", "1990-03-01"),
    ("李娜", "4d", 2300, "上海", "CN", "1992-05-02"),
    ("王芳", "3d", 2200, "北京", "CN", "1988-07-03"),
    ("刘洋", "3d", 2190, "天津", "CN", "1995-01-04"),
    ("陈静", "2d", 2100, "上海", "CN", "1999-02-05"),
    ("杨磊", "1d", 2000, "天津", "CN", "2001-03-06"),
    ("赵敏", "1k", 1900, "广州", "CN", "1985-04-07"),
    ("黄强", "2k", 1800, "广州", "CN", "1980-05-08"),
    ("周杰", "3k", 1700, "深圳", "CN", "1979-06-09"),
    ("吴刚", "4k", 1600, "深圳", "CN", "1970-07-10"),
]


def players_csv(n: int) -> str:
    rows = ["name,rank,rating,club,country,birth_date"]
    rows += [",".join(str(v) for v in p) for p in PLAYERS[:n]]
    return csv(f"players{n}.csv", "\n".join(rows) + "\n")


RESULTS = ["B+R", "W+1.5", "B+3.5", "W+R", "B+T", "W+F", "B+0.5", "W+R"]


def play_round(rnd: dict[str, object], results: list[str] | None = None) -> None:
    pairings = rnd["pairings"]
    assert isinstance(pairings, list)
    for i, p in enumerate(pairings):
        code = (results or RESULTS)[i % len(results or RESULTS)]
        weiqi("round", "result", "--round", str(rnd["round"]), "--board", str(p["board"]), code)


def individual(name: str, system: str, n: int, rounds: int | None, *extra: str) -> int:
    args = ["event", "create", "--name", name, "--system", system, *extra]
    if rounds:
        args += ["--rounds", str(rounds)]
    created = weiqi_json(*args)
    assert isinstance(created, dict)
    weiqi("player", "import", players_csv(n))
    return int(created["id"])


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    if DB.exists():
        DB.unlink()
    os.environ.pop("WEIQI_DATABASE_URL", None)
    weiqi("db", "upgrade")
    weiqi("users", "add", "referee1", "--password", "legacy-referee-pass")
    weiqi("users", "add", "chief1", "--password", "legacy-chief-pass")
    events: dict[str, int] = {}

    # -- individual events: every system ------------------------------------------------------
    events["round_robin"] = individual("循环赛", "round-robin", 5, None, "--tiebreaks", "SB,WARN")
    for _ in range(5):
        play_round(weiqi_json("round", "pair"))  # type: ignore[arg-type]
    weiqi("player", "warn", "陈静")

    events["double_round_robin"] = individual("双循环", "double-round-robin", 4, None)
    for _ in range(6):
        play_round(weiqi_json("round", "pair"), ["W+R", "B+2.5", "0"])  # type: ignore[arg-type]

    events["knockout"] = individual("淘汰赛", "knockout", 8, None)
    for _ in range(3):
        play_round(weiqi_json("round", "pair"), ["B+R", "W+R"])  # type: ignore[arg-type]

    events["double_elimination"] = individual("双败淘汰", "double-elimination", 6, None)
    for _ in range(3):
        play_round(weiqi_json("round", "pair"), ["B+R", "W+4.5"])  # type: ignore[arg-type]

    events["swiss"] = individual("瑞士制", "swiss", 9, 4, "--tiebreaks", "SOS,SB,CUSS")
    # what only the pages could do at 022978f: a ruling and a correction by named users
    from weiqi.services import games
    from weiqi.services.accounts import user_named
    from weiqi.services.actor import Actor
    from weiqi.store.database import Database

    for user, role in (("referee1", "referee"), ("chief1", "chief_referee")):
        weiqi("users", "grant", user, str(events["swiss"]), role)
    db = Database(f"sqlite:///{DB}")
    referee, chief = user_named(db, "referee1"), user_named(db, "chief1")
    as_referee = Actor(referee.id, referee.username)
    as_chief = Actor(chief.id, chief.username)
    for r in range(4):
        if r == 2:
            weiqi("player", "withdraw", "周杰")
        rnd = weiqi_json("round", "pair")
        if r == 3:  # before the result: a confirmed game takes no ruling
            games.record_infraction(
                db, as_referee, events["swiss"], 4, 1, "phone_ringing", "B", note="手机响了"
            )
        play_round(rnd, ["B+R", "Void", "W+1.5", "BL", "B+F", "W+R"])  # type: ignore[arg-type]
    games.correct_result(db, as_chief, events["swiss"], 2, 1, "W+2.5", "记录员记错了结果")
    db.dispose()
    weiqi("player", "warn", "张伟")

    events["swiss_knockout"] = individual("瑞士加淘汰", "swiss-knockout", 8, 3, "--losses", "2")
    for _ in range(2):
        play_round(weiqi_json("round", "pair"))  # type: ignore[arg-type]

    events["mcmahon"] = individual(
        "麦克马洪",
        "mcmahon",
        10,
        3,
        "--mcmahon-bar",
        "3d",
        "--mcmahon-floor",
        "2k",
        "--colours",
        "handicap",
        "--tiebreaks",
        "SOS,SOSOS",
    )
    for _ in range(3):
        play_round(weiqi_json("round", "pair"), ["B+R", "W+0.5", "B+6.5", "W+T"])  # type: ignore[arg-type]

    events["match"] = individual("三番棋", "match", 2, None, "--best-of", "3")
    for code in ("B+R", "B+R", "W+1.5"):  # colours alternate: one win each, then the decider
        play_round(weiqi_json("round", "pair"), [code])  # type: ignore[arg-type]

    # -- team events ---------------------------------------------------------------------------
    teams = ["team,name,rank,rating,nationality"]
    for t, team in enumerate(("Tianjin", "Beijing", "Shanghai", "Chengdu")):
        for k in range(3):
            teams.append(f"{team},{team}{k + 1},{5 - k}d,{2400 - 100 * k - 10 * t},CN")
    teams_file = csv("teams.csv", "\n".join(teams) + "\n")

    def team_round(number: int, start: str, codes: list[str]) -> None:
        weiqi("team", "round", "pair", "--start", start)
        shown = weiqi_json("team", "round", "show", "--round", str(number))
        assert isinstance(shown, dict)
        for match in shown["matches"]:
            for side in ("home", "away"):
                team = match[side]
                if team is None:
                    continue
                weiqi(
                    "team",
                    "lineup",
                    "--round",
                    str(number),
                    "--team",
                    team,
                    ",".join(f"{team}{k}" for k in (1, 2, 3)),
                    "--at",
                    "2026-04-01T00:00Z",
                )
        weiqi("team", "round", "reveal", "--round", str(number), "--at", start)
        for match in shown["matches"]:
            if match["away"] is None:
                continue
            for board in (1, 2, 3):
                code = codes[(board + number) % len(codes)]
                weiqi(
                    "team",
                    "round",
                    "result",
                    "--round",
                    str(number),
                    "--team",
                    match["home"],
                    "--board",
                    str(board),
                    code,
                )

    created = weiqi_json(
        "team", "event", "create", "--name", "团体循环", "--system", "round_robin", "--boards", "3"
    )
    assert isinstance(created, dict)
    events["team_round_robin"] = int(created["id"])
    weiqi("team", "import", teams_file)
    for r in range(1, 4):
        team_round(r, f"2026-05-0{r}T09:00Z", ["B+R", "W+R", "B+1.5"])

    created = weiqi_json(
        "team",
        "event",
        "create",
        "--name",
        "团体瑞士",
        "--system",
        "swiss",
        "--rounds",
        "2",
        "--boards",
        "3",
    )
    assert isinstance(created, dict)
    events["team_swiss"] = int(created["id"])
    weiqi("team", "import", teams_file)
    for r in range(1, 3):
        team_round(r, f"2026-06-0{r}T09:00Z", ["W+R", "B+R", "W+3.5"])

    created = weiqi_json(
        "team",
        "event",
        "create",
        "--name",
        "擂台赛",
        "--system",
        "winner_stays_on",
        "--boards",
        "3",
        "--order",
        "chosen",
    )
    assert isinstance(created, dict)
    events["winner_stays_on"] = int(created["id"])
    two = "\n".join(t for t in teams if not t.startswith(("Shanghai", "Chengdu"))) + "\n"
    weiqi("team", "import", csv("two_teams.csv", two))
    weiqi("team", "round", "pair", "--start", "2026-07-01T09:00Z")
    for team in ("Tianjin", "Beijing"):
        weiqi(
            "team",
            "lineup",
            "--round",
            "1",
            "--team",
            team,
            ",".join(f"{team}{k}" for k in (3, 2, 1)),
            "--at",
            "2026-04-01T00:00Z",
        )
    weiqi("team", "round", "reveal", "--round", "1", "--at", "2026-07-01T09:00Z")
    for team, player in (("Tianjin", "Tianjin3"), ("Beijing", "Beijing3")):
        weiqi("team", "winner-stays-on", "send", "--team", team, player)
    weiqi("team", "winner-stays-on", "result", "B+R")
    weiqi("team", "winner-stays-on", "send", "--team", "Tianjin", "Tianjin2")
    weiqi("team", "winner-stays-on", "result", "W+1.5")

    # -- a league season, closed, and its draft -------------------------------------------------
    divisions = []
    for label, clubs in (
        ("甲", ("Jiangsu", "Hangzhou", "Chongqing", "Xiamen")),
        ("乙", ("Shenzhen", "Guangzhou", "Wuhan", "Changsha")),
    ):
        rows = ["team,name,rank,rating,nationality"]
        for c, club in enumerate(clubs):
            for k in range(5):
                nat = "KR" if k == 4 and c == 0 else "CN"
                rows.append(f"{club},{club}{k + 1},{6 - k}d,{2500 - 50 * k - 7 * c},{nat}")
        divisions.append(f"{label}={csv(label + '.csv', chr(10).join(rows) + chr(10))}")
    season = weiqi_json(
        "league",
        "create",
        "--name",
        "2026",
        "--division",
        divisions[0],
        "--division",
        divisions[1],
        "--start",
        "2026-03-07",
        "--boards",
        "3",
        "--min-roster",
        "4",
        "--max-roster",
        "6",
        "--home-nationality",
        "CN",
    )
    assert isinstance(season, dict)
    for label in ("甲", "乙"):
        calendar = weiqi_json("league", "calendar", "--division", label)
        assert isinstance(calendar, dict | list)
        rounds = calendar["rounds"] if isinstance(calendar, dict) else calendar
        for rnd in rounds:
            number = int(rnd["round"])
            for match in rnd["fixtures"]:
                for club in (match["home"], match["away"]):
                    weiqi(
                        "league",
                        "lineup",
                        "--division",
                        label,
                        "--round",
                        str(number),
                        "--club",
                        club,
                        ",".join(f"{club}{k}" for k in (1, 2, 3)),
                        "--at",
                        "2026-01-01T00:00Z",
                    )
            weiqi(
                "league",
                "reveal",
                "--division",
                label,
                "--round",
                str(number),
                "--at",
                "2026-12-31T00:00Z",
            )
            lines = ["club,board,result"]
            for m, match in enumerate(rnd["fixtures"]):
                for board in (1, 2, 3):
                    lines.append(f"{match['home']},{board},{RESULTS[(m + board + number) % 8]}")
            weiqi(
                "league",
                "results",
                "--division",
                label,
                "--round",
                str(number),
                csv(f"l{label}{number}.csv", "\n".join(lines) + "\n"),
            )
    weiqi("league", "close-season")
    draft = weiqi_json("draft", "start", "--base", "4")
    assert isinstance(draft, dict)
    weiqi("draft", "protect", "--club", "Jiangsu", "Jiangsu1,Jiangsu2,Jiangsu3,Jiangsu4")
    weiqi("draft", "protect", "--club", "Changsha", "Changsha1,Changsha2,Changsha3,Changsha4")

    # -- what 022978f's code reads from it --------------------------------------------------------
    before: dict[str, object] = {"events": events}
    for kind, event_id in events.items():
        e = str(event_id)
        if kind.startswith("team") or kind == "winner_stays_on":
            if kind == "winner_stays_on":  # a winner, not a table
                before[kind] = {"show": weiqi_json("team", "winner-stays-on", "show", "--event", e)}
            else:
                before[kind] = {"standings": weiqi_json("team", "standings", "--event", e)}
                info = weiqi_json("team", "event", "show", "--event", e)
                before[kind]["rounds"] = [  # type: ignore[index]
                    weiqi_json("team", "round", "show", "--event", e, "--round", str(r))
                    for r in range(1, int(info["rounds_paired"]) + 1)  # type: ignore[index]
                ]
        else:
            info = weiqi_json("event", "show", "--event", e)
            before[kind] = {
                "standings": weiqi_json("standings", "--event", e),
                "rounds": [
                    weiqi_json("round", "show", "--event", e, "--round", str(r))
                    for r in range(1, int(info["rounds_paired"]) + 1)  # type: ignore[index]
                ],
            }
    for label in ("甲", "乙"):
        before[f"league_{label}"] = weiqi_json("league", "table", "--division", label)
    before["draft"] = weiqi_json("draft", "show")
    con = sqlite3.connect(DB)
    before["game_records"] = {
        str(gid): {"record_json": rj, "head": head}
        for gid, rj, head in con.execute("SELECT game_id, record_json, head FROM game_records")
    }
    con.close()
    (OUT / "legacy_022978f.json").write_text(
        json.dumps(before, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    for f in TMP.iterdir():
        f.unlink()
    TMP.rmdir()


if __name__ == "__main__":
    main()
