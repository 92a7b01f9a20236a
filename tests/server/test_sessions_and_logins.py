"""Sessions, the one-time password, the password policy, login throttling and the audit log of
role changes (issue 16), through the real app on SQLite and PostgreSQL, and against real
``weiqi serve`` processes where only a real server shows it (parallel logins, two workers)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import httpx
import pytest
import redis
from fastapi.testclient import TestClient

from tests.server.conftest import (
    ADMIN_PASSWORD,
    SRC,
    _free_port,
    api_login,
    csrf,
    served,
    wait_until_serving,
)
from weiqi.roles import Role
from weiqi.server.app import SESSION_COOKIE
from weiqi.server.ratelimit import RedisLoginLimits, TooManyAttempts
from weiqi.services import accounts
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

SWISS = EventSettings(System.SWISS, rounds=5)


LOCAL = Actor.local()
REDIS_URL = "redis://127.0.0.1:6379/0"


def _app(db: Database) -> AbstractContextManager[TestClient]:
    return served(db, secret_key="k")


def test_logging_out_ends_the_session_for_every_copy_of_the_cookie(database: Database) -> None:
    accounts.ensure_site_admin(database, ADMIN_PASSWORD)
    with _app(database) as web, _app(database) as thief:
        api_login(web, "admin", ADMIN_PASSWORD)
        thief.cookies.set(SESSION_COOKIE, web.cookies[SESSION_COOKIE])
        assert thief.get("/api/session").json()["user"]["username"] == "admin"
        assert web.delete("/api/session", headers={"X-CSRF-Token": csrf(web)}).status_code == 204
        assert thief.get("/api/session").json()["user"] is None
        assert thief.get("/admin", follow_redirects=False).status_code in (302, 303, 401)


def test_a_password_change_ends_the_other_sessions(database: Database) -> None:
    accounts.create_user(database, LOCAL, "li", "correct horse battery")
    with _app(database) as phone, _app(database) as laptop:
        api_login(phone, "li", "correct horse battery")
        api_login(laptop, "li", "correct horse battery")
        change = {"current": "correct horse battery", "new": "a quite new secret"}
        response = laptop.post(
            "/api/account/password", json=change, headers={"X-CSRF-Token": csrf(laptop)}
        )
        assert response.status_code == 200, response.text
        assert laptop.get("/api/session").json()["user"]["username"] == "li"
        assert phone.get("/api/session").json()["user"] is None


def test_the_one_time_password_opens_one_session_that_can_only_replace_it(
    database: Database,
) -> None:
    one_time = accounts.ensure_site_admin(database)
    assert one_time is not None
    with _app(database) as web, _app(database) as later:
        api_login(web, "admin", one_time)
        token = {"X-CSRF-Token": csrf(web)}
        made = web.post(
            "/api/users", json={"username": "wang", "password": "x" * 12}, headers=token
        )
        assert made.status_code == 403, made.text
        same = {"current": one_time, "new": one_time}
        refused = web.post("/api/account/password", json=same, headers=token)
        assert refused.status_code == 422 and "new password" in refused.text
        # a second login with the one-time password is refused: it was used
        again = later.post(
            "/api/session",
            json={"username": "admin", "password": one_time},
            headers={"X-CSRF-Token": csrf(later)},
        )
        assert again.status_code == 401
        own = {"current": one_time, "new": "the keeper's own phrase"}
        assert web.post("/api/account/password", json=own, headers=token).status_code == 200
        token = {"X-CSRF-Token": csrf(web)}
        made = web.post(
            "/api/users", json={"username": "wang", "password": "x" * 12}, headers=token
        )
        assert made.status_code in (200, 201), made.text


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("short", "at least 8"),
        ("password", "most common"),
        ("12345678", "most common"),
        ("Qwerty123", "most common"),
        ("zhangwei-88", "username"),
    ],
)
def test_weak_passwords_are_refused_with_the_reason(
    database: Database, password: str, reason: str
) -> None:
    accounts.ensure_site_admin(database, ADMIN_PASSWORD)
    with _app(database) as web:
        api_login(web, "admin", ADMIN_PASSWORD)
        response = web.post(
            "/api/users",
            json={"username": "zhangwei", "password": password},
            headers={"X-CSRF-Token": csrf(web), "Accept-Language": "en"},
        )
        assert response.status_code == 422
        body = response.json()
        assert "password" in body["message"] and reason in body["message"], body


def test_role_changes_are_in_the_audit_log_the_chief_referee_reads(database: Database) -> None:
    """An organiser who makes themselves chief referee and revokes it again leaves a trace."""
    accounts.ensure_site_admin(database, ADMIN_PASSWORD)
    event = create_event(database, LOCAL, "春季赛", SWISS)
    organiser = accounts.create_user(database, LOCAL, "zhou", "correct horse battery")
    chief = accounts.create_user(database, LOCAL, "qian", "correct horse battery")
    accounts.grant_role(database, LOCAL, organiser.id, event.id, Role.ORGANISER)
    accounts.grant_role(database, LOCAL, chief.id, event.id, Role.CHIEF_REFEREE)
    zhou = organiser.actor()
    accounts.grant_role(database, zhou, organiser.id, event.id, Role.CHIEF_REFEREE)
    accounts.revoke_role(database, zhou, organiser.id, event.id, Role.CHIEF_REFEREE)
    with _app(database) as web:
        api_login(web, "qian", "correct horse battery")
        log = web.get(f"/api/events/{event.id}/audit").json()
        page = web.get(f"/events/{event.id}/roles").text
    assert "操作记录" in page and "撤销角色" in page and "授予角色" in page
    assert [(e["actor"], e["action"], e["subject"], e["detail"]) for e in log[:2]] == [
        ("zhou", "role-revoked", "zhou", "chief_referee"),
        ("zhou", "role-granted", "zhou", "chief_referee"),
    ]
    with _app(database) as anonymous:
        assert anonymous.get(f"/api/events/{event.id}/audit").status_code in (401, 403)


def test_redis_limits_are_shared_and_counted_before_the_check() -> None:
    """Two processes' limits on one Redis: five attempts in all, wherever they arrive."""
    name = f"user-{secrets.token_hex(4)}"
    first = RedisLoginLimits(redis.Redis.from_url(REDIS_URL))
    second = RedisLoginLimits(redis.Redis.from_url(REDIS_URL))
    for limits in (first, second, first, second, first):
        limits.attempt("10.0.0.9", name)
    with pytest.raises(TooManyAttempts):
        second.attempt("10.0.0.9", name)
    first.succeeded("10.0.0.9", name)
    second.attempt("10.0.0.9", name)


# -- against real servers ------------------------------------------------------------------


@contextmanager
def _server(
    db_url: str, workdir: Path, *extra: str, env: dict[str, str] | None = None
) -> Iterator[str]:
    port = _free_port()
    environment = {**os.environ, "PYTHONPATH": str(SRC), **(env or {})}
    environment["WEIQI_ADMIN_PASSWORD"] = ADMIN_PASSWORD
    log = (workdir / f"server-{port}.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "weiqi", "serve", "--port", str(port), "--db", db_url, *extra],
        stdout=log, stderr=log, cwd=workdir, env=environment,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(url, process, workdir / f"server-{port}.log")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()


def _login(url: str, password: str, forwarded: str | None = None) -> int:
    with httpx.Client(base_url=url, timeout=30) as client:
        token = client.get("/api/session").json()["csrf_token"]
        headers = {"X-CSRF-Token": token, **({"X-Forwarded-For": forwarded} if forwarded else {})}
        body = {"username": "admin", "password": password}
        return client.post("/api/session", json=body, headers=headers).status_code


def test_thirty_parallel_wrong_logins_get_five_tries(tmp_path: Path) -> None:
    """The real argon2 check is slow; counting first means parallel attempts cannot outrun it,
    and a forged X-Forwarded-For does not make each attempt a new address."""
    db_url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    with _server(db_url, tmp_path) as url, ThreadPoolExecutor(max_workers=30) as pool:
        codes = list(pool.map(lambda i: _login(url, f"guess {i}", f"10.1.1.{i}"), range(30)))
    assert codes.count(401) == 5 and codes.count(429) == 25, codes


def test_two_workers_on_redis_share_the_login_limit(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    env = {"WEIQI_REDIS_URL": REDIS_URL}
    with _server(db_url, tmp_path, env=env) as one, _server(db_url, tmp_path, env=env) as two:
        codes = [_login(url, "wrong guess") for url in (one, two, one, two, one)]
        assert codes == [401] * 5
        assert _login(two, ADMIN_PASSWORD) == 429
        assert _login(one, ADMIN_PASSWORD) == 429


def test_two_sites_on_one_redis_keep_their_own_login_limits(tmp_path: Path) -> None:
    """Two events' sites (two databases, so two keys) on one Redis: wrong passwords spent on
    one do not lock the namesake administrator of the other out (the limits are kept under
    each site's own keys, as its live rooms are)."""
    env = {"WEIQI_REDIS_URL": REDIS_URL}
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a, b = (f"sqlite:///{tmp_path / n / 'site.sqlite3'}" for n in "ab")
    with _server(a, tmp_path / "a", env=env) as one, _server(b, tmp_path / "b", env=env) as two:
        assert [_login(one, "wrong guess") for _ in range(5)] == [401] * 5
        assert _login(one, ADMIN_PASSWORD) == 429
        assert _login(two, "wrong guess") == 401
        assert _login(two, ADMIN_PASSWORD) == 200
