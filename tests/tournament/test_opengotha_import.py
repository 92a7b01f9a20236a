"""``weiqi import opengotha`` / ``export opengotha`` through the services and the command line,
on SQLite and PostgreSQL (issue #14): the event, its players with their absences, its rounds as
they were paired and played; export then import gives the same event."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import func, select
from typer.testing import CliRunner

from weiqi.cli import app
from weiqi.errors import InputError
from weiqi.formats.opengotha import read_gotha
from weiqi.formats.opengotha_event import to_event
from weiqi.services.actor import Actor
from weiqi.services.interchange import export_opengotha, exported_event, import_opengotha
from weiqi.services.tournament import event_standings, show_round
from weiqi.store.database import Database
from weiqi.store.tournament import AbsenceRow, GameRow

DATA = Path(__file__).parent.parent / "data" / "opengotha"
LOCAL = Actor.local()


def _comparable(event_id: int, db: Database) -> tuple[object, ...]:
    """The event without our ids: names instead of player ids."""
    ev = exported_event(db, LOCAL, event_id)
    names = {e.id: e.name for e in ev.entrants}
    return (
        ev.settings,
        ev.details,
        sorted((e.name, e.rank, e.rating, e.club, sorted(e.absent_rounds)) for e in ev.entrants),
        [
            (
                r.number,
                sorted(
                    (g.board, names[g.black], names[g.white], g.handicap, str(g.result))
                    for g in r.games
                ),
                sorted(names[p] for p in r.byes),
            )
            for r in ev.rounds
        ],
    )


def test_juvisy_imports_with_absences_and_published_rounds(db: Database) -> None:
    report = import_opengotha(db, LOCAL, (DATA / "juvisy-2019.xml").read_bytes())
    assert (report.name, report.players, report.rounds, report.games) == (
        "Tournoi de Juvisy",
        19,
        4,
        36,
    )
    with db.transaction() as session:
        assert (
            session.scalar(select(func.count()).select_from(AbsenceRow)) == 4
        )  # Daguenet 3, Vargas 1
        assert session.scalar(select(func.count()).where(GameRow.confirmed)) == 36
    rnd = show_round(db, report.event_id, 4)
    assert len(rnd.pairings) == 9
    table = event_standings(db, report.event_id)
    # OpenGotha's places (juvisy-2019.h9): Minieri, Daguenet (absent 3 rounds), Lemoine
    assert [s.name for s in table[:3]] == ["Minieri Davide", "Daguenet Mathieu", "Lemoine Theo"]
    assert table[0].points == 72  # MMS 36, at 2 points a win


def test_the_days_venue_and_time_control_come_in_and_go_out(db: Database) -> None:
    """juvisy-2019's days and venue become the event's details, its time control (60 minutes,
    then OpenGotha's standard byo-yomi: 30 s a move) its setting: printed on its sheets, run by
    the game room; the export writes them back where OpenGotha reads them."""
    from weiqi.clock.control import TimeControl
    from weiqi.services.events import competition_info

    report = import_opengotha(db, LOCAL, (DATA / "juvisy-2019.xml").read_bytes())
    info = competition_info(db, report.event_id)
    assert (str(info.details.start_date), str(info.details.end_date)) == (
        "2019-10-26",
        "2019-10-28",
    )
    assert info.details.venue == "Juvisy"
    assert info.settings.time_control == TimeControl.byo_yomi(3600, 1, 30)
    general = read_gotha(export_opengotha(db, LOCAL, report.event_id)).general
    assert (general["beginDate"], general["endDate"], general["location"]) == (
        "2019-10-26",
        "2019-10-28",
        "Juvisy",
    )
    assert (general["basicTime"], general["complementaryTimeSystem"]) == ("60", "STDBYOYOMI")
    assert general["stdByoYomiTime"] == "30"


@pytest.mark.parametrize("name", ["open-2018", "tournoi-chinois", "testpartetlic"])
def test_export_then_import_gives_the_same_event(db: Database, name: str) -> None:
    first = import_opengotha(db, LOCAL, (DATA / f"{name}.xml").read_bytes())
    data = export_opengotha(db, LOCAL, first.event_id)
    assert to_event(read_gotha(data)).rounds  # a file OpenGotha's format reads
    second = import_opengotha(db, LOCAL, data)
    assert _comparable(second.event_id, db) == _comparable(first.event_id, db)


def test_a_bad_file_changes_nothing(db: Database) -> None:
    with pytest.raises(InputError, match="not well-formed XML"):
        import_opengotha(db, LOCAL, b"<Tournament>")
    from weiqi.services.events import list_events

    assert list_events(db) == []


def test_the_command_line_imports_and_exports(tmp_path: Path) -> None:
    """The commands a user runs, with ``--json``: the notes name what was not imported."""
    runner = CliRunner()
    db = str(tmp_path / "club.sqlite3")
    result = runner.invoke(
        app, ["import", "opengotha", str(DATA / "cml-2019-d2.xml"), "--db", db, "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert (report["players"], report["rounds"], report["games"]) == (83, 5, 180)
    assert report["notes"] == ["the file's 18 teams are not imported (individual standings only)"]
    out = tmp_path / "back.xml"
    result = runner.invoke(app, ["export", "opengotha", str(out), "--db", db])
    assert result.exit_code == 0, result.output
    again = runner.invoke(app, ["import", "opengotha", str(out), "--db", db, "--json"])
    assert json.loads(again.output)["games"] == 180
    missing = runner.invoke(app, ["import", "opengotha", str(tmp_path / "none.xml"), "--db", db])
    assert missing.exit_code != 0


def test_the_egf_table_of_an_imported_chinese_event(db: Database) -> None:
    """Chinese names go to the EGF in pinyin, surname first, never as ``?``; the database
    keeps the original names."""
    from weiqi.services.interchange import export_egf

    report = import_opengotha(db, LOCAL, (DATA / "tournoi-chinois.xml").read_bytes())
    text = export_egf(db, LOCAL, report.event_id).decode("iso-8859-15")
    assert "Gao Chuande" in text and "Ma Chao" in text and " ? " not in text
    assert "高传德" in {s.name for s in event_standings(db, report.event_id)}
    with pytest.raises(InputError, match="round: must be between 1 and 1"):
        export_egf(db, LOCAL, report.event_id, through_round=7)
