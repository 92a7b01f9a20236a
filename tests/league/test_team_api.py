"""The team and league JSON API on SQLite and PostgreSQL: sealed rounds, a refused lineup as
422 ``lineup_rejected`` with nothing stored, board results, standings, a league table, a draft."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi.testclient import TestClient

from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf
from tests.store.conftest import CHEAP_HASHER
from weiqi.server.app import create_app
from weiqi.services import accounts
from weiqi.services.actor import Actor
from weiqi.services.teams import (
    TeamEventSettings,
    create_team_event,
    import_teams,
    pair_round,
)
from weiqi.store.database import Database

LOCAL = Actor.local()


def test_r_fmt_1_r_rank_team_through_the_api(db: Database) -> None:
    previous = accounts.set_password_hasher(CHEAP_HASHER)
    try:
        accounts.ensure_site_admin(db, ADMIN_PASSWORD)
        ev = create_team_event(db, LOCAL, "API cup", TeamEventSettings(boards=2, max_foreign=0)).id
        import_teams(
            db, LOCAL, ev, "team,name,rank,foreign\nA,A1,5p,\nA,A2,5p,yes\nA,A3,4p,\n"
            "B,B1,5p,\nB,B2,5p,\n",
        )  # fmt: skip
        pair_round(db, LOCAL, ev, start=datetime(2030, 1, 1, 9, 0, tzinfo=UTC))
        with TestClient(create_app(db, secret_key="teams")) as client:
            api_login(client, "admin", ADMIN_PASSWORD)
            headers = {"X-CSRF-Token": csrf(client)}
            url = f"/api/team-events/{ev}/rounds/1"
            refused = client.post(
                f"{url}/lineups", json={"team": "A", "players": ["A1", "A2"]}, headers=headers
            )
            assert refused.status_code == 422
            body = refused.json()
            assert body["error"] == "lineup_rejected"
            assert (
                body["message"] == "lineup of A: 1 foreign players (A2); at most 0 may play a round"
            )
            assert body["code"] == "lineup of %(team)s: %(reason)s"
            assert body["args"]["team"] == "A"
            assert body["args"]["reason"]["args"] == {"count": 1, "players": "A2", "max_foreign": 0}
            assert client.get(url).json()["matches"][0]["submitted"] == {"A": False, "B": False}
            for team, players in (("A", ["A1", "A3"]), ("B", ["B1", "B2"])):
                sent = client.post(
                    f"{url}/lineups", json={"team": team, "players": players}, headers=headers
                )
                assert sent.status_code == 204, sent.text
            sealed = client.get(url).json()
            assert sealed["lineups"] == {} and sealed["matches"][0]["boards"] == []
            from weiqi.services.teams import reveal_round

            reveal_round(db, LOCAL, ev, 1, datetime(2030, 1, 1, 8, 30, tzinfo=UTC))
            assert client.get(url).json()["lineups"] == {"A": ["A1", "A3"], "B": ["B1", "B2"]}
            for board in (1, 2):
                answer = client.post(
                    f"{url}/results",
                    json={"team": "B", "board": board, "result": "B+R"},
                    headers=headers,
                )
                assert answer.status_code == 200, answer.text
            # board 1: A black wins; board 2: B black wins → 2:2, a drawn match
            assert answer.json()["game_points"] == [2, 2]
            table = client.get(f"/api/team-events/{ev}/standings").json()
            # level on match and game points; board 1's game points (2 to 0) put A first
            rows = [(r["place"], r["team"], r["match_points"], r["board_points"]) for r in table]
            assert rows == [
                (1, "A", 1, [2, 0]), (2, "B", 1, [0, 2])]  # fmt: skip
            assert client.get("/api/leagues/99/table").status_code == 404
            assert client.get("/api/drafts/1").json()["error"] == "not_found"
    finally:
        accounts.set_password_hasher(previous)
