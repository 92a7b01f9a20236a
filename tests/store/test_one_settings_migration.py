"""Migration 0027 on SQLite and PostgreSQL: a team event's settings move from the columns of
``team_events`` into ``event_settings`` as JSON, beside an individual event's, and a league
division's season and label into ``league_divisions`` (issue #10: one settings model for both
kinds). A database holding an individual event, a team Swiss set away from every default and a
league division is taken back to 0026 — where the team settings are columns again, each as it
was — and up again: every event reads the same settings, kind, season and standings."""

from __future__ import annotations

import dataclasses

import pytest
from alembic import command
from sqlalchemy import inspect

from tests.store.test_team_game_migration import LOCAL, _division
from weiqi.errors import NotFound
from weiqi.league.lineup import MissingLineup
from weiqi.league.match import BoardColors
from weiqi.league.settings import TeamEventSettings
from weiqi.league.standings import TeamRanking
from weiqi.league.team import TeamType
from weiqi.services import events, league, teams
from weiqi.services import tournament as t
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.store.migrate import alembic_config, current_revision, head_revision
from weiqi.tournament.settings import EventSettings, GameStart, PlayMode, System

#: A team event's settings, none of them the default.
SWISS = TeamEventSettings(
    system=System.SWISS,
    team_type=TeamType.FIXED_BOARDS,
    boards=3,
    board_colors=BoardColors.NIGIRI,
    max_foreign=1,
    substitutes=True,
    missing=MissingLineup.PREVIOUS,
    board_one_decides=True,
    deadline_minutes=45,
    rounds=3,
    ranking=TeamRanking.SWISS_POINTS,
    seed=7,
    board_size=13,
    play=PlayMode.ONLINE,
    game_start=GameStart.ROUND_START,
    lag_gain=0.5,
    lag_cap=2.0,
)


def _facts(db: Database, individual: int, swiss: int, division: int) -> object:
    """What the commands and pages read of the three events' settings and places."""
    return (
        t.tournament_info(db, individual).settings,
        {ev: teams.team_event_info(db, ev) for ev in (swiss, division)},
        {ev: events.event_kind(db, ev) for ev in (individual, swiss, division)},
        [(c.id, c.kind, c.system, c.status) for c in events.event_cards(db)],
        events.latest_event(db),
        events.latest_event(db, events.EventKind.TEAM),
        [(s.id, s.name) for s in league.list_seasons(db)],
        teams.standings(db, division),
    )


def test_0027_moves_the_team_settings_beside_the_individual_ones_and_back(
    database_url: str,
) -> None:
    db = Database(database_url)
    db.upgrade()
    division = _division(db)
    swiss = create_event(db, LOCAL, "团体积分编排赛", SWISS).id
    individual = create_event(
        db, LOCAL, "个人赛", EventSettings(system=System.SWISS, rounds=5, board_size=13)
    ).id
    before = _facts(db, individual, swiss, division)
    assert teams.team_event_info(db, swiss).settings == SWISS
    assert teams.team_event_info(db, division).division == "甲"
    assert (
        events.latest_event(db, events.EventKind.TEAM) == swiss
        and events.latest_event(db) == individual
    )

    with db.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0026")
    assert current_revision(db.engine) == "0026"
    assert "league_divisions" not in inspect(db.engine).get_table_names()
    with db.engine.connect() as connection:
        kept = connection.exec_driver_sql(
            "SELECT system, team_type, boards, board_colors, max_foreign, substitutes, "
            "missing_lineup, board_one_decides, deadline_minutes, rounds, ranking, seed, "
            "board_size, play, game_start, lag_gain, lag_cap, season_id, division "
            f"FROM team_events WHERE event_id = {swiss}"
        ).one()
        assert tuple(kept) == (
            "swiss", "fixed_boards", 3, "nigiri", 1, True, "previous", True, 45, 3,
            "swiss_points", 7, 13, "online", "round_start", 0.5, 2.0, None, "",
        )  # fmt: skip
        assert (
            connection.exec_driver_sql(
                f"SELECT division FROM team_events WHERE event_id = {division}"
            ).scalar()
            == "甲"
        )
        stored = connection.exec_driver_sql("SELECT event_id FROM event_settings").all()
        assert [row[0] for row in stored] == [individual]

    db.upgrade()
    assert current_revision(db.engine) == head_revision()
    assert "team_events" not in inspect(db.engine).get_table_names()
    assert _facts(db, individual, swiss, division) == before

    # the individual services refuse a team event by name, the team services an individual one
    with pytest.raises(NotFound) as refused:
        t.tournament_info(db, swiss)
    assert refused.value.msg.id == (
        "event %(event_id)s is a team event; this is for individual events"
    )
    with pytest.raises(NotFound) as refused:
        teams.team_event_info(db, individual)
    assert refused.value.msg.id == "event %(event_id)s is not a team event"

    # a settings change after the move is stored in the one table, as JSON
    changed = teams.update_team_event(
        db, LOCAL, swiss, "团体积分编排赛", teams.team_event_info(db, swiss).details,
        settings=dataclasses.replace(SWISS, rounds=4),
    )  # fmt: skip
    assert changed.settings.rounds == 4 and teams.team_event_info(db, swiss).settings.rounds == 4
