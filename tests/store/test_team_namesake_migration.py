"""Migration 0016 on SQLite and PostgreSQL (issue #13: namesakes in team events): a database of
the revision before it, with teams, a revealed round and results, keeps every roster player,
code, lineup, board and standing; afterwards a namesake of another team, or of the same team
born on another day, enters, and the same player twice in one team still cannot."""

from __future__ import annotations

import pytest
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from weiqi.errors import Duplicate
from weiqi.league.settings import TeamEventSettings
from weiqi.services import team_admin, teams
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.store.migrate import alembic_config, current_revision, head_revision

LOCAL = Actor.local()
BEFORE = ScriptDirectory.from_config(alembic_config()).get_revision("0016").down_revision
ROSTER = "team,name,rank\n" + "\n".join(
    f"{t},{t}{i},{5 - i}d" for t in ("黑龙", "白虎") for i in (1, 2)
)


def _downgrade(db: Database, revision: str) -> None:
    with db.engine.begin() as connection:
        command.downgrade(alembic_config(connection), revision)


def test_0016_keeps_rosters_lineups_and_boards_and_lets_namesakes_in(database_url: str) -> None:
    assert isinstance(BEFORE, str)
    db = Database(database_url)
    db.upgrade()
    ev = create_event(db, LOCAL, "迁移测试", TeamEventSettings(boards=2)).id
    teams.import_teams(db, LOCAL, ev, ROSTER)
    teams.pair_round(db, LOCAL, ev)
    teams.submit_lineup(db, LOCAL, ev, 1, "黑龙", ["黑龙2", "黑龙1"])
    teams.submit_lineup(db, LOCAL, ev, 1, "白虎", ["白虎1", "白虎2"])
    teams.reveal_round(db, LOCAL, ev, 1)
    teams.record_results(db, LOCAL, ev, 1, [("黑龙", 1, "B+R"), ("黑龙", 2, "W+3.5")])
    before = (teams.show_round(db, ev, 1), teams.standings(db, ev), teams.records(db, ev))

    _downgrade(db, BEFORE)
    columns = {c["name"] for c in inspect(db.engine).get_columns("team_roster")}
    assert "birth_date" not in columns and "player_code" in columns
    db.upgrade()
    assert current_revision(db.engine) == head_revision()
    with db.engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT player_code, name, birth_date FROM event_players "
                "WHERE team_id IS NOT NULL ORDER BY id"
            )
        ).all()
    assert [tuple(r) for r in rows] == [(c, c, None) for c in ("黑龙1", "黑龙2", "白虎1", "白虎2")]
    assert (teams.show_round(db, ev, 1), teams.standings(db, ev), teams.records(db, ev)) == before

    # a namesake of another team, then one of the same team born on another day
    black, white = team_admin.team_cards(db, ev)
    renamed = team_admin.edit_roster_player(
        db, LOCAL, ev, white.id, white.roster[0].id, "黑龙1", "4d"
    )
    assert (renamed.player, renamed.shown) == ("白虎1", "黑龙1 (白虎)")
    with pytest.raises(Duplicate):
        team_admin.edit_roster_player(db, LOCAL, ev, black.id, black.roster[1].id, "黑龙1", "3d")
    team_admin.edit_roster_player(
        db, LOCAL, ev, black.id, black.roster[1].id, "黑龙1", "3d", birth_date="1990-03-01"
    )
    shown = [b.home_name for m in teams.show_round(db, ev, 1).matches for b in m.boards]
    assert shown == ["黑龙1 (黑龙, 1990)", "黑龙1 (黑龙)"]  # board 1: 黑龙2 renamed, board 2

    # downgrading drops the birth dates only; the codes stay unique and the boards theirs
    _downgrade(db, BEFORE)
    db.upgrade()
    assert (teams.show_round(db, ev, 1).matches[0].boards[0].home_player) == "黑龙2"
    db.dispose()
