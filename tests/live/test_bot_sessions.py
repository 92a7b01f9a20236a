"""A program spends an entrant's invitation code for a session (issue #11; ``weiqi bot``): the
code is one-time, the account it makes opens with no password, unknown codes count against the
login limits, and the session lists the entrant's games (R-ORG-1: the entrant plays only its
own board)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.server.conftest import csrf
from tests.store.conftest import CHEAP_HASHER
from weiqi.errors import Conflict, InvalidSetting
from weiqi.server.app import create_app
from weiqi.services import accounts, live, live_bot
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.event_admin import publish_round
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.store.models import User
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()


@pytest.fixture
def event(tmp_path: Path) -> Iterator[tuple[TestClient, Database, int]]:
    previous = accounts.set_password_hasher(CHEAP_HASHER)
    db = Database(f"sqlite:///{tmp_path / 'weiqi.sqlite3'}")
    db.upgrade()
    ev = create_event(
        db, LOCAL, "机器人赛", EventSettings(System.SWISS, rounds=3, play="online")
    ).id
    t.import_players(db, LOCAL, ev, "name\n甲\n乙\n丙\n")
    t.pair_round(db, LOCAL, ev)
    publish_round(db, LOCAL, ev, 1)
    try:
        with TestClient(create_app(db, secret_key="bots")) as client:
            yield client, db, ev
    finally:
        db.dispose()
        accounts.set_password_hasher(previous)


def _spend(client: TestClient, code: str) -> tuple[int, dict[str, object]]:
    answer = client.post(
        "/api/invites/session", json={"code": code}, headers={"X-CSRF-Token": csrf(client)}
    )
    return answer.status_code, answer.json()


def test_r_org_1_a_code_opens_one_code_only_session_for_its_entrant(
    event: tuple[TestClient, Database, int],
) -> None:
    client, db, ev = event
    code = live.create_invite(db, LOCAL, ev, live.player_id(db, ev, "甲")).code
    no_token = client.post("/api/invites/session", json={"code": code})
    assert no_token.status_code == 403 and no_token.json()["error"] == "csrf"
    status, body = _spend(client, code.lower().replace("-", " "))  # as typed by hand
    assert status == 200, body
    assert body["name"] == "甲" and body["event_id"] == ev
    user = client.get("/api/session").json()["user"]
    assert user["username"] == body["user"]["username"]  # type: ignore[index]
    (mine,) = client.get("/api/live/games").json()
    assert mine["player"] == "甲" and mine["round"] == 1 and mine["rounds"] == 3
    assert mine["more_rounds"] is True
    seated = mine["games"]
    pairings = t.show_round(db, ev, 1)
    on_board = {p.board: (p.black, p.white) for p in pairings.pairings}
    for g in seated:  # its own board, its own colour; a bye lists none
        assert on_board[g["board"]]["BW".index(g["color"])] == "甲"
        assert g["path"] == f"/events/{ev}/rounds/1/boards/{g['board']}"
        assert g["komi"] == 7.5 and g["size"] == 19
    assert len(seated) == sum("甲" in pair for pair in on_board.values())
    # spent: neither a second program nor a person can use it again
    with TestClient(client.app) as other:
        again, refused = _spend(other, code)
        assert again == 422 and refused["error"] == "invalid_setting"
        assert other.get("/api/session").json()["user"] is None
    # the account has no password that opens it
    username = str(user["username"])
    assert accounts.authenticate(db, username, "") is None
    assert accounts.authenticate(db, username, "!code-only") is None


def test_r_org_1_unknown_codes_count_against_the_login_limits(
    event: tuple[TestClient, Database, int],
) -> None:
    client, db, ev = event
    answers = [_spend(client, f"AAAA-BBBB-CC{i:02d}")[0] for i in range(6)]
    assert answers == [422] * 5 + [429], answers
    code = live.create_invite(db, LOCAL, ev, live.player_id(db, ev, "乙")).code
    assert _spend(client, code)[0] == 429  # refused before the check, the code kept
    assert [e.invited for e in live.entrant_accounts(db, LOCAL, ev) if e.name == "乙"] == [True]


def test_r_org_1_games_need_a_login(event: tuple[TestClient, Database, int]) -> None:
    client, _db, _ev = event
    answer = client.get("/api/live/games")
    assert answer.status_code == 403 and answer.json()["error"] == "permission_denied"


def test_r_org_1_two_programs_spending_one_code_at_once_make_one_account(
    database: Database,
) -> None:
    """The code is read again under the event's lock: of two spends at the same instant one
    links the entrant, the other is refused, and only one account is made."""
    ev = create_event(database, LOCAL, "同时", EventSettings(System.ROUND_ROBIN, play="online")).id
    t.import_players(database, LOCAL, ev, "name\n甲\n乙\n")
    code = live.create_invite(database, LOCAL, ev, live.player_id(database, ev, "甲")).code
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def spend() -> None:
        start.wait()
        try:
            outcomes.append(live_bot.sign_in_with_code(database, code).user.username)
        except (InvalidSetting, Conflict) as err:
            outcomes.append(type(err).__name__)

    workers = [threading.Thread(target=spend) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    made = [o for o in outcomes if o.startswith("bot-")]
    assert len(made) == 1 and len(outcomes) == 2, outcomes
    (entrant,) = [e for e in live.entrant_accounts(database, LOCAL, ev) if e.name == "甲"]
    assert entrant.username == made[0] and not entrant.invited
    with database.transaction() as session:
        bots = session.scalars(select(User.username).where(User.username.like("bot-%"))).all()
    assert bots == made


def test_r_org_1_two_people_redeeming_one_code_at_once_link_one(database: Database) -> None:
    """The same for a person's redemption (``/join``): of two users redeeming one code at the
    same instant, one becomes the entrant's player, the other is refused."""
    ev = create_event(database, LOCAL, "同时", EventSettings(System.ROUND_ROBIN, play="online")).id
    t.import_players(database, LOCAL, ev, "name\n甲\n乙\n")
    code = live.create_invite(database, LOCAL, ev, live.player_id(database, ev, "甲")).code
    people = [
        accounts.create_user(database, LOCAL, f"person{i}", "a long pass phrase 7").actor()
        for i in range(2)
    ]
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def redeem(person: Actor) -> None:
        start.wait()
        try:
            outcomes.append(live.redeem_invite(database, person, code).name)
        except (InvalidSetting, Conflict) as err:
            outcomes.append(type(err).__name__)

    workers = [threading.Thread(target=redeem, args=(p,)) for p in people]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert sorted(outcomes) == ["InvalidSetting", "甲"], outcomes
    (entrant,) = [e for e in live.entrant_accounts(database, LOCAL, ev) if e.name == "甲"]
    assert entrant.username in ("person0", "person1") and not entrant.invited
