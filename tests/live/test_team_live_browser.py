"""Two roster players of two teams play their 9×9 team board to a result in the game room, each
in their own Chromium context, in Chinese, on a desktop (1280×800) and on a 390×844 phone
(issue #11; R-FMT-1, R-SCORE-TEAM-1, R-BOARD-3, R-END-4, R-TIME-1): the player finds the board on
the home page once the lineups are revealed ("我本轮的对局"), the room is the team board's page +
``/play`` with the event's clock, a spectator's round page lists the team boards (match, board,
players) and follows the game, one player resigns, both confirm, and the match score and the
team standings show the result."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.live.conftest import PASSWORD
from tests.live.test_live_browser import WITHIN_ITS_FIRST_MINUTE, _context_page, _play
from tests.live.test_team_live import LOCAL, team_event
from tests.server.conftest import LiveServer, screenshot
from tests.server.result_pages import log_in_as
from weiqi.services import accounts, games, live
from weiqi.services import teams as t
from weiqi.services.games import TeamBoard
from weiqi.store.database import Database

pytestmark = pytest.mark.browser
VIEWPORTS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def _set_up(server: LiveServer, tag: str) -> tuple[int, dict[str, str], TeamBoard, str]:
    """The team event with its lineups revealed; board 1's two players linked to accounts:
    the usernames by colour, the board, and the match score once board 1's Black has won it
    and board 2's White (of the same team: colours alternate) too."""
    db = Database(server.db_url)
    try:
        ev = team_event(db, time_control="10m")
        key = TeamBoard(1, 1)
        players = {}
        teams_of = {}
        for name, team in (("龙一", "龙队"), ("虎一", "虎队")):
            user = accounts.create_user(db, LOCAL, f"{tag}-{live.player_id(db, ev, name)}",
                                        PASSWORD)  # fmt: skip
            code = live.create_invite(db, LOCAL, ev, live.player_id(db, ev, name)).code
            live.redeem_invite(db, user.actor(), code)
            color = live.seat(db, user.actor(), ev, 1, key)
            assert color is not None
            players[color] = user.username
            teams_of[color] = team
        home = t.show_round(db, ev, 1).matches[0].home
        return ev, players, key, "4:0" if teams_of["B"] == home else "0:4"
    finally:
        db.dispose()


def home_team(server: LiveServer, ev: int) -> str:
    db = Database(server.db_url)
    try:
        return t.show_round(db, ev, 1).matches[0].home
    finally:
        db.dispose()


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_r_score_team_1_two_roster_players_play_their_team_board_to_the_standings(
    browser: Browser, live_server: LiveServer, tmp_path: Path, device: str
) -> None:
    viewport = VIEWPORTS[device]
    phone = device == "phone"
    ev, players, key, score = _set_up(live_server, f"team-{device}")
    room = f"/events/{ev}/rounds/1/matches/1/boards/1"
    black, white, spectator = (_context_page(browser, viewport) for _ in range(3))
    try:
        log_in_as(black, live_server.url, players["B"], PASSWORD)
        black.goto(f"{live_server.url}/")
        mine = black.locator("#my-games a.card-title")
        expect(mine).to_contain_text("第1轮")
        expect(black.locator("#my-games")).to_contain_text("代表")
        mine.click()
        expect(black).to_have_url(f"{live_server.url}{room}/play")
        log_in_as(white, live_server.url, players["W"], PASSWORD)
        white.goto(f"{live_server.url}{room}/play")
        spectator.goto(f"{live_server.url}/events/{ev}/rounds/1/live")
        listed = spectator.locator("article.round-board")
        expect(listed).to_have_count(2)  # both boards of the match, with their players
        expect(listed.first.locator("h2")).to_contain_text("第1场")
        expect(listed.first).to_contain_text("龙一")
        expect(listed.first).to_contain_text("虎一")
        expect(black.locator("#live-you")).to_have_text("你执黑")
        expect(white.locator("#live-you")).to_have_text("你执白")
        expect(black.locator("#live-status")).to_have_text("轮到你落子")
        # the event's time control, 10 minutes, running since White came in
        expect(black.locator("#clock-B")).to_have_text(WITHIN_ITS_FIRST_MINUTE)
        moves = ["E5", "C3", "G7"]
        for i, vertex in enumerate(moves):
            mover = black if i % 2 == 0 else white
            color = "black" if i % 2 == 0 else "white"
            _play(mover, vertex, phone)
            for p in (black, white):
                stone = p.locator(f"svg.board circle.stone.{color}[data-vertex={vertex}]")
                expect(stone).to_have_count(1)
        expect(listed.first.locator('[data-field="state"]')).to_have_text("第3手")
        screenshot(white, f"team-live-room-{device}", tmp_path)
        white.locator("#live-resign").click()
        white.locator("#live-resign-confirm").click()
        for p in (black, white):
            expect(p.locator("#live-status")).to_have_text("对局结束：黑中盘胜")
            p.locator("#live-confirm-result").click()
        expect(listed.first.locator('[data-field="state"]')).to_have_text("黑中盘胜")
        sgf = black.request.get(f"{live_server.url}{room}/sgf")
        assert sgf.ok and "SZ[9]" in sgf.text() and ";B[ee]" in sgf.text()
        db = Database(live_server.db_url)
        try:  # the referees confirm board 1 and enter board 2 as on every board
            view = games.game_view(db, ev, 1, key)
            assert view.result == "B+R" and not view.confirmed
            games.confirm_result(db, LOCAL, ev, 1, key)
            games.enter_result(db, LOCAL, ev, 1, TeamBoard(1, 2), "W+R")
            games.confirm_result(db, LOCAL, ev, 1, TeamBoard(1, 2))
        finally:
            db.dispose()
        spectator.goto(f"{live_server.url}/events/{ev}/rounds/1")
        expect(spectator.locator("table.data")).to_contain_text(score)
        expect(spectator.locator("table.data")).to_contain_text("黑中盘胜")
        spectator.goto(f"{live_server.url}/events/{ev}/standings")
        rows = spectator.locator("table.data tbody tr")
        expect(rows).to_have_count(2)
        winner = "龙队" if (score == "4:0") == (home_team(live_server, ev) == "龙队") else "虎队"
        expect(rows.first.locator("td").nth(1)).to_have_text(winner)
        expect(rows.first.locator("td").nth(7)).to_have_text("4")
        screenshot(spectator, f"team-live-standings-{device}", tmp_path)
    finally:
        for p in (black, white, spectator):
            p.context.close()
