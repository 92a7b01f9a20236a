"""Issue #13, "Pairing": a round robin's whole schedule (轮次表) published in advance, the N×N
round-robin grid (循环赛对阵表) and a knockout's bracket, as read models (``services.public``)
and as pages through the real app."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import served
from tests.server.public_pages import (
    LOCAL,
    html_tables,
    play_round,
    round_robin_with_draw_and_withdrawal,
    stronger_wins,
)
from weiqi.errors import Conflict, NotFound
from weiqi.services import event_admin, public
from weiqi.services.events import create_event
from weiqi.services.tournament import (
    import_players,
    pair_round,
    withdraw_player,
)
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System
from weiqi.tournament.systems.round_robin import berger_schedule

ZH = {"Accept-Language": "zh-CN"}


@pytest.fixture
def db(tmp_path: Path, sqlite_template: Path) -> Iterator[Database]:
    path = tmp_path / "views.sqlite3"
    shutil.copyfile(sqlite_template, path)
    database = Database(f"sqlite:///{path}")
    yield database
    database.dispose()


@pytest.fixture
def web(db: Database) -> Iterator[TestClient]:
    with served(db) as c:
        yield c


def _round_robin(db: Database, players: int, system: System = System.ROUND_ROBIN) -> int:
    ev = create_event(db, LOCAL, "循环赛", EventSettings(system=system))
    rows = "\n".join(f"棋手{i:02d},{max(1, 9 - i)}d" for i in range(1, players + 1))
    import_players(db, LOCAL, ev.id, "name,rank\n" + rows)
    return ev.id


def _knockout(db: Database, players: int, system: System = System.KNOCKOUT) -> int:
    ev = create_event(db, LOCAL, "淘汰赛", EventSettings(system=system))
    rows = "\n".join(f"P{i},{max(1, 9 - i)}d" for i in range(1, players + 1))
    import_players(db, LOCAL, ev.id, "name,rank\n" + rows)
    return ev.id


# -- schedule -------------------------------------------------------------------------------


def test_schedule_is_hidden_until_published_then_lists_every_round_by_the_berger_table(
    db: Database, web: TestClient
) -> None:
    """Unpublished, the public sees that it is not published and no name of the schedule;
    published, every round of a 5-player round robin (5 rounds, a bye each) in advance, the
    boards black/white as the Berger table gives them."""
    ev = _round_robin(db, 5)
    assert public.schedule(db, ev) == public.Schedule("循环赛", False, ())
    page = web.get(f"/events/{ev}/schedule", headers=ZH)
    assert page.status_code == 200
    assert "轮次表尚未公布。" in page.text
    assert "schedule-round" not in page.text and "棋手02" not in page.text

    event_admin.publish_schedule(db, LOCAL, ev)
    data = public.schedule(db, ev)
    table = berger_schedule(5, 1)
    assert data.published and len(data.rounds) == len(table) == 5
    for rnd, pairs in zip(data.rounds, table, strict=True):
        assert not rnd.paired and len(rnd.boards) == 2 and len(rnd.byes) == 1
        real = [(b, w) for b, w in pairs if 5 not in (b, w)]
        names = [(f"棋手{b + 1:02d}", f"棋手{w + 1:02d}") for b, w in real]
        assert [(x.black.name, x.white.name) for x in rnd.boards] == names
    # every player rests exactly once
    assert sorted(r.byes[0].name for r in data.rounds) == [f"棋手{i:02d}" for i in range(1, 6)]
    tables = html_tables(web.get(f"/events/{ev}/schedule", headers=ZH).text)
    assert len(tables) == 5 and tables[0][0] == ["台次", "黑方", "白方", "结果"]
    assert tables[0][-1][1:] == [data.rounds[0].byes[0].name, "轮空"]


def test_schedule_shows_a_paired_public_round_as_paired_with_results(db: Database) -> None:
    """A round already paired and public shows its real pairing and results; an unpublished
    paired round stays the table's (its results do not leak)."""
    ev = _round_robin(db, 4)
    event_admin.publish_schedule(db, LOCAL, ev)
    play_round(db, ev, stronger_wins([f"棋手{i:02d}" for i in range(1, 5)]))
    pair_round(db, LOCAL, ev)  # round 2 paired, not published
    data = public.schedule(db, ev)
    assert [r.paired for r in data.rounds] == [True, False, False]
    assert all(b.result is not None for b in data.rounds[0].boards)
    assert all(b.result is None for r in data.rounds[1:] for b in r.boards)


def test_schedule_publish_is_kept_by_a_settings_change_and_refused_for_a_swiss(
    db: Database,
) -> None:
    """A settings save does not unpublish the schedule; only a round robin has one; hiding it
    again makes it private again."""
    ev = _round_robin(db, 4)
    event_admin.publish_schedule(db, LOCAL, ev)
    event_admin.update_settings(db, LOCAL, ev, "循环赛", EventSettings(System.ROUND_ROBIN))
    assert public.schedule(db, ev).published
    event_admin.publish_schedule(db, LOCAL, ev, False)
    assert not public.schedule(db, ev).published
    swiss = create_event(db, LOCAL, "积分赛", EventSettings(System.SWISS, rounds=3))
    with pytest.raises(Conflict):
        event_admin.publish_schedule(db, LOCAL, swiss.id)
    with pytest.raises(NotFound):
        public.schedule(db, swiss.id)


# -- grid -----------------------------------------------------------------------------------


def test_grid_is_n_by_n_in_seeding_order_with_results_from_the_row_side(
    db: Database, web: TestClient
) -> None:
    """The 6-player round robin: rows and columns in seeding order, the diagonal blacked out,
    each cell the row player's result (胜/和/负, or the event's points), totals and place from
    the standings; the two cells of a game mirror each other."""
    ev = round_robin_with_draw_and_withdrawal(db)
    grid = public.grid(db, ev)
    names = [r.player.name for r in grid.rows]
    assert names == ["李明", "王伟", "张三", "赵四", "钱五", "孙六"]
    for i, row in enumerate(grid.rows):
        assert row.cells[i] is None
        for j, cell in enumerate(row.cells):
            if i == j:
                continue
            assert cell is not None and len(cell) == 1
            other = grid.rows[j].cells[i]
            assert other is not None
            mirror = {"W": "L", "L": "W", "D": "D", "N": "N"}
            assert other[0].outcome == mirror[cell[0].outcome or "N"]
    wang, zhang = grid.rows[1], grid.rows[2]
    assert wang.cells[2] is not None and wang.cells[2][0].outcome == "D"
    assert wang.cells[2][0].points == 1
    standings = {r.player.name: r for r in public.standings_read(db, ev).rows}
    for r in grid.rows:
        assert (r.points, r.place) == (
            standings[r.player.name].points,
            standings[r.player.name].place,
        )
    assert zhang.place == wang.place == 2 and zhang.shared

    rows = html_tables(web.get(f"/events/{ev}/grid", headers=ZH).text)[0]
    assert rows[0] == ["序号", "姓名", "1", "2", "3", "4", "5", "6", "积分", "名次"]
    assert rows[1] == ["1", "李明", "", "胜", "胜", "胜", "胜", "胜", "10", "1"]
    assert rows[2][:5] == ["2", "王伟", "负", "", "和"]
    points = html_tables(web.get(f"/events/{ev}/grid?cells=points", headers=ZH).text)[0]
    assert points[2][:5] == ["2", "王伟", "0", "", "1"]
    standings_page = web.get(f"/events/{ev}/standings", headers=ZH).text
    assert f'href="/events/{ev}/grid"' in standings_page


def test_grid_of_a_double_round_robin_holds_both_games_of_a_pair(db: Database) -> None:
    """A double round robin's cell holds the game of each cycle played so far."""
    ev = _round_robin(db, 3, System.DOUBLE_ROUND_ROBIN)
    order = [f"棋手{i:02d}" for i in range(1, 4)]
    for _ in range(6):
        play_round(db, ev, stronger_wins(order))
    grid = public.grid(db, ev)
    cell = grid.rows[0].cells[1]
    assert cell is not None and [g.outcome for g in cell] == ["W", "W"]
    assert grid.rows[0].points == 8


def test_grid_refuses_an_event_that_is_not_a_round_robin(db: Database, web: TestClient) -> None:
    ev = _knockout(db, 4)
    with pytest.raises(NotFound):
        public.grid(db, ev)
    assert web.get(f"/events/{ev}/grid").status_code == 404


# -- bracket --------------------------------------------------------------------------------


def test_bracket_of_six_shows_byes_winners_advancing_and_the_champion(
    db: Database, web: TestClient
) -> None:
    """Six players: a bracket of 8, the top two seeds with byes; after round 1 the winners
    stand in the semi-finals; after the final the champion is named."""
    ev = _knockout(db, 6)
    order = [f"P{i}" for i in range(1, 7)]
    data = public.bracket(db, ev)
    [section] = data.sections
    assert [len(c.matches) for c in section.columns] == [4, 2, 1]
    first = section.columns[0].matches
    assert [m.bye for m in first] == [True, False, True, False]
    assert first[0].sides[0].player is not None and first[0].sides[0].won
    play_round(db, ev, stronger_wins(order))
    semis = public.bracket(db, ev).sections[0].columns[1].matches
    assert [tuple(s.player.name if s.player else None for s in m.sides) for m in semis] == [
        ("P1", "P4"),
        ("P2", "P3"),
    ]
    play_round(db, ev, stronger_wins(order))
    play_round(db, ev, stronger_wins(order))
    done = public.bracket(db, ev)
    assert done.champion is not None and done.champion.name == "P1"
    page = web.get(f"/events/{ev}/bracket", headers=ZH).text
    assert "半决赛" in page and "决赛" in page and "冠军" in page and "轮空" in page
    assert f'href="/events/{ev}/bracket"' in web.get(f"/events/{ev}", headers=ZH).text


def test_bracket_of_a_double_elimination_has_both_brackets_and_a_grand_final(
    db: Database, web: TestClient
) -> None:
    ev = _knockout(db, 4, System.DOUBLE_ELIMINATION)
    data = public.bracket(db, ev)
    assert data.double and [s.key for s in data.sections] == ["WB", "LB", "GF"]
    page = web.get(f"/events/{ev}/bracket", headers=ZH).text
    assert "胜者组" in page and "败者组" in page and "总决赛" in page


def test_bracket_refuses_a_round_robin(db: Database, web: TestClient) -> None:
    ev = _round_robin(db, 4)
    with pytest.raises(NotFound):
        public.bracket(db, ev)
    assert web.get(f"/events/{ev}/bracket").status_code == 404


@pytest.mark.parametrize("players", [5, 6])
def test_schedule_published_in_advance_is_what_the_rounds_are_paired_as(
    db: Database, players: int
) -> None:
    """The schedule published before round 1 is the pairing every round then gets: the same
    boards, colours and byes (the table is the system's own, not a copy)."""
    ev = _round_robin(db, players)
    event_admin.publish_schedule(db, LOCAL, ev)

    def plan(rnd: public.ScheduleRound) -> tuple[object, ...]:
        boards = tuple((b.board, b.black.id, b.white.id) for b in rnd.boards)
        return boards, tuple(sorted(p.id for p in rnd.byes))

    ahead = [plan(r) for r in public.schedule(db, ev).rounds]
    order = [f"棋手{i:02d}" for i in range(1, players + 1)]
    for _ in ahead:
        play_round(db, ev, stronger_wins(order))
    after = public.schedule(db, ev).rounds
    assert all(r.paired for r in after)
    assert [plan(r) for r in after] == ahead


def test_schedule_marks_a_withdrawn_player_in_the_rounds_still_to_come(
    db: Database, web: TestClient
) -> None:
    """孙六 withdraws after round 3 of the 6-player round robin: the rounds paired show what
    was played, the table's later rounds would name him with his withdrawal."""
    ev = _round_robin(db, 6)
    event_admin.publish_schedule(db, LOCAL, ev)
    order = [f"棋手{i:02d}" for i in range(1, 7)]
    for _ in range(3):
        play_round(db, ev, stronger_wins(order))
    withdraw_player(db, LOCAL, ev, "棋手06")
    text = web.get(f"/events/{ev}/schedule", headers=ZH).text
    assert text.count("第3轮后退赛") == 2  # rounds 4 and 5 still to come
