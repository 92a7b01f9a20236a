"""Every bad input is a 4xx that names the field, in the user's language, and stores nothing
(issue #16), on SQLite and PostgreSQL through the real app; and who may not write learns
nothing about the body (authorization before validation).

Each case here was a 500 before: ``settings: {}``, wrong-typed settings, ids of 2**70, numbers
beyond Python's int-string limit, lone surrogates, a round-sheet field ``result_abc``, names
longer than their column or with a NUL (PostgreSQL), and no limit on uploads, notes or entrants.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf
from weiqi.services import accounts, games
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.store.models import EventRole, EventRow, User
from weiqi.store.tournament import PlayerRow
from weiqi.text import MAX_ENTRANTS, MAX_NOTE_LENGTH, MAX_UPLOAD_BYTES
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()
ZH = {"Accept-Language": "zh-CN"}
FIELD = "%(field)s: %(reason)s"


def count(db: Database, model: Any) -> int:
    with db.transaction() as session:
        return int(session.scalar(select(func.count()).select_from(model)) or 0)


def admin(client: TestClient) -> dict[str, str]:
    api_login(client, "admin", ADMIN_PASSWORD)
    return {"X-CSRF-Token": csrf(client)}


def raw_json(
    client: TestClient, method: str, url: str, text: str, headers: dict[str, str]
) -> httpx.Response:
    """A JSON body as a client may write it (``\\ud800`` escapes, 5,000-digit numbers)."""
    return client.request(
        method, url, content=text, headers={**headers, "content-type": "application/json"}
    )


def refused(response: httpx.Response, status: int, field: str, kind: str | None = None) -> str:
    """Assert a refusal of ``field`` in the API's shape; the English message."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) >= {"error", "code", "args", "message"}, body
    if kind:
        assert body["error"] == kind, body
    assert body["code"] == FIELD, body
    assert body["args"]["field"]["code"] == field, body
    message: str = body["message"]
    assert message.startswith(f"{field}: "), message
    return message


@pytest.fixture
def event(database: Database) -> int:
    return create_event(database, LOCAL, "春季赛", EventSettings(System.SWISS, 3)).id


# -- settings -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        ({}, "system"),
        ({"system": "swiss", "rounds": "five"}, "rounds"),
        ({"system": "swiss", "rounds": [5]}, "rounds"),
        ({"system": "swiss", "rounds": 5, "tiebreaks": 5}, "tiebreaks"),
        ({"system": "swiss", "rounds": 5, "komi": []}, "komi"),
        ({"system": "swiss", "rounds": 5, "shared_places": "yes"}, "shared_places"),
        ({"system": "swiss", "rounds": 5, "mcmahon_bar": "strong"}, "mcmahon_bar"),
    ],
)
def test_empty_or_wrong_typed_settings_are_422_naming_the_setting(
    client: TestClient, database: Database, event: int, settings: dict[str, Any], field: str
) -> None:
    headers = admin(client)
    before = count(database, EventRow)
    body = {"name": "新赛事", "settings": settings}
    refused(client.post("/api/events/tournaments", json=body, headers=headers), 422, field)
    refused(client.put(f"/api/events/{event}/settings", json=body, headers=headers), 422, field)
    assert count(database, EventRow) == before
    assert t.tournament_info(database, event).name == "春季赛"


def test_a_count_beyond_the_int_string_limit_is_422_naming_the_field(
    client: TestClient, database: Database
) -> None:
    headers = admin(client)
    digits = "9" * 5000
    text = '{"name": "x", "settings": {"system": "swiss", "rounds": ' + digits + "}}"
    response = raw_json(client, "POST", "/api/events/tournaments", text, headers)
    assert "out of range" in refused(response, 422, "settings.rounds", "input_error")
    # as text (a form, a JSON string) it is not a whole number a setting can take
    body = {"name": "x", "settings": {"system": "swiss", "rounds": digits}}
    refused(client.post("/api/events/tournaments", json=body, headers=headers), 422, "rounds")
    form = {"csrf_token": headers["X-CSRF-Token"], "name": "页面赛", "system": "swiss"}
    page = client.post("/events/new", data={**form, "rounds": digits}, headers=ZH)
    assert page.status_code == 422 and "须为整数" in page.text
    assert count(database, EventRow) == 0


# -- ids ------------------------------------------------------------------------------------


def test_ids_of_2_to_the_70_are_404_in_the_path_and_422_in_a_body(
    client: TestClient, database: Database, event: int
) -> None:
    headers = admin(client)
    huge = 2**70
    response = client.get(f"/api/events/{huge}/settings")
    assert response.status_code == 404 and response.json()["args"]["field"]["code"] == "event_id"
    player = client.post(f"/api/events/{huge}/players", json={"name": "李"}, headers=headers)
    assert player.status_code == 404
    assert client.get(f"/api/events/{event}/rounds/{huge}/boards/1").status_code == 404
    assert client.get(f"/events/{huge}").status_code == 404
    grant = {"user_id": huge, "role": "referee"}
    refused(client.post(f"/api/events/{event}/roles", json=grant, headers=headers), 422, "user_id")
    rows = {"rows": [{"board": huge, "result": "B+R"}]}
    refused(
        client.post(f"/api/events/{event}/rounds/1/results", json=rows, headers=headers),
        422,
        "rows.0.board",
    )
    assert count(database, EventRole) == 0


# -- names ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("\\ud800", "contains a character that is not text (%(code)s)"),
        ("李\\u200b明", "must not contain invisible characters (%(code)s)"),
        ("\\u202e明李", "must not contain invisible characters (%(code)s)"),
        ("李\\u0000明", "must not contain a NUL character"),
        ("李" * 201, "must have at most %(limit)s characters"),
    ],
)
def test_bad_names_are_422_naming_the_field_and_nothing_is_stored(
    client: TestClient, database: Database, event: int, name: str, reason: str
) -> None:
    """Lone surrogates, invisible and bidi characters, NUL and over-long names: refused by
    every service that stores a name (players, events, display names)."""
    headers = admin(client)
    quoted = json.dumps(name).replace("\\\\", "\\")  # keep the escapes as the client wrote them
    user = '"username": "li", "password": "slow green river 9"'
    cases = [
        (f"/api/events/{event}/players", f'{{"name": {quoted}}}', "name"),
        (
            "/api/events",
            f'{{"name": {quoted}, "settings": {{"system": "swiss", "rounds": 3}}}}',
            "name",
        ),
        ("/api/users", f'{{{user}, "display_name": {quoted}}}', "display_name"),
    ]
    for url, text, field in cases:
        response = raw_json(client, "POST", url, text, headers)
        refused(response, 422, field)
        assert response.json()["args"]["reason"]["code"] == reason
    assert count(database, PlayerRow) == 0
    assert count(database, EventRow) == 1
    assert count(database, User) == 1


def test_names_are_stored_in_nfc(client: TestClient, database: Database, event: int) -> None:
    headers = admin(client)
    decomposed = "Le\u0301a"  # e + combining acute
    url = f"/api/events/{event}/players"
    response = client.post(url, json={"name": decomposed}, headers=headers)
    assert response.status_code == 201 and response.json()["name"] == "L\u00e9a"


def test_the_message_is_in_the_readers_language(client: TestClient, event: int) -> None:
    headers = admin(client)
    body = {"name": "李\u200b明"}
    zh = client.post(f"/api/events/{event}/players", json=body, headers={**headers, **ZH}).json()
    assert zh["message"].startswith("名称") and "不能含有不可见字符（U+200B）" in zh["message"]
    en = client.post(f"/api/events/{event}/players", json=body, headers=headers).json()
    assert en["message"] == "name: must not contain invisible characters (U+200B)"


def test_the_players_form_keeps_what_was_typed_and_shows_the_reason_by_the_field(
    client: TestClient, database: Database, event: int
) -> None:
    headers = admin(client)
    form = {
        "csrf_token": headers["X-CSRF-Token"],
        "name": "李\u200b明",
        "rank": "5d",
        "club": "北京",
    }
    page = client.post(f"/events/{event}/manage/players", data=form, headers=ZH)
    assert page.status_code == 422
    assert 'id="player-error"' in page.text and "不可见字符" in page.text
    assert 'value="北京"' in page.text and 'value="5d"' in page.text
    assert count(database, PlayerRow) == 0


def test_a_csv_row_with_a_bad_name_is_named_by_its_line(
    client: TestClient, database: Database, event: int
) -> None:
    headers = admin(client)
    body = {"csv": "name,club\n李明,北京\n王\u2066强,上海\n"}
    response = client.post(f"/api/events/{event}/players/import", json=body, headers=headers)
    assert response.status_code == 422
    assert response.json()["problems"] == [
        {"line": 3, "reason": "name: must not contain invisible characters (U+2066)"}
    ]
    assert count(database, PlayerRow) == 0


# -- the round sheet ------------------------------------------------------------------------


def test_a_round_sheet_field_result_abc_is_refused_by_name(
    client: TestClient, database: Database
) -> None:
    ev = create_event(database, LOCAL, "循环赛", EventSettings(System.ROUND_ROBIN)).id
    t.import_players(database, LOCAL, ev, "name\nLi\nWang\n")
    t.pair_round(database, LOCAL, ev)
    anonymous_token = csrf(client)
    form = {"csrf_token": anonymous_token, "result_abc": "B+R", "result_1": "W+R"}
    anonymous = client.post(f"/events/{ev}/rounds/1/results", data=form, follow_redirects=False)
    assert anonymous.status_code == 303 and anonymous.headers["location"].startswith("/login")
    headers = admin(client)
    form["csrf_token"] = headers["X-CSRF-Token"]
    page = client.post(f"/events/{ev}/rounds/1/results", data=form, headers=ZH)
    assert page.status_code == 422 and "result_abc" in page.text and "不是本轮的台次" in page.text
    assert games.round_games(database, ev, 1)[0].result is None


# -- size limits ----------------------------------------------------------------------------


def test_size_limits_of_uploads_notes_and_entrants(
    client: TestClient, database: Database, event: int
) -> None:
    headers = admin(client)
    big = "name\n" + "x" * MAX_UPLOAD_BYTES + "\n"
    url = f"/api/events/{event}/players/import"
    response = client.post(url, json={"csv": big}, headers=headers)
    assert response.status_code == 422 and "larger than 2048 kB" in response.json()["message"]
    many = "name\n" + "\n".join(f"P{i}" for i in range(MAX_ENTRANTS + 1)) + "\n"
    response = client.post(url, json={"csv": many}, headers=headers)
    assert "entrants" in refused(response, 422, "players")
    assert count(database, PlayerRow) == 0

    ev = create_event(database, LOCAL, "循环赛", EventSettings(System.ROUND_ROBIN)).id
    t.import_players(database, LOCAL, ev, "name\nLi\nWang\n")
    t.pair_round(database, LOCAL, ev)
    note = {"kind": "clock_before_move", "offender": "B", "note": "n" * (MAX_NOTE_LENGTH + 1)}
    url = f"/api/events/{ev}/rounds/1/boards/1/infractions"
    assert "at most 10000" in refused(client.post(url, json=note, headers=headers), 422, "note")
    assert not games.game_view(database, ev, 1, 1).infractions


# -- authorization before validation ----------------------------------------------------------

GARBAGE = ["{not json", '{"name": 5, "rows": "x", "user_id": "me"}', "[]"]


@pytest.mark.parametrize("body", GARBAGE)
def test_who_may_not_write_gets_403_whatever_the_body(
    client: TestClient, database: Database, event: int, body: str
) -> None:
    """An anonymous caller and a logged-in user without a role get 403 on write endpoints of
    an event, an existing one or not, before any 404 or 422 about the path or the body."""
    accounts.create_user(database, LOCAL, "visitor", "slow green river 9")
    paths = [
        "/api/events/{ev}/players",
        "/api/events/{ev}/roles",
        "/api/events/{ev}/rounds/7/boards/3/result",
        "/api/events/{ev}/rounds/7/results",
        "/api/events/{ev}/rounds/7/lineups",
    ]
    for who in ("anonymous", "visitor"):
        if who == "visitor":
            api_login(client, "visitor", "slow green river 9")
        headers = {"X-CSRF-Token": csrf(client)}
        for path in paths:
            for ev in (event, 999):
                response = raw_json(client, "POST", path.format(ev=ev), body, headers)
                assert response.status_code == 403, (who, path, ev, response.text)
                assert response.json()["error"] == "permission_denied"
    assert count(database, PlayerRow) == 0 and count(database, EventRole) == 0


# Writes anybody may make (log in, log out, the voice clock's replay) or that need only a login.
OPEN_WRITES = {
    ("POST", "/api/session"),
    ("DELETE", "/api/session"),
    ("POST", "/api/account/password"),
    ("POST", "/api/clock/replay"),
    # spending an invitation code for a program's session logs in; signing up makes an account
    ("POST", "/api/invites/session"),
    ("POST", "/api/signup"),
    # the old team API addresses: a 308 to the new place, where the action is checked
    *(
        (method, path)
        for method in ("POST", "PUT", "DELETE")
        for path in (
            "/api/team-events{rest:path}",
            "/api/events/{event_id}/teams/rounds",
            "/api/events/{event_id}/teams/rounds/{rest:path}",
        )
    ),
}


def test_every_write_endpoint_of_the_api_names_its_action(client: TestClient) -> None:
    """A new write endpoint without ``@requires`` (or ``@requires_login``, for one any
    logged-in user may call) would validate before it authorizes. The
    endpoints are read from the routers (``app.api_routes``): the application's ``routes``
    hold each router as one entry, where this test found no endpoint to check."""
    from weiqi.server.app import api_routes
    from weiqi.server.inputs import login_required, required_action

    writes = [
        (method, route)
        for route in api_routes()
        if route.path.startswith("/api/")
        for method in route.methods & {"POST", "PUT", "PATCH", "DELETE"}
    ]
    assert len(writes) > 50  # the check reads the endpoints it is about
    unmarked = sorted(
        (method, route.path)
        for method, route in writes
        if required_action(route.endpoint) is None
        and not login_required(route.endpoint)
        and (method, route.path) not in OPEN_WRITES
    )
    assert unmarked == []


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/events/1/claims"),
        ("DELETE", "/api/claims/1"),
        ("POST", "/api/invites/redeem"),
    ],
)
def test_a_write_any_logged_in_user_may_make_refuses_an_anonymous_caller_first(
    client: TestClient, method: str, path: str
) -> None:
    """A claim of an entry, its withdrawal, an invitation code redeemed: any logged-in user's
    writes. An anonymous caller is answered 401 before the body is read — it was told what
    was wrong with the body (422) first."""
    headers = {"X-CSRF-Token": csrf(client)}
    answer = client.request(method, path, json={"bogus": 1}, headers=headers)
    assert answer.status_code == 401, answer.text
    assert answer.json()["error"] == "login_required"
