"""Team events and a league in real headless Chromium against the real server, in Chinese
(marked ``browser``): R-FMT-1, R-SCORE-TEAM-1, R-RANK-TEAM, R-LEAGUE-1."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server import pages, team_pages
from tests.server.conftest import LiveServer, screenshot
from tests.server.test_event_admin_browser import organiser
from weiqi.league.season import SeasonSettings
from weiqi.services import accounts, league, teams
from weiqi.services.actor import Actor
from weiqi.store.database import Database

pytestmark = pytest.mark.browser
LOCAL = Actor.local()
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 800}

TEAMS = ("黑龙", "白虎", "青龙", "朱雀")
TEAMS_CSV = "队名,姓名,段位,等级分,国籍\n" + "\n".join(
    f"{team},{team}{i}号,{6 - i}d,{2500 - 10 * i},{'KR' if team == '白虎' and i > 2 else 'CN'}"
    for team in TEAMS
    for i in (1, 2, 3, 4)
)


def _coach(server: LiveServer, event_id: int) -> str:
    password = "教练的密码 2026"
    db = Database(server.db_url)
    try:
        accounts.create_user(db, LOCAL, "coach-baihu", password, display_name="白虎教练")
    finally:
        db.dispose()
    return password


def test_r_fmt_1_team_round_robin_from_creation_to_standings(
    page: Page, browser: Browser, live_server: LiveServer, tmp_path: Path
) -> None:
    """In Chinese: an organiser creates a 4-team, 3-board round robin (临场出人制, one foreign
    player a round, R-FMT-1), a CSV with a bad row is refused by line, the good one enters the
    teams; round 1 is paired; the coach's lineup with two foreign players is refused with the
    reason, the next one sealed; the lineups are revealed together, the boards' results entered
    match by match — one board refereed on its game page: a count, a warning, the
    confirmation and the chief referee's correction with its reason in the history (R-REF-7,
    R-PEN-1) — and the standings show the match and game points (R-SCORE-TEAM-1,
    R-RANK-TEAM)."""
    password = organiser(live_server, "zhao")
    pages.log_in(page, live_server, "zhao", password)
    page.goto(live_server.url)
    page.locator("#new-team-event-link").click()
    expect(page.locator("h1")).to_have_text("新建团体赛")
    screenshot(page, "team-new-zh", tmp_path)
    page.set_viewport_size(PHONE)
    screenshot(page, "team-new-zh-phone", tmp_path)
    page.set_viewport_size(DESKTOP)
    event_id = team_pages.create_team_event(
        page, live_server, "2026 市围棋团体赛", boards=3, max_foreign=1
    )
    expect(page.locator(".facts-line")).to_contain_text("临场出人制")
    expect(page.locator(".facts-line")).to_contain_text("外援每轮最多 1 名")

    bad = TEAMS_CSV.replace("青龙2号,4d", "青龙2号,12d")
    team_pages.paste_teams(page, bad)
    errors = page.locator("#import-errors")
    expect(errors).to_contain_text("第 11 行")
    expect(errors).to_contain_text("段位 12d")
    expect(page.locator(".team-card")).to_have_count(0)
    page.locator("#import-teams").get_by_label("或粘贴 CSV 内容").fill(TEAMS_CSV)
    page.locator("#import-teams").get_by_role("button", name="导入").click()
    expect(page.locator(".notice").first).to_contain_text("已导入 4 支队伍")
    expect(page.locator(".team-card")).to_have_count(4)
    screenshot(page, "team-manage-zh", tmp_path)

    team_pages.pair_team_round(page, 1)
    expect(page.locator("#lineup-status tbody tr")).to_have_count(2)
    expect(page.locator("#lineup-status")).to_contain_text("未提交")

    # the organiser makes an account 白虎's coach (R-FMT-1); it seals the lineup in a browser
    # of its own, offered its own team only
    coach_password = _coach(live_server, event_id)
    team_pages.assign_coach(page, live_server, event_id, "白虎", "coach-baihu")
    expect(page.locator("#coaches")).to_contain_text("白虎教练")
    coach_context = browser.new_context(locale="zh-CN", viewport=PHONE)
    coach = coach_context.new_page()
    try:
        pages.log_in(coach, live_server, "coach-baihu", coach_password)
        team_pages.submit_lineup(
            coach, live_server, event_id, 1, "白虎", ["白虎1号", "白虎3号", "白虎4号"]
        )
        refused = coach.locator("#refused")
        expect(refused).to_contain_text("外援 2 名（白虎3号, 白虎4号），每轮最多 1 名上场")
        screenshot(coach, "team-lineup-refused-zh-phone", tmp_path)
        team_pages.submit_lineup(
            coach, live_server, event_id, 1, "白虎", ["白虎1号", "白虎2号", "白虎3号"]
        )
        expect(coach.locator("#sealed")).to_be_visible()
        screenshot(coach, "team-lineup-sealed-zh-phone", tmp_path)
        # sealed: the public round page shows no player yet
        coach.goto(f"{live_server.url}/events/{event_id}/rounds/1")
        expect(coach.locator("main")).to_contain_text("出场名单未公开")
        expect(coach.locator("main")).not_to_contain_text("白虎2号")
    finally:
        coach_context.close()

    for team in ("黑龙", "青龙", "朱雀"):
        team_pages.submit_lineup(
            page, live_server, event_id, 1, team, [f"{team}{i}号" for i in (1, 2, 3)]
        )
        expect(page.locator("#sealed")).to_be_visible()
    team_pages.reveal_lineups(page, live_server, event_id, 1)
    page.set_viewport_size(PHONE)
    screenshot(page, "team-round-entry-zh-phone", tmp_path)
    page.set_viewport_size(DESKTOP)
    db = Database(live_server.db_url)
    try:
        m1, m2 = teams.show_round(db, event_id, 1).matches
    finally:
        db.dispose()
    # home Black on odd boards: match 1's home team wins 4:2; match 2 is drawn 3:3
    team_pages.enter_match_results(page, 1, {1: "B+R", 2: "W+R", 3: "W+R"})
    team_pages.enter_match_results(page, 2, {1: "B+R", 2: "B+R"})
    expect(page.locator("#match-1 h2 .score")).to_have_text("4:2")
    expect(page.locator("#match-1 tbody")).to_contain_text("已确认")

    # R-REF-7, R-PEN-1 on a team board: match 2's board 3 is refereed on its own game page —
    # a count, a warning for Black, the confirmation, the chief referee's correction
    team_pages.open_board(page, 2, 3)
    expect(page.locator("h1")).to_contain_text("第1轮 第2场 第3台")
    expect(page.locator("#black")).to_contain_text(f"{m2.home}3号")
    team_pages.submit_on_board(page, "enter-result", {"entry": "184.5"})
    expect(page.locator("#result")).to_contain_text("黑胜1/4子")
    team_pages.submit_on_board(
        page, "record-infraction", {"offender": "B", "kind": "clock_before_move"}
    )
    expect(page.locator("#result")).to_contain_text("白胜3/4子")
    expect(page.locator("#warnings")).to_contain_text("黑方 1")
    expect(page.locator("#infractions")).to_contain_text("警告")
    page.set_viewport_size(PHONE)
    screenshot(page, "team-board-warning-zh-phone", tmp_path)
    page.set_viewport_size(DESKTOP)
    team_pages.submit_on_board(page, "confirm-result")
    expect(page.locator("#status")).to_contain_text("已确认")
    expect(page.locator("#enter-result")).to_have_count(0)
    team_pages.submit_on_board(
        page, "correct-result", {"result": "0", "reason": "复核记录表：实为和棋"}
    )
    expect(page.locator("#result")).to_contain_text("和棋")
    history = page.locator("#history tbody tr")
    expect(history.last).to_contain_text("裁判长更正：复核记录表：实为和棋")
    expect(history.last).to_contain_text("白胜3/4子")
    expect(history.last).to_contain_text("裁判长")
    screenshot(page, "team-board-corrected-zh", tmp_path)
    page.set_viewport_size(PHONE)
    screenshot(page, "team-board-corrected-zh-phone", tmp_path)
    page.set_viewport_size(DESKTOP)
    with page.expect_download() as download:
        page.get_by_role("link", name="下载 SGF 棋谱").click()
    assert "RE[0]" in Path(download.value.path()).read_text(encoding="utf-8")
    page.locator("#team-round-sheet").click()
    expect(page.locator("#match-2 h2 .score")).to_have_text("3:3")
    screenshot(page, "team-round-admin-zh", tmp_path)

    page.goto(f"{live_server.url}/events/{event_id}/rounds/1")
    expect(page.locator("table.data")).to_contain_text("4:2")
    expect(page.locator("table.data a[title='本台对局']")).to_have_count(6)
    expect(page.locator("table.data")).to_contain_text("黑中盘胜")
    expect(page.locator("table.data")).to_contain_text("和棋")
    screenshot(page, "team-round-zh", tmp_path)
    page.set_viewport_size(PHONE)
    screenshot(page, "team-round-zh-phone", tmp_path)
    page.set_viewport_size(DESKTOP)

    page.goto(f"{live_server.url}/events/{event_id}/standings")
    rows = page.locator("table.data tbody tr")
    expect(rows).to_have_count(4)
    names = dict(zip(TEAMS, TEAMS, strict=True))
    expected = [
        ("1", names[m1.home], "2", "4", "2"),
        ("2", names[m2.home], "1", "3", "2"),
        ("3", names[m2.away], "1", "3", "0"),
        ("4", names[m1.away], "0", "2", "0"),
    ]
    for i, (place, team, mp, gp, board1) in enumerate(expected):
        cells = rows.nth(i).locator("td")
        expect(cells.nth(0)).to_have_text(place)
        expect(cells.nth(1)).to_have_text(team)
        expect(cells.nth(6)).to_have_text(mp)
        expect(cells.nth(7)).to_have_text(gp)
        expect(cells.nth(8)).to_have_text(board1)
    screenshot(page, "team-standings-zh", tmp_path)
    page.emulate_media(media="print")
    screenshot(page, "team-standings-zh-print", tmp_path)
    page.emulate_media(media="screen")
    with page.expect_download() as download:
        page.get_by_role("link", name="下载CSV").click()
    raw = Path(download.value.path()).read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and "场分" in raw.decode("utf-8-sig")

    page.goto(f"{live_server.url}/lang/en?next=/events/{event_id}/standings")
    expect(page.locator("table.data thead")).to_contain_text("Match points")
    screenshot(page, "team-standings-en", tmp_path)
    page.goto(f"{live_server.url}/lang/zh_CN?next=/events/{event_id}/standings")

    page.get_by_role("link", name="台次奖").click()
    expect(page.locator("table.data").first).to_contain_text(f"{m2.home}1号")
    screenshot(page, "team-records-zh", tmp_path)
    page.get_by_role("link", name="队伍", exact=True).click()
    expect(page.locator(".team-card")).to_have_count(4)
    screenshot(page, "team-teams-zh", tmp_path)


def test_r_league_1_league_table_with_zones_and_calendar(
    page: Page, live_server: LiveServer, tmp_path: Path
) -> None:
    """R-LEAGUE-1: a two-division season; the table marks the top division's last club for
    relegation and the lower division's first for promotion; the calendar is dated."""
    db = Database(live_server.db_url)
    try:

        def clubs(names: str) -> str:
            return "队名,姓名,段位\n" + "\n".join(
                f"{c}队,{c}{i},{i}p" for c in names for i in range(1, 4)
            )

        season = league.create_season(
            db,
            LOCAL,
            "2026 围甲联赛",
            [("甲", clubs("江浙沪粤")), ("乙", clubs("川渝闽鲁"))],
            SeasonSettings(boards=2, min_roster=2, max_roster=6, promoted=1, relegated=1),
            start=datetime.date(2026, 3, 7),
        )
        top = season.divisions[0].event_id
        rnd = teams.show_round(db, top, 1)
        lineups = {t: [f"{t[0]}1", f"{t[0]}2"] for m in rnd.matches for t in (m.home, m.away)}
        teams.submit_lineups(db, LOCAL, top, 1, lineups)
        teams.reveal_round(db, LOCAL, top, 1)
        for m in rnd.matches:
            teams.record_results(db, LOCAL, top, 1, [(m.home, 1, "B+R"), (m.home, 2, "B+R")])
    finally:
        db.dispose()
    page.goto(f"{live_server.url}/leagues/{season.id}")
    divisions = page.locator("article.sheet")
    expect(divisions).to_have_count(2)
    expect(divisions.nth(0).locator("tr.zone-down")).to_have_count(1)
    expect(divisions.nth(0).locator("tr.zone-up")).to_have_count(0)
    expect(divisions.nth(1).locator("tr.zone-up")).to_have_count(1)
    expect(divisions.nth(0).locator("tr.zone-down")).to_contain_text("降级")
    screenshot(page, "league-table-zh", tmp_path)
    page.set_viewport_size(PHONE)
    screenshot(page, "league-table-zh-phone", tmp_path)
    page.set_viewport_size(DESKTOP)
    page.emulate_media(media="print")
    screenshot(page, "league-table-zh-print", tmp_path)
    page.emulate_media(media="screen")
    page.get_by_role("link", name="赛程").click()
    expect(page.locator("article.division")).to_have_count(2)
    expect(page.locator("article.division").first).to_contain_text("2026-03-07")
    expect(page.locator("article.division").first).to_contain_text("2026-04-11")
    screenshot(page, "league-calendar-zh", tmp_path)
