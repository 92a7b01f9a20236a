"""Self sign-up through the pages and the API (``routes/signup.py``), under both policies
(``create_app(open_signup=…)``, ``weiqi serve --signup``): the form's refusals beside their
fields in the reader's language with the input kept (never the passwords), the API's errors
``{error, code, args, message}``, the login limits shared with spent codes (in memory and on
Redis), a logged-out ``/join`` leading on to log in or to sign up, and the option's way from
the command line (and the environment) to the application."""

from __future__ import annotations

import gc
import html
import re
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tests.server.conftest import csrf, served
from weiqi.server.ratelimit import RedisLoginLimits
from weiqi.services import accounts, live
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.event_admin import publish_round
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, PlayMode, System

LOCAL = Actor.local()
PASSWORD = "落子无悔 2026"
REDIS_URL = "redis://127.0.0.1:6379/0"


def _event(db: Database) -> int:
    """An online round robin of 李明 and 王强, round 1 published."""
    settings = EventSettings(System.ROUND_ROBIN, board_size=9, play=PlayMode.ONLINE)
    ev = create_event(db, LOCAL, "网络赛", settings).id
    t.import_players(db, LOCAL, ev, "name\n李明\n王强\n")
    t.pair_round(db, LOCAL, ev)
    publish_round(db, LOCAL, ev, 1)
    return ev


def _code(db: Database, ev: int, name: str = "李明") -> str:
    return live.create_invite(db, LOCAL, ev, live.player_id(db, ev, name)).code


@pytest.fixture
def open_site(database: Database) -> Iterator[TestClient]:
    with served(database) as client:
        yield client


@pytest.fixture
def code_site(database: Database) -> Iterator[TestClient]:
    with served(database, open_signup=False) as client:
        yield client


def _form(client: TestClient, **fields: str) -> Any:
    data = {"username": "", "display_name": "", "password": PASSWORD, "password_again": PASSWORD}
    data.update(fields, csrf_token=csrf(client))
    return client.post("/signup", data=data)


def _errors(page: str) -> dict[str, str]:
    """The refusals shown beside the form's fields, by field."""
    found = re.findall(r'id="error-(\w+)" role="alert">([^<]*)<', page)
    return {field: html.unescape(text) for field, text in found}


def _value(page: str, field: str) -> str | None:
    """The value the form's ``field`` shows (``None``: none, as for the passwords)."""
    found = re.search(rf'id="signup-{field}" name="{field}" type="\w+"(?: value="([^"]*)")?', page)
    assert found, field
    return html.unescape(found.group(1)) if found.group(1) is not None else None


def _api(client: TestClient, **body: Any) -> Any:
    return client.post("/api/signup", json=body, headers={"X-CSRF-Token": csrf(client)})


def test_r_org_1_open_sign_up_makes_a_user_with_no_rights_and_logs_in(
    open_site: TestClient, database: Database
) -> None:
    page = open_site.get("/signup")
    assert page.status_code == 200 and "注册账号" in page.text
    assert "邀请码（可不填）" in page.text
    home = _form(open_site, username="Wang", display_name="王强")
    assert home.status_code == 200 and home.url.path == "/"
    assert "欢迎，王强。" in home.text
    me = open_site.get("/api/session").json()["user"]
    assert me["username"] == "wang" and me["is_admin"] is False
    assert accounts.roles_of(database, me["id"]) == []
    # an ordinary user: the administration stays closed to it
    assert open_site.get("/admin").status_code == 403
    assert open_site.get("/signup", follow_redirects=False).headers["location"] == "/"


def test_with_a_code_the_new_user_lands_on_their_game(
    code_site: TestClient, database: Database
) -> None:
    ev = _event(database)
    code = _code(database, ev)
    page = code_site.get(f"/signup?code={code}")
    assert _value(page.text, "code") == code
    assert "本站须凭主办方发放的邀请码注册账号。" in page.text
    home = _form(code_site, username="liming", code=code)
    assert home.url.path == "/", home.text
    assert "欢迎，李明。你现在以李明的身份参加网络赛。" in home.text
    assert 'id="my-games"' in home.text and "第1轮" in home.text
    assert not [e for e in live.entrant_accounts(database, LOCAL, ev) if e.invited]
    assert accounts.authenticate(database, "liming", PASSWORD) is not None


def test_the_code_policy_refuses_a_sign_up_without_a_code(
    code_site: TestClient, database: Database
) -> None:
    refused = _form(code_site, username="wang", display_name="王强")
    assert refused.status_code == 422
    assert _errors(refused.text) == {"code": "本站仅凭邀请码注册账号，请填写邀请码"}
    assert _value(refused.text, "username") == "wang"
    assert _value(refused.text, "display_name") == "王强"
    assert accounts.list_users(database, LOCAL) == []
    api = _api(code_site, username="wang", password=PASSWORD)
    assert api.status_code == 422, api.text
    body = api.json()
    assert set(body) == {"error", "code", "args", "message"}
    assert body["args"]["field"]["code"] == "code"
    assert body["args"]["reason"]["code"].startswith("this site makes accounts only")


def test_refusals_stand_beside_their_fields_with_the_input_kept(
    open_site: TestClient, database: Database
) -> None:
    accounts.create_user(database, LOCAL, "liming", PASSWORD)
    ev = _event(database)
    code = _code(database, ev)
    taken = _form(open_site, username="LiMing", display_name="小李", code=code)
    assert taken.status_code == 409
    assert _errors(taken.text) == {"username": "用户名'liming'已被占用"}
    assert (_value(taken.text, "username"), _value(taken.text, "code")) == ("LiMing", code)
    assert PASSWORD not in taken.text  # the passwords are never sent back
    assert _value(taken.text, "password") is None
    weak = _form(open_site, username="x", password="password", password_again="password")
    assert _errors(weak.text) == {
        "username": "只能使用 2–64 个字母、数字、“.”、“_”或“-”",
        "password": "是最常见的密码之一，请另选一个",
    }
    differ = _form(open_site, username="wang", password_again=PASSWORD + "!")
    assert _errors(differ.text) == {"password_again": "两次输入的密码不一致"}
    open_site.cookies.set("lang", "en")
    english = _form(open_site, username="wang", password="wang2026x", password_again="wang2026x")
    assert _errors(english.text) == {"password": "must not contain the username"}
    spent = _form(open_site, username="wang", code="AAAA-BBBB-CCCC")
    assert _errors(spent.text) == {"code": "this invitation code is unknown or already used"}
    assert [u.username for u in accounts.list_users(database, LOCAL)] == ["liming"]
    assert [e.name for e in live.entrant_accounts(database, LOCAL, ev) if e.invited] == ["李明"]


def test_the_api_signs_up_and_logs_in_like_the_api_login(
    code_site: TestClient, database: Database
) -> None:
    ev = _event(database)
    code = _code(database, ev, "王强")
    no_token = code_site.post("/api/signup", json={"username": "w", "password": PASSWORD})
    assert no_token.status_code == 403 and no_token.json()["error"] == "csrf"
    made = _api(code_site, username="wangq", password=PASSWORD, code=code)
    assert made.status_code == 201, made.text
    body = made.json()
    assert body["user"]["username"] == "wangq" and body["user"]["display_name"] == "王强"
    assert body["player"] == {"event_id": ev, "event_name": "网络赛", "player_id": 2,
                              "name": "王强"}  # fmt: skip
    assert code_site.get("/api/session").json()["user"]["username"] == "wangq"
    games = code_site.get("/api/live/games").json()
    assert [g["player"] for g in games] == ["王强"]
    spent = _api(code_site, username="other", password=PASSWORD, code=code)
    assert spent.status_code == 422 and spent.json()["error"] == "invalid_setting"
    assert spent.json()["code"] == "%(field)s: %(reason)s"
    taken = _api(code_site, username="WANGQ", password=PASSWORD, code=_code(database, ev))
    assert taken.status_code == 409 and taken.json()["code"] == "username %(name)s is taken"
    weak = code_site.post(
        "/api/signup",
        json={"username": "zhao", "password": "12345678", "code": _code(database, ev)},
        headers={"X-CSRF-Token": csrf(code_site), "Accept-Language": "zh-CN"},
    )
    assert weak.status_code == 422
    assert weak.json()["message"] == "密码：是最常见的密码之一，请另选一个"


def _limited(client: TestClient, database: Database) -> None:
    """Failed sign-ups count against the login limits of the address, with failed codes: the
    sixth failure in a minute is refused before any check (a valid code kept for later)."""
    ev = _event(database)
    statuses = [
        _api(client, username=f"u{i}", password=PASSWORD, code=f"AAAA-BBBB-CC{i:02d}").status_code
        for i in range(3)
    ]
    statuses.append(_form(client, username="taken-not", code="AAAA-BBBB-CC99").status_code)
    statuses.append(
        client.post(
            "/api/invites/session", json={"code": "AAAA-BBBB-CC98"},
            headers={"X-CSRF-Token": csrf(client)},
        ).status_code
    )  # fmt: skip
    code = _code(database, ev)
    refused = _api(client, username="liming", password=PASSWORD, code=code)
    assert statuses == [422] * 5 and refused.status_code == 429, (statuses, refused.text)
    assert refused.json()["error"] == "too_many_attempts" and "retry-after" in refused.headers
    page = _form(client, username="liming", code=code)
    assert page.status_code == 429 and "Too many" not in page.text  # the page in Chinese
    assert accounts.list_users(database, LOCAL) == []
    assert [e.name for e in live.entrant_accounts(database, LOCAL, ev) if e.invited] == ["李明"]


def test_sign_ups_count_against_the_login_limits(open_site: TestClient, database: Database) -> None:
    _limited(open_site, database)


def test_sign_ups_count_against_the_login_limits_on_redis(database: Database) -> None:
    prefix = f"weiqi:test-signup:{secrets.token_hex(4)}"
    client = redis.Redis.from_url(REDIS_URL)
    try:
        with served(database, login_limits=RedisLoginLimits(client, prefix=prefix)) as site:
            _limited(site, database)
    finally:
        for key in client.scan_iter(f"{prefix}:*"):
            client.delete(key)
        client.close()


def test_a_successful_sign_up_forgives_the_failures_before(
    open_site: TestClient, database: Database
) -> None:
    for i in range(4):
        assert _api(open_site, username=f"u{i}", password="short").status_code == 422
    assert _api(open_site, username="li", password=PASSWORD).status_code == 201
    open_site.delete("/api/session", headers={"X-CSRF-Token": csrf(open_site)})
    for i in range(4):  # counted afresh
        assert _api(open_site, username=f"v{i}", password="short").status_code == 422


def test_a_logged_out_join_leads_on_to_log_in_or_to_sign_up(
    code_site: TestClient, database: Database
) -> None:
    ev = _event(database)
    code = _code(database, ev)
    page = code_site.get("/join")
    assert page.status_code == 200 and 'id="join-ways"' in page.text
    assert "登录后加入" in page.text and "用此邀请码注册账号" in page.text
    signup = code_site.get("/join", params={"code": code, "then": "signup"})
    assert signup.url.path == "/signup" and _value(signup.text, "code") == code
    login = code_site.get("/join", params={"code": code, "then": "login"})
    assert login.url.path == "/login"
    assert login.url.params["next"] == f"/join?code={code}"
    # the login page offers sign-up: with a code only, on this site
    assert "有邀请码但没有账号？用邀请码注册" in login.text and 'href="/signup"' in login.text
    accounts.create_user(database, LOCAL, "liming", PASSWORD)
    logged_in = code_site.post(
        "/login",
        data={"username": "liming", "password": PASSWORD, "next": f"/join?code={code}",
              "csrf_token": csrf(code_site)},
    )  # fmt: skip
    assert logged_in.url.path == "/join" and 'id="join-form"' in logged_in.text
    assert f'value="{code}"' in logged_in.text  # the code filled in, ready to redeem
    assert code_site.get(f"/signup?code={code}").url.path == "/join"


def test_the_login_page_invites_anybody_to_sign_up_where_it_is_open(
    open_site: TestClient,
) -> None:
    assert "还没有账号？注册一个" in open_site.get("/login").text


@pytest.fixture
def server_gc() -> Iterator[None]:
    """``weiqi serve`` and a worker tune the garbage collector for a server; put it back."""
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)
    gc.unfreeze()


# -- the policy from the command line and the environment to the application ----------------


def _served_app(monkeypatch: pytest.MonkeyPatch, args: list[str], env: str | None) -> FastAPI:
    import uvicorn

    from weiqi.cli import app

    ran: list[FastAPI] = []
    monkeypatch.setattr(uvicorn, "run", lambda served, **_: ran.append(served))
    monkeypatch.delenv("WEIQI_SIGNUP", raising=False)
    if env is not None:
        monkeypatch.setenv("WEIQI_SIGNUP", env)
    result = CliRunner().invoke(app, ["serve", *args])
    assert result.exit_code == 0, result.output
    (served,) = ran
    return served


@pytest.mark.parametrize(
    ("args", "env", "open_signup"),
    [([], None, True), (["--signup", "code"], None, False), ([], "code", False),
     (["--signup", "open"], "code", True)],
)  # fmt: skip
@pytest.mark.usefixtures("server_gc")
def test_serve_signup_reaches_the_application(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Any,
    args: list[str],
    env: str | None,
    open_signup: bool,
) -> None:
    """``weiqi serve --signup open|code`` (else ``$WEIQI_SIGNUP``, else open: ``make run``
    needs nothing)."""
    db = ["--db", f"sqlite:///{tmp_path / 'w.sqlite3'}"]
    monkeypatch.setenv("WEIQI_ADMIN_PASSWORD", "keeper of the site 2026")
    assert _served_app(monkeypatch, [*args, *db], env).state.open_signup is open_signup


def test_serve_refuses_an_unknown_signup_policy(tmp_path: Any) -> None:
    from weiqi.cli import app

    db = ["--db", f"sqlite:///{tmp_path / 'w.sqlite3'}"]
    result = CliRunner().invoke(app, ["serve", "--signup", "everyone", *db])
    assert result.exit_code == 2 and "everyone" in result.output


@pytest.mark.usefixtures("server_gc")
def test_each_worker_reads_the_policy(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    from weiqi.server.worker import worker_app

    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    Database(url).upgrade()
    monkeypatch.setenv("WEIQI_DATABASE_URL", url)
    monkeypatch.setenv("WEIQI_SIGNUP", "code")
    assert worker_app().state.open_signup is False
    monkeypatch.delenv("WEIQI_SIGNUP")
    assert worker_app().state.open_signup is True
