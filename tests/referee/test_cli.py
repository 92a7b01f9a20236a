"""``weiqi nigiri`` and ``weiqi record …`` (R-COLOR-1, record integrity, SGF export)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from weiqi.cli import app
from weiqi.errors import InputError
from weiqi.referee.events import InfractionRuled
from weiqi.referee.infractions import Infraction, InfractionKind
from weiqi.referee.record import GameRecord

from .scripts import KO, REF, WALLS, B, new_game, pass_and_count, play

runner = CliRunner()


def _game(tmp_path: Path) -> Path:
    rec, clock = new_game()
    play(rec, clock, WALLS[:2])
    rec.append(InfractionRuled(Infraction(InfractionKind.CLOCK_BEFORE_MOVE, B)), REF, clock())
    play(rec, clock, WALLS[2:])
    pass_and_count(rec, clock)
    path = tmp_path / "game.json"
    path.write_text(rec.to_json(), encoding="utf-8")
    return path


def test_r_color_1_nigiri_command_is_reproducible_from_its_seed() -> None:
    """R-COLOR-1: same players, guess and seed give the same nigiri."""
    args = ["nigiri", "Li 5d 1990-03-01", "Wang 5d 1985-07-09", "--guess", "odd", "--seed", "7"]
    first = runner.invoke(app, [*args, "--json"])
    assert first.exit_code == 0, first.output
    facts = json.loads(first.output)
    assert facts["holder"] == "Wang" and facts["seed"] == 7
    assert json.loads(runner.invoke(app, [*args, "--json"]).output) == facts
    table = runner.invoke(app, args)
    assert "Wang" in table.output and str(facts["count"]) in table.output


def test_record_verify_prints_the_penalised_result(tmp_path: Path) -> None:
    """R-PEN-1 through the command line: the warned winner by ¼ loses by ¾."""
    result = runner.invoke(app, ["record", "verify", str(_game(tmp_path)), "--json"])
    assert result.exit_code == 0, result.output
    facts = json.loads(result.output)
    assert facts["result"] == "W+1.5" and facts["result_zh"] == "白胜3/4子"
    assert facts["warnings"] == {"B": 1, "W": 0} and facts["events"] == 16
    path = str(tmp_path / "game.json")
    again = runner.invoke(app, ["record", "verify", path, "--head", facts["head"]])
    assert again.exit_code == 0, again.output
    wrong = runner.invoke(app, ["record", "verify", path, "--head", "0" * 64])
    assert isinstance(wrong.exception, InputError)


def test_record_verify_rejects_a_tampered_file_naming_the_event(tmp_path: Path) -> None:
    path = _game(tmp_path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["entries"][3]["event"]["infraction"]["offender"] = "W"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = runner.invoke(app, ["record", "verify", str(path)])
    assert isinstance(result.exception, InputError)
    assert (
        result.exception.message
        == f"{path}: event 3 (infraction): altered: its hash does not match its content"
    )


def test_record_show_and_sgf(tmp_path: Path) -> None:
    path = _game(tmp_path)
    shown = runner.invoke(app, ["record", "show", str(path)])
    assert shown.exit_code == 0, shown.output
    assert "infraction" in shown.output and "C1" in shown.output
    out = tmp_path / "game.sgf"
    exported = runner.invoke(app, ["record", "sgf", str(path), "-o", str(out)])
    assert exported.exit_code == 0, exported.output
    text = out.read_text(encoding="utf-8")
    assert "RE[W+1.5]" in text and "着子前按钟" in text


def test_a_referee_keeps_a_record_from_the_command_line(tmp_path: Path) -> None:
    """R-REF-5 through the command line: new record, moves, a void ko capture in strict mode,
    then a resignation as a JSON event; the file stays a valid, chained record."""
    path = tmp_path / "g.json"
    new = ["record", "new", str(path), "--black", "Li", "--white", "Wang", "--referee", "r1"]
    made = runner.invoke(app, [*new, "--size", "5", "--mode", "strict", "--at", "0"])
    assert made.exit_code == 0, made.output
    again = runner.invoke(app, new)
    assert isinstance(again.exception, InputError)
    for i, (color, vertex) in enumerate(zip("BWBWBWB", [*KO, "B1"], strict=True)):
        done = runner.invoke(app, ["record", "play", str(path), color, vertex, "--at", str(i + 1)])
        assert done.exit_code == 0, done.output
    assert "警告 黑1" in done.output
    resign = runner.invoke(app, ["record", "append", str(path), "W", '{"kind": "resign"}'])
    assert resign.exit_code == 0, resign.output
    record = GameRecord.from_json(path.read_text(encoding="utf-8"))
    s = record.state
    assert [v.reason for v in s.void_moves] == ["ko_without_threat"]
    assert s.result is not None and s.result.to_zh() == "黑中盘胜"
    bad = runner.invoke(app, ["record", "append", str(path), "W", '{"kind": "move"}'])
    assert isinstance(bad.exception, InputError)
    assert bad.exception.message == "event (move): missing field 'point'"
