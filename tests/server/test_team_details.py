"""Issue #13, "Settings and results" for team events: a team event has the dates, venue, time
zone and time control of an individual event, created and edited on its settings page with the
same form pieces and rules, shown on its public pages and with every time in its zone."""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, date, datetime

import pytest
from fastapi.testclient import TestClient

from tests.server.test_team_pages import FORM, TEAMS_CSV, admin, create, import_csv
from weiqi.clock.control import TimeControl
from weiqi.errors import Conflict, InvalidSetting, NotFound
from weiqi.league.settings import TeamEventSettings
from weiqi.services import teams
from weiqi.services.actor import Actor
from weiqi.services.events import create_event, event_details
from weiqi.store.database import Database
from weiqi.tournament.details import EventDetails
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()
DETAILS = {
    "start_date": "2027-05-01",
    "end_date": "2027-05-03",
    "venue": "天津棋院",
    "time_zone": "Asia/Shanghai",
    "time_control": "1h incl 5x60s",
}


def test_a_team_event_is_created_and_edited_with_its_details(database: Database) -> None:
    """The service keeps the name and details of a team event and checks them as an
    individual event's (the same ``EventDetails`` rules)."""
    details = EventDetails(date(2027, 5, 1), date(2027, 5, 3), "天津棋院", "Asia/Shanghai")
    info = create_event(database, LOCAL, "市团体赛", TeamEventSettings(boards=3), details)
    assert info.details == details and event_details(database, info.id) == details
    later = EventDetails(date(2027, 5, 2), venue="北京棋院", time_zone="Europe/Paris")
    saved = teams.update_team_event(database, LOCAL, info.id, "市团体赛 2027", later)
    assert saved.name == "市团体赛 2027" and saved.details == later
    assert saved.settings == info.settings  # the team settings stay as created
    with pytest.raises(InvalidSetting) as refused:
        teams.update_team_event(database, LOCAL, info.id, "", later)
    assert refused.value.field == "name"
    individual = create_event(database, LOCAL, "个人赛", EventSettings(System.SWISS, rounds=3))
    with pytest.raises(NotFound):
        teams.update_team_event(database, LOCAL, individual.id, "x", later)


def test_the_new_team_event_form_has_the_details_in_shanghai_time(client: TestClient) -> None:
    admin(client)
    page = client.get("/events/new?kind=team").text
    for field in ("start_date", "end_date", "venue", "time_zone", "time_control"):
        assert f'name="{field}"' in page, field
    assert 'name="time_zone" value="Asia/Shanghai"' in page  # a Chinese page's default
    client.cookies.set("lang", "en")
    english = client.get("/events/new?kind=team").text
    assert 'name="time_zone" value=""' in english  # page.js fills the browser's zone


def test_a_team_event_settings_page_edits_name_and_details(
    client: TestClient, database: Database
) -> None:
    """Created with its details, edited on ``/events/{id}/settings`` (the same address as an
    individual event's): shown on the public pages and the dashboard; the team settings are
    shown read-only with why; a bad field is refused beside itself, input kept."""
    token = admin(client)
    event_id = create(client, token, **DETAILS)
    assert import_csv(client, token, event_id, TEAMS_CSV).status_code in (200, 303)
    page = client.get(f"/events/{event_id}/settings").text
    assert 'id="team-event-settings"' in page and 'value="天津棋院"' in page
    assert 'value="55m+5x60s"' in page  # the time control as stored
    assert 'id="locked-boards"' in page and re.search(r'name="boards"[^>]* disabled', page)
    dashboard = client.get(f"/events/{event_id}/manage").text
    assert f'href="/events/{event_id}/settings"' in dashboard and "天津棋院" in dashboard

    bad = {**FORM, **DETAILS, "venue": "天津棋院二楼", "end_date": "2027-04-01"}
    refused = client.post(
        f"/events/{event_id}/settings", data={**bad, "csrf_token": token}, follow_redirects=False
    )
    assert refused.status_code == 422
    assert 'id="error-end_date"' in refused.text and 'value="天津棋院二楼"' in refused.text
    assert 'name="boards" type="number" inputmode="numeric" value="3"' in refused.text
    unreadable = {**FORM, **DETAILS, "time_control": "一小时", "csrf_token": token}
    refused = client.post(f"/events/{event_id}/settings", data=unreadable)
    assert refused.status_code == 422 and 'id="error-time_control"' in refused.text
    assert 'value="一小时"' in refused.text

    changed = {**DETAILS, "name": "2027 市围棋团体赛", "venue": "天津棋院二楼",
               "time_zone": "Europe/Paris", "time_control": "90m"}  # fmt: skip
    saved = client.post(
        f"/events/{event_id}/settings",
        data={**changed, "csrf_token": token},
        follow_redirects=False,
    )
    assert saved.status_code == 303 and saved.headers["location"] == f"/events/{event_id}/manage"
    info = teams.team_event_info(database, event_id)
    assert info.name == "2027 市围棋团体赛" and info.details.time_zone == "Europe/Paris"
    assert info.settings.time_control == TimeControl.parse("90m") and info.settings.boards == 3
    public = client.get(f"/events/{event_id}/teams").text
    assert 'id="event-details"' in public and "天津棋院二楼" in public
    assert "2027-05-01 – 2027-05-03" in public and "基本时限90分" in public


def test_team_round_times_are_in_the_event_zone(client: TestClient, database: Database) -> None:
    """A team round's start typed on the dashboard is read in the event's zone and its lineup
    deadline shown in it (Paris in summer: UTC+2), never in UTC."""
    token = admin(client)
    event_id = create(client, token, **{**DETAILS, "time_zone": "Europe/Paris"})
    import_csv(client, token, event_id, TEAMS_CSV)
    paired = client.post(
        f"/events/{event_id}/manage/rounds",
        data={"start": "2027-07-01T10:00", "csrf_token": token},
        follow_redirects=False,
    )
    assert paired.status_code == 303
    rnd = teams.show_round(database, event_id, 1)
    assert teams.as_utc(rnd.deadline) == datetime(2027, 7, 1, 7, 30, tzinfo=UTC)
    page = client.get(f"/events/{event_id}/manage/rounds/1").text
    assert "2027-07-01 09:30" in page and "07:30" not in page


# -- the dashboard says why a round cannot be paired (issue #13: "the manage page never offers a
#    round that cannot be paired"), by the team pairing's own preconditions --------------------

TWO_TEAMS = "team,name,rank\nA,A1,5d\nA,A2,4d\nB,B1,5d\nB,B2,4d\n"


def _pair_section(client: TestClient, event_id: int) -> str:
    page = client.get(f"/events/{event_id}/manage").text
    return page.split('id="rounds"')[1].split('id="teams"')[0]


def _knockout(database: Database) -> int:
    settings = TeamEventSettings(boards=2, system=System.KNOCKOUT)
    event_id = create_event(database, LOCAL, "淘汰赛", settings).id
    teams.import_teams(database, LOCAL, event_id, TWO_TEAMS)
    return event_id


def test_r_playoff_the_team_dashboard_names_why_the_next_round_waits(
    client: TestClient, database: Database
) -> None:
    """No button that would fail: too few teams, lineups not revealed, a board without a
    result, a drawn knockout match without its playoff (R-PLAYOFF) — each named, the same
    reason ``pair_round`` refuses with; the button once the playoff is recorded."""
    admin(client)
    settings = TeamEventSettings(boards=2, system=System.KNOCKOUT)
    empty = create_event(database, LOCAL, "空", settings).id
    section = _pair_section(client, empty)
    assert 'id="pair-blocked"' in section and "至少需要两支队" in section
    assert 'id="pair-round"' not in section

    event_id = _knockout(database)
    assert 'id="pair-round"' in _pair_section(client, event_id)
    assert teams.next_round(database, event_id) == teams.NextRound(False, None)
    teams.pair_round(database, LOCAL, event_id)
    why = teams.next_round(database, event_id).blocker
    assert why is not None and why.id.startswith("round %(number)s has not been played")
    section = _pair_section(client, event_id)
    assert 'id="pair-blocked"' in section and "第2轮暂不能编排" in section
    assert 'id="pair-round"' not in section

    for t in "AB":
        teams.submit_lineup(database, LOCAL, event_id, 1, t, [f"{t}1", f"{t}2"])
    teams.reveal_round(database, LOCAL, event_id, 1)
    teams.record_results(database, LOCAL, event_id, 1, [("A", 1, "B+R")])
    assert "未出结果" in _pair_section(client, event_id)
    teams.record_results(database, LOCAL, event_id, 1, [("A", 2, "B+R")])  # 1:1, drawn
    why = teams.next_round(database, event_id).blocker
    assert why is not None and "playoff" in why.id
    section = _pair_section(client, event_id)
    assert "加赛" in section and f'href="/events/{event_id}/manage/rounds/1"' in section
    with pytest.raises(Conflict) as refused:  # the pairing itself refuses with the same reason
        teams.pair_round(database, LOCAL, event_id)
    assert refused.value.msg == why
    teams.record_playoff(database, LOCAL, event_id, 1, "A")
    section = _pair_section(client, event_id)
    # two teams: the final is played, the knockout is over
    assert 'id="rounds-done"' in section and 'id="pair-round"' not in section


def test_a_team_round_robin_paired_to_the_end_offers_no_button(
    client: TestClient, database: Database
) -> None:
    admin(client)
    event_id = create_event(database, LOCAL, "循环赛", TeamEventSettings(boards=2)).id
    teams.import_teams(database, LOCAL, event_id, TWO_TEAMS)
    teams.pair_round(database, LOCAL, event_id)  # two teams: one round
    assert teams.next_round(database, event_id).finished
    section = _pair_section(client, event_id)
    assert 'id="rounds-done"' in section and 'id="pair-round"' not in section


def test_the_team_settings_page_is_the_organisers(client: TestClient, database: Database) -> None:
    """Only those who may change the settings see or save them (R-ORG-1); the printable team
    round page heads with the details too."""
    event_id = create_event(
        database, LOCAL, "团体赛",
        TeamEventSettings(boards=2, time_control=TimeControl.parse("90m")),
        EventDetails(venue="天津棋院"),
    ).id  # fmt: skip
    anonymous = client.get(f"/events/{event_id}/settings", follow_redirects=False)
    assert anonymous.status_code in (303, 401, 403) and "天津棋院" not in anonymous.text
    token = admin(client)
    client.cookies.clear()
    refused = client.post(
        f"/events/{event_id}/settings",
        data={"name": "x", "csrf_token": token},
        follow_redirects=False,
    )
    assert refused.status_code in (303, 401, 403)
    assert teams.team_event_info(database, event_id).name == "团体赛"
    admin(client)
    teams.import_teams(database, LOCAL, event_id, TWO_TEAMS)
    teams.pair_round(database, LOCAL, event_id)
    sheet = client.get(f"/events/{event_id}/manage/rounds/1").text
    assert 'id="event-details"' in sheet and "天津棋院" in sheet and "基本时限90分" in sheet


def test_a_team_swiss_changes_its_rounds_deadline_and_ranking_after_round_1(
    client: TestClient, database: Database
) -> None:
    """Issue #13, "settings stay editable after round 1 wherever that is safe", for a team
    event: a Swiss's number of rounds, the lineup deadline and the ranking change on the
    settings page once round 1 is paired; what shapes the matches already made (boards, team
    type, system …) is shown locked with why, and a change of it is refused naming it."""
    token = admin(client)
    event_id = create(client, token, system="swiss", rounds="3", ranking="swiss_points")
    assert import_csv(client, token, event_id, TEAMS_CSV).status_code in (200, 303)
    teams.pair_round(database, LOCAL, event_id)
    page = client.get(f"/events/{event_id}/settings").text
    for editable in ("rounds", "deadline_minutes", "ranking"):
        assert f'id="locked-{editable}"' not in page, editable
    for fixed in ("boards", "system", "team_type", "board_one_decides"):
        assert f'id="locked-{fixed}"' in page, fixed
    assert "创建赛事时已确定" in page

    form = {**FORM, **DETAILS, "system": "swiss", "rounds": "5", "deadline_minutes": "45",
            "ranking": "swiss_total_score", "boards": "9"}  # fmt: skip
    saved = client.post(
        f"/events/{event_id}/settings", data={**form, "csrf_token": token}, follow_redirects=False
    )
    assert saved.status_code == 303, saved.text
    s = teams.team_event_info(database, event_id).settings
    assert (s.rounds, s.deadline_minutes, s.ranking.value) == (5, 45, "swiss_total_score")
    assert s.boards == 3  # a locked field is not sent by the page; a crafted one is not taken

    refused = client.post(
        f"/events/{event_id}/settings",
        data={**form, "rounds": "0", "csrf_token": token},
        follow_redirects=False,
    )
    assert refused.status_code == 422 and 'id="error-rounds"' in refused.text
    assert 'name="rounds" type="number" inputmode="numeric" value="0"' in refused.text  # kept
    assert teams.team_event_info(database, event_id).settings.rounds == 5
    with pytest.raises(InvalidSetting) as locked:
        teams.update_team_event(
            database, LOCAL, event_id, "x", EventDetails(), dataclasses.replace(s, boards=4)
        )
    assert locked.value.field == "boards"


def test_a_team_round_robin_keeps_its_rounds_locked(client: TestClient) -> None:
    """A round robin's rounds follow from its teams: its settings page locks them."""
    token = admin(client)
    event_id = create(client, token)
    page = client.get(f"/events/{event_id}/settings").text
    assert 'id="locked-rounds"' in page and 'id="locked-deadline_minutes"' not in page


def test_r_score_3_r_ko_2_a_team_events_komi_and_repetition_rule_on_its_settings_page(
    client: TestClient, database: Database
) -> None:
    """R-SCORE-3, R-KO-2: the team settings page sets its boards' komi (as people write it:
    3½) and what a repeated position does, as an individual event's page does; a komi that is
    not one is refused beside its field with the input kept; once round 1 is paired both are
    shown locked, with why."""
    token = admin(client)
    bad = client.post(
        "/events/new?kind=team",
        data={**FORM, "komi": "三又四分之三", "csrf_token": token},
        follow_redirects=False,
    )
    assert bad.status_code == 422 and 'id="error-komi"' in bad.text
    assert 'value="三又四分之三"' in bad.text
    event_id = create(client, token, komi="3½", cycle="draw")
    settings = teams.team_event_info(database, event_id).settings
    assert (str(settings.komi), settings.cycle.value) == ("7/2", "draw")
    page = client.get(f"/events/{event_id}/settings").text
    assert 'name="komi" value="3½"' in page and '<option value="draw" selected>' in page
    public = client.get(f"/events/{event_id}/teams").text
    assert re.search(r'<p class="muted">[^<]*· 贴3½子 ·', public)  # the head says it, as an
    # individual event's does
    assert import_csv(client, token, event_id, TEAMS_CSV).status_code in (200, 303)
    teams.pair_round(database, LOCAL, event_id)
    locked = client.get(f"/events/{event_id}/settings").text
    assert 'id="locked-komi"' in locked and 'id="locked-cycle"' in locked
