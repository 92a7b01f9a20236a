"""The team-event and league pages through the TestClient, in Chinese (R-FMT-1, R-SCORE-TEAM-1,
R-RANK-TEAM, R-LEAGUE-1)."""

from __future__ import annotations

import csv
import dataclasses
import datetime
import io
import re

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.league.test_team_service import event as team_event
from tests.league.test_team_service import play
from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf
from weiqi.league.season import SeasonSettings
from weiqi.league.settings import TeamEventSettings
from weiqi.server.app import create_app
from weiqi.services import accounts, league, teams
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.services.server_clock import ManualClock
from weiqi.store.database import Database
from weiqi.tournament.settings import System

LOCAL = Actor.local()

TEAMS_CSV = "队名,姓名,段位,等级分,国籍\n" + "\n".join(
    f"{team},{team}{i},{6 - i}d,{2500 - 10 * i},{'KR' if team == '白虎' and i > 2 else 'CN'}"
    for team in ("黑龙", "白虎", "青龙", "朱雀")
    for i in (1, 2, 3, 4)
)

FORM = {
    "name": "2026 市围棋团体赛",
    "system": "round_robin",
    "team_type": "per_round",
    "boards": "3",
    "board_colors": "alternate",
    "max_foreign": "1",
    "deadline_minutes": "30",
    "missing": "forfeit",
    "cycles": "1",
    "ranking": "round_robin",
}


@pytest.fixture
def database_url(request: pytest.FixtureRequest) -> str:
    """SQLite here; the one PostgreSQL test asks for ``postgres`` (the store tests and the
    permission matrix run every database already)."""
    url: str = request.getfixturevalue(f"{getattr(request, 'param', 'sqlite')}_url")
    return url


def admin(client: TestClient) -> str:
    api_login(client, "admin", ADMIN_PASSWORD)
    return csrf(client)


def create(client: TestClient, token: str, **changes: str) -> int:
    response = client.post(
        "/events/new?kind=team",
        data={**FORM, **changes, "csrf_token": token},
        follow_redirects=False,
    )
    assert response.status_code == 303, response.text
    found = re.fullmatch(r"/events/(\d+)/manage", response.headers["location"])
    assert found
    return int(found.group(1))


def import_csv(client: TestClient, token: str, event_id: int, text: str) -> httpx.Response:
    return client.post(
        f"/events/{event_id}/manage/teams/import",
        data={"text": text, "home_nationality": "CN", "csrf_token": token},
        follow_redirects=False,
    )


def test_r_fmt_1_the_form_offers_every_team_type_and_system(client: TestClient) -> None:
    """R-FMT-1: the five team types and the four systems, named in Chinese."""
    admin(client)
    page = client.get("/events/new?kind=team").text
    for name in ("分台定人制", "定台换人制", "临场出人制", "全队轮赛制", "队员总分制"):
        assert name in page
    for name in ("循环制", "积分编排制", "淘汰制", "擂台赛"):
        assert name in page
    assert "外援" in page and "出场名单截止" in page


def test_team_events_live_under_events_like_every_event(client: TestClient) -> None:
    """One address scheme (issue #10): a team event is run at ``/events/{id}/manage`` like an
    individual one, the home page links there, and an old ``/team-events/…`` address (a
    bookmark, a printed sheet) arrives at its new place, its method and query kept."""
    token = admin(client)
    event_id = create(client, token)
    home = client.get("/").text
    assert f'href="/events/{event_id}/manage"' in home and "/team-events/" not in home
    assert 'href="/events/new?kind=team"' in home
    manage = client.get(f"/events/{event_id}/manage")
    assert manage.status_code == 200 and "/team-events/" not in manage.text
    for old, new in (
        ("/team-events/new", "/events/new?kind=team"),
        (f"/team-events/{event_id}", f"/events/{event_id}/teams"),
        (f"/team-events/{event_id}/manage", f"/events/{event_id}/manage"),
        (f"/team-events/{event_id}/manage/rounds/1", f"/events/{event_id}/manage/rounds/1"),
        (
            f"/team-events/{event_id}/rounds/1/lineup?team=A",
            f"/events/{event_id}/rounds/1/lineup?team=A",
        ),
    ):
        moved = client.get(old, follow_redirects=False)
        assert (moved.status_code, moved.headers["location"]) == (308, new), old


def test_every_events_addresses_lead_to_a_team_events_pages(
    client: TestClient, database: Database
) -> None:
    """One address scheme (issue #10): a team event's round, standings and their projector
    pages, and the API's round and standings, are at every event's addresses; a page only
    individual events have (crosstable, players) leads to the team page that shows it (307,
    the query kept); the older team addresses (``/events/{id}/teams/rounds/…``,
    ``…/teams/standings``) arrive at the new ones (308), the query kept, and what arrives is
    that page."""
    event_id = run_round_one(client, database)
    base = f"/events/{event_id}"
    client.get(f"{base}/manage")  # shows the results' notices, which a page shows once
    for page, shows in (
        (f"{base}/rounds/1", "黑龙1"),
        (f"{base}/rounds/1?format=csv", "黑龙1"),
        (f"{base}/standings", "场分"),
        (f"{base}/rounds/1/projector", "黑龙1"),
        (f"{base}/standings/projector", "场分"),
    ):
        shown = client.get(page, follow_redirects=False)
        assert shown.status_code == 200 and shows in shown.text, page
    assert client.get(f"/api{base}/rounds/1").json()["matches"][0]["boards"]
    assert client.get(f"/api{base}/standings").json()[0]["match_points"] is not None
    for shared, team, status in (
        (f"{base}/crosstable", f"{base}/standings", 307),
        (f"{base}/players?q=A1", f"{base}/teams?q=A1", 307),
        (f"{base}/teams/rounds/1?format=csv", f"{base}/rounds/1?format=csv", 308),
        (f"{base}/teams/rounds/1/projector", f"{base}/rounds/1/projector", 308),
        (f"{base}/teams/standings", f"{base}/standings", 308),
        (f"/api{base}/teams/rounds/1", f"/api{base}/rounds/1", 308),
        (f"/api{base}/teams/standings", f"/api{base}/standings", 308),
    ):
        moved = client.get(shared, follow_redirects=False)
        assert (moved.status_code, moved.headers["location"]) == (status, team), shared
        arrived = client.get(shared)
        assert arrived.status_code == 200, shared
        assert arrived.content == client.get(team).content, shared
    assert "A1" in client.get(f"{base}/players?q=A1").text
    # an address that only begins like an old one is not found (not sent round in a loop)
    assert client.get(f"{base}/teams/standingsX", follow_redirects=False).status_code == 404


def test_a_bad_setting_is_shown_next_to_its_field(client: TestClient) -> None:
    token = admin(client)
    response = client.post(
        "/events/new?kind=team", data={**FORM, "system": "swiss", "csrf_token": token}
    )
    assert response.status_code == 422
    assert 'id="error-rounds"' in response.text
    assert 'value="2026 市围棋团体赛"' in response.text


def test_the_csv_import_is_all_or_nothing_with_errors_by_line(
    client: TestClient, database: Database
) -> None:
    token = admin(client)
    event_id = create(client, token)
    bad = TEAMS_CSV.replace("黑龙2,4d", "黑龙2,12d").replace("朱雀3,3d", "朱雀3,")
    response = import_csv(client, token, event_id, bad)
    assert response.status_code == 422
    text = response.text
    assert "第 3 行" in text and "第 16 行" in text
    assert teams.team_event_info(database, event_id).entrants == 0
    response = import_csv(client, token, event_id, TEAMS_CSV)
    assert response.status_code == 303
    assert teams.team_event_info(database, event_id).entrants == 4


def test_a_team_entered_from_the_form(client: TestClient, database: Database) -> None:
    token = admin(client)
    event_id = create(client, token)
    form = {"name": "玄武", "coach": "王老师", "roster": "玄武1,5d\n玄武2,4d,,JP\n玄武3,3d"}
    response = client.post(
        f"/events/{event_id}/manage/teams",
        data={**form, "home_nationality": "CN", "csrf_token": token},
        follow_redirects=False,
    )
    assert response.status_code == 303, response.text
    page = client.get(f"/events/{event_id}/manage").text
    assert "玄武" in page and "王老师" in page and "外援" in page
    bad = client.post(
        f"/events/{event_id}/manage/teams",
        data={"name": "白泽", "roster": "白泽1,5d\n白泽2,99d\n白泽3,3d", "csrf_token": token},
    )
    assert bad.status_code == 422 and "第 2 行" in bad.text


def _lineup(
    client: TestClient, token: str, event_id: int, team: str, players: list[str]
) -> httpx.Response:
    data = {f"board_{i}": p for i, p in enumerate(players, start=1)}
    return client.post(
        f"/events/{event_id}/rounds/1/lineup",
        data={**data, "team": team, "csrf_token": token},
        follow_redirects=False,
    )


def run_round_one(client: TestClient, database: Database) -> int:
    token = admin(client)
    event_id = create(client, token)
    import_csv(client, token, event_id, TEAMS_CSV)
    response = client.post(
        f"/events/{event_id}/manage/rounds",
        data={"start": "", "csrf_token": token},
        follow_redirects=False,
    )
    assert response.status_code == 303
    rnd = teams.show_round(database, event_id, 1)
    for m in rnd.matches:
        for team in (m.home, m.away):
            r = _lineup(client, token, event_id, team, [f"{team}1", f"{team}2", f"{team}3"])
            assert r.status_code == 303
    client.post(f"/events/{event_id}/manage/rounds/1/reveal", data={"csrf_token": token})
    # home Black on odd boards: match 1's home team wins boards 1 and 2 (4:2); match 2 is
    # drawn 3:3 (one board each, board 3 a draw), its home team winning board 1
    results = {
        1: {"1_0": "B+R", "2_0": "W+R", "3_0": "W+R"},
        2: {"1_0": "B+R", "2_0": "B+R", "3_0": "0"},
    }
    rnd = teams.show_round(database, event_id, 1)
    for m in rnd.matches:
        form = {f"result_{k}": v for k, v in results[m.number].items()}
        response = client.post(
            f"/events/{event_id}/manage/rounds/1/matches/{m.number}/results",
            data={**form, "csrf_token": token},
            follow_redirects=False,
        )
        assert response.status_code == 303, response.text
    return event_id


def test_r_fmt_1_a_refused_lineup_shows_its_reason_and_stores_nothing(
    client: TestClient, database: Database
) -> None:
    """R-FMT-1 (临场出人制): a lineup with two foreign players of a limit of one is refused with
    the reason in Chinese; lineups stay sealed until revealed."""
    token = admin(client)
    event_id = create(client, token)
    import_csv(client, token, event_id, TEAMS_CSV)
    client.post(f"/events/{event_id}/manage/rounds", data={"csrf_token": token})
    page = client.get(f"/events/{event_id}/rounds/1/lineup?team=白虎")
    assert page.status_code == 200 and 'name="board_3"' in page.text
    refused = _lineup(client, token, event_id, "白虎", ["白虎1", "白虎3", "白虎4"])
    assert refused.status_code == 422
    assert "外援 2 名" in refused.text and "每轮最多 1 名" in refused.text
    rnd = teams.show_round(database, event_id, 1)
    assert not any(m.submitted.get("白虎") for m in rnd.matches)
    good = _lineup(client, token, event_id, "白虎", ["白虎1", "白虎2", "白虎3"])
    assert good.status_code == 303
    public = client.get(f"/events/{event_id}/rounds/1").text
    assert "白虎3" not in public


def test_r_score_team_1_and_r_rank_team_round_and_standings_pages(
    client: TestClient, database: Database
) -> None:
    """R-SCORE-TEAM-1: a board won scores 2 game points, a draw 1; the team with more wins
    the match 2:0, equal 1:1. R-RANK-TEAM: match points, game points, board 1 …; shared places."""
    event_id = run_round_one(client, database)
    rnd = teams.show_round(database, event_id, 1)
    m1, m2 = rnd.matches
    assert m1.game_points == (4, 2) and m2.game_points == (3, 3)
    assert m1.match_points == (2, 0) and m2.match_points == (1, 1)
    page = client.get(f"/events/{event_id}/rounds/1").text
    assert "4:2" in page and "3:3" in page and "黑中盘胜" in page and "和棋" in page
    standings = client.get(f"/events/{event_id}/standings")
    assert standings.status_code == 200
    assert "场分" in standings.text and "局分" in standings.text and "第1台" in standings.text
    raw = client.get(f"/events/{event_id}/standings?format=csv").content
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"))))
    assert rows[0][:8] == ["名次", "队名", "场次", "胜", "和", "负", "场分", "局分"]
    by_team = {r[1]: r for r in rows[1:]}
    assert by_team[m1.home][6:8] == ["2", "4"] and by_team[m1.away][6:8] == ["0", "2"]
    assert by_team[m2.home][6:8] == ["1", "3"] and by_team[m2.away][6:8] == ["1", "3"]
    # equal match and game points: board 1's game points part them
    assert by_team[m2.home][8] == "2" and by_team[m2.away][8] == "0"
    assert [r[1] for r in rows[1:]] == [m1.home, m2.home, m2.away, m1.away]
    assert [r[0] for r in rows[1:]] == ["1", "2", "3", "4"]


def test_r_fmt_3_a_team_swiss_round_page_says_why_each_match(
    client: TestClient, database: Database
) -> None:
    """The organisers' page of a team Swiss round shows why each match was paired, in Chinese
    and in a team's words (match points, home and away), the same rows ``show_round`` gives,
    and the pairing's totals in those words (matches, teams paired down, home/away rule
    broken; a team has no club)."""
    ev = team_event(database, "ABCDE", 2, boards=2, system=System.SWISS, rounds=2)
    first = teams.pair_round(database, Actor.local(), ev)
    play(database, ev, 1, {m.home: ["B+R", "W+R"] for m in first.matches})
    teams.pair_round(database, Actor.local(), ev)
    admin(client)
    page = client.get(f"/events/{ev}/manage/rounds/2")
    assert page.status_code == 200
    why = page.text[page.text.index('id="explanation"') :]
    assert "每台对阵的依据" in why and "主队" in why and "客队" in why
    assert "场分 2" in why and "场分较高：降组对阵" in why
    assert "执黑" not in why and "黑方" not in why  # a match has home and away, not colours
    rows = teams.show_round(database, ev, 2).explanation
    assert why.count("<tr>") == len(rows) + 1  # the head and a row a match
    # the API's round (the object ``round show --json`` prints) says the same
    api = client.get(f"/api/events/{ev}/rounds/2").json()
    assert api["explanations"] == [w.as_json() for w in rows]
    totals = teams.show_round(database, ev, 2).totals
    assert totals is not None and totals.games == 2 and totals.floats > 0
    shown = page.text[page.text.index('id="round-totals"') :]
    shown = shown[: shown.index("</dl>")]
    assert f"<dt>对阵</dt><dd>{totals.games}</dd>" in shown
    assert f"<dt>降组对阵</dt><dd>{totals.floats}</dd>" in shown
    assert f"<dt>违反主客场规则</dt><dd>{totals.color_violations}</dd>" in shown
    assert "俱乐部" not in shown and "颜色" not in shown
    assert api["totals"] == dataclasses.asdict(totals)


def test_board_prizes_and_player_records_with_csv(client: TestClient, database: Database) -> None:
    """Board prizes: each board's players by game points, equal ones sharing the place."""
    event_id = run_round_one(client, database)
    records = client.get(f"/events/{event_id}/teams/records")
    assert records.status_code == 200 and "台次奖" in records.text
    boards = client.get(f"/events/{event_id}/teams/records?format=csv")
    assert boards.content.startswith(b"\xef\xbb\xbf")
    assert boards.headers["content-type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(boards.content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["台次", "名次", "棋手"] and len(rows) == 1 + 12
    # board 1: both home players won (Black on board 1): a shared first place
    assert [r[1] for r in rows[1:5]] == ["并列1", "并列1", "并列3", "并列3"]
    players = client.get(f"/events/{event_id}/teams/records?format=csv&table=players")
    assert len(players.content.decode("utf-8-sig").splitlines()) == 1 + 12
    teams_page = client.get(f"/events/{event_id}/teams")
    assert teams_page.status_code == 200 and "黑龙4" in teams_page.text


def test_lineups_are_submitted_by_a_player_but_results_are_not(
    client: TestClient, database: Database
) -> None:
    """R-ORG-1, R-FMT-1: the organiser makes an account 黑龙's coach on the dashboard; the coach
    seals 黑龙's lineup, not another team's (403, nothing stored); the results sheet is not
    theirs."""
    token = admin(client)
    event_id = create(client, token)
    import_csv(client, token, event_id, TEAMS_CSV)
    client.post(f"/events/{event_id}/manage/rounds", data={"csrf_token": token})
    accounts.create_user(database, LOCAL, "coach", "quiet tortoise 789", display_name="王教练")
    assign = f"/events/{event_id}/manage/coaches"
    unknown = client.post(assign, data={"team": "黑龙", "username": "nobody", "csrf_token": token})
    assert unknown.status_code == 422 and "nobody" in unknown.text
    done = client.post(
        assign,
        data={"team": "黑龙", "username": "coach", "role": "coach", "csrf_token": token},
        follow_redirects=False,
    )
    assert done.status_code == 303, done.text
    dashboard = client.get(f"/events/{event_id}/manage").text
    assert "教练和队长" in dashboard and "王教练" in dashboard
    client.post("/logout", data={"csrf_token": token})
    api_login(client, "coach", "quiet tortoise 789")
    token = csrf(client)
    form = client.get(f"/events/{event_id}/rounds/1/lineup").text
    chooser = form.split('id="choose-team"')[1].split("</form>")[0]
    offered = re.findall(r'<option value="([^"]+)"', chooser)
    assert offered == ["黑龙"]
    before = teams.show_round(database, event_id, 1)
    refused = _lineup(client, token, event_id, "白虎", ["白虎1", "白虎2", "白虎3"])
    assert refused.status_code == 403
    assert teams.show_round(database, event_id, 1) == before
    sealed = _lineup(client, token, event_id, "黑龙", ["黑龙1", "黑龙2", "黑龙3"])
    assert sealed.status_code == 303
    assert client.get(f"/events/{event_id}/manage/rounds/1").status_code == 403
    reveal = client.post(f"/events/{event_id}/manage/rounds/1/reveal", data={"csrf_token": token})
    assert reveal.status_code == 403


def test_a_lineup_after_the_deadline_is_refused(client: TestClient, database: Database) -> None:
    token = admin(client)
    event_id = create(client, token)
    import_csv(client, token, event_id, TEAMS_CSV)
    client.post(
        f"/events/{event_id}/manage/rounds",
        data={"start": "2020-01-01T09:00", "csrf_token": token},
    )
    refused = _lineup(client, token, event_id, "黑龙", ["黑龙1", "黑龙2", "黑龙3"])
    assert refused.status_code == 422 and "截止时间" in refused.text


def _season(database: Database) -> int:
    def clubs(prefix: str) -> str:
        return "team,name,rank\n" + "\n".join(
            f"{prefix}{c},{prefix}{c}{i},5p" for c in "1234" for i in range(1, 4)
        )

    s = league.create_season(
        database,
        LOCAL,
        "2026 围甲",
        [("甲", clubs("A")), ("乙", clubs("B"))],
        SeasonSettings(boards=2, min_roster=2, max_roster=6, promoted=1, relegated=1),
        start=datetime.date(2026, 3, 7),
    )
    return s.id


def test_r_league_1_the_league_table_marks_promotion_and_relegation(
    client: TestClient, database: Database
) -> None:
    """R-LEAGUE-1: the top division's last place is in the relegation zone, the lower
    division's first in the promotion zone; the calendar is dated, 6 rounds for 4 clubs."""
    season_id = _season(database)
    page = client.get(f"/leagues/{season_id}")
    assert page.status_code == 200
    assert "甲级" in page.text and "乙级" in page.text
    assert page.text.count('class="zone-down"') == 1 and page.text.count('class="zone-up"') == 1
    assert "降级区" in page.text and "升级区" in page.text
    calendar = client.get(f"/leagues/{season_id}/calendar?format=csv&division=乙")
    rows = list(csv.reader(io.StringIO(calendar.content.decode("utf-8-sig"))))
    assert rows[1][1] == "2026-03-07" and len(rows) == 1 + 6 * 2
    assert {r[0] for r in rows[1:]} == {str(n) for n in range(1, 7)}
    text = calendar.content.decode("utf-8-sig")
    assert "B1" in text and "A1" not in text  # the division asked for, not the top one
    # a division the season does not have: not found, never another division's calendar
    assert client.get(f"/leagues/{season_id}/calendar?format=csv&division=丙").status_code == 404


@pytest.mark.postgres
@pytest.mark.parametrize("database_url", ["postgres"], indirect=True)
def test_team_pages_on_postgresql(client: TestClient, database: Database) -> None:
    """The organiser's and the public pages of a played round on PostgreSQL."""
    assert database.url.startswith("postgresql")
    event_id = run_round_one(client, database)
    assert client.get(f"/events/{event_id}/standings").status_code == 200
    assert client.get(f"/events/{event_id}/teams/records").status_code == 200


def test_lineups_are_not_revealed_before_the_deadline(
    client: TestClient, database: Database
) -> None:
    """A round with a start: the page offers the reveal only from the lineup deadline on."""
    token = admin(client)
    event_id = create(client, token)
    import_csv(client, token, event_id, TEAMS_CSV)
    client.post(
        f"/events/{event_id}/manage/rounds",
        data={"start": "2099-05-01T09:00", "csrf_token": token},
    )
    page = client.get(f"/events/{event_id}/manage/rounds/1").text
    assert 'id="sealed-until"' in page and "2099-05-01 08:30" in page
    assert 'id="reveal"' not in page
    ok = _lineup(client, token, event_id, "黑龙", ["黑龙1", "黑龙2", "黑龙3"])
    assert ok.status_code == 303


def test_r_fmt_1_the_round_page_and_the_lineup_form_follow_the_server_clock(
    database: Database,
) -> None:
    """R-FMT-1: the lineup is submitted before the round — by the application's clock
    (``create_app(..., clock=...)``), which the round page reads too: before the deadline the
    reveal is not offered and a lineup is sealed; from the deadline on the reveal is offered and
    a lineup is refused, even from a form that says it was filled in earlier."""
    accounts.ensure_site_admin(database, ADMIN_PASSWORD)
    clock = ManualClock(datetime.datetime(2026, 5, 1, 8, 0, tzinfo=datetime.UTC))
    with TestClient(create_app(database, secret_key="clock", clock=clock)) as client:
        token = admin(client)
        event_id = create(client, token)
        import_csv(client, token, event_id, TEAMS_CSV)
        client.post(
            f"/events/{event_id}/manage/rounds",
            data={"start": "2026-05-01T17:00", "csrf_token": token},  # Beijing time: 09:00 UTC
        )
        page = client.get(f"/events/{event_id}/manage/rounds/1").text
        # issue #13: the deadline (08:30 UTC) is shown in the event's time zone, not in UTC
        assert 'id="sealed-until"' in page and "2026-05-01 16:30" in page
        assert 'id="reveal"' not in page
        assert (
            _lineup(client, token, event_id, "黑龙", ["黑龙1", "黑龙2", "黑龙3"]).status_code == 303
        )
        clock.set(datetime.datetime(2026, 5, 1, 8, 30, tzinfo=datetime.UTC))
        page = client.get(f"/events/{event_id}/manage/rounds/1").text
        assert 'id="sealed-until"' not in page and 'id="reveal"' in page
        late = client.post(
            f"/events/{event_id}/rounds/1/lineup",
            data={"board_1": "白虎1", "board_2": "白虎2", "board_3": "白虎3", "team": "白虎",
                  "at": "2026-05-01T08:00", "csrf_token": token},
        )  # fmt: skip
        assert late.status_code == 422 and "截止时间" in late.text
        shown = teams.show_round(database, event_id, 1).matches
        assert {t: sent for m in shown for t, sent in m.submitted.items()}["白虎"] is False


def test_the_api_creates_imports_pairs_and_reads_records(client: TestClient) -> None:
    """The JSON API behind the pages: a bad teams CSV comes back as problems by line."""
    token = admin(client)
    headers = {"X-CSRF-Token": token}
    created = client.post(
        "/api/events/teams",
        json={"name": "API 团体赛", "settings": {"boards": 3, "max_foreign": 1}},
        headers=headers,
    )
    assert created.status_code == 201, created.text
    event_id = created.json()["id"]
    assert created.json()["settings"]["max_foreign"] == 1
    bad = client.post(
        f"/api/events/{event_id}/teams/import",
        json={"csv": TEAMS_CSV.replace("朱雀3,3d", "朱雀3,"), "home_nationality": "CN"},
        headers=headers,
    )
    assert bad.status_code == 422 and bad.json()["problems"][0]["line"] == 16
    good = client.post(
        f"/api/events/{event_id}/teams/import",
        json={"csv": TEAMS_CSV, "home_nationality": "CN"},
        headers=headers,
    )
    assert good.json() == {"imported": 4}
    paired = client.post(f"/api/events/{event_id}/rounds", json={}, headers=headers)
    assert paired.status_code == 201 and len(paired.json()["matches"]) == 2
    revealed = client.post(f"/api/events/{event_id}/rounds/1/reveal", headers=headers)
    assert revealed.status_code == 200  # no lineup: every board forfeited (the fallback)
    assert all(b["result"] for m in revealed.json()["matches"] for b in m["boards"])
    assert len(client.get(f"/api/events/{event_id}/rounds").json()) == 1
    assert client.get(f"/api/events/{event_id}/teams/records").json()["players"] == []


def test_r_ref_7_a_rotation_boards_later_sitting_has_its_own_game_page(
    client: TestClient, database: Database
) -> None:
    """R-REF-7 on a 全队轮赛制 match: the second sitting's board is its own game, reached by its
    link (``?sitting=1``); the chief referee (the site administrator) enters and confirms its
    result in the page's forms, the first sitting's board stays untouched, and an anonymous
    visitor sees the game but no form."""
    from weiqi.league.team import TeamType
    from weiqi.services import games

    ev = create_event(
        database, LOCAL, "轮赛", TeamEventSettings(boards=2, team_type=TeamType.ROTATION)
    ).id
    teams.import_teams(database, LOCAL, ev, "team,name,rank\nA,A1,5d\nA,A2,5d\nB,B1,5d\nB,B2,5d\n")
    teams.pair_round(database, LOCAL, ev)
    for t in "AB":
        teams.submit_lineup(database, LOCAL, ev, 1, t, [f"{t}1", f"{t}2"])
    teams.reveal_round(database, LOCAL, ev, 1)
    url = f"/events/{ev}/rounds/1/matches/1/boards/1?sitting=1"
    public = client.get(f"/events/{ev}/rounds/1")
    assert f'href="{url}"' in public.text.replace("&amp;", "&")
    page = client.get(url)
    assert page.status_code == 200 and "第1轮 第1场 第1台 · 第2轮次" in page.text
    assert 'id="enter-result"' not in page.text and "A1" in page.text and "B2" in page.text
    api_login(client, "admin", ADMIN_PASSWORD)
    token = csrf(client)
    base = f"/events/{ev}/rounds/1/matches/1/boards/1"
    done = client.post(
        f"{base}/result?sitting=1", data={"csrf_token": token, "entry": "W+R", "seq": "0"}
    )
    assert done.status_code == 200 and "白中盘胜" in done.text  # back on the board's page
    done = client.post(f"{base}/confirm?sitting=1", data={"csrf_token": token, "seq": "2"})
    assert "已确认" in done.text
    second = games.game_view(database, ev, 1, games.TeamBoard(1, 1, 1))
    first = games.game_view(database, ev, 1, games.TeamBoard(1, 1))
    assert (second.result, second.confirmed, first.result, first.seq) == ("W+R", True, None, 0)
    sheet = client.get(f"/events/{ev}/manage/rounds/1")
    row = sheet.text.split('id="board-1-1-1"')[1].split("</tr>")[0]
    assert "白中盘胜" in row and "已确认" in row


def test_r_fmt_3_a_winner_stays_on_is_run_from_its_round_page(
    client: TestClient, database: Database
) -> None:
    """R-FMT-3 擂台赛 in chosen order through the pages: the lineups, the reveal, the awaited
    team sends its players, each game is a board with its own page (R-REF-7), its result
    entered from the round page moves the stage on, and a refused send is named beside the
    choice, in Chinese."""
    token = admin(client)
    event_id = create(
        client, token, system="winner_stays_on", player_order="chosen", team_type="per_round",
        boards="2", max_foreign="",
    )  # fmt: skip
    import_csv(client, token, event_id, TEAMS_CSV.split("\n青龙")[0])  # 黑龙 and 白虎
    response = client.post(
        f"/events/{event_id}/manage/rounds", data={"start": "", "csrf_token": token},
        follow_redirects=False,
    )  # fmt: skip
    assert response.status_code == 303, response.text
    for team in ("黑龙", "白虎"):
        assert _lineup(client, token, event_id, team, [f"{team}1", f"{team}2"]).status_code == 303
    sealed = client.get(f"/events/{event_id}/standings")  # before the reveal: no game
    assert sealed.status_code == 200 and 'class="empty"' in sealed.text
    client.post(f"/events/{event_id}/manage/rounds/1/reveal", data={"csrf_token": token})
    page = client.get(f"/events/{event_id}/manage/rounds/1").text
    assert "黑龙必须派出下一名棋手" in page and 'id="stage-send"' in page
    send = f"/events/{event_id}/manage/stage/send"
    done = client.post(send, data={"team": "黑龙", "player": "黑龙2", "csrf_token": token},
                       follow_redirects=False)  # fmt: skip
    assert done.status_code == 303
    refused = client.post(send, data={"team": "白虎", "player": "黑龙1", "csrf_token": token})
    assert refused.status_code == 422 and 'id="player-error"' in refused.text
    assert "不是白虎的待战棋手" in refused.text, refused.text
    client.post(send, data={"team": "白虎", "player": "白虎1", "csrf_token": token})
    page = client.get(f"/events/{event_id}/manage/rounds/1").text
    assert "第1局正在进行：黑龙2（擂主）对白虎1。" in page
    board = client.get(f"/events/{event_id}/rounds/1/matches/1/boards/1")
    assert board.status_code == 200 and "黑龙2" in board.text and "白虎1" in board.text
    entered = client.post(
        f"/events/{event_id}/manage/rounds/1/matches/1/results",
        data={"result_1_0": "W+R", "csrf_token": token}, follow_redirects=False,
    )  # fmt: skip
    assert entered.status_code == 303, entered.text  # 黑龙2 (white) beats 白虎1
    page = client.get(f"/events/{event_id}/manage/rounds/1").text
    assert "白虎必须派出下一名棋手" in page and "白虎1" in page.split('id="stage-teams"')[1]
    # the public page of a 擂台赛 is its games and where it stands (it has no table)
    public_page = client.get(f"/events/{event_id}/standings")
    assert public_page.status_code == 200 and "白虎必须派出下一名棋手。" in public_page.text
    assert "黑龙2（黑龙）" in public_page.text and "白中盘胜" in public_page.text
    assert client.get(f"/events/{event_id}/standings/projector").status_code == 200
    # its round's page names each game by its number and holder, without a match's score
    games_page = client.get(f"/events/{event_id}/rounds/1").text
    assert "第1局：黑龙（擂主）– 白虎" in games_page and "局分" not in games_page
    assert "每队2人" in games_page and "2台" not in games_page
    overview = client.get(f"/events/{event_id}/teams").text
    assert "第1局：黑龙（擂主）– 白虎 <strong>白中盘胜</strong>" in overview
    # 白虎's coach sends from the lineup page, for 白虎 only (R-ORG-1)
    accounts.create_user(database, LOCAL, "coach", "quiet tortoise 789", display_name="王教练")
    client.post(
        f"/events/{event_id}/manage/coaches",
        data={"team": "白虎", "username": "coach", "role": "coach", "csrf_token": token},
    )
    client.post("/logout", data={"csrf_token": token})
    api_login(client, "coach", "quiet tortoise 789")
    token = csrf(client)
    lineup = client.get(f"/events/{event_id}/rounds/1/lineup").text
    assert 'id="stage-send"' in lineup and 'name="back" value="lineup"' in lineup
    other = client.post(send, data={"team": "黑龙", "player": "黑龙1", "back": "lineup",
                                    "csrf_token": token})  # fmt: skip
    assert other.status_code == 403
    refused = client.post(send, data={"team": "白虎", "player": "白虎1", "back": "lineup",
                                      "csrf_token": token})  # fmt: skip
    assert refused.status_code == 422 and "不是白虎的待战棋手" in refused.text
    assert 'id="choose-team"' in refused.text  # the coach's own page, the choice kept
    sent = client.post(send, data={"team": "白虎", "player": "白虎2", "back": "lineup",
                                   "csrf_token": token}, follow_redirects=False)  # fmt: skip
    assert sent.status_code == 303 and "/rounds/1/lineup" in sent.headers["location"]
    assert "第2局正在进行：黑龙2（擂主）对白虎2。" in client.get(sent.headers["location"]).text
