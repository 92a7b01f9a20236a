"""Brackets rank by how far players came (R-FMT-3): no tie-break codes by default — not in
``event create``, the standings JSON, the CLI table or the public page — and the values of
codes an event asks for explicitly are filled in."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tests.tournament.simulate import entrants, play_all, win_for
from weiqi.cli import app
from weiqi.services import public
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.events import create_event, latest_event
from weiqi.store.database import Database
from weiqi.tournament.ranking import standings
from weiqi.tournament.records import Event, Game
from weiqi.tournament.settings import EventSettings, System

NAMES = ["S1", "S2", "S3", "S4"]


def first_wins(game: Game) -> object:
    return win_for(game, min(game.players))


def test_r_fmt_3_brackets_have_no_default_tiebreaks() -> None:
    """R-FMT-3: knockout and double elimination default to no codes; K-loss Swiss keeps them."""
    assert EventSettings(system=System.KNOCKOUT).tiebreak_codes == ()
    assert EventSettings(system=System.DOUBLE_ELIMINATION).tiebreak_codes == ()
    assert EventSettings(System.KNOCKOUT, elimination_losses=2).tiebreak_codes == ("SB", "WARN")
    for system in (System.KNOCKOUT, System.DOUBLE_ELIMINATION):
        event, _ = play_all(Event(EventSettings(system=system), entrants(NAMES)), first_wins)
        assert all(s.tiebreaks == {} for s in standings(event))


def test_r_fmt_3_a_bracket_fills_the_codes_it_asks_for() -> None:
    """R-FMT-3: explicit codes get their values (SOS of the champion S1 = 2 + 4 … by hand)."""
    settings = EventSettings(system=System.KNOCKOUT, tiebreaks=("SOS", "WARN"))
    event, _ = play_all(Event(settings, entrants(NAMES)), first_wins)
    table = {s.id: s for s in standings(event)}
    assert [s.id for s in standings(event)][:2] == ["S1", "S2"]
    assert set(table["S1"].tiebreaks) == {"SOS", "WARN"}
    # S1 beat S4 (0 points) and S2 (2 points: it beat S3) → SOS 2
    assert table["S1"].tiebreaks["SOS"] == 2


def test_r_fmt_3_cli_and_public_page_show_no_bracket_tiebreaks(tmp_path: Path) -> None:
    """R-FMT-3: the CLI says so at creation; JSON and table have no tie-break columns; the
    public standings list no codes."""
    runner = CliRunner()
    db = str(tmp_path / "k.db")
    players = tmp_path / "p.csv"
    players.write_text("name\nA\nB\nC\nD\n", encoding="utf-8")

    def run(*args: str) -> str:
        result = runner.invoke(app, list(args))
        assert result.exit_code == 0, result.output
        return result.output

    created = run("event", "create", "--db", db, "--name", "K", "--system", "knockout")
    assert "tie-breaks none (ranked by how far players came)" in created
    run("player", "import", "--db", db, str(players))
    run("round", "pair", "--db", db)
    run("round", "result", "--db", db, "--round", "1", "--board", "1", "B+R")
    run("round", "result", "--db", db, "--round", "1", "--board", "2", "W+R")
    rows = json.loads(run("standings", "--db", db, "--json"))
    assert all(r["tiebreaks"] == {} for r in rows)
    table = run("standings", "--db", db)
    assert "SB" not in table and "WARN" not in table
    database = Database(f"sqlite:///{db}")
    assert public.standings_read(database, latest_event(database)).tiebreaks == []
    database.dispose()


def test_r_fmt_3_explicit_codes_reach_the_public_standings(tmp_path: Path) -> None:
    """R-FMT-3: a knockout that asks for SOS shows it on the public page."""
    database = Database(f"sqlite:///{tmp_path / 'e.db'}")
    database.upgrade()
    local = Actor.local()
    settings = EventSettings(system=System.KNOCKOUT, tiebreaks=("SOS",))
    ev = create_event(database, local, "K", settings).id
    t.import_players(database, local, ev, "name\nA\nB\n")
    t.pair_round(database, local, ev)
    t.record_result(database, local, ev, 1, 1, "B+R")
    assert [t.code for t in public.standings_read(database, ev).tiebreaks] == ["SOS"]
    database.dispose()
