"""``weiqi standings`` read from an SQLite file without SQLAlchemy (issue #15: 10,000 players × 9
rounds ≤ 1 s through the command line) gives exactly what the ORM path gives (R-RANK-SWISS,
R-RANK-RR B): the same core event, the same standings, the same JSON — on an event with
namesakes, birth dates, a withdrawal, an absence, warnings on the player and in a game's record,
a bye, a draw, a both-lose, a forfeit and a margin. What it does not handle it leaves to the
usual path: a file behind the code's schema (migrated as before), a team event, a missing event.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from weiqi.cli import app
from weiqi.referee.signature import record_key
from weiqi.services import games
from weiqi.services.actor import Actor
from weiqi.services.event_admin import player_named
from weiqi.services.event_rows import read_event, sqlite_standings
from weiqi.services.events import create_event
from weiqi.services.tournament import (
    _load,
    add_warning,
    event_standings,
    import_players,
    pair_round,
    record_result,
    set_absent,
    show_round,
    withdraw_player,
)
from weiqi.store.database import Database
from weiqi.store.migrate import head_revision
from weiqi.store.plain import code_head, open_at_head, sqlite_secret
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()
PLAYERS = """name,rank,rating,club,country,birth_date,licence,pin
张伟,5d,2450,北京,CN,1990-03-01,,101
张伟,4d,2380,上海,CN,1992-07-02,,102
王芳,3d,,,CN,1990-01-01,A7,
王芳,3d,,,CN,1995-05-05,,
李明,2d,2100.5,北京,CN,,,
Alice,1k,1950,Paris,FR,,,
Bob,2k,,Paris,FR,1980-12-31,,
"""
RESULTS = ["B+R", "W+1.5", "0", "BL", "B+F", "W+R"]


def build_event(tmp_path: Path) -> tuple[str, Database, int]:
    url = f"sqlite:///{tmp_path / 'event.sqlite3'}"
    db = Database(url)
    db.upgrade()
    settings = EventSettings(
        system=System.SWISS, rounds=4, tiebreaks=("SOS", "SB", "SOSOS", "CUSS", "WARN")
    )
    event = create_event(db, LOCAL, "Club", settings).id
    import_players(db, LOCAL, event, PLAYERS)
    set_absent(db, LOCAL, event, player_named(db, event, "Alice"), [2])
    add_warning(db, LOCAL, event, "李明")
    for number in (1, 2, 3):
        paired = pair_round(db, LOCAL, event)
        if number == 1:  # a warning in a game's record (R-PEN-1)
            games.record_infraction(db, LOCAL, event, 1, 1, "clock_before_move", "B")
        for i, p in enumerate(paired.pairings):
            record_result(db, LOCAL, event, number, p.board, RESULTS[(i + number) % 6])
        if number == 2:
            withdraw_player(db, LOCAL, event, "Bob")
    pair_round(db, LOCAL, event)  # round 4 outstanding: met, not scored
    assert show_round(db, event, 3).byes or show_round(db, event, 1).byes
    return url, db, event


def test_the_plain_reader_loads_the_event_the_orm_loads(tmp_path: Path) -> None:
    url, db, event = build_event(tmp_path)
    with db.transaction() as session:
        orm_event, orm_players = _load(session, event)
    connection = open_at_head(url)
    assert connection is not None
    secret = sqlite_secret(connection, url)
    assert secret is not None
    loaded = read_event(connection, event, record_key(secret))
    connection.close()
    assert loaded is not None
    plain_event, plain_players = loaded
    assert plain_event == orm_event
    # the extra columns (not compared by Entrant's equality) and what labels read
    assert [e.extra for e in plain_event.entrants] == [e.extra for e in orm_event.entrants]
    assert ("pin", "101") in plain_event.entrants[0].extra
    for pid, row in orm_players.items():
        p = plain_players[pid]
        assert (p.id, p.name, p.club, p.birth_date, p.licence) == (
            row.id, row.name, row.club, row.birth_date, row.licence
        )  # fmt: skip
    assert plain_event.warnings == orm_event.warnings and plain_event.warnings


def test_plain_standings_equal_the_services_and_the_json_is_the_same(tmp_path: Path) -> None:
    url, db, event = build_event(tmp_path)
    assert sqlite_standings(url, event) == sqlite_standings(url, None) == event_standings(db, event)
    path = url.removeprefix("sqlite:///")
    runner = CliRunner()
    fast = runner.invoke(app, ["standings", "--db", path, "--json"])
    # a URL with options is left to SQLAlchemy: the ORM path, on the same file
    usual = runner.invoke(app, ["standings", "--db", f"{url}?timeout=5", "--json"])
    assert fast.exit_code == usual.exit_code == 0, fast.output + usual.output
    assert fast.output == usual.output
    assert "张伟 (上海)" in fast.output and "王芳 (1995)" in fast.output  # namesakes apart
    table_fast = runner.invoke(app, ["standings", "--db", path], terminal_width=200)
    table_usual = runner.invoke(app, ["standings", "--db", f"{url}?timeout=5"], terminal_width=200)
    assert table_fast.output == table_usual.output
    lines = table_fast.output.splitlines()
    assert lines[0].strip() == "Club · 名次 standings"
    assert lines[2].split("┃")[1:4] == [" 名次  ", " 姓名        ", " 积分   "]
    assert "张伟 (上海)" in table_fast.output and "SOSOS = " in lines[-1]  # whole, not cut


def test_a_file_behind_the_schema_takes_the_usual_path_and_is_migrated(tmp_path: Path) -> None:
    behind = tmp_path / "behind.sqlite3"
    old = Database(f"sqlite:///{behind}")
    old.upgrade("0012")
    old.dispose()
    assert open_at_head(f"sqlite:///{behind}") is None
    assert sqlite_standings(f"sqlite:///{behind}", None) is None
    assert not Database(f"sqlite:///{behind}").at_head()
    result = CliRunner().invoke(app, ["standings", "--db", str(behind), "--json"])
    assert result.exit_code != 0  # migrated by the usual path, which then finds no event
    assert "no event in this database" in str(result.exception) + result.output
    with sqlite3.connect(behind) as connection:
        found = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    assert found == (code_head(),)


def test_what_the_reader_declines(tmp_path: Path) -> None:
    """A missing event, a database that is not a file: None, and the command says what it
    always said."""
    url, _db, event = build_event(tmp_path)
    assert sqlite_standings(url, event + 1) is None
    assert sqlite_standings("sqlite://", None) is None
    assert sqlite_standings(f"sqlite:///{tmp_path / 'none.sqlite3'}", None) is None
    result = CliRunner().invoke(
        app, ["standings", "--db", url.removeprefix("sqlite:///"), "--event", str(event + 1)]
    )
    assert result.exit_code != 0
    assert f"event {event + 1} does not exist" in str(result.exception) + result.output


def test_a_team_event_is_left_to_the_team_standings(tmp_path: Path) -> None:
    db_path = tmp_path / "team.sqlite3"
    runner = CliRunner()
    created = runner.invoke(
        app,
        ["event", "create", "--db", str(db_path), "--kind", "team", "--name", "T",
         "--system", "round_robin", "--boards", "2"],
    )  # fmt: skip
    assert created.exit_code == 0, created.output
    assert sqlite_standings(f"sqlite:///{db_path}", None) is None


def test_the_code_head_is_alembics_head() -> None:
    """The revision read from the migrations' file names is the one Alembic computes."""
    assert code_head() == head_revision()


@pytest.mark.parametrize("revision", ["0012", None])
def test_at_head_is_one_query_and_says_no_when_behind(tmp_path: Path, revision: str | None) -> None:
    db = Database(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    assert not db.at_head()  # a new file
    db.upgrade()
    assert db.at_head()
    with db.engine.begin() as connection:
        if revision is None:
            connection.exec_driver_sql("DELETE FROM alembic_version")
        else:
            connection.exec_driver_sql(f"UPDATE alembic_version SET version_num = '{revision}'")
    assert not db.at_head()
    db.dispose()


def test_the_plain_reader_counts_what_the_seals_allow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A result rewritten in the file behind the app's back (issue #16) counts as not played
    on the plain path as on the usual one; without the site key the plain path declines and
    the usual path answers."""
    url, db, event = build_event(tmp_path)
    honest = event_standings(db, event)
    path = url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as con:
        (gid, code) = con.execute(
            "SELECT g.id, g.result FROM event_games g JOIN event_rounds r ON r.id = g.round_id"
            " WHERE r.event_id = ? AND r.number = 1 AND g.result LIKE 'W%' LIMIT 1",
            (event,),
        ).fetchone()
        con.execute("UPDATE event_games SET result = ? WHERE id = ?", ("B" + code[1:], gid))
    tampered = sqlite_standings(url, event)
    assert tampered is not None and tampered == event_standings(db, event) != honest
    monkeypatch.setenv("WEIQI_SECRET_FILE", str(tmp_path / "elsewhere.key"))
    assert sqlite_standings(url, event) is None
