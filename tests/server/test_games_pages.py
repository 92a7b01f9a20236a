"""The game page, the round sheet, the SGF download and the games API through the app (on
SQLite and PostgreSQL): what each role sees and may do (R-REF-7, R-PEN-1, R-ORG-1)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import api_login, csrf
from weiqi.clock.control import TimeControl
from weiqi.roles import Role
from weiqi.rules.color import Color
from weiqi.services import accounts, games
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.event_admin import publish_round
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()
PASSWORD = "quiet tortoise 123"


def setup_event(db: Database, *roles: Role, publish: bool = True) -> int:
    """A round robin of four, round 1 paired (and published, unless told not to)."""
    ev = create_event(db, LOCAL, "春季赛", EventSettings(system=System.ROUND_ROBIN)).id
    t.import_players(db, LOCAL, ev, "name\n李明\n王强\n张伟\n刘洋\n")
    t.pair_round(db, LOCAL, ev)
    if publish:
        publish_round(db, LOCAL, ev, 1)
    for role in roles:
        user = accounts.create_user(db, LOCAL, role.value, PASSWORD)
        accounts.grant_role(db, LOCAL, user.id, ev, role)
    return ev


def page_token(html: str) -> str:
    found = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert found
    return found.group(1)


def test_an_unpublished_round_is_read_by_its_referees_only(
    client: TestClient, database: Database
) -> None:
    """Until the round is published, its boards, records, SGF and sheet are not found for the
    public (page and API alike), as if they did not exist; its referee reads them (issue 16)."""
    ev = setup_event(database, Role.REFEREE, publish=False)
    games.enter_result(database, LOCAL, ev, 1, 1, "185")
    hidden = [
        f"/events/{ev}/rounds/1/boards/1",
        f"/events/{ev}/rounds/1/boards/1/sgf",
        f"/events/{ev}/rounds/1/results",
        f"/api/events/{ev}/rounds/1/boards/1",
        f"/api/events/{ev}/rounds/1/boards/1/sgf",
        f"/api/events/{ev}/rounds/1/results",
    ]
    for url in hidden:
        assert client.get(url).status_code == 404, url
    assert "第1轮尚未公布" in client.get(hidden[0]).text
    assert client.get(hidden[3]).json()["message"] == "round 1 is not public"
    api_login(client, "referee", PASSWORD)
    for url in hidden:
        assert client.get(url).status_code == 200, url
    publish_round(database, LOCAL, ev, 1)
    with TestClient(client.app) as public:
        for url in hidden:
            assert public.get(url).status_code == 200, url


def test_public_sees_the_game_without_forms(client: TestClient, database: Database) -> None:
    ev = setup_event(database)
    games.enter_result(database, LOCAL, ev, 1, 1, "185")
    page = client.get(f"/events/{ev}/rounds/1/boards/1")
    assert page.status_code == 200
    assert "黑胜3/4子" in page.text and "B+1.5" in page.text and "黑方数子" in page.text
    assert 'id="enter-result"' not in page.text and 'id="record-infraction"' not in page.text
    sheet = client.get(f"/events/{ev}/rounds/1/results")
    assert sheet.status_code == 200 and 'name="result_2"' not in sheet.text


def test_r_pen_1_referee_pages_enter_a_count_and_a_warning(
    client: TestClient, database: Database
) -> None:
    """R-PEN-1 through the pages: 184.5 is 黑胜1/4子; Black's warning makes it 白胜3/4子."""
    ev = setup_event(database, Role.REFEREE)
    api_login(client, "referee", PASSWORD)
    url = f"/events/{ev}/rounds/1/boards/1"
    page = client.get(url)
    token = page_token(page.text)
    assert 'id="enter-result"' in page.text and 'id="correct-result"' not in page.text
    done = client.post(f"{url}/result", data={"csrf_token": token, "entry": "184.5", "seq": "0"})
    assert done.status_code == 200 and "黑胜1/4子" in done.text and "结果已录入。" in done.text
    seq = games.game_view(database, ev, 1, 1).seq
    done = client.post(
        f"{url}/infractions",
        data={"csrf_token": token, "kind": "clock_before_move", "offender": "B", "seq": seq},
    )
    assert "白胜3/4子" in done.text and "着子前按钟" in done.text
    assert "R-TIME-7" not in done.text  # issue #13: no requirement IDs on a page
    stale = client.post(f"{url}/result", data={"csrf_token": token, "entry": "B+R", "seq": seq})
    assert stale.status_code == 409
    assert games.game_view(database, ev, 1, 1).result == "W+1.5"


def _refused_form(page: Any, form_id: str) -> str:
    """The form ``form_id`` of a page that came back refused (422)."""
    assert page.status_code == 422, page.text
    form: str = page.text[page.text.index(f'id="{form_id}"') :]
    return form[: form.index("</form>")]


def test_r_ref_6_a_refused_infraction_or_ruling_keeps_every_choice(
    client: TestClient, database: Database
) -> None:
    """A refused infraction or ruling comes back with the problem beside the choice it is
    about, in Chinese, and every choice and word as sent: nothing to pick again."""
    ev = setup_event(database, Role.REFEREE)
    api_login(client, "referee", PASSWORD)
    url = f"/events/{ev}/rounds/1/boards/1"
    token = page_token(client.get(url).text)
    sent = {"csrf_token": token, "kind": "take_back", "offender": "W", "penalty": "jail",
            "points": "D4", "note": "悔棋两次", "seq": "0"}  # fmt: skip
    form = _refused_form(client.post(f"{url}/infractions", data=sent), "record-infraction")
    assert 'id="record-infraction-penalty-error"' in form and "jail&#39;不是一种处罚" in form
    assert re.search(r'<option value="take_back" selected>', form)
    assert re.search(r'<option value="W" selected>', form)
    assert 'value="D4"' in form and 'value="悔棋两次"' in form
    sent = {"csrf_token": token, "kind": "draw", "loser": "B", "reason": "双方超时", "seq": "0"}
    form = _refused_form(client.post(f"{url}/rulings", data=sent), "record-ruling")
    assert 'id="record-ruling-loser-error"' in form and 'value="双方超时"' in form
    assert re.search(r'<option value="draw" selected>', form)
    assert re.search(r'<option value="B" selected>', form)
    assert games.game_view(database, ev, 1, 1).seq == 0  # nothing stored


def test_round_sheet_form_and_csv(client: TestClient, database: Database) -> None:
    ev = setup_event(database, Role.REFEREE)
    api_login(client, "referee", PASSWORD)
    url = f"/events/{ev}/rounds/1/results"
    token = page_token(client.get(url).text)
    bad = client.post(
        f"{url}/csv",
        data={"csrf_token": token},
        files={"file": ("r1.csv", b"board,result\n1,B+R\n2,X+3\n")},
    )
    assert bad.status_code == 422 and "第 3 行" in bad.text and "X+3" in bad.text
    assert all(g.result is None for g in games.round_games(database, ev, 1))
    kept = client.post(url, data={"csrf_token": token, "result_1": "B+R", "result_2": "W+0.3"})
    assert kept.status_code == 422 and "第2台" in kept.text and 'value="W+0.3"' in kept.text
    assert all(g.result is None for g in games.round_games(database, ev, 1))
    done = client.post(url, data={"csrf_token": token, "result_1": "B+R", "result_2": "184"})
    assert done.status_code == 200 and "已录入并确认 2 个结果。" in done.text
    assert [(g.result, g.confirmed) for g in games.round_games(database, ev, 1)] == [
        ("B+R", True),
        ("W+0.5", True),
    ]


def test_r_ref_7_correction_form_only_for_the_chief_referee(
    client: TestClient, database: Database
) -> None:
    ev = setup_event(database, Role.REFEREE, Role.CHIEF_REFEREE)
    games.enter_result(database, LOCAL, ev, 1, 1, "B+R")
    games.confirm_result(database, LOCAL, ev, 1, 1)
    url = f"/events/{ev}/rounds/1/boards/1"
    api_login(client, "referee", PASSWORD)
    page = client.get(url)
    assert 'id="correct-result"' not in page.text and 'id="enter-result"' not in page.text
    refused = client.post(
        f"{url}/correction",
        data={"csrf_token": page_token(page.text), "result": "W+R", "reason": "x"},
    )
    assert refused.status_code == 403 and "无权更正已确认的结果" in refused.text
    api_login(client, "chief_referee", PASSWORD)
    page = client.get(url)
    assert 'id="correct-result"' in page.text
    done = client.post(
        f"{url}/correction",
        data={"csrf_token": page_token(page.text), "result": "W+R", "reason": "黑方违规查实"},
    )
    assert "白中盘胜" in done.text and "裁判长更正：黑方违规查实" in done.text


def test_sgf_download(client: TestClient, database: Database) -> None:
    ev = setup_event(database)
    games.record_infraction(database, LOCAL, ev, 1, 1, "double_move", "W")
    response = client.get(f"/events/{ev}/rounds/1/boards/1/sgf")
    assert response.headers["content-type"].startswith("application/x-go-sgf")
    assert "attachment" in response.headers["content-disposition"]
    assert "连下两着" in response.text and "EV[春季赛]" in response.text


def test_the_sgf_of_a_game_over_the_board_has_the_events_time_control(
    client: TestClient, database: Database
) -> None:
    """A game over the board keeps no clock in its record; its SGF states the time control its
    event announces (TM, OT), changed after round 1 as a setting may be."""
    from dataclasses import replace

    from weiqi.services import event_admin
    from weiqi.services.tournament import tournament_info

    ev = setup_event(database)
    assert "TM[" not in client.get(f"/events/{ev}/rounds/1/boards/1/sgf").text
    info = tournament_info(database, ev)
    timed = replace(info.settings, time_control=TimeControl.parse("1h incl 5x60s"))
    event_admin.update_settings(database, LOCAL, ev, info.name, timed)
    sgf = client.get(f"/events/{ev}/rounds/1/boards/1/sgf").text
    assert "TM[3300]" in sgf and "OT[5x60 byo-yomi]" in sgf


def test_api_game_and_stale_writes(client: TestClient, database: Database) -> None:
    ev = setup_event(database, Role.REFEREE)
    api_login(client, "referee", PASSWORD)
    headers = {"X-CSRF-Token": csrf(client)}
    base = f"/api/events/{ev}/rounds/1/boards/1"
    got = client.post(
        f"{base}/result", json={"result": "184.5", "expected_seq": 0}, headers=headers
    )
    assert got.status_code == 200 and got.json()["result_zh"] == "黑胜1/4子"
    seq = got.json()["seq"]
    stale = client.post(f"{base}/confirm", json={"expected_seq": seq - 1}, headers=headers)
    assert stale.status_code == 409 and stale.json()["error"] == "conflict"
    ok = client.post(f"{base}/confirm", json={"expected_seq": seq}, headers=headers)
    assert ok.json()["confirmed"] is True and ok.json()["history"][-1]["result"] == "B+0.5"
    rows = client.post(
        f"/api/events/{ev}/rounds/1/results",
        json={"csv": "board,result\n2,W+R\n"},
        headers=headers,
    )
    assert rows.status_code == 200 and rows.json()["changed"] == 1
    assert client.get(f"/api/events/{ev}/rounds/1/results").json()[1]["result"] == "W+R"
    bad = client.post(f"{base}/result", json={"result": "B+0.3"}, headers=headers)
    assert bad.status_code in (409, 422)


@pytest.mark.parametrize("lang", ["en"])
def test_the_game_page_in_english(client: TestClient, database: Database, lang: str) -> None:
    ev = setup_event(database)
    client.cookies.set("lang", lang)
    page = client.get(f"/events/{ev}/rounds/1/boards/1")
    assert "Round 1, board 1" in page.text and "History of the result" in page.text


def test_r_end_4_players_acknowledge_on_the_page(client: TestClient, database: Database) -> None:
    ev = setup_event(database, Role.REFEREE)
    games.enter_result(database, LOCAL, ev, 1, 1, "W+R")
    api_login(client, "referee", PASSWORD)
    url = f"/events/{ev}/rounds/1/boards/1"
    token = page_token(client.get(url).text)
    done = client.post(f"{url}/acknowledge", data={"csrf_token": token, "color": "B"})
    assert "已记录棋手确认。" in done.text and "已确认： 黑方" in done.text
    assert '<option value="B">' not in done.text.split('id="acknowledge"')[1].split("</form>")[0]


def test_a_recorded_game_shows_its_position(client: TestClient, database: Database) -> None:
    """A record that holds the moves (e.g. kept by a referee move by move) draws the board."""
    from weiqi.referee.events import Move
    from weiqi.rules.vertex import parse_vertex
    from weiqi.services.games import GameActor, _append, _game_row

    ev = setup_event(database)
    with database.transaction() as session:
        game = _game_row(session, ev, 1, 1)
        point = parse_vertex("Q16", 19)
        assert point is not None
        _append(session, LOCAL, ev, game, Move(point), None, GameActor.player(Color.BLACK))
    page = client.get(f"/events/{ev}/rounds/1/boards/1")
    assert 'id="position"' in page.text and "<svg" in page.text and "第1手后的局面" in page.text


def test_r_playoff_and_r_ref_3_the_page_records_the_game_played_again(
    client: TestClient, database: Database
) -> None:
    """R-REF-3, R-PLAYOFF: after a confirmed Replay the page offers the replay's result; the
    API says so too; posting it confirms it after the ruling."""
    ev = setup_event(database, Role.CHIEF_REFEREE)
    t.record_result(database, LOCAL, ev, 1, 1, "Replay")
    api_login(client, "chief_referee", PASSWORD)
    url = f"/events/{ev}/rounds/1/boards/1"
    page = client.get(url)
    assert 'id="played-again"' in page.text and "录入重赛结果" in page.text
    seq = games.game_view(database, ev, 1, 1).seq
    done = client.post(
        f"{url}/result", data={"csrf_token": page_token(page.text), "entry": "W+R", "seq": seq}
    )
    assert done.status_code == 200 and 'id="played-again"' not in done.text
    api = client.get(f"/api{url}").json()
    assert api["result"] == "W+R" and api["confirmed"] and api["played_again"] is None


def test_r_ref_3_the_round_sheet_takes_the_replays_result(
    client: TestClient, database: Database
) -> None:
    """R-REF-3: a board confirmed as Replay keeps its input on the round sheet; the replay's
    result sent from there is recorded after the ruling."""
    ev = setup_event(database, Role.CHIEF_REFEREE)
    t.record_result(database, LOCAL, ev, 1, 1, "Replay")
    t.record_result(database, LOCAL, ev, 1, 2, "B+R")
    api_login(client, "chief_referee", PASSWORD)
    sheet = client.get(f"/events/{ev}/rounds/1/results")
    assert 'name="result_1"' in sheet.text and 'name="result_2"' not in sheet.text
    done = client.post(
        f"/events/{ev}/rounds/1/results",
        data={"csrf_token": page_token(sheet.text), "result_1": "W+R"},
    )
    assert done.status_code == 200
    assert games.game_view(database, ev, 1, 1).result == "W+R"


def test_r_time_2_art_22_7_seat_leave_on_the_page_and_the_api(
    client: TestClient, database: Database
) -> None:
    """R-TIME-2 / Art. 22.7: the referee's form grants White leave in Black's time and the
    page lists it; a second leave is a 422 naming why (page and API), nothing stored."""
    ev = setup_event(database, Role.REFEREE)
    url = f"/events/{ev}/rounds/1/boards/1"
    assert 'id="seat-leave"' not in client.get(url).text
    api_login(client, "referee", PASSWORD)
    page = client.get(url)
    token = page_token(page.text)
    assert 'id="seat-leave"' in page.text
    done = client.post(f"{url}/seat-leave", data={"csrf_token": token, "player": "W", "seq": "0"})
    assert done.status_code == 200 and "已准许离席。" in done.text
    table = done.text.split('id="seat-leaves"')[1].split("</table>")[0]
    assert "白方" in table and "裁判" in table
    seq = games.game_view(database, ev, 1, 1).seq
    again = client.post(f"{url}/seat-leave", data={"csrf_token": token, "player": "W"})
    assert again.status_code == 422 and "每局只允许一次" in again.text
    api = client.post(
        f"/api{url}/seat-leave", json={"player": "W"}, headers={"X-CSRF-Token": csrf(client)}
    )
    assert api.status_code == 422 and api.json()["error"] == "invalid_setting"
    assert "only once per game" in api.json()["message"]
    got = client.get(f"/api{url}").json()
    assert got["seq"] == seq and [v["player_color"] for v in got["seat_leaves"]] == ["W"]


def test_a_result_entered_on_the_command_line_is_named_in_the_readers_language(
    client: TestClient, database: Database
) -> None:
    """The game's history names who entered a result; one entered on the command line reads
    （命令行） on the Chinese page and (command line) on the English one — it showed the
    English words on the Chinese page."""
    ev = setup_event(database)
    games.enter_result(database, LOCAL, ev, 1, 1, "B+R")
    chinese = client.get(f"/events/{ev}/rounds/1/boards/1").text
    assert "（命令行）" in chinese and "(command line)" not in chinese
    client.get("/lang/en?next=/")
    english = client.get(f"/events/{ev}/rounds/1/boards/1").text
    assert "(command line)" in english and "命令行" not in english
