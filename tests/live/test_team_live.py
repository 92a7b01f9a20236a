"""Team players the same way, per board (issue #11): the roster players of a team event are
accounts (a one-time code per roster player, made by those who manage the event's players,
R-ORG-1), and their team board is played in the same room as an individual board — the server's
record and clock, the ending and the result, which flows into the board, the match score and the
team standings (R-FMT-1, R-SCORE-TEAM-1). Through the services, the JSON API, the pages
(Chinese) and the command line, on a real database."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf
from tests.server.test_team_pages import FORM, admin, create
from weiqi.cli import app as cli_app
from weiqi.clock.control import TimeControl
from weiqi.errors import InvalidSetting, NotFound
from weiqi.league.settings import TeamEventSettings
from weiqi.server.app import create_app
from weiqi.services import accounts, games, live, live_bot, live_referee
from weiqi.services import teams as t
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.games import TeamBoard
from weiqi.services.live import create_invite, player_id, redeem_invite
from weiqi.store.database import Database
from weiqi.tournament.settings import PlayMode, System

LOCAL = Actor.local()
PASSWORD = "团体网络赛测试的密码 2026"


def team_event(db: Database, *, reveal: bool = True, time_control: str = "", **more: Any) -> int:
    """Two teams of two on 9×9 played online (``more``: more team settings), round 1 paired
    (and its lineups revealed)."""
    settings = TeamEventSettings(
        **{"boards": 2, "board_size": 9, "play": PlayMode.ONLINE, **more},
        time_control=TimeControl.parse(time_control) if time_control else None,
    )
    ev = create_event(db, LOCAL, "团体网络赛", settings).id
    rows = "team,name,rank\n龙队,龙一,5d\n龙队,龙二,3d\n虎队,虎一,4d\n虎队,虎二,2d\n"
    t.import_teams(db, LOCAL, ev, rows)
    t.pair_round(db, LOCAL, ev)
    if reveal:
        t.submit_lineups(db, LOCAL, ev, 1, {"龙队": ["龙一", "龙二"], "虎队": ["虎一", "虎二"]})
        t.reveal_round(db, LOCAL, ev, 1)
    return ev


def _team_id(db: Database, ev: int, code: str) -> int:
    with db.transaction() as session:
        return next(r.id for r in t.event_teams(session, ev) if r.code == code)


def _linked(db: Database, ev: int, name: str) -> Actor:
    user = accounts.create_user(db, LOCAL, f"u-{player_id(db, ev, name)}", PASSWORD).actor()
    redeem_invite(db, user, create_invite(db, LOCAL, ev, player_id(db, ev, name)).code)
    return user


def test_r_org_1_roster_players_are_invited_per_team_and_refused_with_reasons(
    database: Database,
) -> None:
    """A code per roster player: another team's player is refused (field ``team``), a player
    the event does not have is not found, a spent code is refused like any unknown code."""
    ev = team_event(database, reveal=False)
    long_yi = player_id(database, ev, "龙一")
    assert player_id(database, ev, "龙一", "龙队") == long_yi
    with pytest.raises(NotFound) as stranger:
        player_id(database, ev, "龙一", "虎队")  # not of that team
    assert "虎队" in str(stranger.value)
    with pytest.raises(InvalidSetting) as wrong_team:
        create_invite(database, LOCAL, ev, long_yi, team=_team_id(database, ev, "虎队"))
    assert wrong_team.value.field == "team"
    other = create_event(database, LOCAL, "另一个赛事", TeamEventSettings(boards=2)).id
    with pytest.raises(NotFound):
        create_invite(database, LOCAL, other, long_yi)  # a roster player of another event
    made = create_invite(database, LOCAL, ev, long_yi, team=_team_id(database, ev, "龙队"))
    assert (made.name, made.team) == ("龙一", "龙队")
    user = accounts.create_user(database, LOCAL, "long-yi", PASSWORD).actor()
    linked = redeem_invite(database, user, made.code)
    assert (linked.name, linked.player_id, linked.event_id) == ("龙一", long_yi, ev)
    with pytest.raises(InvalidSetting) as spent:
        live_bot.sign_in_with_code(database, made.code)  # the program's way: the same refusal
    assert spent.value.field == "code"
    listed = {e.name: e for e in live.entrant_accounts(database, LOCAL, ev)}
    assert listed["龙一"].username == "long-yi" and listed["龙一"].team == "龙队"
    assert not listed["虎二"].invited and listed["虎二"].team == "虎队"


def test_r_org_1_the_api_and_pages_invite_roster_players_and_refuse_with_reasons(
    database: Database,
) -> None:
    """``POST /api/events/{id}/teams/{team}/players/{player}/invite``: 422 naming ``team`` for
    another team's player, 404 for a player the event does not have; ``/join`` and the bot's
    code sign-in spend the code once; the invitation page lists the teams, in Chinese."""
    accounts.ensure_site_admin(database, ADMIN_PASSWORD)
    ev = team_event(database)
    accounts.create_user(database, LOCAL, "hu-yi", PASSWORD)
    dragons, tigers = _team_id(database, ev, "龙队"), _team_id(database, ev, "虎队")
    hu_yi = player_id(database, ev, "虎一")
    app = create_app(database, secret_key="team invites")
    with TestClient(app) as admin, TestClient(app) as player, TestClient(app) as bot:
        api_login(admin, "admin", ADMIN_PASSWORD)
        headers = {"X-CSRF-Token": csrf(admin)}
        wrong = admin.post(f"/api/events/{ev}/teams/{dragons}/players/{hu_yi}/invite",
                           headers=headers)  # fmt: skip
        assert wrong.status_code == 422, wrong.text
        assert "team" in wrong.text
        missing = admin.post(f"/api/events/{ev}/teams/{tigers}/players/99999/invite",
                             headers=headers)  # fmt: skip
        assert missing.status_code == 404, missing.text
        made = admin.post(f"/api/events/{ev}/teams/{tigers}/players/{hu_yi}/invite",
                          headers=headers)  # fmt: skip
        assert made.status_code == 200, made.text
        assert made.json()["team"] == "虎队" and made.json()["name"] == "虎一"
        code = made.json()["code"]
        page = admin.get(f"/events/{ev}/invites")
        assert page.status_code == 200 and 'data-team="虎队"' in page.text
        assert "生成邀请码" in page.text
        api_login(player, "hu-yi", PASSWORD)
        done = player.post("/join", data={"csrf_token": csrf(player), "code": code})
        assert done.status_code == 200 and "虎一" in done.text
        assert "我本轮的对局" in done.text  # the lineups are revealed: the board is seated
        assert f"/events/{ev}/rounds/1/matches/1/boards/" in done.text
        again = bot.post("/api/invites/session", json={"code": code},
                         headers={"X-CSRF-Token": csrf(bot)})  # fmt: skip
        assert again.status_code == 422, again.text


def test_r_fmt_1_invite_a_roster_player_from_the_command_line(
    database: Database, tmp_path: object
) -> None:
    """``weiqi player invite --db F NAME --team T --json`` prints the token; another team's
    player is refused naming ``--team``."""
    url = database.engine.url.render_as_string(hide_password=False)
    if not url.startswith("sqlite"):
        pytest.skip("the command line's --db takes the test's SQLite file")
    ev = team_event(database, reveal=False)
    runner = CliRunner()
    db = url.removeprefix("sqlite:///")
    ok = runner.invoke(cli_app, ["player", "invite", "--db", db, "--event", str(ev), "龙二",
                                 "--team", "龙队", "--json"])  # fmt: skip
    assert ok.exit_code == 0, ok.output
    out = json.loads(ok.output)
    assert out["name"] == "龙二" and out["team"] == "龙队" and out["token"]
    wrong = runner.invoke(cli_app, ["player", "invite", "--db", db, "--event", str(ev), "龙二",
                                    "--team", "虎队", "--json"])  # fmt: skip
    assert wrong.exit_code != 0 and isinstance(wrong.exception, NotFound)
    assert "虎队" in str(wrong.exception)  # ``weiqi`` prints it as its one-line error


def test_r_score_team_1_a_team_board_is_played_in_the_room_and_scores_for_the_match(
    database: Database,
) -> None:
    """My game this round appears once the lineups are revealed; both roster players play
    their team board through the same room functions as an individual board (the server's
    clock with the event's time control), the ending is confirmed by both (R-END-4), and the
    result is the board's, the match's and the standings'."""
    ev = team_event(database, reveal=False, time_control="10m")
    black_name, white_name = "龙一", "虎一"
    a, b = _linked(database, ev, black_name), _linked(database, ev, white_name)
    assert live.my_games(database, a) == []  # the lineups are sealed: nobody is seated
    t.submit_lineups(database, LOCAL, ev, 1, {"龙队": ["龙一", "龙二"], "虎队": ["虎一", "虎二"]})
    t.reveal_round(database, LOCAL, ev, 1)
    (mine,) = live.my_games(database, a)
    key = mine.key
    assert isinstance(key, TeamBoard) and key.board == 1
    assert mine.url == f"/events/{ev}/rounds/1/matches/{key.match}/boards/1/play"
    assert mine.team == "龙队" and mine.opponent == white_name
    colors = {live.seat(database, a, ev, 1, key), live.seat(database, b, ev, 1, key)}
    assert colors == {"B", "W"}
    first, second = (a, b) if live.seat(database, a, ev, 1, key) == "B" else (b, a)
    snap = live.start_game(database, ev, 1, key)
    assert snap.size == 9 and snap.phase == "playing" and snap.clock is not None
    assert snap.match == key.match and snap.to_data()["ref"] == f"{key.match}.1.0"
    played = live.act(database, first, ev, 1, key, "move", snap.seq, {"vertex": "E5"})
    assert played.refused is None and played.snapshot.stones == {"E5": "B"}
    refused = live.act(database, second, ev, 1, key, "move", None, {"vertex": "E5"})
    assert refused.reason == "occupied"
    spectator = accounts.create_user(database, LOCAL, "spectator", PASSWORD).actor()
    assert live.seat(database, spectator, ev, 1, key) is None
    with pytest.raises(Exception, match="play in this game"):
        live.act(database, spectator, ev, 1, key, "pass", None)
    over = live.act(database, second, ev, 1, key, "resign", None)
    assert over.snapshot.result == "B+R"
    for player in (first, second):
        done = live.act(database, player, ev, 1, key, "confirm", None)
        assert done.refused is None
    assert sorted(done.snapshot.confirmations) == ["B", "W"] and not done.snapshot.confirmed
    games.confirm_result(database, LOCAL, ev, 1, key)  # the referee's, as on every board
    boards = live_referee.round_boards(database, LOCAL, ev, 1)
    listed = {(x["match"], x["board"]): x for x in boards.boards}
    assert listed[(key.match, 1)]["result"] == "B+R" and listed[(key.match, 1)]["confirmed"]
    assert len(listed) == 2  # both boards of the round's one match, with their players
    # the other board ends as the referees enter it: the same workflow, the match complete
    other = TeamBoard(key.match, 2)
    games.enter_result(database, LOCAL, ev, 1, other, "W+R")
    games.confirm_result(database, LOCAL, ev, 1, other)
    match = t.show_round(database, ev, 1).matches[key.match - 1]
    (board,) = [x for x in match.boards if x.board == 1]
    assert board.result == "B+R" and board.confirmed
    # board 1's Black won, and on board 2 (colours alternate) the same team plays White and won
    black_team = "龙队" if first is a else "虎队"
    assert match.winner == black_team
    assert match.game_points == ((4, 0) if match.home == black_team else (0, 4))
    standings = {row.team: row for row in t.standings(database, ev)}
    assert standings[black_team].played == 1 and standings[black_team].game_points >= 1


def test_r_time_5_the_referee_console_lists_team_boards_and_pauses_one(
    database: Database,
) -> None:
    """The console of a team round lists its boards (match, board, players); a team board's
    referee page pauses and resumes its game (R-TIME-5) in its record, as an individual
    board's does; the spectators' round page lists the same boards."""
    accounts.ensure_site_admin(database, ADMIN_PASSWORD)
    ev = team_event(database, time_control="10m")
    key = TeamBoard(1, 2)
    live.start_game(database, ev, 1, key)
    room = f"/events/{ev}/rounds/1/matches/1/boards/2"
    app = create_app(database, secret_key="team console")
    with TestClient(app) as admin, TestClient(app) as public:
        snap = live.snapshot(database, ev, 1, key)  # after the start-up's recovery of it
        assert snap.clock is not None and snap.clock.status == "running"
        round_page = public.get(f"/events/{ev}/rounds/1/live")
        assert round_page.status_code == 200
        assert round_page.text.count('class="round-board"') == 2
        assert "第1场" in round_page.text and f'href="{room}/play"' in round_page.text
        api_login(admin, "admin", ADMIN_PASSWORD)
        manage = admin.get(f"/events/{ev}/manage/rounds/1").text  # the way there
        assert f'href="/events/{ev}/rounds/1/referee" id="referee-console-link"' in manage
        assert f'href="/events/{ev}/rounds/1/live" id="live-boards-link"' in manage
        console = admin.get(f"/events/{ev}/rounds/1/referee")
        assert console.status_code == 200 and f'href="{room}/referee"' in console.text
        assert "龙二" in console.text and "虎二" in console.text
        page = admin.get(f"{room}/referee")
        assert page.status_code == 200 and f'action="{room}/referee/pause"' in page.text
        paused = admin.post(
            f"{room}/referee/pause",
            data={"csrf_token": csrf(admin), "seq": str(snap.seq), "reason": "棋钟故障"},
            follow_redirects=False,
        )
        assert paused.status_code == 303 and paused.headers["location"] == f"{room}/referee"
        assert live.snapshot(database, ev, 1, key).paused
        resumed = admin.post(f"{room}/referee/resume", data={"csrf_token": csrf(admin)},
                             follow_redirects=False)  # fmt: skip
        assert resumed.status_code == 303
        after = live.snapshot(database, ev, 1, key)
        assert not after.paused and [n["kind"] for n in after.notices][-2:] == ["pause", "resume"]
        assert after.notices[-2]["reason"] == "棋钟故障"
        headers = {"X-CSRF-Token": csrf(admin)}  # the JSON API: the same, at the board's address
        api = admin.post(f"/api{room}/live/pause", json={"reason": "断电"}, headers=headers)
        assert api.status_code == 200 and api.json()["paused"], api.text
        api = admin.post(f"/api{room}/live/resume", json={}, headers=headers)
        assert api.status_code == 200 and not api.json()["paused"], api.text
        refused = public.get(f"{room}/referee", follow_redirects=False)
        assert refused.status_code in (303, 403)  # to the login page: referees only
        assert refused.headers.get("location", "/login").startswith("/login")


def test_r_board_1_a_team_event_plays_its_boards_on_the_size_it_was_created_with(
    database: Database,
) -> None:
    """R-BOARD-1: 19×19 unless the event says otherwise: the new team event form takes a board
    size (a bad one refused beside its field, input kept), the settings page shows it fixed,
    and the team boards' records are played on it."""
    accounts.ensure_site_admin(database, ADMIN_PASSWORD)
    with TestClient(create_app(database, secret_key="board size")) as client:
        token = admin(client)
        refused = client.post("/events/new?kind=team", data={**FORM, "name": "小棋盘团体赛",
                              "board_size": "1", "csrf_token": token})  # fmt: skip
        assert refused.status_code == 422 and 'id="error-board_size"' in refused.text
        assert 'name="board_size" type="number" inputmode="numeric" value="1"' in refused.text
        event_id = create(client, token, board_size="13")
        assert t.team_event_info(database, event_id).settings.board_size == 13
        page = client.get(f"/events/{event_id}/settings").text
        assert re.search(r'name="board_size"[^>]* value="13"[^>]* disabled', page)
    assert t.team_event_info(database, team_event(database)).settings.board_size == 9
    snap = live.start_game(database, team_event(database), 1, TeamBoard(1, 1))
    assert snap.size == 9


def test_r_fmt_3_a_winner_stays_on_is_played_online_game_by_game(database: Database) -> None:
    """R-FMT-3 online: a 擂台赛's game is a team board played in its room like any; when it
    ends, the next game is seated at once and is the winner's next game in his list, and the
    loser's team's next player's."""
    from weiqi.services.winner_stays_on import winner_stays_on

    ev = team_event(database, reveal=False, system=System.WINNER_STAYS_ON)
    players = {name: _linked(database, ev, name) for name in ("龙一", "龙二", "虎一", "虎二")}
    t.submit_lineups(database, LOCAL, ev, 1, {"龙队": ["龙一", "龙二"], "虎队": ["虎一", "虎二"]})
    t.reveal_round(database, LOCAL, ev, 1)
    (first,) = live.my_games(database, players["龙一"])  # 龙一 holds, 虎一 challenges
    assert first.key == TeamBoard(1, 1) and first.opponent == "虎一"
    assert live.my_games(database, players["龙二"]) == []
    live.start_game(database, ev, 1, first.key)
    loser = players["虎一"]
    over = live.act(database, loser, ev, 1, first.key, "resign", None)
    assert over.snapshot.result is not None
    # 龙一 stays on; 虎二 challenges in game 2, seated as game 1 ended
    assert [g.key for g in live.my_games(database, players["虎二"])] == [TeamBoard(2, 1)]
    assert TeamBoard(2, 1) in [g.key for g in live.my_games(database, players["龙一"])]
    snap = live.start_game(database, ev, 1, TeamBoard(2, 1))
    assert snap.phase == "playing"
    assert [g.holder for g in winner_stays_on(database, ev).games] == [("龙队", "龙一")] * 2
