"""Reusable pieces for tests of the public pages: events built through the services, and
readers that turn a page's table or its CSV back into rows of text.

>>> html_tables('<table><tr><th>名次</th></tr><tr><td> 1 </td></tr></table>')
[[['名次'], ['1']]]
>>> csv_rows("\\ufeff名次,姓名\\r\\n1,李明\\r\\n")
[['名次', '姓名'], ['1', '李明']]
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from typing import TYPE_CHECKING, Literal

from weiqi.league.settings import TeamEventSettings
from weiqi.services.actor import Actor
from weiqi.services.event_admin import publish_round
from weiqi.services.events import create_event
from weiqi.services.server_clock import ManualClock
from weiqi.services.tournament import (
    import_players,
    pair_round,
    record_result,
    show_round,
    withdraw_player,
)
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System

if TYPE_CHECKING:
    from playwright.sync_api import Page

LOCAL = Actor.local()

RR_PLAYERS = (
    "name,rank,club\n李明,5d,北京\n王伟,4d,上海\n张三,3d,北京\n"
    "赵四,2d,广州\n钱五,1d,上海\n孙六,1k,广州\n"
)

Decide = Callable[[int, str, str], str]
"""(round, black, white) → a result code such as ``B+R``."""


def stronger_wins(order: list[str]) -> Decide:
    """The player earlier in ``order`` wins by resignation, with the colour they have."""

    def decide(_round: int, black: str, white: str) -> str:
        return "B+R" if order.index(black) < order.index(white) else "W+R"

    return decide


def publish(db: Database, event_id: int, number: int) -> None:
    """Publish a round: the public pages show a round only once it is published."""
    publish_round(db, LOCAL, event_id, number)


def play_round(db: Database, event_id: int, decide: Decide) -> int:
    """Pair and publish the next round and record every open board's result; returns its
    number."""
    rnd = pair_round(db, LOCAL, event_id)
    publish(db, event_id, rnd.number)
    for p in rnd.pairings:
        if p.result is None:
            record_result(
                db, LOCAL, event_id, rnd.number, p.board, decide(rnd.number, p.black, p.white)
            )
    return rnd.number


def round_robin_with_draw_and_withdrawal(db: Database) -> int:
    """A 6-player round robin (5 rounds): the stronger player (by rank) wins, except one draw
    between 王伟 and 张三; 孙六 withdraws after round 3, so the last two rounds give his
    opponents forfeit wins (R-WD-1: more than half played, his results stand)."""
    ev = create_event(db, LOCAL, "2026年春季循环赛", EventSettings(system=System.ROUND_ROBIN))
    import_players(db, LOCAL, ev.id, RR_PLAYERS)
    order = ["李明", "王伟", "张三", "赵四", "钱五", "孙六"]
    base = stronger_wins(order)

    def decide(number: int, black: str, white: str) -> str:
        if {black, white} == {"王伟", "张三"}:
            return "0"
        return base(number, black, white)

    for number in range(1, 6):
        play_round(db, ev.id, decide)
        if number == 3:
            withdraw_player(db, LOCAL, ev.id, "孙六")
    return ev.id


SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋"
GIVEN = ("明", "伟", "芳", "思远", "子涵", "浩然", "雨桐", "一鸣", "嘉怡", "天宇", "欣然", "志强")


def chinese_names(count: int) -> list[str]:
    """``count`` distinct Chinese names of two or three characters.

    >>> chinese_names(3)
    ['王明', '李伟', '张芳']
    """
    return [SURNAMES[i % len(SURNAMES)] + GIVEN[i % len(GIVEN)] for i in range(count)]


def small_swiss(
    db: Database,
    players: int = 8,
    rounds: int = 3,
    played: int | None = None,
    names: list[str] | None = None,
    title: str = "积分编排赛",
    method: Literal["A", "B"] = "B",
) -> int:
    """A Swiss of ``players`` players named P01… (or ``names``; ranks from 7d down) over
    ``rounds`` rounds; ``played`` rounds (default all) are paired and finished, the stronger
    player winning by count 3¾ stones as Black (B+7.5) or by resignation as White; ``method``
    is the Swiss ranking method (R-RANK-SWISS A: 总得分, B: 对手分)."""
    settings = EventSettings(system=System.SWISS, rounds=rounds, swiss_method=method)
    ev = create_event(db, LOCAL, title, settings)
    names = names or [f"P{i:02d}" for i in range(1, players + 1)]
    ranks = [f"{8 - i}d" if i < 8 else f"{i - 6}k" for i in range(1, players + 1)]
    text = "name,rank\n" + "".join(f"{n},{r}\n" for n, r in zip(names, ranks, strict=True))
    import_players(db, LOCAL, ev.id, text)

    def decide(_round: int, black: str, white: str) -> str:
        return "B+7.5" if names.index(black) < names.index(white) else "W+R"

    for _ in range(rounds if played is None else played):
        play_round(db, ev.id, decide)
    return ev.id


def pairings_of(db: Database, event_id: int, number: int) -> list[tuple[int, str, str, str | None]]:
    return [
        (p.board, p.black, p.white, p.result) for p in show_round(db, event_id, number).pairings
    ]


class _Tables(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.row: list[str] | None = None
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.row is not None and self.cell is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.tables[-1].append(self.row)
            self.row = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def html_tables(html: str) -> list[list[list[str]]]:
    """Every ``<table>`` of a page as rows of cell texts (whitespace collapsed)."""
    parser = _Tables()
    parser.feed(html)
    return parser.tables


def csv_rows(text: str) -> list[list[str]]:
    """A CSV export as rows; it must start with the UTF-8 byte order mark."""
    assert text.startswith("\ufeff"), "the CSV has no byte order mark"
    return list(csv.reader(io.StringIO(text[1:])))


def browser_table(page: Page, selector: str = "table.data") -> list[list[str]]:
    """A public page's table as a real browser shows it (header row first), for Playwright
    tests: ``browser_table(page)[1][1]`` is the leader's name on the standings."""
    rows: list[list[str]] = page.locator(selector).first.evaluate(
        "t => [...t.rows].map(r => [...r.cells].map(c => c.innerText.trim()))"
    )
    return rows


def pdf_pages(pdf: bytes) -> list[tuple[int, int]]:
    """The (width, height) in points of every page of a PDF from Chromium: A4 portrait is
    (595, 842), landscape (842, 595).

    >>> pdf_pages(b"<< /Type /Page /MediaBox [0 0 595.92 842.88] >>")
    [(596, 843)]
    """
    boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf)
    return [(round(float(w)), round(float(h))) for w, h in boxes]


TEAMS = ("北京队", "上海队", "广州队", "深圳队")
T0 = datetime(2026, 5, 1, 8, 0, tzinfo=UTC)


def team_round_robin(db: Database, boards: int = 3, played: int = 2) -> int:
    """A round robin of four teams of ``boards`` players (北京队1 strongest …): ``played``
    rounds with lineups in rank order and results (Black wins board 1, White board 2, the
    rest drawn), and the next round paired with its lineups still sealed."""
    from weiqi.services import teams

    ev = create_event(db, LOCAL, "2026年城市围棋团体赛", TeamEventSettings(boards=boards))
    rows = "".join(f"{t},{t}{i},{8 - i}d\n" for t in TEAMS for i in range(1, boards + 1))
    teams.import_teams(db, LOCAL, ev.id, "team,name,rank\n" + rows)
    for number in range(1, played + 2):
        view = teams.pair_round(db, LOCAL, ev.id, start=T0)
        if number > played:
            break
        for m in view.matches:
            for t in (m.home, m.away):
                lineup = [f"{t}{i}" for i in range(1, boards + 1)]
                teams.submit_lineup(
                    db, LOCAL, ev.id, number, t, lineup, clock=ManualClock(T0 - timedelta(hours=1))
                )
        teams.reveal_round(db, LOCAL, ev.id, number, clock=ManualClock(T0))
        codes = ["B+R", "W+R", *(["0"] * (boards - 2))]
        teams.record_results(
            db, LOCAL, ev.id, number,
            [(m.home, b, code) for m in view.matches for b, code in enumerate(codes, start=1)],
        )  # fmt: skip
    return ev.id
