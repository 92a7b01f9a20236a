"""Migration 0009 on SQLite and PostgreSQL (issue #16), lineups: a database of revision 0008
keeps a lineup as its player codes joined by commas, so a player code with a comma in it
("Li, Wei") is stored but cannot be revealed. After 0009 every lineup — revealed, sealed,
forfeited — and every declared order reads as before, the sealed "Li, Wei" lineup can be
revealed and played, and the downgrade writes the joined text back."""

from __future__ import annotations

import datetime

from alembic import command
from sqlalchemy import inspect, select, text

from weiqi.league.settings import TeamEventSettings
from weiqi.league.team import RosterEntry, Team, TeamType
from weiqi.services import games, teams
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.games import TeamBoard
from weiqi.services.read_models import as_json
from weiqi.services.server_clock import ManualClock
from weiqi.store.database import Database
from weiqi.store.migrate import alembic_config, current_revision, head_revision
from weiqi.store.teams import LineupRow, TeamRow
from weiqi.store.tournament import RoundRow
from weiqi.tournament.ranks import Rank

LOCAL = Actor.local()
T0 = datetime.datetime(2026, 5, 1, 8, 0, tzinfo=datetime.UTC)
LI = "Li, Wei"


def _down_to_0008(db: Database) -> None:
    with db.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0008")
    assert current_revision(db.engine) == "0008"


def _per_round_event(db: Database) -> int:
    """Four teams, two boards, ``missing: forfeit``: round 1 revealed (A seals "Li, Wei" on
    board 1; D sends nothing and forfeits), round 2 sealed and not revealed yet, with
    "Li, Wei" on board 2 of A's lineup."""
    settings = TeamEventSettings(boards=2, deadline_minutes=0)
    ev = create_event(db, LOCAL, "逗号杯", settings).id
    csv = f'team,name,rank\nA,"{LI}",5p\nA,A2,4p\nA,A3,3p\n' + "".join(
        f"{c},{c}1,5p\n{c},{c}2,4p\n" for c in "BCD"
    )
    teams.import_teams(db, LOCAL, ev, csv)
    lineups = {"A": [LI, "A2"], "B": ["B1", "B2"], "C": ["C2", "C1"], "D": ["D1", "D2"]}
    for number in (1, 2):
        teams.pair_round(db, LOCAL, ev)
        for team in "ABCD":
            if number == 1 and team == "D":
                continue  # forfeits its boards in round 1
            order = lineups[team] if number == 1 or team != "A" else ["A3", LI]
            teams.submit_lineup(db, LOCAL, ev, number, team, order, clock=ManualClock(T0))
        if number == 1:
            teams.reveal_round(db, LOCAL, ev, 1, clock=ManualClock(T0))
    return ev


def _fixed_order_event(db: Database) -> int:
    """定台换人制: team A declares the order 'Li, Wei', A3, A2 (kept across the migration)."""
    settings = TeamEventSettings(team_type=TeamType.FIXED_ORDER, boards=2)
    ev = create_event(db, LOCAL, "定台", settings).id

    def entry(code: str) -> RosterEntry:
        return RosterEntry(code, code, Rank.parse("5d"), 2000, "CN", False)

    roster = {c: tuple(entry(f"{c}{i}") for i in (1, 2, 3)) for c in "AB"}
    roster["A"] = (entry(LI), *roster["A"][1:])
    with db.transaction() as session:
        teams.add_teams(
            session,
            ev,
            [
                Team("A", "A", roster["A"], order=(LI, "A3", "A2")),
                Team("B", "B", roster["B"]),
            ],
            2,
        )
    return ev


def _lineups(db: Database) -> list[tuple[object, ...]]:
    with db.transaction() as session:
        rows = session.execute(
            select(LineupRow, RoundRow.event_id, RoundRow.number, TeamRow.code)
            .join(RoundRow, RoundRow.id == LineupRow.round_id)
            .join(TeamRow, TeamRow.id == LineupRow.team_id)
        ).all()
        return sorted(
            (ev, number, code, lr.source, lr.players, lr.submitted_at)
            for lr, ev, number, code in rows
        )


def _orders(db: Database, ev: int) -> dict[str, tuple[str, ...]]:
    with db.transaction() as session:
        return {row.code: teams.core_team(row).order for row in teams.event_teams(session, ev)}


def _facts(db: Database, ev: int) -> tuple[object, ...]:
    return (
        teams.standings(db, ev),
        [as_json(teams.round_read(r)) for r in teams.list_rounds(db, ev)],
    )


def test_0009_carries_every_lineup_and_declared_order_over_and_back(database_url: str) -> None:
    """Lineups: 0008's joined text → rows per board → joined text again, nothing lost; a
    sealed lineup with "Li, Wei" (which 0008 could store, never reveal) is revealed and
    played after the upgrade. R-FMT-1."""
    db = Database(database_url)
    db.upgrade()
    per_round, fixed = _per_round_event(db), _fixed_order_event(db)
    lineups = _lineups(db)
    orders = _orders(db, fixed)
    assert orders["A"] == (LI, "A3", "A2")
    sources = sorted({(number, source) for _, number, _, source, _, _ in lineups})
    assert sources == [(1, "forfeit"), (1, "submitted"), (2, "submitted")]
    facts = {ev: _facts(db, ev) for ev in (per_round, fixed)}

    _down_to_0008(db)
    tables = inspect(db.engine).get_table_names()
    assert "team_lineup_boards" not in tables
    with db.engine.connect() as connection:  # as 0008 stored them: the codes joined by commas
        stored = set(connection.execute(text("SELECT players FROM team_lineups")).scalars())
        declared = set(connection.execute(text("SELECT declared_order FROM teams")).scalars())
    assert stored == {f"{LI},A2", f"A3,{LI}", "B1,B2", "C2,C1", "D1,D2", ""}
    assert declared == {f"{LI},A3,A2", ""}

    db.upgrade()
    assert current_revision(db.engine) == head_revision()
    assert "players" not in {c["name"] for c in inspect(db.engine).get_columns("team_lineups")}
    assert _lineups(db) == lineups
    assert _orders(db, fixed) == orders
    for ev in (per_round, fixed):
        assert _facts(db, ev) == facts[ev]

    shown = teams.reveal_round(db, LOCAL, per_round, 2, clock=ManualClock(T0))
    match = next(m for m in shown.matches if "A" in (m.home, m.away))
    assert shown.lineups["A"] == ("A3", LI)
    seated = [b.home_player if match.home == "A" else b.away_player for b in match.boards]
    assert seated == ["A3", LI]
    teams.record_results(db, LOCAL, per_round, 2, [(match.home, 2, "B+R")])
    view = games.game_view(db, per_round, 2, TeamBoard(match.number, 2))
    assert LI in (view.black, view.white) and view.result == "B+R"
    db.dispose()
