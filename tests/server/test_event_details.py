"""Issue #13, "Settings and results": the settings that stay editable after round 1 (the rest
refused naming the field and why), and an event's dates, venue, time zone and time control —
through the services on SQLite and PostgreSQL, the JSON API and the pages."""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, date, datetime
from fractions import Fraction

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf
from tests.server.test_event_admin_services import players_csv
from weiqi.clock.control import TimeControl
from weiqi.errors import InvalidSetting
from weiqi.league.settings import TeamEventSettings
from weiqi.messages import Msg
from weiqi.services import event_admin, teams, tournament
from weiqi.services.actor import Actor
from weiqi.services.events import create_event, event_details
from weiqi.store.database import Database
from weiqi.tournament.details import EventDetails, details_form
from weiqi.tournament.settings import EventSettings, System, settings_to_dict, variant_from_dict

LOCAL = Actor.local()
DETAILS = EventDetails(date(2027, 5, 1), date(2027, 5, 3), "北京棋院", "Asia/Shanghai")


def _started(db: Database, rounds: int = 5, *, played: bool = True) -> int:
    """A 5-round Swiss of 8 players with round 1 paired (and all its results in)."""
    info = create_event(
        db,
        LOCAL,
        "2027 春季积分编排赛",
        EventSettings(System.SWISS, rounds=rounds, time_control="1h incl 5x60s"),  # type: ignore[arg-type]
        DETAILS,
    )
    event_admin.import_players(db, LOCAL, info.id, players_csv(8))
    rnd = event_admin.pair_next_round(db, LOCAL, info.id)
    if played:
        for p in rnd.pairings:
            tournament.record_result(db, LOCAL, info.id, 1, p.board, "B+R")
    return info.id


def test_safe_settings_change_after_round_1_and_the_standings_follow(database: Database) -> None:
    """Rounds (up), tie-breaks, shared places, playoff, late-entry and absence points change
    after round 1; the standings show the new tie-breaks at once."""
    event_id = _started(database)
    info = tournament.tournament_info(database, event_id)
    assert list(tournament.event_standings(database, event_id)[0].tiebreaks) == ["SOS", "WARN"]
    changed = dataclasses.replace(
        info.settings,
        rounds=7,
        tiebreaks=("SOS", "SB"),
        shared_places=False,
        tie_resolution="playoff",
        late_entry_points=1,
        absent_points=1,
    )
    later = dataclasses.replace(DETAILS, venue="上海棋院", end_date=date(2027, 5, 4))
    saved = event_admin.update_settings(database, LOCAL, event_id, "2027 春季赛", changed, later)
    assert saved.name == "2027 春季赛" and saved.settings == changed and saved.details == later
    assert list(tournament.event_standings(database, event_id)[0].tiebreaks) == ["SOS", "SB"]


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("komi", Fraction(13, 2), event_admin.LOCKED_PLAYED),
        ("points_win", 3, event_admin.LOCKED_PLAYED),
        ("board_size", 13, event_admin.LOCKED_PLAYED),
        ("pairing_method", "slip", event_admin.LOCKED_PAIRED),
        ("avoid_same_club", True, event_admin.LOCKED_PAIRED),
    ],
)
def test_a_locked_setting_is_refused_after_round_1_naming_it_and_why(
    database: Database, field: str, value: object, reason: str
) -> None:
    event_id = _started(database, played=False)
    info = tournament.tournament_info(database, event_id)
    changed = dataclasses.replace(info.settings, **{field: value})
    with pytest.raises(InvalidSetting) as err:
        event_admin.update_settings(database, LOCAL, event_id, info.name, changed)
    assert err.value.field == field and err.value.reason.id == reason
    assert tournament.tournament_info(database, event_id).settings == info.settings


def test_the_system_cannot_change_and_rounds_not_below_those_paired(database: Database) -> None:
    event_id = _started(database)
    event_admin.pair_next_round(database, LOCAL, event_id)
    info = tournament.tournament_info(database, event_id)
    with pytest.raises(InvalidSetting) as err:
        event_admin.update_settings(
            database, LOCAL, event_id, info.name, EventSettings(System.ROUND_ROBIN, rounds=5)
        )
    assert err.value.field == "system"
    with pytest.raises(InvalidSetting) as err:
        event_admin.update_settings(
            database, LOCAL, event_id, info.name, dataclasses.replace(info.settings, rounds=1)
        )
    assert err.value.field == "rounds" and err.value.reason == Msg(
        "must be at least %(paired)s, the rounds already paired", paired=2
    )
    fewer = dataclasses.replace(info.settings, rounds=2)  # down to the rounds paired is fine
    assert (
        event_admin.update_settings(database, LOCAL, event_id, info.name, fewer).settings == fewer
    )


def test_details_are_stored_checked_and_kept(database: Database) -> None:
    """The time zone is an IANA name (zoneinfo), the last day is not before the first;
    omitted details are kept."""
    info = create_event(database, LOCAL, "赛事", EventSettings(System.ROUND_ROBIN), DETAILS)
    assert event_details(database, info.id) == DETAILS
    renamed = event_admin.update_settings(database, LOCAL, info.id, "新名", info.settings)
    assert renamed.details == DETAILS
    for bad, field in (
        ({"time_zone": "Asia/Beijing"}, "time_zone"),
        ({"end_date": date(2027, 4, 30)}, "end_date"),
        ({"venue": "北京\n棋院"}, "venue"),
    ):
        with pytest.raises(InvalidSetting) as err:
            dataclasses.replace(DETAILS, **bad)  # type: ignore[arg-type]
        assert err.value.field == field
    assert (
        create_event(database, LOCAL, "无详情", EventSettings(System.ROUND_ROBIN)).details
        == EventDetails()
    )


def test_the_time_control_is_a_setting_of_either_kind(database: Database) -> None:
    """The time control is one of the settings (``PlaySettings.time_control``) of both kinds:
    read as typed, kept in the clock's settings string, changed after round 1 (a game begun
    keeps the one its record started with), a league division's own; an unreadable one is
    refused naming the setting."""
    event_id = _started(database, played=False)
    info = tournament.tournament_info(database, event_id)
    assert info.settings.time_control == TimeControl.parse("55m+5x60s")
    assert settings_to_dict(info.settings)["time_control"] == "55m+5x60s"
    later = dataclasses.replace(info.settings, time_control=TimeControl.parse("90m"))
    saved = event_admin.update_settings(database, LOCAL, event_id, info.name, later)
    assert saved.settings.time_control == TimeControl.parse("1h30m")
    assert "time_control" not in event_admin.locked_fields(info.settings)
    team = TeamEventSettings(boards=2, time_control="3x30s")  # type: ignore[arg-type]
    assert settings_to_dict(team)["time_control"] == "3x30s"
    assert variant_from_dict(TeamEventSettings, settings_to_dict(team)) == team
    assert "time_control" not in teams.locked_fields(team, 3, division=True)
    assert "boards" in teams.locked_fields(team, 0, division=True)
    for kind in (EventSettings, TeamEventSettings):
        with pytest.raises(InvalidSetting) as err:
            variant_from_dict(kind, {"system": "round_robin", "time_control": "一小时"})
        assert err.value.field == "time_control"
        with pytest.raises(InvalidSetting) as err:
            variant_from_dict(kind, {"system": "round_robin", "time_control": 90})
        assert err.value.field == "time_control"
    unset = variant_from_dict(EventSettings, {"system": "round_robin", "time_control": ""})
    assert unset.time_control is None and unset.game_time_control is None


def test_the_time_control_on_the_forms_and_the_api(client: TestClient, database: Database) -> None:
    """The settings page shows the time control with the other settings and refuses an
    unreadable one beside its field, input kept; the API takes it in ``settings`` and refuses
    it, by name, where an earlier release sent it (``details``)."""
    token = _admin(client)
    event_id = _started(database)
    page = client.get(f"/events/{event_id}/settings").text
    assert re.search(r'name="time_control" value="55m\+5x60s"', page)
    assert 'id="locked-time_control"' not in page
    info = tournament.tournament_info(database, event_id)
    form = {**event_admin.settings_form(info.settings), **details_form(info.details)}
    typed = {**form, "name": info.name, "time_control": "一小时", "csrf_token": token}
    refused_page = client.post(f"/events/{event_id}/settings", data=typed)
    assert refused_page.status_code == 422 and 'id="error-time_control"' in refused_page.text
    assert 'name="time_control" value="一小时"' in refused_page.text
    got = client.get(f"/api/events/{event_id}/settings").json()
    headers = {"X-CSRF-Token": token}
    body = {"name": got["name"], "settings": {**got["settings"], "time_control": "1h incl 3x30s"}}
    put = client.put(f"/api/events/{event_id}/settings", json=body, headers=headers)
    assert put.status_code == 200 and put.json()["settings"]["time_control"] == "58m30s+3x30s"
    old = {**body, "details": {**got["details"], "time_control": "90m"}}
    refused = client.put(f"/api/events/{event_id}/settings", json=old, headers=headers)
    assert refused.status_code == 422 and "time_control" in refused.text
    bad = {**body, "settings": {**got["settings"], "time_control": "一小时"}}
    refused = client.put(f"/api/events/{event_id}/settings", json=bad, headers=headers)
    assert refused.status_code == 422
    assert refused.json()["args"]["field"]["code"] == "time_control"
    assert client.get(f"/api/events/{event_id}/settings").json()["settings"]["time_control"] == (
        "58m30s+3x30s"
    )


def _admin(client: TestClient) -> str:
    api_login(client, "admin", ADMIN_PASSWORD)
    return csrf(client)


def test_the_api_applies_the_same_rule(client: TestClient, database: Database) -> None:
    """``PUT /api/events/{id}/settings``: the safe change passes, a locked one is a 422 naming
    the field, and ``locked`` lists what can no longer change."""
    token = _admin(client)
    headers = {"X-CSRF-Token": token}
    event_id = _started(database)
    got = client.get(f"/api/events/{event_id}/settings").json()
    assert got["details"]["venue"] == "北京棋院" and got["settings"]["time_control"] == "55m+5x60s"
    assert "komi" in got["locked"] and "tiebreaks" not in got["locked"]
    body = {"name": got["name"], "settings": {**got["settings"], "tiebreaks": ["SOS", "SB"]},
            "details": {**got["details"], "time_zone": "Europe/Paris"}}  # fmt: skip
    put = client.put(f"/api/events/{event_id}/settings", json=body, headers=headers)
    assert put.status_code == 200, put.text
    assert put.json()["tiebreaks"] == ["SOS", "SB"]
    assert put.json()["details"]["time_zone"] == "Europe/Paris"
    body["settings"] = {**body["settings"], "komi": "13/2"}
    refused = client.put(f"/api/events/{event_id}/settings", json=body, headers=headers)
    assert refused.status_code == 422 and "komi" in refused.text
    bad_zone = {**body, "settings": got["settings"], "details": {"time_zone": "Nowhere/City"}}
    refused = client.put(f"/api/events/{event_id}/settings", json=bad_zone, headers=headers)
    assert refused.status_code == 422 and "time_zone" in refused.text


def test_sheets_show_the_details_and_pages_local_times(
    client: TestClient, database: Database
) -> None:
    """The public page and the printed result sheet and slips carry the dates, venue and time
    control; a game's history shows its times in the event's zone, not UTC."""
    token = _admin(client)
    event_id = _started(database)
    sheets = ("", "/rounds/1/results", "/rounds/1/slips", "/standings")
    for path in (f"/events/{event_id}{sheet}" for sheet in sheets):
        text = client.get(path).text
        assert 'id="event-details"' in text, path
        assert "2027-05-01 – 2027-05-03" in text and "北京棋院" in text, path
        assert "基本时限55分，读秒5次，每次60秒" in text, path
    game = client.get(f"/events/{event_id}/rounds/1/boards/1").text
    assert "Asia/Shanghai" in game and "UTC" not in game and token


def test_a_team_round_start_is_read_in_the_event_zone() -> None:
    """The team pairing form's start is local time (Beijing: UTC+8) — the lineup deadline
    follows from it."""
    from weiqi.server.routes.team_admin import parse_start

    assert parse_start("2027-05-01T09:00") == datetime(2027, 5, 1, 1, 0, tzinfo=UTC)
    assert parse_start("2027-07-01T09:00", "Europe/Paris") == datetime(2027, 7, 1, 7, 0, tzinfo=UTC)
