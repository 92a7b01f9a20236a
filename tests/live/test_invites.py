"""Players are accounts (issue #11): one-time invitation codes made by those who manage the
event's players (R-ORG-1), redeemed by a logged-in user, shown as "my game this round" once
the round is published; on a real database, through the services and the pages (Chinese)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf
from weiqi.errors import Conflict, InvalidSetting, PermissionDenied
from weiqi.roles import Role
from weiqi.server.app import create_app
from weiqi.services import accounts, live
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.event_admin import publish_round
from weiqi.services.events import create_event
from weiqi.services.live import create_invite, player_id, redeem_invite
from weiqi.store.database import Database
from weiqi.store.live import PlayerAccountRow
from weiqi.tournament.settings import EventSettings, System

LOCAL = Actor.local()
PASSWORD = "邀请码测试的密码 2026"


def _event(db: Database) -> int:
    ev = create_event(
        db, LOCAL, "网络赛", EventSettings(System.ROUND_ROBIN, board_size=9, play="online")
    )
    t.import_players(db, LOCAL, ev.id, "name\n李明\n王强\n张伟\n刘洋\n")
    t.pair_round(db, LOCAL, ev.id)
    return ev.id


def _user(db: Database, name: str) -> Actor:
    return accounts.create_user(db, LOCAL, name, PASSWORD).actor()


def test_r_org_1_a_code_is_made_by_the_organisers_used_once_and_only_its_hash_kept(
    database: Database,
) -> None:
    ev = _event(database)
    li = player_id(database, ev, "李明")
    referee = _user(database, "referee")
    accounts.grant_role(database, LOCAL, referee.user_id or 0, ev, Role.REFEREE)
    with pytest.raises(PermissionDenied):
        create_invite(database, referee, ev, li)
    first = create_invite(database, LOCAL, ev, li)
    code = create_invite(database, LOCAL, ev, li).code  # a new code replaces the unused one
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}", code)
    with database.transaction() as session:
        row = session.scalars(select(PlayerAccountRow)).one()
        assert row.invite_hash and code not in row.invite_hash and row.user_id is None
    a, b = _user(database, "player-a"), _user(database, "player-b")
    with pytest.raises(InvalidSetting) as old:
        redeem_invite(database, a, first.code)
    assert old.value.field == "code"
    linked = redeem_invite(database, a, code.lower().replace("-", " "))  # as typed by hand
    assert (linked.name, linked.event_id) == ("李明", ev)
    with pytest.raises(InvalidSetting):
        redeem_invite(database, b, code)  # spent
    with pytest.raises(Conflict):
        create_invite(database, LOCAL, ev, li)  # already linked
    wang = create_invite(database, LOCAL, ev, player_id(database, ev, "王强")).code
    with pytest.raises(Conflict):
        redeem_invite(database, a, wang)  # one entrant per user and event
    accounts_listed = {e.name: e for e in live.entrant_accounts(database, LOCAL, ev)}
    assert accounts_listed["李明"].username == "player-a"
    assert accounts_listed["王强"].invited and accounts_listed["王强"].username is None
    assert not accounts_listed["张伟"].invited


def test_my_game_this_round_appears_once_the_round_is_published(database: Database) -> None:
    ev = _event(database)
    a = _user(database, "player-a")
    code = create_invite(database, LOCAL, ev, player_id(database, ev, "李明")).code
    redeem_invite(database, a, code)
    assert live.my_games(database, a) == []  # the round is not published
    publish_round(database, LOCAL, ev, 1)
    (game,) = live.my_games(database, a)
    assert game.url == f"/events/{ev}/rounds/1/boards/{game.board}/play"
    assert game.color in ("B", "W") and game.opponent in ("王强", "张伟", "刘洋")


def test_the_pages_make_a_code_and_redeem_it_with_the_error_next_to_the_field(
    database: Database,
) -> None:
    """The organisers' page shows the code once; the join page refuses a wrong code next to
    the field with what was typed kept, in Chinese; then the home page shows the game."""
    accounts.ensure_site_admin(database, ADMIN_PASSWORD)
    ev = _event(database)
    publish_round(database, LOCAL, ev, 1)
    _user(database, "player-a")
    app = create_app(database, secret_key="invites")
    with TestClient(app) as admin, TestClient(app) as player:
        api_login(admin, "admin", ADMIN_PASSWORD)
        page = admin.get(f"/events/{ev}/invites")
        assert page.status_code == 200 and "生成邀请码" in page.text
        li = player_id(database, ev, "李明")
        made = admin.post(f"/events/{ev}/invites/{li}", data={"csrf_token": csrf(admin)})
        found = re.search(r'id="invite-code">([^<]+)<', made.text)
        assert made.status_code == 200 and found
        assert "邀请码只显示一次" in made.text
        api_login(player, "player-a", PASSWORD)
        wrong = player.post("/join", data={"csrf_token": csrf(player), "code": "WRONG-CODE"})
        assert wrong.status_code == 422
        assert 'id="join-code-error">邀请码不存在或已被使用' in wrong.text
        assert 'value="WRONG-CODE"' in wrong.text
        done = player.post("/join", data={"csrf_token": csrf(player), "code": found.group(1)})
        assert done.status_code == 200 and "你现在以李明的身份参加网络赛" in done.text
        assert "我本轮的对局" in done.text and f"/events/{ev}/rounds/1/boards/" in done.text
        listed = admin.get(f"/events/{ev}/invites").text
        assert "player-a" in listed
