"""R-ORG-1 through the JSON API: every write endpoint × every role, on SQLite and PostgreSQL.

An action a role may not take answers 403 (401 without a login) and changes nothing. A new
write endpoint must be added to ``ENDPOINTS`` — ``test_the_matrix_covers_every_write_endpoint``
fails until it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf
from tests.store.conftest import CHEAP_HASHER, postgres_schema
from weiqi.roles import Role
from weiqi.server.app import create_app
from weiqi.services import accounts
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.site import site_overview
from weiqi.store.database import Database

LOCAL = Actor.local()
PASSWORD = "correct horse"
# Everyone who may knock: nobody, a logged-in user without a role, each role in the event, an
# organiser of another event, and the site administrator.
ACTORS = [
    "anonymous",
    "public",
    "player",
    "referee",
    "chief_referee",
    "organiser",
    "other_organiser",
    "admin",
]
LOGGED_IN = frozenset(ACTORS) - {"anonymous"}
Send = Callable[[], httpx.Response]


@dataclass
class World:
    db: Database
    app_clients: dict[str, TestClient]
    event_id: int
    other_event_id: int
    user_ids: dict[str, int] = field(default_factory=dict)

    def call(self, actor: str, method: str, path: str, **kwargs: object) -> Send:
        """The request, ready to send (with the actor's CSRF token)."""
        client = self.app_clients[actor]
        headers = {"X-CSRF-Token": csrf(client)}
        return lambda: client.request(method, path, headers=headers, **kwargs)  # type: ignore[arg-type]

    def new_user(self, name: str) -> int:
        return accounts.create_user(self.db, LOCAL, name, PASSWORD).id


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def world(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[World]:
    previous = accounts.set_password_hasher(CHEAP_HASHER)
    with ExitStack() as stack:
        if request.param == "postgres":
            url = stack.enter_context(postgres_schema())
        else:
            url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'weiqi.sqlite3'}"
        db = Database(url)
        db.upgrade()
        stack.callback(db.dispose)
        accounts.ensure_site_admin(db, ADMIN_PASSWORD)
        event = create_event(db, LOCAL, "the event").id
        other = create_event(db, LOCAL, "another event").id
        app = create_app(db, secret_key="matrix")
        w = World(db, {}, event, other)
        for actor in ACTORS:
            client = stack.enter_context(TestClient(app))
            w.app_clients[actor] = client
            if actor in ("anonymous", "admin"):
                continue
            w.user_ids[actor] = w.new_user(actor)
            if actor in ("player", "referee", "chief_referee", "organiser"):
                accounts.grant_role(db, LOCAL, w.user_ids[actor], event, Role(actor))
            if actor == "other_organiser":
                accounts.grant_role(db, LOCAL, w.user_ids[actor], other, Role.ORGANISER)
        for actor in LOGGED_IN:
            api_login(w.app_clients[actor], actor, ADMIN_PASSWORD if actor == "admin" else PASSWORD)
        yield w
    accounts.set_password_hasher(previous)


def _create_user(w: World, actor: str) -> Send:
    return w.call(
        actor, "POST", "/api/users", json={"username": f"made-by-{actor}", "password": PASSWORD}
    )


def _create_event(w: World, actor: str) -> Send:
    return w.call(actor, "POST", "/api/events", json={"name": f"event of {actor}"})


def _grant_role(w: World, actor: str) -> Send:
    target = w.new_user(f"grantee-{actor}")
    return w.call(
        actor,
        "POST",
        f"/api/events/{w.event_id}/roles",
        json={"user_id": target, "role": "referee"},
    )


def _revoke_role(w: World, actor: str) -> Send:
    target = w.new_user(f"revokee-{actor}")
    accounts.grant_role(w.db, LOCAL, target, w.event_id, Role.PLAYER)
    return w.call(actor, "DELETE", f"/api/events/{w.event_id}/roles/{target}/player")


def _change_password(w: World, actor: str) -> Send:
    old = ADMIN_PASSWORD if actor == "admin" else PASSWORD
    return w.call(actor, "POST", "/api/account/password", json={"current": old, "new": old})


def _replay_clock(w: World, actor: str) -> Send:
    events = [{"op": "start", "now": 0}, {"op": "press", "now": 5, "color": "B"}]
    return w.call(actor, "POST", "/api/clock/replay", json={"tc": "3x30s", "events": events})


# endpoint (as OpenAPI names it) → (set up a call by an actor, the actors that may make it)
ENDPOINTS: dict[tuple[str, str], tuple[Callable[[World, str], Send], frozenset[str]]] = {
    ("POST", "/api/users"): (_create_user, frozenset({"admin"})),
    ("POST", "/api/events"): (_create_event, frozenset({"admin"})),
    ("POST", "/api/events/{event_id}/roles"): (_grant_role, frozenset({"admin", "organiser"})),
    ("DELETE", "/api/events/{event_id}/roles/{user_id}/{role}"): (
        _revoke_role,
        frozenset({"admin", "organiser"}),
    ),
    ("POST", "/api/account/password"): (_change_password, LOGGED_IN),
    # The voice clock's replay reads and stores nothing: open to everybody, anonymous too.
    ("POST", "/api/clock/replay"): (_replay_clock, frozenset(ACTORS)),
}
# Logging in and out are open to everybody; ``test_everyone_logs_in_and_out`` covers them.
SESSION_ENDPOINTS = {("POST", "/api/session"), ("DELETE", "/api/session")}


def snapshot(db: Database) -> tuple[object, ...]:
    o = site_overview(db, LOCAL)
    return (
        [(u.username, u.is_admin, u.session_epoch) for u in o.users],
        [e.name for e in o.events],
        [(g.username, g.event_id, g.role) for g in o.grants],
    )


@pytest.mark.parametrize("endpoint", list(ENDPOINTS), ids=lambda e: f"{e[0]} {e[1]}")
@pytest.mark.parametrize("actor", ACTORS)
def test_r_org_1_permissions(world: World, endpoint: tuple[str, str], actor: str) -> None:
    """R-ORG-1: allowed roles succeed; every other gets 403 (401 if anonymous) and no change."""
    prepare, allowed = ENDPOINTS[endpoint]
    send = prepare(world, actor)  # its set-up (a user to grant a role to, …) comes first
    before = snapshot(world.db)
    response = send()
    if actor in allowed:
        assert response.status_code in (200, 201, 204), response.text
        return
    expected = (
        401 if actor == "anonymous" and endpoint == ("POST", "/api/account/password") else 403
    )
    assert response.status_code == expected, response.text
    assert response.json()["error"] in ("permission_denied", "login_required")
    assert snapshot(world.db) == before


@pytest.mark.parametrize("endpoint", list(ENDPOINTS), ids=lambda e: f"{e[0]} {e[1]}")
def test_every_write_endpoint_needs_the_csrf_token(world: World, endpoint: tuple[str, str]) -> None:
    method, path = endpoint
    path = path.format(event_id=world.event_id, user_id=world.user_ids["player"], role="player")
    before = snapshot(world.db)
    response = world.app_clients["admin"].request(method, path, json={})
    assert response.status_code == 403 and response.json()["error"] == "csrf"
    assert snapshot(world.db) == before


def test_the_matrix_covers_every_write_endpoint(world: World) -> None:
    schema = world.app_clients["anonymous"].get("/openapi.json").json()
    writes = {
        (method.upper(), path)
        for path, operations in schema["paths"].items()
        for method in operations
        if method.upper() in ("POST", "PUT", "PATCH", "DELETE")
    }
    assert writes == set(ENDPOINTS) | SESSION_ENDPOINTS


@pytest.mark.parametrize("actor", sorted(LOGGED_IN))
def test_everyone_logs_in_and_out(world: World, actor: str) -> None:
    with TestClient(world.app_clients["anonymous"].app) as client:
        api_login(client, actor, ADMIN_PASSWORD if actor == "admin" else PASSWORD)
        assert client.get("/api/session").json()["user"]["username"] == actor
        out = client.delete("/api/session", headers={"X-CSRF-Token": csrf(client)})
        assert out.status_code == 204
        assert client.get("/api/session").json()["user"] is None
