"""What the event (or the site) already holds, entered again: 409 with the message id and its
arguments through the API, and on a page the reason beside the field, the input kept — on
SQLite and PostgreSQL. A clash with what is stored is not bad input (422): the same request
would have been fine a moment earlier.

The same person is the same identity key (name, club, birth date and licence, R-ORG-1's
namesakes): a 张伟 of another club is a namesake and enters."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.test_event_admin_pages import admin, create
from tests.server.test_team_pages import TEAMS_CSV
from tests.server.test_team_pages import create as create_team_event
from weiqi.services import accounts, event_admin, team_admin, tournament
from weiqi.services.actor import Actor
from weiqi.store.database import Database

LOCAL = Actor.local()


def test_r_org_1_the_same_player_entered_again_is_409_naming_the_field(
    client: TestClient, database: Database
) -> None:
    """R-ORG-1: one API entry, then the same person again (409 ``duplicate``, code and args
    with the field ``name``, in Chinese when asked); a namesake of another club enters; a CSV
    naming the same person is 409 with its line; editing into the same person is 409."""
    token = admin(client)
    h = {"X-CSRF-Token": token}
    event_id = create(client, token)
    body = {"name": "张伟", "club": "北京", "rank": "3d"}
    assert client.post(f"/api/events/{event_id}/players", json=body, headers=h).status_code == 201
    again = client.post(
        f"/api/events/{event_id}/players", json=body, headers={**h, "Accept-Language": "zh-CN"}
    )
    assert again.status_code == 409, again.text
    error = again.json()
    assert set(error) == {"error", "code", "args", "message"}
    assert error["error"] == "duplicate" and error["code"] == "%(field)s: %(reason)s"
    assert error["args"]["field"]["code"] == "name"
    assert error["args"]["reason"]["args"]["name"] == "张伟"
    assert "张伟" in error["message"] and "已报名" in error["message"]
    namesake = {"name": "张伟", "club": "上海"}
    assert (
        client.post(f"/api/events/{event_id}/players", json=namesake, headers=h).status_code == 201
    )
    csv_again = client.post(
        f"/api/events/{event_id}/players/import",
        json={"csv": "name,club\n李明,\n张伟,北京\n"},
        headers=h,
    )
    assert csv_again.status_code == 409 and csv_again.json()["error"] == "duplicate"
    assert csv_again.json()["args"]["field"]["args"]["line"] == 3
    players = event_admin.dashboard(database, LOCAL, event_id).players
    shanghai = next(p for p in players if p.club == "上海")
    edited = client.put(
        f"/api/events/{event_id}/players/{shanghai.id}", json={"name": "张伟", "club": "北京"},
        headers=h,
    )  # fmt: skip
    assert edited.status_code == 409 and edited.json()["args"]["field"]["code"] == "name"
    assert tournament.tournament_info(database, event_id).entrants == 2


def test_the_registration_form_shows_the_duplicate_beside_the_name(
    client: TestClient, database: Database
) -> None:
    """The dashboard's form: 409, the reason in Chinese beside the name field (the input marked
    invalid and described by it), every value kept, nothing entered twice."""
    token = admin(client)
    event_id = create(client, token)
    form = {"name": "王芳", "club": "天津", "rank": "2段", "csrf_token": token}
    first = client.post(f"/events/{event_id}/manage/players", data=form, follow_redirects=False)
    assert first.status_code == 303
    page = client.post(f"/events/{event_id}/manage/players", data=form)
    assert page.status_code == 409
    # the name's input, and right after its label (before the next field) the reason
    name_field = page.text.split('<input name="name"', 1)[1].split('<input name="rank"', 1)[0]
    assert 'aria-invalid="true" aria-describedby="player-error"' in name_field
    assert 'id="player-error"' in name_field and "王芳" in name_field and "已报名" in name_field
    assert 'value="天津"' in page.text and 'value="2段"' in page.text
    assert tournament.tournament_info(database, event_id).entrants == 1


def test_a_team_or_roster_player_entered_again_is_409(
    client: TestClient, database: Database
) -> None:
    """A team code already in the event, or a teammate's name given to another teammate with
    nothing to tell them apart: 409 ``duplicate`` through the API. Another team's player of
    the same name is a namesake, entered and told apart by the team."""
    token = admin(client)
    h = {"X-CSRF-Token": token}
    event_id = create_team_event(client, token)
    url = f"/api/events/{event_id}/teams/import"
    assert client.post(url, json={"csv": TEAMS_CSV}, headers=h).status_code == 200
    same_team = client.post(url, json={"csv": "队名,姓名,段位\n黑龙,新人1,1d\n"}, headers=h)
    assert same_team.status_code == 409, same_team.text
    assert same_team.json()["error"] == "duplicate"
    assert same_team.json()["args"]["field"]["args"]["team_id"] == "黑龙"
    # Another team's 黑龙1 is a namesake, told apart by the team (namesakes in team events) …
    namesake = "队名,姓名,段位\n玄武,黑龙1,1d\n玄武,玄武2,1d\n玄武,玄武3,1d\n"
    assert client.post(url, json={"csv": namesake}, headers=h).status_code == 200
    # … while a teammate's name, with nothing to tell the two apart, is the same player again
    cards = {c.code: c for c in team_admin.team_cards(database, event_id)}
    black = cards["黑龙"]
    first, second = black.roster[0], black.roster[1]
    clash = client.put(
        f"/api/events/{event_id}/teams/{black.id}/players/{second.id}",
        json={"name": first.name, "rank": "3段"},
        headers=h,
    )
    assert clash.status_code == 409 and clash.json()["error"] == "duplicate", clash.text
    page = client.get(f"/events/{event_id}/teams")
    assert "黑龙1 (黑龙)" in page.text and "黑龙1 (玄武)" in page.text


def test_a_role_granted_again_or_a_taken_username_is_409(
    client: TestClient, database: Database
) -> None:
    """Already 409 before: a role the user holds, a username taken (``conflict``)."""
    token = admin(client)
    h = {"X-CSRF-Token": token}
    event_id = create(client, token)
    user = {"username": "referee-li", "password": "quiet tortoise 123"}
    created = client.post("/api/users", json=user, headers=h)
    assert created.status_code == 201
    taken = client.post("/api/users", json=user, headers=h)
    assert taken.status_code == 409 and taken.json()["error"] == "conflict"
    assert taken.json()["code"] == "username %(name)s is taken"
    grant = {"user_id": created.json()["id"], "role": "referee"}
    url = f"/api/events/{event_id}/roles"
    assert client.post(url, json=grant, headers=h).status_code == 201
    again = client.post(url, json=grant, headers=h)
    assert again.status_code == 409 and again.json()["error"] == "conflict"
    assert again.json()["args"]["username"] == "referee-li"
    assert len(accounts.event_roles(database, event_id)) == 1  # one grant (admin created it)
