"""The online games' network-lag allowance as an event's setting (issue #11): 1 s a move, at
most 3 s, by default; shown and refused beside its field on the settings pages of individual
and team events (in Chinese, what was typed kept), taken by the API and by ``weiqi event
create --lag``; it may change after round 1 (a game begun keeps the allowance it started
with)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.cli.contracts import weiqi
from tests.server.conftest import (  # noqa: F401  (the fixtures)
    ADMIN_PASSWORD,
    api_login,
    client,
    csrf,
)
from weiqi.clock import LagPolicy
from weiqi.errors import InvalidSetting
from weiqi.league.settings import TeamEventSettings
from weiqi.services import event_admin, team_admin, teams, tournament
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.details import details_form
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()
ZH = {"Accept-Language": "zh-CN"}


def test_the_allowance_is_on_by_default_for_online_events_only() -> None:
    online = EventSettings(System.SWISS, rounds=3, play="online")  # type: ignore[arg-type]
    assert (online.lag_gain, online.lag_cap, online.lag) == (1, 3, LagPolicy(1.0, 3.0))
    assert EventSettings(System.SWISS, rounds=3).lag is None  # over the board: the rules'
    team = TeamEventSettings(play="online", lag_gain=0.5, lag_cap=2)  # type: ignore[arg-type]
    assert team.lag == LagPolicy(0.5, 2.0) and TeamEventSettings().lag is None
    for bad in ({"lag_gain": -1}, {"lag_gain": 11}, {"lag_cap": 61}, {"lag_gain": float("nan")}):
        with pytest.raises(InvalidSetting) as refused:
            EventSettings(System.SWISS, rounds=3, **bad)  # type: ignore[arg-type]
        assert refused.value.field == next(iter(bad))
    with pytest.raises(InvalidSetting) as small:
        TeamEventSettings(lag_gain=2, lag_cap=1)
    assert small.value.field == "lag_cap"


def test_the_individual_settings_page_refuses_beside_the_field_then_saves(
    client: TestClient,  # noqa: F811
    database: Database,
) -> None:
    settings = event_admin.settings_from_form({"system": "swiss", "rounds": "3", "play": "online"})
    ev = create_event(database, LOCAL, "网络赛", settings).id
    event_admin.import_players(database, LOCAL, ev, "name,rank\n甲,1d\n乙,2d\n丙,3d\n丁,4d\n")
    event_admin.pair_next_round(database, LOCAL, ev)  # after round 1: still editable
    api_login(client, "admin", ADMIN_PASSWORD)
    page = client.get(f"/events/{ev}/settings", headers=ZH).text
    assert "网络对局：每步网络延时补偿（秒）" in page and "网络对局：延时补偿上限（秒）" in page
    assert 'name="lag_gain" type="number" inputmode="decimal" value="1"' in page
    assert 'name="lag_cap" type="number" inputmode="decimal" value="3"' in page
    info = tournament.tournament_info(database, ev)
    form = {
        **event_admin.settings_form(info.settings),
        **details_form(info.details),
        "name": "网络赛",
        "csrf_token": csrf(client),
    }
    url = f"/events/{ev}/settings"
    bad = client.post(url, data={**form, "lag_gain": "12"}, headers=ZH)
    assert bad.status_code == 422
    assert 'id="error-lag_gain"' in bad.text and "须是0到10之间的秒数" in bad.text
    assert 'name="lag_gain" type="number" inputmode="decimal" value="12"' in bad.text
    small = client.post(url, data={**form, "lag_gain": "2", "lag_cap": "1.5"}, headers=ZH)
    assert small.status_code == 422
    assert 'id="error-lag_cap"' in small.text and "不得小于每步补偿（2秒）" in small.text
    words = client.post(url, data={**form, "lag_gain": "一秒"}, headers=ZH)
    assert words.status_code == 422 and "须是秒数，如 1 或 0.5" in words.text
    assert tournament.tournament_info(database, ev).settings.lag_gain == 1  # nothing saved
    good = client.post(url, data={**form, "lag_gain": "0.5", "lag_cap": "2"}, headers=ZH)
    assert good.status_code == 200, good.text
    saved = tournament.tournament_info(database, ev).settings
    assert saved.lag == LagPolicy(0.5, 2.0)
    off = client.post(url, data={**form, "lag_gain": "0"}, headers=ZH)
    assert off.status_code == 200
    assert tournament.tournament_info(database, ev).settings.lag is None


def test_the_team_settings_page_refuses_beside_the_field_then_saves(
    client: TestClient,  # noqa: F811
    database: Database,
) -> None:
    api_login(client, "admin", ADMIN_PASSWORD)
    token = csrf(client)
    form = {**team_admin.DEFAULT_FORM, "name": "团体网络赛", "play": "online", "boards": "1"}
    form["csrf_token"] = token
    new = client.get("/events/new?kind=team", headers=ZH).text
    assert "网络对局：每步网络延时补偿（秒）" in new and 'name="lag_cap"' in new
    bad = client.post("/events/new?kind=team", data={**form, "lag_cap": "99"}, headers=ZH)
    assert bad.status_code == 422
    assert 'id="error-lag_cap"' in bad.text and "须是0到60之间的秒数" in bad.text
    assert 'name="lag_cap" type="number" inputmode="decimal" value="99"' in bad.text
    made = client.post(
        "/events/new?kind=team", data={**form, "lag_gain": "1.5"}, follow_redirects=False
    )
    assert made.status_code == 303, made.text
    ev = int(made.headers["location"].split("/")[2])
    assert teams.team_event_info(database, ev).settings.lag == LagPolicy(1.5, 3.0)
    page = client.get(f"/events/{ev}/settings", headers=ZH).text
    assert 'name="lag_gain" type="number" inputmode="decimal" value="1.5"' in page
    assert "网络对局的开始和网络延时补偿可随时修改" in page
    teams.import_teams(database, LOCAL, ev, "team,name,rank\n甲队,张,5d\n乙队,李,5d\n")
    teams.pair_round(database, LOCAL, ev)  # after round 1: still editable
    saved = client.post(f"/events/{ev}/settings", data={**form, "lag_gain": "0.25", "lag_cap": "1"})
    assert saved.status_code == 200, saved.text
    assert teams.team_event_info(database, ev).settings.lag == LagPolicy(0.25, 1.0)
    small = client.post(
        f"/events/{ev}/settings", data={**form, "lag_gain": "2", "lag_cap": "1"}, headers=ZH
    )
    assert small.status_code == 422 and "不得小于每步补偿（2秒）" in small.text
    assert 'name="lag_gain" type="number" inputmode="decimal" value="2"' in small.text


def test_the_api_takes_the_allowance_and_names_a_bad_one(
    client: TestClient,  # noqa: F811
) -> None:
    api_login(client, "admin", ADMIN_PASSWORD)
    headers = {"X-CSRF-Token": csrf(client)}
    body = {"name": "网络赛", "settings": {"system": "swiss", "rounds": 3, "play": "online",
                                           "lag_gain": 0.5, "lag_cap": 2}}  # fmt: skip
    made = client.post("/api/events/tournaments", json=body, headers=headers)
    assert made.status_code == 201, made.text
    assert (made.json()["settings"]["lag_gain"], made.json()["settings"]["lag_cap"]) == (0.5, 2)
    for value in (-1, "1", True):
        bad = {**body, "settings": {**body["settings"], "lag_gain": value}}  # type: ignore[dict-item]
        refused = client.post("/api/events/tournaments", json=bad, headers=headers)
        assert refused.status_code == 422, refused.text
        assert refused.json()["args"]["field"]["code"] == "lag_gain"
    zh = client.post(
        "/api/events/tournaments",
        json={**body, "settings": {**body["settings"], "lag_cap": 100}},  # type: ignore[dict-item]
        headers={**headers, **ZH},
    )
    assert zh.status_code == 422 and zh.json()["message"] == "网络延时补偿上限：须是0到60之间的秒数"
    team = {"name": "团体网络赛", "settings": {"boards": 1, "play": "online", "lag_cap": 2.5}}
    made = client.post("/api/events/teams", json=team, headers=headers)
    assert made.status_code == 201, made.text
    assert (made.json()["settings"]["lag_gain"], made.json()["settings"]["lag_cap"]) == (1, 2.5)
    team["settings"] = {"boards": 1, "lag_gain": "fast"}
    refused = client.post("/api/events/teams", json=team, headers=headers)
    assert refused.status_code == 422 and refused.json()["args"]["field"]["code"] == "lag_gain"


def test_event_create_lag_sets_it_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--lag GAIN/CAP`` or ``--lag off`` for both kinds; a bad one in one line (exit 2)."""
    db = str(tmp_path / "e.sqlite3")
    base = ("event", "create", "--db", db, "--name", "网络赛", "--play", "online", "--json")
    made = weiqi(capsys, *base, "--system", "round_robin", "--lag", "0.5/2")
    assert made.code == 0, made.err
    settings = json.loads(made.out)["settings"]
    assert (settings["lag_gain"], settings["lag_cap"]) == (0.5, 2)
    default = json.loads(weiqi(capsys, *base, "--system", "round_robin").out)["settings"]
    assert (default["lag_gain"], default["lag_cap"]) == (1, 3)
    off = json.loads(weiqi(capsys, *base, "--system", "round_robin", "--lag", "off").out)
    assert off["settings"]["lag_gain"] == 0
    weiqi(capsys, *base, "--system", "round_robin", "--lag", "3").one_line_error("--lag", "'3'")
    weiqi(capsys, *base, "--system", "round_robin", "--lag", "20/30").one_line_error("lag_gain")
    team = (*base, "--kind", "team", "--system", "round_robin", "--boards", "1")
    made = weiqi(capsys, *team, "--lag", "2/4")
    assert made.code == 0, made.err
    assert json.loads(made.out)["settings"]["lag_cap"] == 4
    weiqi(capsys, *team, "--lag", "2/1").one_line_error("lag_cap")
    weiqi(capsys, *team, "--lag", "x/y").one_line_error("--lag")
