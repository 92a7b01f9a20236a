"""A round and its boards looked up by number, for either kind of event, through one lookup
(``services.events.round_row``: one table holds both kinds' rounds): a round not paired, a
board that is not there, a team board before its lineups are revealed — each refused in the
reader's language, never as English text with its numbers baked in."""

from __future__ import annotations

import pytest

from tests.store.test_team_game_migration import LOCAL
from weiqi.errors import Conflict, NotFound, WeiqiError
from weiqi.i18n import render
from weiqi.league.settings import TeamEventSettings
from weiqi.services import games, teams
from weiqi.services import tournament as t
from weiqi.services.events import create_event
from weiqi.services.games import TeamBoard
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System


def _zh(err: pytest.ExceptionInfo[WeiqiError]) -> str:
    return render(err.value.msg, "zh_CN")


def test_a_round_or_board_that_is_not_there_is_refused_in_chinese_for_both_kinds() -> None:
    db = Database("sqlite://")
    db.upgrade()
    ev = create_event(db, LOCAL, "俱乐部赛", EventSettings(system=System.ROUND_ROBIN)).id
    t.import_players(db, LOCAL, ev, "name\n甲\n乙\n丙\n丁\n")
    t.pair_round(db, LOCAL, ev)
    team = create_event(db, LOCAL, "团体赛", TeamEventSettings(boards=1)).id
    teams.import_teams(db, LOCAL, team, "team,name,rank\n甲队,张,5d\n乙队,李,5d\n")
    teams.pair_round(db, LOCAL, team)

    with pytest.raises(NotFound) as err:
        t.show_round(db, ev, 3)
    assert _zh(err) == "第3轮尚未编排"
    with pytest.raises(NotFound) as err:
        games.round_sheet(db, ev, 2)
    assert _zh(err) == "第2轮尚未编排"
    with pytest.raises(NotFound) as err:
        games.game_view(db, ev, 1, 9)
    assert _zh(err) == "第1轮没有第9台"
    with pytest.raises(NotFound) as err:
        games.game_view(db, team, 2, TeamBoard(1, 1))
    assert _zh(err) == "第2轮尚未编排"
    with pytest.raises(Conflict) as err:
        games.game_view(db, team, 1, TeamBoard(1, 1))
    assert _zh(err) == "第1轮：出场名单尚未公开，各台尚未排定"
    with pytest.raises(NotFound) as err:
        teams.show_round(db, team, 2)
    assert _zh(err) == "第2轮尚未编排"
