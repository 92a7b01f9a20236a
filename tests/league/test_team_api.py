"""The team and league JSON API on SQLite and PostgreSQL: sealed rounds, a refused lineup as
422 ``lineup_rejected`` with nothing stored, board results, standings, a league table, a draft;
the lineup deadline by the server's clock, whatever time the client claims."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi.testclient import TestClient

from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf
from tests.store.conftest import CHEAP_HASHER
from weiqi.league.settings import TeamEventSettings
from weiqi.server.app import create_app
from weiqi.services import accounts
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.server_clock import ManualClock
from weiqi.services.team_coaches import assign_coach
from weiqi.services.teams import (
    import_teams,
    pair_round,
)
from weiqi.store.database import Database

LOCAL = Actor.local()


def test_r_fmt_1_r_rank_team_through_the_api(db: Database) -> None:
    previous = accounts.set_password_hasher(CHEAP_HASHER)
    try:
        accounts.ensure_site_admin(db, ADMIN_PASSWORD)
        ev = create_event(db, LOCAL, "API cup", TeamEventSettings(boards=2, max_foreign=0)).id
        import_teams(
            db, LOCAL, ev, "team,name,rank,foreign\nA,A1,5p,\nA,A2,5p,yes\nA,A3,4p,\n"
            "B,B1,5p,\nB,B2,5p,\n",
        )  # fmt: skip
        pair_round(db, LOCAL, ev, start=datetime(2030, 1, 1, 9, 0, tzinfo=UTC))
        clock = ManualClock(datetime(2030, 1, 1, 8, 0, tzinfo=UTC))
        with TestClient(create_app(db, secret_key="teams", clock=clock)) as client:
            api_login(client, "admin", ADMIN_PASSWORD)
            headers = {"X-CSRF-Token": csrf(client)}
            url = f"/api/events/{ev}/rounds/1"
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
            from weiqi.services.teams import (
                reveal_round,
            )

            reveal_round(db, LOCAL, ev, 1, clock=clock.set(datetime(2030, 1, 1, 8, 30, tzinfo=UTC)))
            assert client.get(url).json()["lineups"] == {"A": ["A1", "A3"], "B": ["B1", "B2"]}
            for board in (1, 2):
                answer = client.post(
                    f"{url}/results",
                    json={"rows": [{"team": "B", "board": board, "result": "B+R"}]},
                    headers=headers,
                )
                assert answer.status_code == 200, answer.text
            # board 1: A black wins; board 2: B black wins → 2:2, a drawn match
            assert answer.json()["matches"][0]["game_points"] == [2, 2]
            table = client.get(f"/api/events/{ev}/standings").json()
            # level on match and game points; board 1's game points (2 to 0) put A first
            rows = [(r["place"], r["team"], r["match_points"], r["board_points"]) for r in table]
            assert rows == [
                (1, "A", 1, [2, 0]), (2, "B", 1, [0, 2])]  # fmt: skip
            assert client.get("/api/leagues/99/table").status_code == 404
            assert client.get("/api/drafts/1").json()["error"] == "not_found"
    finally:
        accounts.set_password_hasher(previous)


def test_r_fmt_1_r_league_1_back_dated_lineup_is_refused_through_the_api(db: Database) -> None:
    """R-FMT-1 / R-LEAGUE-1: the coach submits the lineup *before* the round — before the
    deadline by the server's clock. A coach after the deadline who sends a back-dated ``"at"``
    gets 422 naming the field, and without it 422 ``lineup_rejected`` naming the server's time;
    nothing is stored either way. Before the deadline the same lineup is sealed (204), and the
    reveal follows the same clock (409 before the deadline)."""
    previous = accounts.set_password_hasher(CHEAP_HASHER)
    try:
        accounts.ensure_site_admin(db, ADMIN_PASSWORD)
        ev = create_event(db, LOCAL, "Deadline cup", TeamEventSettings(boards=2)).id
        import_teams(db, LOCAL, ev, "team,name,rank\nA,A1,5p\nA,A2,4p\nB,B1,5p\nB,B2,4p\n")
        paired = pair_round(db, LOCAL, ev, start=datetime(2026, 5, 1, 9, 0, tzinfo=UTC))
        assert paired.deadline == datetime(2026, 5, 1, 8, 30, tzinfo=UTC)
        accounts.create_user(db, LOCAL, "wang", "quiet tortoise 789")
        assign_coach(db, LOCAL, ev, "A", "wang")
        clock = ManualClock(datetime(2026, 5, 1, 8, 45, tzinfo=UTC))  # 15 minutes late
        with TestClient(create_app(db, secret_key="deadline", clock=clock)) as client:
            api_login(client, "wang", "quiet tortoise 789")
            headers = {"X-CSRF-Token": csrf(client)}
            url = f"/api/events/{ev}/rounds/1"
            lineup = {"team": "A", "players": ["A1", "A2"]}
            back_dated = client.post(
                f"{url}/lineups",
                json={**lineup, "at": "2026-05-01T08:00:00+00:00"},
                headers=headers,
            )
            assert back_dated.status_code == 422, back_dated.text
            assert back_dated.json()["error"] == "invalid_request"
            assert back_dated.json()["message"] == "at: is not a known field"
            late = client.post(f"{url}/lineups", json=lineup, headers=headers)
            assert late.status_code == 422, late.text
            body = late.json()
            assert (body["error"], body["message"]) == (
                "lineup_rejected",
                # in the event's time (Asia/Shanghai), to the second
                "lineup of A: submitted at 2026-05-01 16:45:00, after the deadline "
                "(2026-05-01 16:30:00)",
            )
            reason = body["args"]["reason"]
            assert reason["code"] == "submitted at %(now)s, after the deadline (%(deadline)s)"
            assert reason["args"] == {
                "now": "2026-05-01 16:45:00",
                "deadline": "2026-05-01 16:30:00",
            }
            assert client.get(url).json()["matches"][0]["submitted"] == {"A": False, "B": False}

            clock.set(datetime(2026, 5, 1, 8, 29, tzinfo=UTC))
            sealed = client.post(f"{url}/lineups", json=lineup, headers=headers)
            assert sealed.status_code == 204, sealed.text
            assert client.get(url).json()["matches"][0]["submitted"] == {"A": True, "B": False}

            api_login(client, "admin", ADMIN_PASSWORD)
            headers = {"X-CSRF-Token": csrf(client)}
            early = client.post(f"/api/events/{ev}/rounds/1/reveal", headers=headers)
            assert early.status_code == 409, early.text
            sealed_until = "sealed until 2026-05-01 16:30:00 (now 2026-05-01 16:29:00)"
            assert sealed_until in early.json()["message"]
            clock.set(datetime(2026, 5, 1, 8, 30, tzinfo=UTC))
            shown = client.post(f"/api/events/{ev}/rounds/1/reveal", headers=headers)
            assert shown.status_code == 200, shown.text
            assert shown.json()["lineups"]["A"] == ["A1", "A2"]
            assert shown.json()["revealed_at"] == "2026-05-01T08:30+00:00"
    finally:
        accounts.set_password_hasher(previous)


def test_r_ref_7_a_team_board_has_the_game_endpoints_of_an_individual_board(
    db: Database,
) -> None:
    """R-REF-7, R-PEN-1 through the API: a team board answers the same ``GameOut`` as an
    individual board (plus its match and teams); a count, a warning, the confirmation, a
    stale ``expected_seq`` (409), the chief referee's correction with its history, and the
    SGF — and the round's match score follows the record."""
    from weiqi.services.teams import (
        reveal_round,
        submit_lineup,
    )

    previous = accounts.set_password_hasher(CHEAP_HASHER)
    try:
        accounts.ensure_site_admin(db, ADMIN_PASSWORD)
        ev = create_event(db, LOCAL, "API cup", TeamEventSettings(boards=2)).id
        import_teams(db, LOCAL, ev, "team,name,rank\nA,A1,5p\nA,A2,5p\nB,B1,5p\nB,B2,5p\n")
        pair_round(db, LOCAL, ev)
        for t in "AB":
            submit_lineup(db, LOCAL, ev, 1, t, [f"{t}1", f"{t}2"])
        reveal_round(db, LOCAL, ev, 1)
        with TestClient(create_app(db, secret_key="teams")) as client:
            board = f"/api/events/{ev}/rounds/1/matches/1/boards/1"
            fresh = client.get(board).json()  # public
            assert (fresh["match"], fresh["board"], fresh["seq"], fresh["result"]) == (
                1, 1, 0, None)  # fmt: skip
            assert {fresh["black_team"], fresh["white_team"]} == {"A", "B"}
            assert client.get(f"/api/events/{ev}/rounds/1/matches/1/boards/3").status_code
            assert (
                client.get(f"/api/events/{ev}/rounds/1/matches/1/boards/3").json()["error"]
                == "not_found"
            )
            api_login(client, "admin", ADMIN_PASSWORD)
            headers = {"X-CSRF-Token": csrf(client)}
            g = client.post(f"{board}/result", json={"result": "184.5"}, headers=headers).json()
            assert (g["result"], g["result_zh"], g["confirmed"]) == ("B+0.5", "黑胜1/4子", False)
            g = client.post(
                f"{board}/infractions",
                json={"kind": "clock_before_move", "offender": "B", "expected_seq": g["seq"]},
                headers=headers,
            ).json()
            assert (g["result"], g["warnings"]) == ("W+1.5", {"B": 1, "W": 0})
            stale = client.post(
                f"{board}/confirm", json={"expected_seq": g["seq"] - 1}, headers=headers
            )
            assert stale.status_code == 409
            g = client.post(
                f"{board}/confirm", json={"expected_seq": g["seq"]}, headers=headers
            ).json()
            assert g["confirmed"] and g["phase"] == "confirmed"
            white = g["white_team"]
            other = f"/api/events/{ev}/rounds/1/matches/1/boards/2"
            o = client.get(other).json()
            code = "B+R" if o["black_team"] == white else "W+R"
            posted = client.post(
                f"/api/events/{ev}/rounds/1/results",
                json={"rows": [{"team": white, "board": 2, "result": code}]},
                headers=headers,
            ).json()
            assert posted["matches"][0]["winner"] == white
            assert client.get(other).json()["confirmed"]
            g = client.post(
                f"{board}/correction",
                json={"result": "B+R", "reason": "钟表故障，警告撤销"},
                headers=headers,
            ).json()
            assert (g["result"], g["history"][-1]["reason"]) == (
                "B+R", "corrected: 钟表故障，警告撤销")  # fmt: skip
            assert g["history"][-1]["previous"] == "W+1.5"
            match = client.get(f"/api/events/{ev}/rounds/1").json()["matches"][0]
            assert match["game_points"] == [2, 2] and match["boards"][0]["confirmed"]
            sgf = client.get(f"{board}/sgf")
            assert sgf.status_code == 200 and "RE[B+R]" in sgf.text
    finally:
        accounts.set_password_hasher(previous)


def test_the_old_team_event_api_addresses_lead_to_the_new_ones(db: Database) -> None:
    """Issue #10, one address scheme: the team API is under ``/api/events/{id}/teams/…``; an old
    ``/api/team-events/…`` call is sent there with 308, so it is repeated with its method and
    body."""
    previous = accounts.set_password_hasher(CHEAP_HASHER)
    try:
        accounts.ensure_site_admin(db, ADMIN_PASSWORD)
    finally:
        accounts.set_password_hasher(previous)
    client = TestClient(create_app(db, secret_key="teams"))
    api_login(client, "admin", ADMIN_PASSWORD)
    headers = {"X-CSRF-Token": csrf(client)}
    for method, old, new in (
        ("POST", "/api/team-events", "/api/events/teams"),
        ("GET", "/api/team-events/3/standings", "/api/events/3/standings"),
        ("POST", "/api/team-events/3/rounds/1/lineups", "/api/events/3/rounds/1/lineups"),
        ("GET", "/api/team-events/3/records?board=1", "/api/events/3/teams/records?board=1"),
    ):
        moved = client.request(method, old, headers=headers, follow_redirects=False)
        assert (moved.status_code, moved.headers["location"]) == (308, new), old


def test_r_fmt_1_a_player_code_with_a_comma_through_the_api(db: Database) -> None:
    """Issue #16 (R-FMT-1): a player named "Li, Wei" (so the player code ``Li, Wei``, quoted
    in the teams CSV) is sealed in a lineup through the JSON API, revealed, seated on board 1,
    plays, and is counted in the standings; in round 2 team A sends no lineup and its previous
    one — "Li, Wei" still on board 1 — plays again (``missing: previous``). Stored as joined
    text, this lineup made every reveal of the round fail."""
    previous = accounts.set_password_hasher(CHEAP_HASHER)
    try:
        accounts.ensure_site_admin(db, ADMIN_PASSWORD)
        clock = ManualClock(datetime(2030, 1, 1, 8, 0, tzinfo=UTC))
        with TestClient(create_app(db, secret_key="comma", clock=clock)) as client:
            api_login(client, "admin", ADMIN_PASSWORD)
            headers = {"X-CSRF-Token": csrf(client)}
            created = client.post(
                "/api/events/teams",
                json={
                    "name": "Comma cup",
                    "settings": {"boards": 2, "cycles": 2, "missing": "previous"},
                },
                headers=headers,
            )
            assert created.status_code == 201, created.text
            ev = created.json()["id"]
            csv = 'team,name,rank\nA,"Li, Wei",5p\nA,A2,4p\nB,B1,5p\nB,B2,4p\n'
            imported = client.post(
                f"/api/events/{ev}/teams/import", json={"csv": csv}, headers=headers
            )
            assert imported.json() == {"imported": 2}, imported.text
            url = f"/api/events/{ev}/rounds"
            for number, sealed in ((1, ("A", "B")), (2, ("B",))):
                paired = client.post(url, json={}, headers=headers)
                assert paired.status_code == 201, paired.text
                lineups = {"A": ["Li, Wei", "A2"], "B": ["B2", "B1"]}
                for team in sealed:
                    sent = client.post(
                        f"{url}/{number}/lineups",
                        json={"team": team, "players": lineups[team]},
                        headers=headers,
                    )
                    assert sent.status_code == 204, sent.text
                revealed = client.post(f"{url}/{number}/reveal", headers=headers)
                assert revealed.status_code == 200, revealed.text
                shown = client.get(f"{url}/{number}").json()
                assert shown["lineups"] == lineups
                boards = shown["matches"][0]["boards"]
                home = shown["matches"][0]["home"]
                assert {(b["board"], b["home_player"], b["away_player"]) for b in boards} == (
                    {(1, "Li, Wei", "B2"), (2, "A2", "B1")}
                    if home == "A"
                    else {(1, "B2", "Li, Wei"), (2, "B1", "A2")}
                )
                other = {"B": "W", "W": "B"}
                for b in boards:  # A wins board 1 ('Li, Wei'), B board 2: result as seated
                    a_color = b["home_color"] if home == "A" else other[b["home_color"]]
                    winner = a_color if b["board"] == 1 else other[a_color]
                    answer = client.post(
                        f"{url}/{number}/results",
                        json={
                            "rows": [{"team": "A", "board": b["board"], "result": f"{winner}+R"}]
                        },
                        headers=headers,
                    )
                    assert answer.status_code == 200, answer.text
                assert answer.json()["matches"][0]["game_points"] == [2, 2]
                game = client.get(f"/api/events/{ev}/rounds/{number}/matches/1/boards/1")
                assert game.status_code == 200, game.text
                assert "Li, Wei" in (game.json()["black"], game.json()["white"])
            records = client.get(f"/api/events/{ev}/teams/records").json()
            li = next(r for r in records["players"] if r["player"] == "Li, Wei")
            assert (li["team"], li["games"], li["wins"], li["boards"]) == ("A", 2, 2, [1, 1])
            table = client.get(f"/api/events/{ev}/standings").json()
            rows = [(r["team"], r["match_points"], r["board_points"]) for r in table]
            assert rows == [("A", 2, [4, 0]), ("B", 2, [0, 4])]
    finally:
        accounts.set_password_hasher(previous)


def test_r_fmt_1_a_team_events_settings_go_back_into_the_api_as_they_came_out(
    db: Database,
) -> None:
    """Issue #10 (one shape per idea): the settings the API answers with are what it takes, so
    a client can copy an event's settings into a new one. Read as a form before, the answer's
    ``substitutes: true`` (R-FMT-1: substitutes allowed) was taken as "the type's rule" and
    ``missing_lineup`` was not a setting at all."""
    previous = accounts.set_password_hasher(CHEAP_HASHER)
    try:
        accounts.ensure_site_admin(db, ADMIN_PASSWORD)
        with TestClient(create_app(db, secret_key="settings shape")) as client:
            api_login(client, "admin", ADMIN_PASSWORD)
            headers = {"X-CSRF-Token": csrf(client)}
            first = client.post(
                "/api/events/teams",
                json={
                    "name": "甲",
                    "settings": {"system": "swiss", "rounds": 3, "team_type": "fixed_boards",
                                 "substitutes": True, "missing": "previous", "seed": 7},
                },
                headers=headers,
            )  # fmt: skip
            assert first.status_code == 201, first.text
            settings = first.json()["settings"]
            assert settings["substitutes"] is True and settings["missing"] == "previous"
            copied = client.post(
                "/api/events/teams", json={"name": "乙", "settings": settings}, headers=headers
            )
            assert copied.status_code == 201, copied.text
            assert copied.json()["settings"] == settings
            refused = client.post(
                "/api/events/teams",
                json={"name": "丙", "settings": {"substitutes": "yes"}},
                headers=headers,
            )
            assert refused.status_code == 422
            assert refused.json()["args"]["field"]["code"] == "substitutes"
    finally:
        accounts.set_password_hasher(previous)
