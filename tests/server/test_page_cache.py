"""The public pages kept per event version (issue 16, ``server/page_cache.py``), on SQLite and
PostgreSQL, in the process and in Redis: a write makes the next read show it, a kept page is
really served from the cache, ``ETag``/``If-None-Match`` answers ``304`` until the next write,
and what a logged-in organiser or referee sees is never served to the public (nor the other
way round). Two application instances sharing one Redis share the pages and their
invalidation."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from datetime import timedelta

import pytest
import redis
from fastapi.testclient import TestClient
from sqlalchemy import text

from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf, served
from tests.server.public_pages import LOCAL, T0, publish, small_swiss, team_round_robin
from weiqi.roles import Role
from weiqi.rules.result import Result
from weiqi.server.page_cache import MemoryPages, Pages, RedisPages
from weiqi.services import accounts, teams
from weiqi.services.server_clock import ManualClock
from weiqi.services.tournament import add_warning, pair_round
from weiqi.store.database import Database

REDIS_URL = "redis://127.0.0.1:6379/0"
BEFORE = T0 - timedelta(hours=1)
"""Before the lineup deadline of ``team_round_robin``'s rounds."""
PASSWORD = "页面缓存测试的密码 2026"
PAGES = ("standings", "rounds/2", "crosstable", "")
"""The individual event's public pages (``""``: the overview) a hall refreshes."""
JSON = ("standings", "rounds/2", "crosstable", "overview")

MakePages = Callable[[], Pages]


@pytest.fixture(params=["memory", "redis"])
def make_pages(request: pytest.FixtureRequest) -> Iterator[MakePages]:
    """New page stores: in the process, or views of one Redis prefix (fresh for the test)."""
    if request.param == "memory":
        yield MemoryPages
        return
    client = redis.Redis.from_url(REDIS_URL)
    prefix = f"weiqi:test:{uuid.uuid4().hex}:"
    yield lambda: RedisPages(redis.Redis.from_url(REDIS_URL), prefix=prefix)
    keys = list(client.scan_iter(prefix + "*"))
    if keys:
        client.delete(*keys)


def _web(db: Database, pages: Pages | bool) -> AbstractContextManager[TestClient]:
    return served(db, secret_key="k", cache_pages=pages)


def _swiss_with_round_2_open(db: Database) -> int:
    """Eight players; round 1 finished, round 2 paired and published without results."""
    ev = small_swiss(db, players=8, rounds=3, played=1)
    pair_round(db, LOCAL, ev)
    publish(db, ev, 2)
    return ev


def _reads(web: TestClient, ev: int) -> dict[str, str]:
    """Every public page and JSON of the event as an anonymous reader gets it."""
    urls = [f"/events/{ev}/{page}".rstrip("/") for page in PAGES]
    urls += [f"/events/{ev}/standings?format=csv", *(f"/api/events/{ev}/{v}" for v in JSON)]
    out = {}
    for url in urls:
        response = web.get(url)
        assert response.status_code == 200, (url, response.text)
        assert "etag" in response.headers, url  # kept by the cache
        out[url] = response.text
    return out


def _enter_result(db: Database, ev: int, board: int, result: str) -> None:
    """A referee's result of round 2 through the JSON API of an application of its own."""
    with _web(db, False) as referee:
        api_login(referee, "admin", ADMIN_PASSWORD)
        response = referee.post(
            f"/api/events/{ev}/rounds/2/results",
            json={"rows": [{"board": board, "result": result}]},
            headers={"X-CSRF-Token": csrf(referee)},
        )
        assert response.status_code == 200, response.text


def test_a_result_entered_shows_on_the_next_read(database: Database, make_pages: MakePages) -> None:
    accounts.ensure_site_admin(database, ADMIN_PASSWORD)
    ev = _swiss_with_round_2_open(database)
    with _web(database, make_pages()) as public:
        before = _reads(public, ev)
        assert _reads(public, ev) == before  # read again: the same (kept) pages
        board = public.get(f"/api/events/{ev}/rounds/2").json()["pairings"][0]
        assert board["result"] is None
        _enter_result(database, ev, board["board"], "B+R")
        after = _reads(public, ev)
        board = public.get(f"/api/events/{ev}/rounds/2").json()["pairings"][0]
    assert board["result"] == "B+R"
    assert Result.parse("B+R").to_zh() in after[f"/events/{ev}/rounds/2"]
    changed = {view for view in before if before[view] != after[view]}
    assert changed == set(before), f"unchanged after the write: {set(before) - changed}"


def _rename_behind_the_services(db: Database, old: str, new: str) -> None:
    """Change a name with SQL the version listeners do not see: whatever still shows the old
    name afterwards came from the cache."""
    with db.engine.begin() as connection:
        connection.execute(
            text("UPDATE event_players SET name = :new WHERE name = :old"), {"new": new, "old": old}
        )


def test_a_kept_page_is_served_without_computing_it_and_a_write_ends_it(
    database: Database, make_pages: MakePages
) -> None:
    accounts.ensure_site_admin(database, ADMIN_PASSWORD)
    ev = _swiss_with_round_2_open(database)
    with _web(database, make_pages()) as public, _web(database, make_pages()) as organiser:
        assert "P01" in public.get(f"/events/{ev}/standings").text
        assert "P01" in public.get(f"/api/events/{ev}/standings").text
        _rename_behind_the_services(database, "P01", "Q01")
        assert "P01" in public.get(f"/events/{ev}/standings").text  # kept
        assert "P01" in public.get(f"/api/events/{ev}/standings").text
        api_login(organiser, "admin", ADMIN_PASSWORD)  # a logged-in reader: never from the cache
        assert "Q01" in organiser.get(f"/events/{ev}/standings").text
        assert "P01" in public.get(f"/events/{ev}/standings").text  # …nor kept for the public
        add_warning(database, LOCAL, ev, "P02")  # any write through the services
        assert "Q01" in public.get(f"/events/{ev}/standings").text
        assert "Q01" in public.get(f"/api/events/{ev}/standings").text


def test_etag_answers_304_until_the_next_write(database: Database) -> None:
    accounts.ensure_site_admin(database, ADMIN_PASSWORD)
    ev = _swiss_with_round_2_open(database)
    with _web(database, MemoryPages()) as public:
        for url in (f"/events/{ev}/standings", f"/api/events/{ev}/standings"):
            first = public.get(url)
            etag = first.headers["etag"]
            assert first.headers["cache-control"] == (
                "public, no-cache" if url.startswith("/api/") else "private, no-cache"
            )
            again = public.get(url, headers={"If-None-Match": etag})
            assert again.status_code == 304 and again.content == b""
            assert again.headers["etag"] == etag
            assert public.get(url, headers={"If-None-Match": '"other"'}).status_code == 200
        urls = (f"/events/{ev}/crosstable", f"/api/events/{ev}/crosstable")
        kept = {url: public.get(url) for url in urls}
        board = public.get(f"/api/events/{ev}/rounds/2").json()["pairings"][0]["board"]
        _enter_result(database, ev, board, "W+R")
        for url, old in kept.items():
            fresh = public.get(url, headers={"If-None-Match": old.headers["etag"]})
            assert fresh.status_code == 200 and fresh.headers["etag"] != old.headers["etag"]
            assert fresh.text != old.text
    with _web(database, MemoryPages()) as organiser:
        api_login(organiser, "admin", ADMIN_PASSWORD)
        mine = organiser.get(f"/events/{ev}/standings", headers={"If-None-Match": etag})
        assert mine.status_code == 200
        assert mine.headers["cache-control"] == "no-store" and "etag" not in mine.headers


def test_a_page_is_kept_once_however_many_writes(database: Database) -> None:
    """A page read after a write replaces the copy of the version before: the cache holds one
    copy a page (and language), not one a write."""
    ev = small_swiss(database, players=4, rounds=3, played=1)
    pages = MemoryPages()
    with _web(database, pages) as public:
        urls = [f"/events/{ev}/standings", f"/api/events/{ev}/standings"]
        for name in ("P02", "P03", "P04"):
            for url in urls:
                public.get(url)
                public.get(url, headers={"Accept-Language": "en"})
            add_warning(database, LOCAL, ev, name)
    assert len(pages._pages) == 4


def test_without_the_cache_nothing_is_kept(database: Database) -> None:
    ev = small_swiss(database, players=4, rounds=2, played=1)
    with _web(database, False) as public:
        response = public.get(f"/events/{ev}/standings")
        assert response.status_code == 200 and "etag" not in response.headers
        _rename_behind_the_services(database, "P01", "Q01")
        assert "Q01" in public.get(f"/events/{ev}/standings").text


def _users(db: Database, ev: int) -> None:
    for name, role in (("org", Role.ORGANISER), ("ref", Role.REFEREE)):
        user = accounts.create_user(db, LOCAL, name, PASSWORD)
        accounts.grant_role(db, LOCAL, user.id, ev, role)


RUNNERS_ONLY = re.compile(r'/manage"|/rounds/\d+/results"')
"""Links only organisers and referees get: the dashboard, the (unpublished) round's sheet."""


@pytest.mark.parametrize("who", ["org", "ref"])
def test_a_referees_view_is_never_served_to_the_public_nor_the_publics_to_a_referee(
    database: Database, make_pages: MakePages, who: str
) -> None:
    """R-ORG-1: round 2 is paired, not published. The organiser's and the referee's pages
    link its sheet (and the dashboard); the public's do not, whoever reads first."""
    ev = small_swiss(database, players=8, rounds=3, played=1)
    pair_round(database, LOCAL, ev)  # round 2, unpublished
    _users(database, ev)
    pages = make_pages()
    with _web(database, pages) as public, _web(database, pages) as runner:
        api_login(runner, who, PASSWORD)
        for page in PAGES[:1] + PAGES[2:]:
            url = f"/events/{ev}/{page}".rstrip("/")
            assert RUNNERS_ONLY.search(runner.get(url).text), url  # the runner first
            assert not RUNNERS_ONLY.search(public.get(url).text), url
            assert RUNNERS_ONLY.search(runner.get(url).text), url  # and after the public
        assert runner.get(f"/api/events/{ev}/standings").status_code == 200
        assert public.get(f"/api/events/{ev}/rounds/2").status_code == 404
        assert public.get(f"/events/{ev}/rounds/2").status_code == 404
        assert public.get(f"/api/events/{ev}/standings").json()["rounds"] == 1


def test_each_reader_gets_their_own_csrf_token(database: Database) -> None:
    ev = small_swiss(database, players=4, rounds=2, played=1)
    pages = MemoryPages()
    tokens = []
    for _ in range(2):
        with _web(database, pages) as reader:
            page = reader.get(f"/events/{ev}/standings").text
            found = re.search(r'<meta name="csrf-token" content="([^"]+)">', page)
            assert found and "\x00" not in page
            assert found.group(1) == csrf(reader)  # the session's own, good for a form
            tokens.append(found.group(1))
    assert tokens[0] != tokens[1]


def test_two_instances_on_one_redis_share_pages_and_invalidation(database: Database) -> None:
    """A page kept by instance 2 is served by instance 1; a write through instance 1 makes
    instance 2's next read show it."""
    accounts.ensure_site_admin(database, ADMIN_PASSWORD)
    ev = _swiss_with_round_2_open(database)
    prefix = f"weiqi:test:{uuid.uuid4().hex}:"

    def shared() -> RedisPages:
        return RedisPages(redis.Redis.from_url(REDIS_URL), prefix=prefix)

    try:
        with _web(database, shared()) as one, _web(database, shared()) as two:
            kept = two.get(f"/api/events/{ev}/standings").text
            _rename_behind_the_services(database, "P01", "Q01")
            assert one.get(f"/api/events/{ev}/standings").text == kept  # from Redis
            board = two.get(f"/api/events/{ev}/rounds/2").json()["pairings"][0]["board"]
            api_login(one, "admin", ADMIN_PASSWORD)
            response = one.post(
                f"/api/events/{ev}/rounds/2/results",
                json={"rows": [{"board": board, "result": "B+R"}]},
                headers={"X-CSRF-Token": csrf(one)},
            )
            assert response.status_code == 200, response.text
            fresh = two.get(f"/api/events/{ev}/standings").text
            assert fresh != kept and "Q01" in fresh
            rnd = two.get(f"/api/events/{ev}/rounds/2").json()["pairings"][0]
            assert rnd["result"] == "B+R"
    finally:
        client = redis.Redis.from_url(REDIS_URL)
        keys = list(client.scan_iter(prefix + "*"))
        assert keys  # the pages were kept there
        client.delete(*keys)


def test_a_team_events_pages_show_the_next_round_once_revealed_and_played(
    database: Database, make_pages: MakePages
) -> None:
    """R-RANK-TEAM: the team standings, rounds and records follow every write."""
    ev = team_round_robin(database, boards=2, played=1)
    urls = (
        f"/events/{ev}/standings",
        f"/events/{ev}/rounds/2",
        f"/events/{ev}/teams",
        f"/events/{ev}/teams/records",
        f"/api/events/{ev}/standings",
        f"/api/events/{ev}/rounds/2",
        f"/api/events/{ev}/rounds",
        f"/api/events/{ev}/teams/records",
    )
    with _web(database, make_pages()) as public:
        before = {url: public.get(url).text for url in urls}
        assert {url: public.get(url).text for url in urls} == before
        view = teams.show_round(database, ev, 2)
        assert public.get(f"/api/events/{ev}/rounds/2").json()["matches"][0]["boards"] == []
        for m in view.matches:
            for t in (m.home, m.away):
                teams.submit_lineup(
                    database, LOCAL, ev, 2, t, [f"{t}1", f"{t}2"], clock=ManualClock(BEFORE)
                )
        teams.reveal_round(database, LOCAL, ev, 2, clock=ManualClock(T0))
        teams.record_results(
            database, LOCAL, ev, 2, [(m.home, b, "B+R") for m in view.matches for b in (1, 2)]
        )
        after = {url: public.get(url).text for url in urls}
        assert public.get(f"/api/events/{ev}/rounds/2").json()["matches"][0]["boards"]
    unchanged = {url for url in urls if before[url] == after[url]}
    assert not unchanged, unchanged
