"""Entry claims (issue #11) through the pages (Chinese) and the JSON API, on SQLite and
PostgreSQL: errors next to their field with what was typed kept, the organisers' buttons on
the invitation page, "my game this round" once approved; API errors as {code, args, message}."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf, served
from weiqi.services import accounts, live
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.event_admin import publish_round
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, PlayMode, System

LOCAL = Actor.local()
PASSWORD = "认领页面的密码 2026"
ZH = {"Accept-Language": "zh-CN"}


def _event(db: Database) -> int:
    settings = EventSettings(System.ROUND_ROBIN, board_size=9, play=PlayMode.ONLINE)
    ev = create_event(db, LOCAL, "网络赛", settings).id
    t.import_players(db, LOCAL, ev, "name\n李明\n王强\n")
    t.pair_round(db, LOCAL, ev)
    publish_round(db, LOCAL, ev, 1)
    return ev


def _post(client: TestClient, path: str, **data: str) -> object:
    return client.post(path, data={"csrf_token": csrf(client), **data}, headers=ZH)


def test_a_claim_made_on_the_pages_is_approved_on_the_invitation_page(
    database: Database,
) -> None:
    accounts.ensure_site_admin(database, ADMIN_PASSWORD)
    ev = _event(database)
    li = live.player_id(database, ev, "李明")
    accounts.create_user(database, LOCAL, "player-a", PASSWORD)
    with served(database) as admin, served(database) as player:
        api_login(admin, "admin", ADMIN_PASSWORD)
        api_login(player, "player-a", PASSWORD)
        join = player.get("/join", headers=ZH).text
        assert join.index('id="join-form"') < join.index('href="/claims"')  # the code first
        listed = player.get("/claims", headers=ZH).text
        assert f'href="/events/{ev}/claim"' in listed and "网络赛" in listed
        form = player.get(f"/events/{ev}/claim", headers=ZH).text
        assert "李明" in form and "王强" in form
        long = _post(player, f"/events/{ev}/claim", player=str(li), note="北" * 201)
        assert long.status_code == 422  # type: ignore[attr-defined]
        text = long.text  # type: ignore[attr-defined]
        assert 'id="claim-note-error">最多 200 个字（填写了 201 个）' in text
        assert f'value="{li}" selected' in text and 'value="' + "北" * 201 + '"' in text
        none = _post(player, f"/events/{ev}/claim", player="", note="EGF")
        assert 'id="claim-player-error">请选择你是哪位参赛者' in none.text  # type: ignore[attr-defined]
        done = _post(player, f"/events/{ev}/claim", player=str(li), note="EGF PIN 123, 北京队")
        assert "你对网络赛中李明的认领已提交" in done.text  # type: ignore[attr-defined]
        page = admin.get(f"/events/{ev}/invites", headers=ZH).text
        assert "待批准的认领" in page and "EGF PIN 123, 北京队" in page and "已有人认领" in page
        claim = re.search(r'data-claim="(\d+)" data-user="player-a"', page)
        assert claim
        number = claim.group(1)
        too_long = _post(admin, f"/events/{ev}/claims/{number}/decline", reason="x" * 201)
        assert too_long.status_code == 422  # type: ignore[attr-defined]
        assert f'id="decline-reason-{number}-error">最多 200 个字' in too_long.text  # type: ignore[attr-defined]
        approved = _post(admin, f"/events/{ev}/claims/{number}/approve")
        assert "player-a 现在以李明的身份参赛" in approved.text  # type: ignore[attr-defined]
        home = player.get("/", headers=ZH).text
        assert "我本轮的对局" in home and f"/events/{ev}/rounds/1/boards/" in home
        mine = player.get("/claims", headers=ZH).text
        assert 'data-state="approved"' in mine and "已批准" in mine


def test_the_claims_api_answers_typed_values_and_refusals_with_code_args_message(
    database: Database,
) -> None:
    accounts.ensure_site_admin(database, ADMIN_PASSWORD)
    ev = _event(database)
    li, wang = live.player_id(database, ev, "李明"), live.player_id(database, ev, "王强")
    for name in ("player-a", "player-b"):
        accounts.create_user(database, LOCAL, name, PASSWORD)
    with served(database) as admin, served(database) as a, served(database) as b:
        api_login(admin, "admin", ADMIN_PASSWORD)
        api_login(a, "player-a", PASSWORD)
        api_login(b, "player-b", PASSWORD)

        def call(client: TestClient, method: str, path: str, **kw: object) -> object:
            return client.request(method, path, headers={"X-CSRF-Token": csrf(client)}, **kw)  # type: ignore[arg-type]

        made = call(a, "POST", f"/api/events/{ev}/claims", json={"player_id": li, "note": "PIN"})
        assert made.status_code == 201, made.text  # type: ignore[attr-defined]
        first = made.json()  # type: ignore[attr-defined]
        assert (first["name"], first["state"], first["note"]) == ("李明", "pending", "PIN")
        other = call(b, "POST", f"/api/events/{ev}/claims", json={"player_id": li}).json()  # type: ignore[attr-defined]
        bad = call(a, "POST", f"/api/events/{ev}/claims", json={"player_id": wang})
        body = bad.json()  # type: ignore[attr-defined]
        assert bad.status_code == 422 and body["args"]["field"]["code"] == "player"  # type: ignore[attr-defined]
        assert set(body) >= {"code", "args", "message"}
        assert call(b, "GET", f"/api/events/{ev}/claims").status_code == 403  # type: ignore[attr-defined]
        listed = call(admin, "GET", f"/api/events/{ev}/claims").json()  # type: ignore[attr-defined]
        assert [c["id"] for c in listed] == [first["id"], other["id"]]
        path = f"/api/events/{ev}/claims/{first['id']}/approve"
        assert call(admin, "POST", path).json()["state"] == "approved"  # type: ignore[attr-defined]
        again = call(admin, "POST", path)
        assert again.status_code == 409  # type: ignore[attr-defined]
        (theirs,) = call(b, "GET", "/api/claims").json()  # type: ignore[attr-defined]
        assert theirs["state"] == "declined" and theirs["closed"]
        assert theirs["closed_code"] == "another claim to this player was approved"
        zh = b.get("/api/claims", headers={"Accept-Language": "zh-CN"}).json()
        assert zh[0]["closed"] == "另一位用户对该参赛者的认领已获批准"
        assert call(b, "DELETE", f"/api/claims/{theirs['id']}").status_code == 409  # type: ignore[attr-defined]
        fresh = call(b, "POST", f"/api/events/{ev}/claims", json={"player_id": wang}).json()  # type: ignore[attr-defined]
        assert call(a, "DELETE", f"/api/claims/{fresh['id']}").status_code == 403  # type: ignore[attr-defined]
        assert call(b, "DELETE", f"/api/claims/{fresh['id']}").status_code == 204  # type: ignore[attr-defined]
