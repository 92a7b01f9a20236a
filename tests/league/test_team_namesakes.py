"""Namesakes in team events (issue #13): two 张伟 of two teams, or of one team born on other days,
both enter — from a CSV, from the team form after others entered, by an edit — each with a code
of their own that is not their name; the same player twice in one team is still refused. Every
view names them apart, and a typed name, label or code finds the one meant (a name two of the
team share is refused with the candidates, never guessed)."""

from __future__ import annotations

import pytest

from weiqi.errors import Duplicate, LineupRejected, RowsRejected
from weiqi.league.settings import TeamEventSettings
from weiqi.services import games, team_admin, teams
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.read_models import as_json
from weiqi.store.database import Database

LOCAL = Actor.local()
CSV = (
    "队名,姓名,段位,出生日期\n"
    "黑龙,张伟,5d,1990-03-01\n黑龙,张伟,4d,1995-07-02\n黑龙,李明,3d,\n"
    "白虎,张伟,5d,\n白虎,王芳,4d,\n白虎,赵磊,3d,\n"
)


@pytest.fixture
def ev(db: Database) -> int:
    event = create_event(db, LOCAL, "同名", TeamEventSettings(boards=2))
    teams.import_teams(db, LOCAL, event.id, CSV)
    return event.id


def test_namesakes_enter_with_codes_of_their_own(db: Database, ev: int) -> None:
    cards = team_admin.team_cards(db, ev)
    got = [(p.player, p.shown) for c in cards for p in c.roster]
    assert got == [
        ("张伟", "张伟 (黑龙, 1990)"),
        ("张伟 (黑龙)", "张伟 (黑龙, 1995)"),
        ("李明", "李明"),
        ("张伟 (白虎)", "张伟 (白虎)"),
        ("王芳", "王芳"),
        ("赵磊", "赵磊"),
    ]
    # a team entered later from the form: its 张伟 and 李明 get codes of their own
    team_admin.add_team(db, LOCAL, ev, "青龙", "", "张伟,2d\n李明,1d")
    third = team_admin.team_cards(db, ev)[2]
    assert [(p.player, p.shown) for p in third.roster] == [
        ("张伟 (青龙)", "张伟 (青龙)"),
        ("李明 (青龙)", "李明 (青龙)"),
    ]
    assert teams.code_labels(db, ev)["李明"] == "李明 (黑龙)"


def test_the_same_player_twice_is_still_refused(db: Database, ev: int) -> None:
    with pytest.raises(RowsRejected) as err:  # one team, same name and birth date
        team_admin.add_team(db, LOCAL, ev, "青龙", "", "张伟,2d,,,1990-03-01\n张伟,3d,,,1990-03-01")
    assert [(n, str(w)) for n, w in err.value.problems] == [(2, "player 张伟 already on line 1")]
    with pytest.raises(Duplicate):  # an explicit id another player of the event has
        teams.import_teams(db, LOCAL, ev, "team,id,name,rank\n朱雀,李明,李小明,3d\n朱雀,x,y,2d\n")
    # a teammate namesake told apart by the birth date is not the same player
    team_admin.add_team(db, LOCAL, ev, "青龙", "", "张伟,2d,,,1990-03-01\n张伟,3d,,,1991-01-01")
    assert len(team_admin.team_cards(db, ev)) == 3


def test_lineups_take_names_labels_and_codes(db: Database, ev: int) -> None:
    teams.pair_round(db, LOCAL, ev)
    with pytest.raises(LineupRejected) as err:  # typed: two 张伟 in 黑龙, which one?
        teams.submit_lineup(db, LOCAL, ev, 1, "黑龙", ["张伟", "李明"], typed=True)
    assert "张伟 (黑龙, 1990), 张伟 (黑龙, 1995)" in err.value.message
    # typed: a label, and a name only one player of the team has
    teams.submit_lineup(db, LOCAL, ev, 1, "白虎", ["张伟", "王芳"], typed=True)
    teams.submit_lineup(db, LOCAL, ev, 1, "黑龙", ["张伟 (黑龙, 1995)", "李明"], typed=True)
    # the form's choices and API clients send codes: 张伟 is the code of the first 张伟
    teams.submit_lineup(db, LOCAL, ev, 1, "黑龙", ["张伟 (黑龙)", "张伟"])
    view = teams.reveal_round(db, LOCAL, ev, 1)
    assert view.lineups == {"黑龙": ("张伟 (黑龙)", "张伟"), "白虎": ("张伟 (白虎)", "王芳")}
    boards = view.matches[0].boards
    assert [(b.home_name, b.away_name) for b in boards] == [
        ("张伟 (黑龙, 1995)", "张伟 (白虎)"),
        ("张伟 (黑龙, 1990)", "王芳"),
    ]
    json_board = as_json(teams.round_read(view))["matches"][0]["boards"][0]  # type: ignore[index]
    assert (json_board["home_player"], json_board["home_name"]) == (
        "张伟 (黑龙)",
        "张伟 (黑龙, 1995)",
    )
    # a board's own game page: the teams are shown beside the names, the birth year within one
    game = games.game_view(db, ev, 1, games.TeamBoard(1, 1))
    named = {(game.black, game.black_team), (game.white, game.white_team)}
    assert named == {("张伟 (1995)", "黑龙"), ("张伟", "白虎")}
    # board prizes name the players as the pages do
    teams.record_results(db, LOCAL, ev, 1, [("黑龙", 1, "B+R"), ("黑龙", 2, "B+R")])
    players, _ = teams.records(db, ev)
    shown = teams.code_labels(db, ev)
    assert {teams.record_to_dict(r, shown)["name"] for r in players} == {
        "张伟 (黑龙, 1995)", "张伟 (黑龙, 1990)", "张伟 (白虎)", "王芳"
    }  # fmt: skip
