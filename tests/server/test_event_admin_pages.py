"""The organisers' pages through the TestClient, in Chinese (R-ORG-1, R-FMT-3, R-WD-1)."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf
from tests.server.test_event_admin_services import players_csv
from weiqi.i18n import translations
from weiqi.roles import Role
from weiqi.services import accounts, event_admin, tournament
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament import settings as settings_module
from weiqi.tournament.settings import INDIVIDUAL_SYSTEMS, System

LOCAL = Actor.local()
SWISS_FORM = {
    "name": "2026 俱乐部积分编排赛",
    "system": "swiss",
    "rounds": "5",
    "points_win": "2",
    "points_draw": "1",
    "points_loss": "0",
    "bye_points": "2",
    "komi": "3¾",
    "tiebreaks_default": "on",
    "shared_places": "on",
}


def admin(client: TestClient) -> str:
    api_login(client, "admin", ADMIN_PASSWORD)
    return csrf(client)


def create(client: TestClient, token: str, **changes: str) -> int:
    response = client.post(
        "/events/new", data={**SWISS_FORM, **changes, "csrf_token": token}, follow_redirects=False
    )
    assert response.status_code == 303, response.text
    found = re.fullmatch(r"/events/(\d+)/manage", response.headers["location"])
    assert found
    return int(found.group(1))


def test_r_fmt_3_the_form_offers_every_system_with_the_rules_defaults(
    client: TestClient,
) -> None:
    """R-FMT-3: every system, in Chinese; komi 3¾, 2/1/0 and the rules' tie-breaks preset."""
    admin(client)
    page = client.get("/events/new").text
    for name in (
        "循环制",
        "双循环",
        "淘汰制",
        "双败淘汰",
        "积分编排制",
        "积分编排加淘汰",
        "麦克马洪制",
        "多局决胜制",
    ):
        assert name in page
    assert 'name="komi" value="3¾"' in page
    assert re.search(r'name="points_win"[^>]*value="2"', page)
    assert "胜者小分 (SB)" in page and "对手分 (SOS)" in page


def test_an_invalid_setting_is_shown_next_to_its_field_and_the_input_kept(
    client: TestClient, database: Database
) -> None:
    token = admin(client)
    form = {**SWISS_FORM, "rounds": "0", "name": "保留的名字", "csrf_token": token}
    response = client.post("/events/new", data=form)
    assert response.status_code == 422
    assert 'id="error-rounds"' in response.text and "必须在 1 与 100 之间" in response.text
    assert 'value="保留的名字"' in response.text
    points = client.post("/events/new", data={**form, "rounds": "5", "points_win": "1"})
    assert 'id="error-points_win"' in points.text and "胜 &gt; 和 ≥ 负 ≥ 0" in points.text
    assert client.get("/api/events").json() == []


def test_round_robin_defaults_to_sb(client: TestClient, database: Database) -> None:
    token = admin(client)
    event_id = create(client, token, system="round_robin", rounds="")
    settings = client.get(f"/api/events/{event_id}/settings").json()
    assert settings["tiebreaks"] == ["SB", "WARN"] and settings["settings"]["komi"] == "15/4"


def test_settings_after_round_1_change_only_where_safe(
    client: TestClient, database: Database
) -> None:
    """Issue #13: after round 1 the page shows every field; the safe ones (rounds, tie-breaks)
    still save, a locked one is read-only with its reason, and a form that changes it anyway is
    refused next to the field."""
    token = admin(client)
    event_id = create(client, token)
    page = client.get(f"/events/{event_id}/settings").text
    assert 'value="2026 俱乐部积分编排赛"' in page
    form = {**SWISS_FORM, "rounds": "7", "avoid_same_club": "on", "csrf_token": token}
    saved = client.post(f"/events/{event_id}/settings", data=form, follow_redirects=False)
    assert saved.status_code == 303
    info = client.get(f"/api/events/{event_id}/settings").json()
    assert info["settings"]["rounds"] == 7 and info["settings"]["avoid_same_club"] is True
    event_admin.import_players(database, LOCAL, event_id, players_csv(4))
    event_admin.pair_next_round(database, LOCAL, event_id)
    later = {**form, "rounds": "6", "tiebreaks_default": "", "tiebreak_1": "SOS"}
    later["tiebreak_2"] = "SB"
    saved = client.post(f"/events/{event_id}/settings", data=later, follow_redirects=False)
    assert saved.status_code == 303
    info = client.get(f"/api/events/{event_id}/settings").json()
    assert info["settings"]["rounds"] == 6 and info["tiebreaks"] == ["SOS", "SB"]
    assert "komi" in info["locked"] and "rounds" not in info["locked"]
    refused = client.post(f"/events/{event_id}/settings", data={**later, "komi": "6½"})
    assert refused.status_code == 422
    assert 'id="error-komi"' in refused.text and "已下的对局" in refused.text
    locked = client.get(f"/events/{event_id}/settings").text
    assert 'id="locked-komi"' in locked and 'id="locked-rounds"' not in locked
    assert "保存设置" in locked


def test_csv_import_lists_bad_rows_by_line_and_imports_nothing(
    client: TestClient, database: Database
) -> None:
    token = admin(client)
    event_id = create(client, token)
    bad = players_csv(24).replace("选手03,2d", "选手03,12d")
    files = {"file": ("players.csv", bad.encode(), "text/csv")}
    response = client.post(
        f"/events/{event_id}/manage/players/import", data={"csrf_token": token}, files=files
    )
    assert response.status_code == 422
    assert "未导入任何棋手" in response.text
    assert "第 5 行: 段位 12d：级别必须在 1 到 9 之间" in response.text
    assert event_admin.dashboard(database, LOCAL, event_id).players == ()
    pasted = client.post(
        f"/events/{event_id}/manage/players/import",
        data={"csrf_token": token, "text": players_csv(24)},
    )
    assert "已导入 24 名棋手。" in pasted.text
    assert len(event_admin.dashboard(database, LOCAL, event_id).players) == 24


def test_a_csv_file_saved_by_a_chinese_excel_is_read(
    client: TestClient, database: Database
) -> None:
    """Excel in Chinese saves "CSV" as GB18030."""
    token = admin(client)
    event_id = create(client, token)
    files = {"file": ("报名.csv", players_csv(6).encode("gb18030"), "text/csv")}
    response = client.post(
        f"/events/{event_id}/manage/players/import", data={"csrf_token": token}, files=files
    )
    assert "已导入 6 名棋手。" in response.text and "北京棋院" in response.text


def test_register_a_player_and_see_a_field_error(client: TestClient, database: Database) -> None:
    token = admin(client)
    event_id = create(client, token)
    form = {"csrf_token": token, "name": "李明", "rank": "5段", "club": "北京", "rating": "2400"}
    page = client.post(f"/events/{event_id}/manage/players", data=form).text
    assert "李明 已报名。" in page and "<td>业余5段</td>" in page
    bad = client.post(
        f"/events/{event_id}/manage/players", data={**form, "name": "王芳", "rank": "x"}
    )
    assert bad.status_code == 422 and "段位: 段位 &#39;x&#39;：请写成" in bad.text
    assert 'value="王芳"' in bad.text


def test_pair_show_the_explanation_publish_and_unpair(
    client: TestClient, database: Database
) -> None:
    token = admin(client)
    event_id = create(client, token)
    event_admin.import_players(database, LOCAL, event_id, players_csv(24))
    paired = client.post(f"/events/{event_id}/manage/rounds", data={"csrf_token": token})
    assert paired.url.path == f"/events/{event_id}/manage/rounds/1"
    page = paired.text
    assert "第 1 轮已编排。" in page and "未公布" in page
    # why each pair, in plain words with a legend (issue #13)
    assert page.count('<td class="num">0</td>') >= 12 and "与理想对手的偏差" in page
    assert 'id="why-legend"' in page
    assert 'id="round-totals"' in page and "同俱乐部对局" in page
    assert f'href="/events/{event_id}/rounds/1/boards/1"' in page
    published = client.post(
        f"/events/{event_id}/manage/rounds/1/publish", data={"csrf_token": token}
    ).text
    assert "第 1 轮已公布。" in published and "对公众隐藏" in published
    unpaired = client.post(f"/events/{event_id}/manage/rounds/1/unpair", data={"csrf_token": token})
    assert "第 1 轮编排已撤销。" in unpaired.text and "编排第 1 轮" in unpaired.text


def test_the_pairing_form_takes_the_rounds_start(client: TestClient, database: Database) -> None:
    """The pairing form of an individual event, as a team event's, takes the round's start in
    the event's zone (optional): it is stored with the round and shown on its page."""
    token = admin(client)
    event_id = create(client, token)
    event_admin.import_players(database, LOCAL, event_id, players_csv(4))
    form = client.get(f"/events/{event_id}/manage").text
    assert 'name="start"' in form and "Asia/Shanghai" in form
    client.post(
        f"/events/{event_id}/manage/rounds",
        data={"csrf_token": token, "start": "2026-05-01T09:30"},
    )
    detail = event_admin.round_detail(database, LOCAL, event_id, 1)
    assert detail.starts_at is not None
    assert detail.starts_at.isoformat() == "2026-05-01T01:30:00+00:00"  # 09:30 in Beijing
    assert "2026-05-01 09:30" in client.get(f"/events/{event_id}/manage/rounds/1").text


def test_r_wd_1_withdrawal_explains_its_consequence(client: TestClient, database: Database) -> None:
    """R-WD-1: the dashboard says what a withdrawal means; the flash says what followed."""
    token = admin(client)
    event_id = create(client, token)
    event_admin.import_players(database, LOCAL, event_id, players_csv(8))
    page = client.get(f"/events/{event_id}/manage").text
    assert "赛前退赛：该棋手不参加抽签编排。" in page
    rnd = event_admin.pair_next_round(database, LOCAL, event_id)
    player = next(p for p in event_admin.dashboard(database, LOCAL, event_id).players)
    done = client.post(
        f"/events/{event_id}/manage/players/{player.id}/withdraw", data={"csrf_token": token}
    ).text
    assert f"{player.name} 已退赛。 成绩有效；此后不再编排该棋手。" in done
    assert "第 1 轮后退赛" in done
    assert rnd.number == 1


def test_r_org_1_a_player_may_not_create_or_pair(client: TestClient, database: Database) -> None:
    """R-ORG-1: a player gets 403 on the organisers' pages and nothing changes."""
    event_id = create_event(
        database, LOCAL, "赛事", event_admin.settings_from_form({"system": "swiss", "rounds": "3"})
    ).id
    event_admin.import_players(database, LOCAL, event_id, players_csv(8))
    player = accounts.create_user(database, LOCAL, "player", "quiet tortoise 456")
    accounts.grant_role(database, LOCAL, player.id, event_id, Role.PLAYER)
    api_login(client, "player", "quiet tortoise 456")
    token = csrf(client)
    assert client.get("/events/new").status_code == 403
    refused = client.post("/events/new", data={**SWISS_FORM, "csrf_token": token})
    assert refused.status_code == 403 and "player无权创建赛事" in refused.text
    assert client.get(f"/events/{event_id}/manage").status_code == 403
    assert (
        client.post(f"/events/{event_id}/manage/rounds", data={"csrf_token": token}).status_code
        == 403
    )
    form = {"csrf_token": token, "text": "name\nX\n"}
    assert client.post(f"/events/{event_id}/manage/players/import", data=form).status_code == 403
    board = event_admin.dashboard(database, LOCAL, event_id)
    assert board.rounds == () and len(board.players) == 8
    assert [e["name"] for e in client.get("/api/events").json()] == ["赛事"]


def test_every_system_round_1_page_renders(client: TestClient, database: Database) -> None:
    """R-FMT-3: round 1 of each system shows on the round page (explained or by table)."""
    token = admin(client)
    for system in INDIVIDUAL_SYSTEMS:
        extra = {"system": system.value, "rounds": "3", "name": system.zh}
        if system is System.SWISS_KNOCKOUT:
            extra["elimination_losses"] = "2"
        if system is System.MCMAHON:
            extra["mcmahon_bar"] = "3d"
        event_id = create(client, token, **extra)
        n = 2 if system is System.MATCH else 6
        event_admin.import_players(database, LOCAL, event_id, players_csv(n))
        page = client.post(f"/events/{event_id}/manage/rounds", data={"csrf_token": token})
        assert page.status_code == 200, (system, page.text)
        assert "第 1 轮" in page.text
        dashboard = client.get(f"/events/{event_id}/manage")
        assert dashboard.status_code == 200 and 'id="round-open"' in dashboard.text


def test_the_pages_in_english(client: TestClient, database: Database) -> None:
    token = admin(client)
    event_id = create(client, token)
    event_admin.import_players(database, LOCAL, event_id, players_csv(4))
    client.cookies.set("lang", "en")
    form = client.get("/events/new").text
    assert "<h1>New event</h1>" in form and "Sonneborn-Berger (SB)" in form and "McMahon" in form
    dashboard = client.get(f"/events/{event_id}/manage").text
    assert "Pair round 1" in dashboard and "<td>5d</td>" in dashboard
    page = client.post(f"/events/{event_id}/manage/rounds", data={"csrf_token": token}).text
    assert "Round 1 paired." in page and "Distance from the ideal opponent" in page


def test_a_late_entry_into_a_swiss(client: TestClient, database: Database) -> None:
    token = admin(client)
    event_id = create(client, token)
    event_admin.import_players(database, LOCAL, event_id, players_csv(8))
    event_admin.pair_next_round(database, LOCAL, event_id)
    page = client.get(f"/events/{event_id}/manage").text
    assert "迟到报名的棋手从第 2 轮开始比赛" in page
    form = {"csrf_token": token, "name": "迟到者", "rank": "2d"}
    late = client.post(f"/events/{event_id}/manage/players", data=form).text
    assert "迟到者 已报名。" in late and "第 2 轮起参赛" in late


def test_every_reason_the_core_gives_for_a_setting_is_in_the_catalogue() -> None:
    """A new ``InvalidSetting`` reason in the core must be listed for translation, or the
    settings form would show it in English."""
    source = Path(settings_module.__file__).read_text(encoding="utf-8")
    reasons = set(re.findall(r'InvalidSetting\(\s*"\w+",\s*Msg\("([^"]+)"\)', source))
    zh = translations("zh_CN")
    assert reasons and all(zh.gettext(r) != r for r in reasons), [
        r for r in reasons if zh.gettext(r) == r
    ]


def test_r_rank_rr_the_forms_default_tiebreaks_are_the_servers(client: TestClient) -> None:
    """R-RANK-RR / R-RANK-SWISS (issue #10): the page carries the settings module's table of
    default tie-breaks (a knockout has none) and its script names no tie-break code itself."""
    import json

    admin(client)
    page = client.get("/events/new").text
    found = re.search(r'<script type="application/json" id="default-tiebreaks">(.*?)<', page)
    assert found
    table = json.loads(found.group(1))
    assert table == settings_module.default_tiebreak_table()
    assert table["knockout/B/"] == [] and table["round_robin/B/"] == ["SB", "WARN"]
    sources = re.findall(r'<script type="module" src="([^"]+)"', page)
    assert "/static/event-settings.js" in sources
    script = client.get("/static/event-settings.js").text
    assert "default-tiebreaks" in script and not re.search(r'"(SB|SOS|TOTAL|WARN)"', script)


def test_r_board_1_the_form_sets_the_games_rules(client: TestClient) -> None:
    """R-BOARD-1 / R-KO-2 / R-HCP-2 (issue #10): the settings form sets the board size, the
    cycle policy and the handicap placement the event's games are played under; a bad size is
    shown next to its field in Chinese; the page shows what is stored."""
    token = admin(client)
    bad = client.post("/events/new", data={**SWISS_FORM, "board_size": "30", "csrf_token": token})
    assert bad.status_code == 422
    assert 'id="error-board_size"' in bad.text and "必须在2到25之间" in bad.text
    event_id = create(client, token, board_size="13", cycle="draw", handicap_placement="free")
    stored = client.get(f"/api/events/{event_id}/settings").json()["settings"]
    assert (stored["board_size"], stored["cycle"], stored["handicap_placement"]) == (
        13,
        "draw",
        "free",
    )
    page = client.get(f"/events/{event_id}/settings").text
    assert 'name="board_size" type="number" inputmode="numeric" value="13"' in page
    assert '<option value="draw" selected>' in page and '<option value="free" selected>' in page


def test_saving_the_settings_form_keeps_what_it_does_not_show(
    client: TestClient, database: Database
) -> None:
    """An EGF McMahon event (``weiqi event create --preset egf-mcmahon``) edited on the page
    keeps its EGF rules, which the form does not show; the absent-round points are on it."""
    from weiqi.tournament.ranks import Rank
    from weiqi.tournament.settings import egf_mcmahon

    token = admin(client)
    egf = egf_mcmahon(5, Rank.parse("4d"))
    event = create_event(database, LOCAL, "EGF", egf).id
    page = client.get(f"/events/{event}/settings")
    assert re.search(r'name="absent_points"[^>]*value="1"', page.text)
    form = {**event_admin.settings_form(egf), "name": "EGF", "rounds": "6", "csrf_token": token}
    done = client.post(f"/events/{event}/settings", data=form, follow_redirects=False)
    assert done.status_code == 303, done.text
    saved = tournament.tournament_info(database, event).settings
    assert saved.rounds == 6 and saved.unplayed_sos == "own_start" and saved.sos_handicap
