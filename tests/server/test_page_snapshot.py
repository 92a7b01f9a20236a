"""A public page reads from one snapshot (issue #10), on SQLite and PostgreSQL: the services a
page asks (the event, its teams, the round, the standings) read in one read-only transaction,
so a write committed while the page is computed is in none of them or all of them — never in
the teams but not in the round. Counted here as the transactions the page begins."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import event

from tests.league.test_stage_boards import stage
from tests.league.test_team_service import LOCAL, play
from tests.league.test_team_service import event as team_event
from tests.server.conftest import served
from weiqi.services.teams import pair_round
from weiqi.services.winner_stays_on import record_stage_result
from weiqi.store.database import Database


@contextmanager
def begun(db: Database) -> Iterator[list[object]]:
    """The transactions begun on ``db`` while the block runs."""
    seen: list[object] = []

    def note(connection: object) -> None:
        seen.append(connection)

    event.listen(db.engine, "begin", note)
    try:
        yield seen
    finally:
        event.remove(db.engine, "begin", note)


def test_a_public_page_reads_in_one_transaction(database: Database) -> None:
    teams = team_event(database, "ABCD", 2, boards=2)

    pair_round(database, LOCAL, teams)
    play(database, teams, 1, {"A": ["B+R", "W+R"], "B": ["B+R", "B+R"]})
    ring = stage(database)
    record_stage_result(database, LOCAL, ring, "B+R", 1)
    pages = [
        f"/events/{teams}/standings",
        f"/events/{teams}/rounds/1",
        f"/events/{teams}/standings/projector",
        f"/events/{teams}/teams",
        f"/events/{ring}/standings",
        f"/events/{ring}/rounds/1",
    ]
    with served(database, cache_pages=False) as client:
        for page in pages:
            client.get(page)  # the application's first look at each route and the site key
            counts = []
            for _ in range(3):  # the fewest of three: the server's watchers read now and then
                with begun(database) as seen:
                    response = client.get(page)
                assert response.status_code == 200, page
                counts.append(len(seen))
            assert min(counts) == 1, (page, counts)


def test_an_organisers_page_reads_in_one_transaction_too(database: Database) -> None:
    """The organisers' pages ask more services than the public ones (the round, the teams,
    the stage, the permissions): each page's own reads are one transaction, so two pages
    differ in nothing but what signing in costs, which is the same for both."""
    from tests.server.conftest import ADMIN_PASSWORD, api_login
    from weiqi.services.accounts import ensure_site_admin

    ring = stage(database)
    record_stage_result(database, LOCAL, ring, "B+R", 1)
    ensure_site_admin(database, ADMIN_PASSWORD)
    pages = [f"/events/{ring}/manage/rounds/1", f"/events/{ring}/manage", "/account"]
    with served(database) as client:
        api_login(client, "admin", ADMIN_PASSWORD)
        counts = []
        for page in pages:
            client.get(page)
            tries = []
            for _ in range(3):  # the fewest of three: the server's watchers read now and then
                with begun(database) as seen:
                    assert client.get(page).status_code == 200, page
                tries.append(len(seen))
            counts.append(min(tries))
    assert len(set(counts)) == 1, dict(zip(pages, counts, strict=True))
