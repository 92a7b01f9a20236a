"""A whole 9×9 tournament game in the game room, from the first move to the standings (issue #11's
acceptance test; R-PLAY-1, R-KO-1, R-END-1, R-END-3, R-END-4), in Chinese, on a desktop and on
a phone (where each move is confirmed).

Two players, each in their own Chromium context, and a spectator who is not logged in (a third
context, in the room before the first move). The game, replayed with the rules core when it was
written (every move legal, every refusal and capture as asserted):

- walls: Black builds column E, White column F, with a ko shape around E5/F5;
- an illegal move: Black clicks White's stone at F4 — refused, 此处已有棋子;
- a ko: Black pushes in at F5, White takes it at E5 (the capture counters show 1 for White);
  Black's immediate retake at F5 is refused with the ko's reason; Black plays a ko threat at F8,
  White answers at G8, and now Black's retake at F5 is a move (capture for Black);
- White invades the lower left (A2 B2 C2 D2 D1, a straight three of eye space A1 B1 C1) and
  Black encloses it; White passes, Black passes;
- counting: the server's proposal marks no stone dead (the corner group is uncertain); Black
  taps the corner group to mark it dead and accepts; White disputes, so play resumes with Black,
  the claimant, moving first (R-END-3): Black B1 (the vital point), White C1, Black A1 takes the
  six white stones (Black has taken 7); White passes, Black passes;
- counting again: nothing is proposed dead; White accepts, Black accepts the same marking: the
  count, 黑胜3又3/4子 (Black 48 points, komi 3¾ stones), is the result on both players' pages
  and the spectator's; both players confirm it, and nothing can be played any more (R-END-4).

The spectator's move list showed each of the 38 moves (passes included) as it was played; the
referee reads the result on the round's result sheet and the event's public standings give the
winner the game's 2 points.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.live.conftest import PASSWORD, online_event
from tests.live.test_live_browser import VIEWPORTS, _context_page
from tests.server.conftest import LiveServer, screenshot
from tests.server.result_pages import log_in_as
from weiqi.rules.vertex import parse_vertex
from weiqi.server.board import layout

pytestmark = pytest.mark.browser

SIZE = 9
YOUR_MOVE = "轮到你落子"
OCCUPIED = "第11手（F4）：此处已有棋子"
KO = "第13手（F5）：打劫：须先在别处应一手，不能立即提回"
RESULT = "黑胜3又3/4子"
CORNER = ("A2", "B2", "C2", "D2", "D1")  # White's invasion: alive if White plays B1 first

#: (colour, vertex) in the order played; the refusals and the ending are in the test
WALLS = [("B", "E3"), ("W", "F3"), ("B", "E7"), ("W", "F7"), ("B", "D5"), ("W", "G5"),
         ("B", "E4"), ("W", "F4"), ("B", "E6"), ("W", "F6")]  # fmt: skip
ENCLOSE = [("W", "F2"), ("B", "E5"), ("W", "D2"), ("B", "E2"), ("W", "C2"), ("B", "D3"),
           ("W", "B2"), ("B", "C3"), ("W", "A2"), ("B", "B3"), ("W", "D1"), ("B", "A3"),
           ("W", "F1"), ("B", "E1"), ("W", "G9"), ("B", "F9")]  # fmt: skip
PLAY_OUT = [("B", "B1"), ("W", "C1"), ("B", "A1")]


def _click(page: Page, vertex: str) -> None:
    """Click the board at ``vertex``: the page's board SVG is the server's layout
    (``weiqi.server.board.layout``) scaled to the width shown, and the room's script finds the
    point nearest to a click (live.js ``vertexAt``); a stone or an empty point alike."""
    board = page.locator("#live-board svg.board")
    board.scroll_into_view_if_needed()
    box = board.bounding_box()
    assert box is not None
    geo = layout(SIZE)
    p = parse_vertex(vertex, SIZE)
    assert p is not None
    x, y = geo.xy(p)
    scale = box["width"] / geo.width
    board.click(position={"x": x * scale, "y": y * scale})


def _play(page: Page, vertex: str, phone: bool) -> None:
    """A player's move at ``vertex``, once their page knows it is their turn (a click before is
    no move); on the phone, tap then confirm (the room asks to, on a narrow screen)."""
    expect(page.locator("#live-status")).to_have_text(YOUR_MOVE)
    _click(page, vertex)
    if phone:
        expect(page.locator(f"svg.board circle.pending[data-vertex={vertex}]")).to_have_count(1)
        confirm = page.locator("#live-confirm")
        expect(confirm).to_be_visible()
        confirm.click()


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_r_ko_1_r_end_3_r_end_4_a_whole_game_with_ko_dispute_and_count_to_the_standings(
    browser: Browser, live_server: LiveServer, tmp_path: Path, device: str
) -> None:
    """R-PLAY-1, R-KO-1, R-END-1, R-END-3, R-END-4: the game of the module's docstring, played
    by clicks; the spectator's page follows every move; the count is the result on the pages,
    on the round's sheet and in the standings."""
    viewport = VIEWPORTS[device]
    phone = device == "phone"
    ev = online_event(live_server, f"full-{device}")
    black, white, spectator = (_context_page(browser, viewport) for _ in range(3))
    pages = {"B": black, "W": white}
    everyone = (black, white, spectator)
    played: list[tuple[str, str | None]] = []  # what the move lists must show, in order

    def shown(count: int) -> None:
        # every page lists every move (the spectator's as each move is played)
        for p in everyone:
            expect(p.locator("#live-moves li")).to_have_count(count)

    def play(color: str, vertex: str) -> None:
        _play(pages[color], vertex, phone)
        played.append((color, vertex))
        stone = "black" if color == "B" else "white"
        expect(
            spectator.locator(f"svg.board circle.stone.{stone}[data-vertex={vertex}]")
        ).to_have_count(1)
        shown(len(played))

    def pass_(color: str) -> None:
        page = pages[color]
        expect(page.locator("#live-status")).to_have_text(YOUR_MOVE)
        page.locator("#live-pass").click()
        played.append((color, None))
        shown(len(played))

    def refused(color: str, vertex: str, reason: str) -> None:
        page = pages[color]
        _play(page, vertex, phone)
        expect(page.locator("#live-message")).to_have_text(reason)
        expect(page.locator("#live-status")).to_have_text(YOUR_MOVE)  # still theirs to play
        shown(len(played))

    def captures(black_took: int, white_took: int) -> None:
        for p in everyone:
            expect(p.locator("#captures-B")).to_have_text(str(black_took))
            expect(p.locator("#captures-W")).to_have_text(str(white_took))

    try:
        standings = spectator.context.new_page()  # read once before the game: no stale copy
        before = standings.goto(f"{live_server.url}/events/{ev.id}/standings")
        assert before is not None and before.ok
        log_in_as(black, live_server.url, ev.players["B"], PASSWORD)
        log_in_as(white, live_server.url, ev.players["W"], PASSWORD)
        for p in everyone:
            p.goto(f"{live_server.url}{ev.room()}/play")
        expect(spectator.locator("#live-you")).to_have_text("你正在观战")
        expect(spectator.locator("#live-controls")).to_have_count(0)
        expect(white.locator("#live-status")).to_have_text("轮黑方落子")  # R-PLAY-1

        for color, vertex in WALLS:
            play(color, vertex)
        refused("B", "F4", OCCUPIED)  # White's stone is there
        expect(black.locator("svg.board circle.stone.white[data-vertex=F4]")).to_have_count(1)

        # the ko (R-KO-1): taken, the immediate retake refused, a threat, then the retake
        play("B", "F5")
        play("W", "E5")
        expect(spectator.locator("svg.board circle.stone[data-vertex=F5]")).to_have_count(0)
        captures(0, 1)
        refused("B", "F5", KO)
        play("B", "F8")  # the ko threat …
        expect(black.locator("#live-message")).to_be_hidden()  # the refusal is old news
        play("W", "G8")  # … answered
        play("B", "F5")  # the retake is a move now
        expect(spectator.locator("svg.board circle.stone[data-vertex=E5]")).to_have_count(0)
        captures(1, 1)
        for color, vertex in ENCLOSE:
            play(color, vertex)

        # pass, pass: counting; the server proposes no dead stone
        pass_("W")
        pass_("B")
        for p in everyone:
            expect(p.locator("#live-status")).to_contain_text("数子")
        expect(black.locator("#live-status")).to_contain_text("系统建议的死子")
        expect(black.locator("svg.board circle.stone.dead")).to_have_count(0)
        # Black says the corner group is dead: a tap marks the whole group, then accept
        _click(black, "B2")
        for vertex in CORNER:
            dead = black.locator(f"svg.board circle.stone.white.dead[data-vertex={vertex}]")
            expect(dead).to_have_count(1)
        expect(black.locator("svg.board circle.stone.dead")).to_have_count(len(CORNER))
        black.locator("#live-accept").click()
        expect(white.locator("#live-status")).to_contain_text("黑方标记的死子")
        expect(white.locator("svg.board circle.stone.white.dead")).to_have_count(len(CORNER))
        # White says they live: a dispute, and play resumes with Black, the claimant (R-END-3)
        expect(white.locator("#live-dispute")).to_be_enabled()
        white.locator("#live-dispute").click()
        expect(black.locator("#live-status")).to_have_text(YOUR_MOVE)
        expect(white.locator("#live-status")).to_have_text("轮黑方落子")
        expect(spectator.locator("#live-status")).to_have_text("轮黑方落子")
        expect(white.locator("#live-counting")).to_be_hidden()
        for color, vertex in PLAY_OUT:
            play(color, vertex)
        for vertex in (*CORNER, "C1"):  # the play-out settled it: taken off
            expect(
                spectator.locator(f"svg.board circle.stone[data-vertex={vertex}]")
            ).to_have_count(0)
        captures(7, 1)
        pass_("W")
        pass_("B")

        # counting again: both accept the same marking (no stone dead), and that is the count
        expect(white.locator("#live-status")).to_contain_text("系统建议的死子")
        expect(white.locator("svg.board circle.stone.dead")).to_have_count(0)
        white.locator("#live-accept").click()
        expect(black.locator("#live-status")).to_contain_text("白方标记的死子")
        black.locator("#live-accept").click()
        for p in everyone:
            expect(p.locator("#live-status")).to_have_text(f"对局结束：{RESULT}")
        for p in (black, white):
            p.locator("#live-confirm-result").click()
            expect(p.locator("#live-confirm-result")).to_be_hidden()
            # R-END-4: once ended, play never restarts
            expect(p.locator("#live-pass")).to_be_disabled()
            expect(p.locator("#live-resign")).to_be_disabled()
            expect(p.locator("#live-counting")).to_be_hidden()

        # the spectator's page showed every move, passes included, in order
        assert len(played) == 38
        names = {"B": "黑方", "W": "白方"}
        listed = spectator.locator("#live-moves li").all_inner_texts()
        assert listed == [f"{names[c]} {v or '停着'}" for c, v in played]
        # the list keeps the latest move in view: it scrolls down, never sideways out of sight
        moves = spectator.locator("#live-moves")
        moves.scroll_into_view_if_needed()  # the page, not the list
        expect(moves.locator("li").last).to_be_in_viewport()
        assert moves.evaluate("el => el.scrollWidth <= el.clientWidth")
        screenshot(spectator, f"live-full-game-{device}", tmp_path)

        referee = _context_page(browser, viewport)
        try:
            log_in_as(referee, live_server.url, ev.referee, PASSWORD)
            referee.goto(f"{live_server.url}/events/{ev.id}/rounds/1/results")
            expect(referee.locator("#board-1 td.result")).to_contain_text(RESULT)
        finally:
            referee.context.close()
        standings.goto(f"{live_server.url}/events/{ev.id}/standings")
        rows = standings.locator("table.standings tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.first).to_contain_text(ev.names["B"])
        expect(rows.first.locator("td.points")).to_have_text("2")
        expect(rows.nth(1)).to_contain_text(ev.names["W"])
        expect(rows.nth(1).locator("td.points")).to_have_text("0")
        screenshot(standings, f"live-full-game-standings-{device}", tmp_path)
    finally:
        for p in everyone:
            p.context.close()
