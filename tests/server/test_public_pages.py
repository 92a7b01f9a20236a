"""The public pages of an event through the real app: standings with the event's tie-break
columns, crosstable cells, rounds, a player's games, CSV that parses back to the same table,
and the JSON API (R-RANK-RR, R-RANK-SWISS, R-SCORE-IND-1)."""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import served
from tests.server.public_pages import (
    LOCAL,
    csv_rows,
    html_tables,
    play_round,
    publish,
    round_robin_with_draw_and_withdrawal,
    small_swiss,
    stronger_wins,
    team_round_robin,
)
from weiqi.i18n import translations
from weiqi.server.public_tables import TIEBREAK_NAMES
from weiqi.services import public
from weiqi.services.events import create_event
from weiqi.services.tournament import (
    import_players,
    pair_round,
    record_result,
    withdraw_player,
)
from weiqi.store.database import Database
from weiqi.tournament.settings import EventSettings, System
from weiqi.tournament.standings import TIEBREAKS

EN = {"Accept-Language": "en"}
ZH = translations("zh_CN").gettext  # for words other pages share (单位 or 俱乐部 …)


@pytest.fixture
def db(tmp_path: Path, sqlite_template: Path) -> Iterator[Database]:
    """A migrated SQLite database (the pages' logic does not depend on the engine; one test
    below runs on PostgreSQL too)."""
    path = tmp_path / "public.sqlite3"
    shutil.copyfile(sqlite_template, path)
    database = Database(f"sqlite:///{path}")
    yield database
    database.dispose()


@pytest.fixture
def web(db: Database) -> Iterator[TestClient]:
    with served(db) as c:
        yield c


def table_of(client: TestClient, url: str, **kw: object) -> list[list[str]]:
    response = client.get(url, **kw)  # type: ignore[arg-type]
    assert response.status_code == 200, response.text
    tables = html_tables(response.text)
    assert len(tables) == 1
    return tables[0]


# -- standings ------------------------------------------------------------------------------


def test_r_rank_rr_standings_show_sb_then_warnings_with_shared_places(
    db: Database, web: TestClient
) -> None:
    """R-RANK-RR: a round robin ranks by points, then 胜者小分 (SB), then warnings; a draw gives
    half the opponent's points to SB; equal after every tie-break shares the place."""
    ev = round_robin_with_draw_and_withdrawal(db)
    page = web.get(f"/events/{ev}/standings")
    assert (
        '<abbr title="SB · 所胜对手的积分之和，加所和对手积分的一半">胜者小分</abbr>' in page.text
    )
    rows = html_tables(page.text)[0]
    assert rows[0] == ["名次", "姓名", "段位", ZH("Club"), "积分", "胜者小分", "警告次数", "备注"]
    # by hand: 王伟 beat 钱五 (2), 孙六 (0), 赵四 (4) and drew 张三 (7 / 2): SB 9.5
    assert rows[1:] == [
        ["1", "李明", "5段", "北京", "10", "20", "0", ""],
        ["并列2", "王伟", "4段", "上海", "7", "9.5", "0", ""],
        ["并列2", "张三", "3段", "北京", "7", "9.5", "0", ""],
        ["4", "赵四", "2段", "广州", "4", "2", "0", ""],
        ["5", "钱五", "1段", "上海", "2", "0", "0", ""],
        ["6", "孙六", "1级", "广州", "0", "0", "0", "第3轮后退赛"],
    ]
    english = table_of(web, f"/events/{ev}/standings", headers=EN)
    assert english[0] == ["Place", "Name", "Rank", "Club", "Points", "SB", "WARN", "Note"]
    assert english[2][0] == "2="


def test_r_rank_rr_a_warning_breaks_the_tie(db: Database, web: TestClient) -> None:
    """R-RANK-RR: equal points and SB — fewer warnings (警告次数) ranks first."""
    from weiqi.services.tournament import add_warning

    ev = round_robin_with_draw_and_withdrawal(db)
    add_warning(db, LOCAL, ev, "王伟")
    rows = table_of(web, f"/events/{ev}/standings")
    assert [r[:2] + r[5:7] for r in rows[2:4]] == [
        ["2", "张三", "9.5", "0"],
        ["3", "王伟", "9.5", "1"],
    ]


@pytest.mark.parametrize(("resolution", "note"), [("lot", "抽签"), ("playoff", "加赛")])
def test_r_playoff_ties_without_shared_places_are_marked(
    db: Database, web: TestClient, resolution: str, note: str
) -> None:
    """R-PLAYOFF: an event without shared places marks a tie decided by lot, or a tie that a
    playoff must decide."""
    settings = EventSettings(
        system=System.ROUND_ROBIN,
        shared_places=False,
        tie_resolution=resolution,  # type: ignore[arg-type]
    )
    ev = create_event(db, LOCAL, "不并列", settings)
    import_players(db, LOCAL, ev.id, "name\nA\nB\n")
    play_round(db, ev.id, lambda _n, _b, _w: "0")
    rows = table_of(web, f"/events/{ev.id}/standings")
    assert [r[-1] for r in rows[1:]] == [note, note]
    if resolution == "lot":
        assert [r[0] for r in rows[1:]] == ["1", "2"]
    api = web.get(f"/api/events/{ev.id}/standings").json()
    assert {r[f"{'by_lot' if resolution == 'lot' else 'playoff'}"] for r in api["rows"]} == {True}


def test_a_knockout_ranks_by_how_far_players_came_without_tiebreak_columns(
    db: Database, web: TestClient
) -> None:
    ev = create_event(db, LOCAL, "淘汰赛", EventSettings(system=System.KNOCKOUT))
    import_players(db, LOCAL, ev.id, "name,rank\nA,5d\nB,4d\nC,3d\nD,2d\n")
    for _ in range(2):
        play_round(db, ev.id, stronger_wins(["A", "B", "C", "D"]))
    rows = table_of(web, f"/events/{ev.id}/standings")
    assert rows[0] == ["名次", "姓名", "段位", "积分", "备注"]
    assert [r[:2] for r in rows[1:]] == [["1", "A"], ["2", "B"], ["并列3", "C"], ["并列3", "D"]]
    assert web.get(f"/api/events/{ev.id}/standings").json()["tiebreaks"] == []


def test_the_columns_follow_the_events_own_tiebreak_order(db: Database, web: TestClient) -> None:
    settings = EventSettings(system=System.SWISS, rounds=3, tiebreaks=("SOSOS", "SB", "CUSS"))
    ev = create_event(db, LOCAL, "自定", settings)
    import_players(db, LOCAL, ev.id, "name\nA\nB\nC\nD\n")
    play_round(db, ev.id, stronger_wins(["A", "B", "C", "D"]))
    header = table_of(web, f"/events/{ev.id}/standings")[0]
    assert header[4:7] == ["对手分之和", "胜者小分", "累进分"]
    api = web.get(f"/api/events/{ev.id}/standings").json()
    assert [t["code"] for t in api["tiebreaks"]] == ["SOSOS", "SB", "CUSS"]
    assert list(api["rows"][0]["tiebreaks"]) == ["SOSOS", "SB", "CUSS"]


def test_r_rank_swiss_standings_rank_by_points_then_sos(db: Database, web: TestClient) -> None:
    """R-RANK-SWISS (method B): points, then 对手分 (SOS) computed here from the published
    results, then warnings."""
    ev = small_swiss(db, players=9, rounds=3)
    points: dict[str, int] = {}
    opponents: dict[str, list[str]] = {}
    for n in (1, 2, 3):
        rnd = web.get(f"/api/events/{ev}/rounds/{n}").json()
        for b in rnd["pairings"]:
            black, white = b["black_player"]["name"], b["white_player"]["name"]
            won = "black" if b["result"].startswith("B") else "white"
            for me, opp, color in ((black, white, "black"), (white, black, "white")):
                points[me] = points.get(me, 0) + (2 if won == color else 0)
                opponents.setdefault(me, []).append(opp)
        for p in rnd["bye_players"]:
            points[p["name"]] = points.get(p["name"], 0) + rnd["bye_points"]
    sos = {p: sum(points[o] for o in opponents.get(p, [])) for p in points}
    rows = table_of(web, f"/events/{ev}/standings")
    assert rows[0] == ["名次", "姓名", "段位", "积分", "对手分", "警告次数", "备注"]
    shown = [(r[1], int(r[3]), int(r[4])) for r in rows[1:]]
    assert shown == [(p, points[p], sos[p]) for p, _, _ in shown]
    keys = [(pts, s) for _, pts, s in shown]
    assert keys == sorted(keys, reverse=True)
    for above, below in itertools.pairwise(rows[1:]):
        if above[3:5] == below[3:5]:
            assert above[0] == below[0] and above[0].startswith("并列")
    cross = table_of(web, f"/events/{ev}/crosstable")
    byes = [(r[2], n) for r in cross[1:] for n, cell in enumerate(r[4:7], 1) if cell == "轮空"]
    assert sorted(n for _, n in byes) == [1, 2, 3]  # one bye a round, each to another player
    assert len({name for name, _ in byes}) == 3


def test_r_rank_swiss_method_a_ranks_by_total_score(db: Database, web: TestClient) -> None:
    """R-RANK-SWISS (A): 总得分 = points + SOS / (top score / 2) − rounds, ranked before
    points; ties then by warnings."""
    from fractions import Fraction

    ev = small_swiss(db, players=6, rounds=3, method="A")
    api = web.get(f"/api/events/{ev}/crosstable").json()
    points = {r["row"]: r["points"] for r in api["rows"]}
    rows = table_of(web, f"/events/{ev}/standings")
    assert rows[0] == ["名次", "姓名", "段位", "积分", "总得分", "警告次数", "备注"]
    totals = []
    for row, r in zip(rows[1:], api["rows"], strict=True):
        sos = sum(points[c["opponent"]] for c in r["cells"] if c["opponent"])
        total = r["points"] + Fraction(sos, 6 // 2) - 3  # top score 2 × 3 rounds
        assert row[4] == f"{float(total):.2f}".rstrip("0").rstrip("."), row
        totals.append(total)
    assert totals == sorted(totals, reverse=True)


# -- crosstable, rounds, players -------------------------------------------------------------


def test_crosstable_cells_name_the_opponents_row_color_result_and_forfeits(
    db: Database, web: TestClient
) -> None:
    ev = round_robin_with_draw_and_withdrawal(db)
    rows = table_of(web, f"/events/{ev}/crosstable")
    assert rows[0] == [
        "序号",
        "名次",
        "姓名",
        "段位",
        "1",
        "2",
        "3",
        "4",
        "5",
        "积分",
        "胜者小分",
        "警告次数",
    ]
    cells = {r[2]: r[4:9] for r in rows[1:]}
    assert cells["李明"] == ["6b+", "2b+", "3w+", "4b+", "5w+"]
    assert cells["王伟"] == ["5b+", "1w−", "6b+", "3b=", "4w+"]
    assert cells["张三"] == ["4b+", "5w+", "1b−", "2w=", "6+!"]  # 孙六 had withdrawn
    assert cells["孙六"] == ["1w−", "4b−", "2w−", "5−!", "3−!"]
    for r in rows[1:]:  # every game appears from both sides, mirrored
        for n, cell in enumerate(r[4:9]):
            other = rows[int(cell.rstrip("+=−!bw"))][4 + n]
            assert other.rstrip("+=−!bw") == r[0]
            assert {cell[-1], other[-1]} in ({"+", "−"}, {"="}, {"!"})


def test_an_early_withdrawal_cancels_the_results_in_brackets(db: Database, web: TestClient) -> None:
    """R-WD-1: fewer than half the rounds played — the results are cancelled, the player has
    no place, the crosstable keeps the games in brackets."""
    ev = create_event(db, LOCAL, "循环", EventSettings(system=System.ROUND_ROBIN))
    import_players(db, LOCAL, ev.id, "name\nA\nB\nC\nD\n")
    play_round(db, ev.id, stronger_wins(["A", "B", "C", "D"]))
    withdraw_player(db, LOCAL, ev.id, "D")
    rows = table_of(web, f"/events/{ev.id}/crosstable")
    d = next(r for r in rows if r[2] == "D")
    assert d[1] == "—" and d[4].startswith("(") and d[4].endswith(")")
    page = web.get(f"/events/{ev.id}/standings").text
    assert "中途退赛、成绩取消：D" in page
    rows = html_tables(page)[0][1:]
    assert rows[0][1] == "B"  # A's win against D no longer counts
    assert sorted(r[1] for r in rows) == ["A", "B", "C"]


def test_r_score_ind_1_a_players_games_and_running_score(db: Database, web: TestClient) -> None:
    """R-SCORE-IND-1: a win scores 2, a draw 1, a loss 0, a forfeit win 2; the running score
    adds them up round by round."""
    ev = round_robin_with_draw_and_withdrawal(db)
    zhang = next(r for r in public.standings_read(db, ev).rows if r.player.name == "张三").player
    rows = table_of(web, f"/events/{ev}/players/{zhang.id}")
    assert rows[0] == [
        "轮次",
        "台次",
        "执色",
        "对手",
        "段位",
        ZH("Handicap / komi"),
        "结果",
        "得分",
        "累计积分",
    ]
    got = [(r[2], r[3], r[6], r[7], r[8]) for r in rows[1:]]
    assert got == [
        ("黑方", "赵四", "黑中盘胜", "2", "2"),
        ("白方", "钱五", "白中盘胜", "2", "4"),
        ("黑方", "李明", "白中盘胜", "0", "4"),
        ("白方", "王伟", "和棋", "1", "5"),
        ("黑方", "孙六", "黑不战胜", "2", "7"),
    ]
    assert all(r[5] == "贴3¾子" for r in rows[1:])


def test_a_mcmahon_players_running_score_ends_at_the_standings_points(
    db: Database, web: TestClient
) -> None:
    from weiqi.tournament.ranks import Rank

    settings = EventSettings(system=System.MCMAHON, rounds=2, mcmahon_bar=Rank.parse("3d"))
    ev = create_event(db, LOCAL, "麦克马洪", settings)
    import_players(db, LOCAL, ev.id, "name,rank\nA,5d\nB,4d\nC,1d\nD,2k\n")
    for _ in range(2):
        play_round(db, ev.id, stronger_wins(["A", "B", "C", "D"]))
    api = web.get(f"/api/events/{ev.id}/standings").json()
    for r in api["rows"]:
        card = web.get(f"/api/events/{ev.id}/players/{r['player']['id']}").json()
        assert card["points"] == r["points"] == card["games"][-1]["running"]


def test_a_round_shows_boards_ranks_results_and_the_bye(db: Database, web: TestClient) -> None:
    ev = small_swiss(db, players=9, rounds=2)
    page = web.get(f"/events/{ev}/rounds/1")
    assert f'<a href="/events/{ev}/rounds/1/boards/1" title="本台对局">1</a>' in page.text
    assert web.get(f"/events/{ev}/rounds/1/boards/1").status_code == 200  # the game page
    rows = table_of(web, f"/events/{ev}/rounds/1?sgf=true")
    assert rows[0] == ["台次", "黑方", "段位", "白方", "段位", ZH("Handicap / komi"), "结果", "SGF"]
    assert {r[6] for r in rows[1:5]} <= {"黑胜3又3/4子", "白中盘胜"}
    assert {(r[6], r[7]) for r in rows[1:5]} <= {("黑胜3又3/4子", "B+7.5"), ("白中盘胜", "W+R")}
    assert rows[5][1:2] + rows[5][6:7] == ["P09", "轮空（得2分）"]
    english = table_of(web, f"/events/{ev}/rounds/1", headers=EN)
    assert english[0][-1] == "Result" and english[1][5] == "komi 3¾"
    assert {r[6] for r in english[1:5]} <= {
        "Black wins by 3 3/4 stones",
        "White wins by resignation",
    }


def test_handicap_games_say_rang_xian_and_stones(db: Database) -> None:
    from weiqi.server.public_tables import handicap_text

    _ = translations("zh_CN").gettext
    from fractions import Fraction

    assert handicap_text(1, Fraction(0), _) == "让先"
    assert handicap_text(3, Fraction(0), _) == "让3子"
    assert handicap_text(0, Fraction(15, 4), _) == "贴3¾子"


def test_the_overview_says_the_rules_in_words_and_marks_the_current_round(
    db: Database, web: TestClient
) -> None:
    ev = small_swiss(db, players=8, rounds=9, played=2)
    rnd = pair_round(db, LOCAL, ev)
    publish(db, ev, rnd.number)
    record_result(db, LOCAL, ev, rnd.number, 1, "B+R")  # round 3 still in play
    page = web.get(f"/events/{ev}").text
    for words in (
        "积分编排制 9轮",
        "贴3¾子",
        "胜2分 和1分 负0分",
        "轮空得2分",
        "名次相同时依次比较：对手分、警告次数",
    ):
        assert words in page, words
    assert 'class="round-link current"' in page and ">3</a>" in page
    rows = html_tables(page)[0]
    assert rows[3] == ["第3轮", "4", "1 / 4", "进行中"]
    assert '<tr class="current">' in page
    assert "积分领先" in page and page.count('<li><span class="leader-place">') == 5
    english = web.get(f"/events/{ev}", headers=EN).text
    assert "Swiss system, 9 rounds" in english and "komi 3¾" in english
    api = web.get(f"/api/events/{ev}/overview").json()
    assert api["current_round"] == 3 and api["system_zh"] == "积分编排制"
    assert api["settings"]["komi"] == "15/4"


# -- CSV and JSON ---------------------------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, EN], ids=["zh", "en"])
def test_every_csv_export_parses_back_to_the_table_on_the_page(
    db: Database, web: TestClient, headers: dict[str, str]
) -> None:
    ev = round_robin_with_draw_and_withdrawal(db)
    for path in ("standings", "crosstable", "rounds/4", "players/3"):
        url = f"/events/{ev}/{path}"
        response = web.get(url, params={"format": "csv"}, headers=headers)
        assert response.headers["content-type"] == "text/csv; charset=utf-8"
        assert response.content.startswith(b"\xef\xbb\xbf")  # Excel reads it as UTF-8
        assert "attachment" in response.headers["content-disposition"]
        assert csv_rows(response.text) == table_of(web, url, headers=headers), path


def test_the_standings_json_matches_the_page(db: Database, web: TestClient) -> None:
    ev = round_robin_with_draw_and_withdrawal(db)
    api = web.get(f"/api/events/{ev}/standings").json()
    assert api["rounds"] == 5
    assert api["tiebreaks"][0] == {"code": "SB", "zh": "胜者小分", "en": "Sonneborn-Berger"}
    page = table_of(web, f"/events/{ev}/standings")[1:]
    as_json = [
        [("并列" if r["shared"] else "") + str(r["place"]), r["player"]["name"], str(r["points"])]
        + [f"{v:g}" for v in r["tiebreaks"].values()]
        for r in api["rows"]
    ]
    assert as_json == [r[:1] + r[1:2] + r[4:7] for r in page]
    cross = web.get(f"/api/events/{ev}/crosstable").json()
    assert [c["text"] for c in cross["rows"][2]["cells"]] == ["4b+", "5w+", "1b−", "2w=", "6+!"]
    player = web.get(f"/api/events/{ev}/players/{cross['rows'][2]['player']['id']}").json()
    assert [g["running"] for g in player["games"]] == [2, 4, 4, 5, 7]
    assert player["games"][3]["result"] == {"code": "0", "sgf": "0", "zh": "和棋", "en": "Draw"}


def test_unknown_events_rounds_and_players_are_404(db: Database, web: TestClient) -> None:
    ev = small_swiss(db, players=4, rounds=3, played=1)
    for url in (
        "/events/999/standings",
        f"/events/{ev}/rounds/2",
        f"/events/{ev}/players/999",
        "/api/events/999/crosstable",
        f"/api/events/{ev}/rounds/0",
    ):
        assert web.get(url).status_code == 404, url
    assert web.get(f"/api/events/{ev}/rounds/2").json()["error"] == "not_found"
    assert web.get(f"/events/{ev}/standings?format=xls").status_code == 422


def test_r_org_1_a_round_is_public_once_published(db: Database, web: TestClient) -> None:
    """R-ORG-1: the chief referee supervises the publication — a paired round stays off the
    public pages, JSON and CSV until it is published."""
    ev = small_swiss(db, players=4, rounds=3, played=1)
    rnd = pair_round(db, LOCAL, ev)
    record_result(db, LOCAL, ev, rnd.number, 1, "B+R")
    assert web.get(f"/events/{ev}/rounds/2").status_code == 404
    assert web.get(f"/api/events/{ev}/rounds/2").status_code == 404
    assert web.get(f"/api/events/{ev}/overview").json()["current_round"] == 1
    assert web.get(f"/api/events/{ev}/standings").json()["rounds"] == 1
    assert len(csv_rows(web.get(f"/events/{ev}/crosstable?format=csv").text)[0]) == 4 + 1 + 1 + 2
    publish(db, ev, 2)
    assert web.get(f"/events/{ev}/rounds/2").status_code == 200
    assert web.get(f"/api/events/{ev}/overview").json()["current_round"] == 2


def test_organisers_find_their_dashboard_from_the_public_pages(client: TestClient) -> None:
    from tests.server.conftest import ADMIN_PASSWORD, api_login

    ev = small_swiss(client.app.state.db, players=4, rounds=3, played=1)  # type: ignore[attr-defined]
    assert f'href="/events/{ev}/manage"' not in client.get(f"/events/{ev}/standings").text
    api_login(client, "admin", ADMIN_PASSWORD)
    assert f'href="/events/{ev}/manage"' in client.get(f"/events/{ev}/standings").text
    assert f'href="/events/{ev}/manage"' in client.get(f"/events/{ev}").text


def test_an_unpublished_round_stays_off_every_public_page(
    db: Database, web: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one check of publication hides the round, and the standings leave it out."""
    ev = small_swiss(db, players=4, rounds=3, played=2)
    monkeypatch.setattr(public, "round_is_public", lambda row: row.number < 2)
    assert web.get(f"/events/{ev}/rounds/2").status_code == 404
    assert web.get(f"/api/events/{ev}/standings").json()["rounds"] == 1
    assert len(table_of(web, f"/events/{ev}/crosstable")[0]) == 4 + 1 + 1 + 2
    assert "第1轮后名次" in web.get(f"/events/{ev}/standings").text


def test_an_event_without_rounds_has_empty_public_pages(db: Database, web: TestClient) -> None:
    ev = create_event(db, LOCAL, "新赛事", EventSettings(system=System.ROUND_ROBIN))
    assert "尚无公布的轮次" in web.get(f"/events/{ev.id}").text
    assert "暂无内容" in web.get(f"/events/{ev.id}/crosstable").text


def test_the_public_reads_are_documented_in_openapi(web: TestClient) -> None:
    paths = web.get("/openapi.json").json()["paths"]
    for path in ("overview", "rounds/{number}", "standings", "crosstable", "players/{player_id}"):
        assert "get" in paths[f"/api/events/{{event_id}}/{path}"], path


def test_the_catalogue_names_systems_and_tiebreaks_as_the_rules_do() -> None:
    zh = translations("zh_CN").gettext
    for code, msgid in TIEBREAK_NAMES.items():
        assert zh(msgid) == TIEBREAKS[code].zh, code
    for system in System:
        assert zh(system.en) == system.zh, system


def test_r_rank_rr_the_same_reads_on_sqlite_and_postgresql(client: TestClient) -> None:
    """End to end on both databases: an event built through the services, read back as
    pages, CSV and JSON (``client`` runs on SQLite and on PostgreSQL)."""
    db: Database = client.app.state.db  # type: ignore[attr-defined]
    ev = round_robin_with_draw_and_withdrawal(db)
    api = client.get(f"/api/events/{ev}/standings").json()
    assert [(r["place"], r["player"]["name"], r["tiebreaks"]["SB"]) for r in api["rows"][:3]] == [
        (1, "李明", 20.0),
        (2, "王伟", 9.5),
        (2, "张三", 9.5),
    ]
    csv_table = csv_rows(client.get(f"/events/{ev}/crosstable?format=csv").text)
    assert csv_table == table_of(client, f"/events/{ev}/crosstable")
    assert csv_table[1][4:9] == ["6b+", "2b+", "3w+", "4b+", "5w+"]


# -- team events ----------------------------------------------------------------------------


def test_r_rank_team_the_team_table_by_match_points_game_points_and_boards(
    db: Database, web: TestClient
) -> None:
    """R-SCORE-TEAM-1 / R-RANK-TEAM: a board won scores 2 game points, drawn 1; a match won
    2 match points; the table ranks by match points, game points, board 1, board 2 …"""
    ev = team_round_robin(db)
    assert web.get(f"/events/{ev}", follow_redirects=False).headers["location"] == (
        f"/events/{ev}/standings"
    )
    rows = table_of(web, f"/events/{ev}/standings")
    assert rows[0] == [
        "名次", "队名", "场次", "胜", "和", "负", "场分", "局分", "第1台", "第2台", "第3台"
    ]  # fmt: skip
    for r in rows[1:]:  # 2 per board won, 1 per board drawn; every match has a winner
        assert int(r[7]) == sum(int(b) for b in r[8:11])
        assert int(r[6]) == 2 * int(r[3]) + int(r[4])
    keys = [tuple(int(v) for v in (r[6], r[7], r[8], r[9], r[10])) for r in rows[1:]]
    assert keys == sorted(keys, reverse=True)
    assert rows[2][0] == rows[3][0] == "并列2"  # equal on every key: a shared place
    csv_table = csv_rows(web.get(f"/events/{ev}/standings?format=csv").text)
    assert csv_table == rows


def test_a_team_round_shows_each_boards_players_and_results_once_revealed(
    db: Database, web: TestClient
) -> None:
    ev = team_round_robin(db)
    rows = table_of(web, f"/events/{ev}/rounds/1")
    assert rows[0] == ["对阵", "台次", "主队", "执色", "客队", "结果", "局分"]
    first = rows[1:4]
    assert [r[5] for r in first] == ["黑中盘胜", "白中盘胜", "和棋"]
    assert first[0][0].count(" – ") == 1 and first[0][6] in ("5:1", "1:5")
    sealed = table_of(web, f"/events/{ev}/rounds/3")
    assert {r[5] for r in sealed[1:]} == {"出场名单未公开"}  # lineups stay secret
    assert csv_rows(web.get(f"/events/{ev}/rounds/1?format=csv").text) == rows


def test_a_league_season_shows_every_divisions_table(db: Database, web: TestClient) -> None:
    """R-RANK-TEAM on a league: each division's table, top division first, CSV per division."""
    from weiqi.league.season import SeasonSettings
    from weiqi.services.league import create_season

    def roster(clubs: str) -> str:
        rows = [f"{c}队,{c}队{i},{8 - i}d" for c in clubs for i in (1, 2, 3)]
        return "team,name,rank\n" + "\n".join(rows)

    settings = SeasonSettings(boards=2, min_roster=2, max_roster=3, promoted=1, relegated=1)
    season = create_season(
        db, LOCAL, "2026赛季", [("甲", roster("ABCD")), ("乙", roster("EF"))], settings,
        start=date(2026, 3, 7),
    )  # fmt: skip
    page = web.get(f"/leagues/{season.id}")
    assert page.status_code == 200
    assert page.text.index("甲级") < page.text.index("乙级")
    tables = html_tables(page.text)
    assert [len(t) - 1 for t in tables] == [4, 2]
    assert tables[0][0][:3] == ["名次", "队名", "场次"]
    second = web.get(f"/leagues/{season.id}", params={"format": "csv", "division": "乙"})
    assert csv_rows(second.text) == tables[1]
    assert web.get(f"/leagues/{season.id}?format=csv&division=丙").status_code == 404
