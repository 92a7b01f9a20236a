"""``weiqi round edit`` (issue #13, "Pairing"): check an edit by hand, then make it with a
reason; a rematch is refused with a non-zero exit."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from weiqi.cli import app

runner = CliRunner()


def run(*args: str, code: int = 0) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == code, (result.output, result.exception)
    return result.output


def test_round_edit_checks_then_swaps_with_a_reason(tmp_path: Path) -> None:
    db = str(tmp_path / "club.sqlite3")
    players = tmp_path / "players.csv"
    players.write_text(
        "name,rank\n" + "".join(f"P{i},{5 - i}d\n" for i in range(4)), encoding="utf-8"
    )
    run("event", "create", "--db", db, "--name", "Club", "--system", "swiss", "--rounds", "3")
    run("player", "import", "--db", db, str(players))
    first = json.loads(run("round", "pair", "--db", db, "--json"))
    for p in first["pairings"]:
        run("round", "result", "--db", db, "--round", "1", "--board", str(p["board"]), "B+R")
    second = json.loads(run("round", "pair", "--db", db, "--json"))
    met = first["pairings"][0]
    game = next(p for p in second["pairings"] if met["black"] in (p["black"], p["white"]))
    seat = game["white"] if game["black"] == met["black"] else game["black"]
    refused = json.loads(
        run("round", "edit", "swap", seat, met["white"], "--db", db, "--json", "--reason", "x",
            code=1)
    )  # fmt: skip
    assert refused["refused"] and not refused["applied"]
    assert "the Swiss rules allow no rematch" in refused["problems"][0]["message"]
    one, two = second["pairings"]
    checked = run("round", "edit", "table", one["black"], "--board", "2", "--db", db)
    assert "breaks no pairing rule" in checked and "checked only" in checked
    done = run("round", "edit", "table", one["black"], "--board", "2", "--db", db,
               "--reason", "wheelchair access")  # fmt: skip
    assert f"move {one['black']} to board 2" in done
    shown = json.loads(run("round", "show", "--db", db, "--round", "2", "--json"))
    assert shown["pairings"][1]["black"] == one["black"]
    assert shown["pairings"][0]["black"] == two["black"]
