"""Migration 0030 on SQLite and PostgreSQL (issue #10: one name per idea): an individual
event's systems, stored with hyphens (``round-robin``) where a team event's have underscores
(``round_robin``), are stored with underscores; taken back to 0029 they are hyphenated again,
as the code of that time wrote them, and read the same both ways. The earlier spelling is
still read as the same name, on either kind."""

from __future__ import annotations

from alembic import command

from weiqi.league.settings import TeamEventSettings, team_settings_from_dict
from weiqi.services import teams, tournament
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.store.migrate import alembic_config, current_revision, head_revision
from weiqi.tournament.settings import EventSettings, System, settings_from_dict

LOCAL = Actor.local()


def _stored(db: Database) -> list[tuple[int, str, str]]:
    with db.engine.connect() as connection:
        rows = connection.exec_driver_sql(
            "SELECT event_id, system, settings_json FROM event_settings ORDER BY event_id"
        ).all()
    return [(int(e), str(s), str(j)) for e, s, j in rows]


def test_0030_spells_an_individual_system_as_a_team_ones(database_url: str) -> None:
    db = Database(database_url)
    db.upgrade()
    made = [
        create_event(db, LOCAL, "双循环", EventSettings(System.DOUBLE_ROUND_ROBIN)).id,
        create_event(db, LOCAL, "双败", EventSettings(System.DOUBLE_ELIMINATION)).id,
        create_event(db, LOCAL, "瑞士", EventSettings(System.SWISS, rounds=5)).id,
    ]
    league = create_event(db, LOCAL, "团体", TeamEventSettings(boards=3)).id
    before = [tournament.tournament_info(db, e).settings for e in made]
    now = _stored(db)
    assert [s for _, s, _ in now] == ["double_round_robin", "double_elimination", "swiss",
                                      "round_robin"]  # fmt: skip
    assert all("-" not in j.split('"system": ')[1][:25] for _, _, j in now)

    with db.engine.begin() as connection:
        command.downgrade(alembic_config(connection), "0029")
    assert current_revision(db.engine) == "0029"
    then = _stored(db)
    assert [s for _, s, _ in then] == ["double-round-robin", "double-elimination", "swiss",
                                       "round_robin"]  # fmt: skip
    assert '"system": "double-round-robin"' in then[0][2]
    # what the earlier release stored still reads as the same settings
    assert [tournament.tournament_info(db, e).settings for e in made] == before

    db.upgrade()
    assert current_revision(db.engine) == head_revision()
    assert _stored(db) == now
    assert [tournament.tournament_info(db, e).settings for e in made] == before
    assert teams.team_event_info(db, league).settings.system is System.ROUND_ROBIN


def test_either_spelling_of_a_system_names_it_for_either_kind() -> None:
    assert settings_from_dict({"system": "round-robin"}).system is System.ROUND_ROBIN
    assert settings_from_dict({"system": "round_robin"}).system is System.ROUND_ROBIN
    assert team_settings_from_dict({"system": "round-robin"}).system is System.ROUND_ROBIN
