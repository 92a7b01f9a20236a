"""Absences through the API (issue #13): read and set every later round a player sits out;
a round already paired is a 409 that says so."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.test_event_admin_pages import admin, create
from tests.server.test_event_admin_services import players_csv
from weiqi.services import event_admin
from weiqi.services.actor import Actor
from weiqi.store.database import Database

LOCAL = Actor.local()


def test_the_api_sets_and_reads_absences(client: TestClient, database: Database) -> None:
    token = admin(client)
    h = {"X-CSRF-Token": token}
    event_id = create(client, token)
    event_admin.import_players(database, LOCAL, event_id, players_csv(6))
    p = event_admin.dashboard(database, LOCAL, event_id).players[0]
    url = f"/api/events/{event_id}/players/{p.id}/absences"
    assert client.get(url).json() == {"absent": [], "open": [1, 2, 3, 4, 5]}
    put = client.put(url, json={"rounds": [2, 4]}, headers=h)
    assert put.status_code == 200 and put.json()["absent"] == [2, 4]
    event_admin.pair_next_round(database, LOCAL, event_id)
    late = client.put(url, json={"rounds": [1]}, headers=h)
    assert late.status_code == 409
    assert late.json()["code"] == (
        "round %(number)s is paired already; absences are for later rounds"
    )
    assert client.put(url, json={"rounds": [3]}, headers=h).json() == {
        "absent": [3],
        "open": [2, 3, 4, 5],
    }
    assert client.put(url, json={"rounds": [3]}).status_code == 403  # no CSRF token
