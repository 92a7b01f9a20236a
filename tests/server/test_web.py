"""Pages, sessions, CSRF, rate limits and the translation of errors, through the real app."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf
from weiqi.server.app import create_app
from weiqi.server.ratelimit import LoginLimits
from weiqi.services import event_admin
from weiqi.services.accounts import ensure_site_admin
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

SWISS = EventSettings(System.SWISS, rounds=5)


def form_token(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, "no CSRF field in the page"
    return found.group(1)


def login_form(client: TestClient, username: str, password: str) -> tuple[int, str]:
    token = form_token(client.get("/login").text)
    response = client.post(
        "/login",
        data={"username": username, "password": password, "csrf_token": token, "next": "/"},
        follow_redirects=False,
    )
    return response.status_code, response.headers.get("location", "")


def test_health(client: TestClient) -> None:
    assert client.get("/health").json() == {"status": "ok", "database": True, "version": "0.1.0"}


def test_health_live_of_one_process_without_redis(client: TestClient) -> None:
    """A worker's live figures: nothing open yet; no workers or overdue count without Redis."""
    figures = client.get("/health/live").json()
    assert figures == {"readers": 0, "watched": 0, "workers": None, "overdue": None}


def test_home_is_chinese_by_default_with_an_empty_state(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert '<html lang="zh-CN">' in page.text
    assert "还没有赛事" in page.text and "登录" in page.text
    assert 'href="/lang/en?next=/"' in page.text


def test_language_follows_accept_language_then_the_cookie(client: TestClient) -> None:
    assert "There are no events yet." in client.get("/", headers={"Accept-Language": "en"}).text
    switched = client.get("/lang/zh_CN?next=/login", follow_redirects=False)
    assert switched.status_code == 303 and switched.headers["location"] == "/login"
    page = client.get("/", headers={"Accept-Language": "en"})
    assert "还没有赛事" in page.text  # the cookie wins over the header
    evil = client.get("/lang/en?next=//evil.example/", follow_redirects=False)
    assert evil.headers["location"] == "/"


def test_form_login_and_logout(client: TestClient) -> None:
    status, location = login_form(client, "Admin", ADMIN_PASSWORD)
    assert (status, location) == (303, "/")
    home = client.get("/")
    assert 'href="/admin"' in home.text and "退出" in home.text
    client.post("/logout", data={"csrf_token": form_token(home.text)})
    assert 'href="/admin"' not in client.get("/").text


def test_wrong_password_says_so_without_saying_which(client: TestClient) -> None:
    status, _ = login_form(client, "admin", "nope")
    assert status == 400
    page = client.get("/login")
    assert (
        client.post(
            "/login",
            data={"username": "nobody", "password": "x", "csrf_token": form_token(page.text)},
        ).text.count("用户名或密码错误")
        == 1
    )


def test_session_cookie_is_signed_httponly_and_lax(client: TestClient) -> None:
    response = client.get("/login")
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("weiqi_session=")
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    # A forged cookie is ignored (not logged in).
    client.cookies.set("weiqi_session", "eyJ1aWQiOiAxfQ==.forged.sig")
    assert client.get("/api/session").json()["user"] is None


def test_every_post_needs_the_csrf_token(client: TestClient) -> None:
    client.get("/login")
    no_token = client.post("/login", data={"username": "admin", "password": ADMIN_PASSWORD})
    assert no_token.status_code == 403
    assert client.get("/api/session").json()["user"] is None  # nothing happened
    wrong = client.post(
        "/login", data={"username": "admin", "password": ADMIN_PASSWORD, "csrf_token": "x"}
    )
    assert wrong.status_code == 403
    api = client.post("/api/session", json={"username": "admin", "password": ADMIN_PASSWORD})
    assert api.status_code == 403 and api.json()["error"] == "csrf"


def test_r_org_1_a_page_a_role_may_not_see_is_403(client: TestClient) -> None:
    api_login(client, "admin", ADMIN_PASSWORD)
    client.post(
        "/api/users",
        json={"username": "li", "password": "correct horse"},
        headers={"X-CSRF-Token": csrf(client)},
    )
    client.delete("/api/session", headers={"X-CSRF-Token": csrf(client)})
    assert client.get("/admin", follow_redirects=False).headers["location"] == "/login?next=/admin"
    api_login(client, "li", "correct horse")
    page = client.get("/admin")
    assert (
        page.status_code == 403 and "没有权限" in page.text and "li无权进入网站管理。" in page.text
    )
    token = csrf(client)
    refused = client.post(
        "/events/new", data={"name": "sneaky", "csrf_token": token}, follow_redirects=False
    )
    assert refused.status_code == 403
    assert client.get("/api/events").json() == []


def test_admin_pages_create_a_user_an_event_and_a_role(client: TestClient) -> None:
    login_form(client, "admin", ADMIN_PASSWORD)
    token = form_token(client.get("/admin").text)
    client.post(
        "/admin/users",
        data={
            "username": "wang",
            "display_name": "王",
            "password": "correct horse",
            "csrf_token": token,
        },
    )
    # the administration page sends the administrator to the new event's form (system and
    # settings chosen with it: no event is created without them)
    assert 'href="/events/new"' in client.get("/admin").text
    form = event_admin.settings_form(event_admin.DEFAULT_SWISS)
    created = client.post("/events/new", data={**form, "name": "春季赛", "csrf_token": token})
    assert "已创建赛事 春季赛" in created.text
    assert "已创建赛事" not in client.get("/admin").text  # a flash shows once
    assert "王 (wang)" in client.get("/admin").text
    users = {u["username"]: u["id"] for u in client.get("/api/users").json()}
    event = client.get("/api/events").json()[0]["id"]
    granted = client.post(
        "/admin/roles",
        data={"user_id": users["wang"], "event_id": event, "role": "referee", "csrf_token": token},
    )
    assert "裁判员" in granted.text
    again = client.post(
        "/admin/roles",
        data={"user_id": users["wang"], "event_id": event, "role": "referee", "csrf_token": token},
    )
    assert again.status_code == 409
    bad = client.post(
        "/admin/users", data={"username": "x", "password": "correct horse", "csrf_token": token}
    )
    assert bad.status_code == 422 and "用户名：只能使用 2–64 个字母" in bad.text
    api = client.post("/api/users", json={"username": "x", "password": "correct horse"},
                      headers={"X-CSRF-Token": csrf(client)})  # fmt: skip
    assert api.json()["message"].startswith("username: use 2–64 letters")


def test_account_page_changes_the_password_and_ends_other_sessions(
    client: TestClient, database: Database
) -> None:
    other = TestClient(client.app)
    api_login(other, "admin", ADMIN_PASSWORD)
    login_form(client, "admin", ADMIN_PASSWORD)
    page = client.get("/account")
    assert page.status_code == 200 and "修改密码" in page.text
    changed = client.post(
        "/account/password",
        data={
            "current": ADMIN_PASSWORD,
            "new": "a brand new one",
            "csrf_token": form_token(page.text),
        },
    )
    assert "密码已修改" in changed.text
    assert client.get("/api/session").json()["user"]["username"] == "admin"
    assert other.get("/api/session").json()["user"] is None


def test_api_errors_are_json_with_the_right_status(client: TestClient) -> None:
    assert client.get("/api/events/99").json() == {
        "error": "not_found",
        "code": "event %(event_id)s does not exist",
        "args": {"event_id": 99},
        "message": "event 99 does not exist",
    }
    # The same error in the language the client asks for.
    zh = client.get("/api/events/99", headers={"Accept-Language": "zh-CN"}).json()
    assert zh["message"] == "赛事99不存在" and zh["args"] == {"event_id": 99}
    assert client.get("/api/events/99").status_code == 404
    assert client.get("/api/nowhere").status_code == 404
    assert client.get("/nowhere").status_code == 404 and "未找到" in client.get("/nowhere").text
    refused = client.post("/api/events", json={"name": "x"}, headers={"X-CSRF-Token": csrf(client)})
    assert refused.status_code == 403
    assert refused.json() == {
        "error": "permission_denied",
        "code": "%(who)s may not %(action)s",
        "args": {
            "who": {"code": "public", "args": {}},
            "action": {"code": "create events", "args": {}},
        },
        "message": "public may not create events",
    }
    # Who may not act learns nothing about the body (authorization comes first) …
    missing = client.post("/api/users", json={}, headers={"X-CSRF-Token": csrf(client)})
    assert missing.status_code == 403
    # … who may, learns which field is wrong.
    api_login(client, "admin", ADMIN_PASSWORD)
    missing = client.post("/api/users", json={}, headers={"X-CSRF-Token": csrf(client)})
    assert missing.status_code == 422 and missing.json()["message"].startswith("username: ")


def test_login_rate_limit(database: Database) -> None:
    """Five failures a minute per address and username; then 429, even with the right password."""
    ensure_site_admin(database, ADMIN_PASSWORD)
    now = [0.0]
    limits = LoginLimits(clock=lambda: now[0])
    with TestClient(create_app(database, secret_key="k", login_limits=limits)) as client:
        token = csrf(client)

        def attempt(password: str) -> int:
            return client.post(
                "/api/session",
                json={"username": "admin", "password": password},
                headers={"X-CSRF-Token": token},
            ).status_code

        assert [attempt("wrong") for _ in range(5)] == [401] * 5
        blocked = client.post(
            "/api/session",
            json={"username": "admin", "password": ADMIN_PASSWORD},
            headers={"X-CSRF-Token": token},
        )
        assert blocked.status_code == 429 and blocked.headers["retry-after"] == "60"
        now[0] = 61.0
        assert attempt(ADMIN_PASSWORD) == 200


def test_openapi_documents_the_api(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert "/api/users" in schema["paths"] and "/api/events/{event_id}/roles" in schema["paths"]
    assert "/admin" not in schema["paths"]
    assert client.get("/docs").status_code == 200


@pytest.mark.parametrize("path", ["/static/style.css", "/static/print.css"])
def test_static_files(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 200


def test_print_stylesheet_is_a4_and_hides_navigation(client: TestClient) -> None:
    css = client.get("/static/print.css").text
    assert "size: A4" in css and ".site-nav" in css
    assert 'media="print"' in client.get("/").text


def test_r_org_1_the_event_roles_page_lets_its_organisers_manage_roles(
    client: TestClient, database: Database
) -> None:
    """R-ORG-1: everybody sees who officiates; only the event's organisers (and site
    administrators) get the forms, and a referee's POST is refused without a change."""
    from weiqi.roles import Role
    from weiqi.services.accounts import create_user, event_roles, grant_role
    from weiqi.services.actor import Actor
    from weiqi.services.events import create_event

    local = Actor.local()
    event = create_event(database, local, "春季赛", SWISS)
    org = create_user(database, local, "org", "correct horse", "组织者")
    ref = create_user(database, local, "ref", "correct horse", "裁判甲")
    grant_role(database, local, org.id, event.id, Role.ORGANISER)
    grant_role(database, local, ref.id, event.id, Role.REFEREE)
    url = f"/events/{event.id}/roles"

    public = client.get(url)
    assert (
        public.status_code == 200
        and "裁判甲" in public.text
        and 'id="grant-role"' not in public.text
    )
    assert client.get("/events/999/roles").status_code == 404

    api_login(client, "ref", "correct horse")
    assert 'id="grant-role"' not in client.get(url).text
    refused = client.post(
        url, data={"user_id": ref.id, "role": "chief_referee", "csrf_token": csrf(client)}
    )
    assert refused.status_code == 403
    assert [g.role for g in event_roles(database, event.id)] == [Role.ORGANISER, Role.REFEREE]

    api_login(client, "org", "correct horse")
    page = client.get(url)
    assert 'id="grant-role"' in page.text
    granted = client.post(
        url, data={"user_id": ref.id, "role": "chief_referee", "csrf_token": form_token(page.text)}
    )
    assert "裁判长" in granted.text
    revoked = client.post(
        f"{url}/revoke",
        data={"user_id": ref.id, "role": "referee", "csrf_token": form_token(page.text)},
    )
    assert revoked.status_code == 200
    assert [g.role for g in event_roles(database, event.id)] == [Role.ORGANISER, Role.CHIEF_REFEREE]
