"""Issue #10, one address scheme: an individual and a team event are run through the same API
addresses — pair a round (with its start), move its start, enter its results, read its rounds,
one round and the standings — each answering its kind's read model; a row that names a team
in an individual event, or none in a team event, is refused by its field with nothing stored.
On SQLite and PostgreSQL (the ``db`` fixture)."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi.testclient import TestClient

from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf
from tests.store.conftest import CHEAP_HASHER
from weiqi.league.settings import TeamEventSettings
from weiqi.server.app import create_app
from weiqi.services import accounts, teams
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.server_clock import ManualClock
from weiqi.services.tournament import import_players
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()
NOW = datetime(2030, 1, 1, 8, 0, tzinfo=UTC)
START = "2030-01-01T09:00:00+00:00"


def _client(db: Database) -> tuple[TestClient, dict[str, str]]:
    previous = accounts.set_password_hasher(CHEAP_HASHER)
    try:
        accounts.ensure_site_admin(db, ADMIN_PASSWORD)
    finally:
        accounts.set_password_hasher(previous)
    client = TestClient(create_app(db, secret_key="one scheme", clock=ManualClock(NOW)))
    api_login(client, "admin", ADMIN_PASSWORD)
    return client, {"X-CSRF-Token": csrf(client)}


def test_an_individual_and_a_team_event_share_their_round_addresses(db: Database) -> None:
    client, headers = _client(db)
    solo = create_event(db, LOCAL, "个人赛", EventSettings(System.ROUND_ROBIN)).id
    import_players(db, LOCAL, solo, "name\n甲\n乙\n")
    team = create_event(db, LOCAL, "团体赛", TeamEventSettings(boards=1)).id
    teams.import_teams(db, LOCAL, team, "team,name,rank\nA,A1,5d\nB,B1,5d\n")

    # pairing, the start given with it: both kinds store it
    for ev in (solo, team):
        paired = client.post(f"/api/events/{ev}/rounds", json={"start": START}, headers=headers)
        assert paired.status_code == 201, paired.text
    assert client.get(f"/api/events/{team}/rounds/1").json()["starts_at"] is not None
    solo_round = client.get(f"/api/events/{solo}/rounds/1/pairing", headers=headers).json()
    assert solo_round["starts_at"] is not None
    client.post(f"/api/events/{solo}/rounds/1/publish", json={"published": True}, headers=headers)

    # moving the start, the same address
    for ev in (solo, team):
        moved = client.put(
            f"/api/events/{ev}/rounds/1/start", json={"start": "2030-01-02 10:00"}, headers=headers
        )
        assert moved.status_code == 200, moved.text
        starts = datetime.fromisoformat(moved.json()["starts_at"].replace("Z", "+00:00"))
        assert starts == datetime(2030, 1, 2, 2, 0, tzinfo=UTC), moved.text  # 10:00 in Beijing

    # a row naming a team in the individual event, none in the team event: refused, by field
    wrong = {"rows": [{"board": 1, "result": "B+R", "team": "A"}]}
    refused = client.post(f"/api/events/{solo}/rounds/1/results", json=wrong, headers=headers)
    assert refused.status_code == 422, refused.text
    assert refused.json()["args"]["field"]["code"] == "rows.0.team"
    sitting = {"rows": [{"board": 1, "result": "B+R", "sitting": 1}]}
    refused = client.post(f"/api/events/{solo}/rounds/1/results", json=sitting, headers=headers)
    assert refused.status_code == 422, refused.text
    assert refused.json()["args"]["field"]["code"] == "rows.0.sitting"
    nameless = {"rows": [{"board": 1, "result": "B+R"}]}
    refused = client.post(f"/api/events/{team}/rounds/1/results", json=nameless, headers=headers)
    assert refused.status_code == 422, refused.text
    assert refused.json()["args"]["field"]["code"] == "rows.0.team"

    # the results, the same address: the individual sheet, the team's rows
    entered = client.post(f"/api/events/{solo}/rounds/1/results", json=nameless, headers=headers)
    assert entered.status_code == 200, entered.text
    assert entered.json()["changed"] == 1
    for side in ("A", "B"):
        lineup = {"team": side, "players": [f"{side}1"]}
        sent = client.post(f"/api/events/{team}/rounds/1/lineups", json=lineup, headers=headers)
        assert sent.status_code == 204, sent.text
    teams.reveal_round(
        db, LOCAL, team, 1, clock=ManualClock(datetime(2030, 1, 2, 10, 0, tzinfo=UTC))
    )
    match = client.get(f"/api/events/{team}/rounds/1").json()["matches"][0]
    board = match["boards"][0]
    a_black = (board["home_color"] == "B") == (match["home"] == "A")
    sheet = {"rows": [{"team": "A", "board": 1, "result": "B+R" if a_black else "W+R"}]}
    entered = client.post(f"/api/events/{team}/rounds/1/results", json=sheet, headers=headers)
    assert entered.status_code == 200, entered.text
    assert entered.json()["matches"][0]["winner"] == "A"
    boards = client.get(f"/api/events/{team}/rounds/1/results").json()
    assert [(b["match"], b["board"], b["result"], b["confirmed"]) for b in boards] == [
        (1, 1, sheet["rows"][0]["result"], True)
    ]
    assert {boards[0]["black_team"], boards[0]["white_team"]} == {"A", "B"}
    # the round sheet's pages of a team event are its round's page, a sheet a match
    for page in ("results", "slips"):
        moved = client.get(f"/events/{team}/rounds/1/{page}", follow_redirects=False)
        assert (moved.status_code, moved.headers["location"]) == (
            307,
            f"/events/{team}/manage/rounds/1",
        )

    # reading: the rounds, one round, the standings — each kind's read model
    solo_rounds = client.get(f"/api/events/{solo}/rounds").json()
    assert [(r["round"], len(r["pairings"])) for r in solo_rounds] == [(1, 1)]
    assert solo_rounds[0] == client.get(f"/api/events/{solo}/rounds/1").json()
    team_rounds = client.get(f"/api/events/{team}/rounds").json()
    assert [(r["round"], r["matches"][0]["winner"]) for r in team_rounds] == [(1, "A")]
    assert team_rounds[0] == client.get(f"/api/events/{team}/rounds/1").json()
    solo_table = client.get(f"/api/events/{solo}/standings").json()
    assert [row["place"] for row in solo_table["rows"]] == [1, 2]
    team_table = client.get(f"/api/events/{team}/standings").json()
    assert [(row["team"], row["match_points"]) for row in team_table] == [("A", 2), ("B", 0)]


def test_the_api_schema_has_one_address_for_each_round_action() -> None:
    """The API's schema lists each round action once, for either kind, answering either kind's
    read model; no team round address remains beside them, and the two creation addresses of
    one kind each are marked deprecated in favour of ``POST /api/events`` with its ``kind``."""
    memory = Database("sqlite://")
    memory.upgrade()
    paths = create_app(memory).openapi()["paths"]
    assert not [p for p in paths if "/teams/rounds" in p or "/teams/standings" in p]
    for path, method, status in (
        ("/api/events/{event_id}/rounds", "post", "201"),
        ("/api/events/{event_id}/rounds/{number}", "get", "200"),
        ("/api/events/{event_id}/rounds/{number}/start", "put", "200"),
        ("/api/events/{event_id}/rounds/{number}/results", "post", "200"),
    ):
        answer = paths[path][method]["responses"][status]
        shapes = {
            s["$ref"].rsplit("/", 1)[-1]
            for s in answer["content"]["application/json"]["schema"]["anyOf"]
        }
        assert any(s.startswith("Team") for s in shapes) and len(shapes) == 2, (path, shapes)
    assert paths["/api/events/teams"]["post"]["deprecated"]
    assert paths["/api/events/tournaments"]["post"]["deprecated"]
    assert not paths["/api/events"]["post"].get("deprecated")
