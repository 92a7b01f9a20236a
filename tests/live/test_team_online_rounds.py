"""Online team rounds (issue #11), the services on a manual clock, SQLite and PostgreSQL: a team
event has the individual events' play mode and game start (``PlaySettings``), read by the same
rule of the room (``services.live._start_time``): an over-the-board team event's boards are
refused the room, an online one's played there; a team round's start (``team_rounds.starts_at``,
set as an individual round's, moving a sealed round's lineup deadline with it) starts its boards
with nobody in the room, an absent player's clock running and the lateness judged on arrival
(R-TIME-6, Art. 22). The boards keep the event's colours (R-FMT-1): no nigiri."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.live.test_team_live import LOCAL, _linked, team_event
from weiqi.errors import Conflict, InvalidSetting
from weiqi.i18n import render
from weiqi.services import live, team_admin
from weiqi.services import teams as t
from weiqi.services.games import TeamBoard
from weiqi.services.server_clock import ManualClock
from weiqi.store.database import Database
from weiqi.tournament.settings import GameStart, PlayMode

#: 2026-12-05 09:00 in Shanghai (the events' default time zone).
T0 = datetime(2026, 12, 5, 1, 0, tzinfo=UTC)
LINEUPS = {"龙队": ["龙一", "龙二"], "虎队": ["虎一", "虎二"]}


def test_r_fmt_1_the_play_mode_decides_whether_a_team_board_is_played_in_the_room(
    database: Database,
) -> None:
    """Over the board (the default, kept by the store) the room starts no team board and says
    why, as for an individual event; online it starts one, with the board's colours."""
    assert t.TeamEventSettings().play is PlayMode.BOARD
    with pytest.raises(InvalidSetting) as bad:
        t.TeamEventSettings(play="internet")  # type: ignore[arg-type]
    assert bad.value.field == "play"
    board = team_event(database, play=PlayMode.BOARD)
    assert not t.team_event_info(database, board).settings.online
    with pytest.raises(Conflict) as refused:
        live.start_game(database, board, 1, TeamBoard(1, 1))
    assert render(refused.value.msg, "zh_CN") == "本赛事为现场对局，结果由裁判录入"
    assert live.snapshot(database, board, 1, TeamBoard(1, 1)).phase == "not_started"
    played = team_event(database)
    info = t.team_event_info(database, played)
    assert info.settings.online and t.settings_to_dict(info.settings)["play"] == "online"
    snap = live.start_game(database, played, 1, TeamBoard(1, 1))
    assert snap.started and snap.black == "龙一"  # board 1: the home team's Black (alternate)
    assert not live.to_open(database, played, 1, TeamBoard(1, 2))  # never drawn by nigiri


def test_the_play_mode_changes_until_round_1_the_game_start_at_any_time(
    database: Database,
) -> None:
    """As an individual event's: the play mode is locked once a round is paired (its games
    are played where the event said), when online boards start may change at any time; the
    form and the stored row give the settings back."""
    ev = t.create_team_event(database, LOCAL, "网络团体赛", t.TeamEventSettings(boards=2)).id
    info = t.team_event_info(database, ev)
    online = t.TeamEventSettings(boards=2, play=PlayMode.ONLINE)
    t.update_team_event(database, LOCAL, ev, info.name, info.details, online)
    assert t.team_event_info(database, ev).settings.online
    assert team_admin.settings_from_form(team_admin.settings_form(online)) == online
    paired = team_event(database)  # online, round 1 paired
    info = t.team_event_info(database, paired)
    later = t.TeamEventSettings(
        boards=2, board_size=9, play=PlayMode.ONLINE, game_start=GameStart.ROUND_START
    )
    t.update_team_event(database, LOCAL, paired, info.name, info.details, later)
    assert t.team_event_info(database, paired).settings.game_start is GameStart.ROUND_START
    with pytest.raises(InvalidSetting) as locked:
        t.update_team_event(database, LOCAL, paired, info.name, info.details,
                            t.TeamEventSettings(boards=2, board_size=9))  # fmt: skip
    assert locked.value.field == "play"
    assert render(locked.value.reason, "zh_CN").startswith("第一轮后不能修改")


def test_r_time_6_a_team_board_starts_at_its_round_start_with_nobody_in_the_room(
    database: Database,
) -> None:
    """Boards that start at the round's start time: the round's start set as an individual
    round's (later than now, typed in the event's time zone) moves the sealed round's lineup
    deadline; once the lineups are revealed the server's look finds both boards due, starts
    each then with its players absent; Black of board 1 arrives 10 minutes late and 20 minutes
    are deducted (Art. 22.2); White never comes and loses by forfeit an hour after the start
    (Art. 22.1), recorded by the server with nobody sending anything."""
    ev = team_event(database, reveal=False, game_start=GameStart.ROUND_START, deadline_minutes=10,
                    time_control="1h+3x30s")  # fmt: skip
    clock = ManualClock(T0)
    with pytest.raises(InvalidSetting) as past:
        t.set_round_start(database, LOCAL, ev, 1, "2026-12-05 08:59", clock)
    assert past.value.field == "start"
    view = t.set_round_start(database, LOCAL, ev, 1, "2026-12-05 09:30", clock)
    start = T0 + timedelta(minutes=30)
    assert view.starts_at == start and view.deadline == start - timedelta(minutes=10)
    assert live.scheduled_starts(database, clock, within=3600) == []  # lineups still sealed
    t.submit_lineups(database, LOCAL, ev, 1, LINEUPS)
    clock.set(T0 + timedelta(minutes=25))
    t.reveal_round(database, LOCAL, ev, 1, clock=clock)
    one, two = TeamBoard(1, 1), TeamBoard(1, 2)
    assert live.scheduled_starts(database, clock, within=600) == [(ev, 1, one), (ev, 1, two)]
    assert live.scheduled_starts(database, clock, within=60) == []  # not yet near
    early = live.start_game(database, ev, 1, one, clock)  # both in the room, before the time
    assert not early.started and early.starts_at == start.timestamp()
    assert live.next_wakeup(database, ev, 1, one, clock) == start.timestamp()
    clock.set(start + timedelta(milliseconds=5))
    assert live.wake(database, ev, 1, one, clock).start_due
    started = live.start_game(database, ev, 1, one, clock, present=set())
    assert started.started and started.absent == ["B", "W"]
    assert started.clock is not None and started.clock.running == "B"
    assert live.scheduled_starts(database, clock) == [(ev, 1, two)]
    with pytest.raises(Conflict):  # a board began under this start: it stands
        t.set_round_start(database, LOCAL, ev, 1, "2026-12-05 10:00", clock)
    clock.set(T0 + timedelta(minutes=40))
    arrived = live.arrive(database, ev, 1, one, "B", clock)
    assert [e.kind for e in arrived.events] == ["clock_arrive"] and arrived.absent == ["W"]
    assert arrived.clock is not None
    assert arrived.clock.black.main == pytest.approx(40 * 60, abs=0.01)  # 1 h − 2 × 10 min
    black = _linked(database, ev, "龙一")
    moved = live.act(database, black, ev, 1, one, "move", None, {"vertex": "E5"}, clock)
    assert moved.refused is None
    clock.set(T0 + timedelta(minutes=90, milliseconds=5))
    flagged = live.wake(database, ev, 1, one, clock)
    assert flagged.changed and flagged.snapshot.result == "B+F"
    assert t.list_rounds(database, ev)[0].matches[0].boards[0].result is not None


def test_a_team_board_waits_for_both_players_without_the_round_start_setting(
    database: Database,
) -> None:
    """Online, when both players are in the room (the default): a round's start time starts
    nothing by itself."""
    ev = team_event(database, reveal=False, deadline_minutes=0, time_control="1h")
    clock = ManualClock(T0)
    t.set_round_start(database, LOCAL, ev, 1, "2026-12-05 09:30", clock)
    t.submit_lineups(database, LOCAL, ev, 1, LINEUPS)
    clock.set(T0 + timedelta(hours=2))
    t.reveal_round(database, LOCAL, ev, 1, clock=clock)
    assert live.scheduled_starts(database, clock) == []
    assert live.start_time(database, ev, 1, TeamBoard(1, 1)) is None
    snap = live.start_game(database, ev, 1, TeamBoard(1, 1), clock)
    assert snap.started and snap.absent == []
