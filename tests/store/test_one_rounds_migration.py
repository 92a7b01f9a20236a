"""Migration 0024 on SQLite and PostgreSQL: the team rounds move from ``team_rounds`` into
``event_rounds`` beside the individual rounds (issue #10, one schema for rounds). A database
holding an individual event, a team event (its lineups, one team's missing, its boards with
their records and a correction) and a league division is taken back to 0023 and up again:
every standing, round, lineup and record reads the same, every record still verifies, nothing
is left behind in either table, and a round paired afterwards (of either kind) gets an id of
its own."""

from __future__ import annotations

from alembic import command
from sqlalchemy import func, inspect, select

from tests.store.test_team_game_migration import LOCAL, _division, _team_event
from weiqi.services import games, teams
from weiqi.services import tournament as t
from weiqi.services.events import create_event
from weiqi.services.games import TeamBoard
from weiqi.services.read_models import as_json
from weiqi.store.database import Database
from weiqi.store.migrate import alembic_config, current_revision, head_revision
from weiqi.store.teams import LineupRow, TeamMatchRow
from weiqi.store.tournament import GameRow, RoundRow
from weiqi.tournament.settings import EventSettings, System


def _individual(db: Database) -> int:
    """A round robin of four with round 1 played and round 2 paired, not played."""
    ev = create_event(db, LOCAL, "俱乐部赛", EventSettings(system=System.ROUND_ROBIN)).id
    t.import_players(db, LOCAL, ev, "name\n甲\n乙\n丙\n丁\n")
    t.pair_round(db, LOCAL, ev)
    t.record_results(db, LOCAL, ev, 1, "board,result\n1,B+R\n2,W+R\n")
    t.pair_round(db, LOCAL, ev)
    return ev


def _facts(db: Database, individual: int, team_events: tuple[int, ...]) -> object:
    """What a user reads of the three events: standings, rounds, lineups and records."""
    return (
        [(s.name, s.points) for s in t.event_standings(db, individual)],
        [as_json(r) for r in (t.show_round(db, individual, n) for n in (1, 2))],
        {
            ev: (
                teams.standings(db, ev),
                [as_json(teams.round_read(r)) for r in teams.list_rounds(db, ev)],
                _lineups(db, ev),
            )
            for ev in team_events
        },
        [(c.event_id, c.round, c.board, c.events, c.problem) for c in games.check_records(db)],
    )


def _lineups(db: Database, event_id: int) -> dict[int, list[tuple[int, str, tuple[str, ...]]]]:
    """Every lineup of a team event by round: its team, source and players."""
    with db.transaction() as session:
        return {
            session.get_one(RoundRow, round_id).number: sorted(
                (row.team_id, row.source, row.players) for row in rows
            )
            for round_id, rows in teams.lineup_rows(session, event_id).items()
        }


def _rounds(db: Database) -> dict[int, int]:
    """How many rounds each event has in the one rounds table."""
    with db.transaction() as session:
        return dict(
            session.execute(
                select(RoundRow.event_id, func.count(RoundRow.id)).group_by(RoundRow.event_id)
            ).all()
        )


def test_0024_moves_the_team_rounds_beside_the_individual_ones_and_back(
    database_url: str,
) -> None:
    db = Database(database_url)
    db.upgrade()
    individual = _individual(db)
    team_events = (_team_event(db), _division(db))
    games.correct_result(db, LOCAL, team_events[0], 1, TeamBoard(1, 1), "W+R", "记录表填错")
    before = _facts(db, individual, team_events)
    assert all(check[-1] is None for check in before[-1])  # type: ignore[index]
    counts = _rounds(db)
    assert counts[individual] == 2 and counts[team_events[0]] == 2 and counts[team_events[1]]

    with db.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0023")
    assert current_revision(db.engine) == "0023"
    assert "team_rounds" in inspect(db.engine).get_table_names()
    assert "revealed_at" not in {c["name"] for c in inspect(db.engine).get_columns("event_rounds")}
    with db.engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT COUNT(*) FROM event_rounds").scalar() == 2
        assert connection.exec_driver_sql("SELECT COUNT(*) FROM team_rounds").scalar() == sum(
            counts[ev] for ev in team_events
        )

    db.upgrade()
    assert current_revision(db.engine) == head_revision()
    assert "team_rounds" not in inspect(db.engine).get_table_names()
    assert _rounds(db) == counts
    assert _facts(db, individual, team_events) == before
    with db.transaction() as session:
        rounds = set(session.scalars(select(RoundRow.id)))
        # every match, lineup and game hangs under a round of the one table
        assert set(session.scalars(select(TeamMatchRow.round_id))) <= rounds
        assert set(session.scalars(select(LineupRow.round_id))) <= rounds
        assert set(session.scalars(select(GameRow.round_id))) <= rounds
        assert session.scalar(select(func.count(LineupRow.round_id)))

    # a round paired after the move gets a new id (PostgreSQL's sequence follows the moved ids)
    t.record_results(db, LOCAL, individual, 2, "board,result\n1,B+R\n2,W+R\n")
    t.pair_round(db, LOCAL, individual)
    third = teams.pair_round(db, LOCAL, team_events[0])
    assert third.number == 3
    assert _rounds(db)[individual] == 3 and _rounds(db)[team_events[0]] == 3
    view = games.game_view(db, team_events[0], 1, TeamBoard(1, 1))
    assert view.result == "W+R" and [h.result for h in view.history][-2:] == ["B+R", "W+R"]
