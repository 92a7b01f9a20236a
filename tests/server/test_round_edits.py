"""Edits by hand of a paired round through the organisers' pages and the JSON API (issue #13,
"Pairing"): two steps on the page (what the edit breaks, then a reason), a rematch refused, a
reason required, the explanation in plain words with its legend."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf
from tests.server.test_event_admin_pages import admin, create
from tests.server.test_event_admin_services import players_csv
from weiqi.services import event_admin, round_edits, tournament
from weiqi.services.actor import Actor
from weiqi.store.database import Database

LOCAL = Actor.local()


def _round_two(database: Database, event_id: int) -> event_admin.RoundDetail:
    event_admin.import_players(database, LOCAL, event_id, players_csv(8))
    first = event_admin.pair_next_round(database, LOCAL, event_id)
    for p in first.pairings:
        tournament.record_result(database, LOCAL, event_id, 1, p.board, "B+R")
    return event_admin.pair_next_round(database, LOCAL, event_id)


def test_the_explanation_is_a_table_of_plain_phrases_with_a_legend(
    client: TestClient, database: Database
) -> None:
    token = admin(client)
    event_id = create(client, token)
    _round_two(database, event_id)
    page = client.get(f"/events/{event_id}/manage/rounds/2").text
    assert 'id="why"' in page and 'id="why-legend"' in page
    assert "每台对阵的依据" in page and "与理想对手的偏差" in page and "降组对阵" in page
    assert '>执黑 1 局、执白 0 局</span><span class="why-line">上局执黑<' in page
    # no run-together codes: neither a colour string nor the English float note
    assert not re.search(r">\s*[BW]{1,3}\s*/\s*[BW]{1,3}\s*<", page)
    assert "float:" not in page and "White down" not in page
    client.cookies.set("lang", "en")
    english = client.get(f"/events/{event_id}/manage/rounds/2").text
    assert "Distance from the ideal opponent" in english and "Black 1, White 0" in english


def test_two_steps_a_rematch_refused_a_reason_required(
    client: TestClient, database: Database
) -> None:
    token = admin(client)
    event_id = create(client, token)
    second = _round_two(database, event_id)
    ids = round_edits.player_ids(database, event_id)
    page = client.get(f"/events/{event_id}/manage/rounds/2").text
    assert 'id="edit-form"' in page and "手动调整对阵" in page
    first = event_admin.round_detail(database, LOCAL, event_id, 1).pairings[0]
    game = next(p for p in second.pairings if first.black in (p.black, p.white))
    seat = game.white if game.black == first.black else game.black
    url = f"/events/{event_id}/manage/rounds/2/edit"
    query = {"kind": "swap", "player": ids[seat], "other": ids[first.white]}
    refused = client.get(url, params=query)
    assert refused.status_code == 200 and 'id="edit-refused"' in refused.text
    assert "积分编排制不允许重复对阵" in refused.text and 'id="confirm-edit"' not in refused.text
    posted = client.post(url, data={**query, "reason": "试试", "csrf_token": token})
    assert posted.status_code == 422 and "积分编排制不允许重复对阵" in posted.text

    # two players of one score group swap: no problem, then a reason is needed
    winners = [p for p in second.pairings if p.board <= 2]
    query = {"kind": "swap", "player": ids[winners[0].white], "other": ids[winners[1].white]}
    shown = client.get(url, params=query).text
    assert 'id="confirm-edit"' in shown and 'id="edit-refused"' not in shown
    blank = client.post(url, data={**query, "reason": " ", "csrf_token": token})
    assert blank.status_code == 422 and "调整对阵须写明理由" in blank.text
    assert 'id="error-reason"' in blank.text and 'id="confirm-edit"' in blank.text
    done = client.post(url, data={**query, "reason": "同单位棋手回避", "csrf_token": token})
    assert done.status_code == 200 and "第 2 轮的对阵已调整。" in done.text
    assert 'id="pairing-edits"' in done.text and "同单位棋手回避" in done.text
    assert f"对调 {winners[0].white} 与 {winners[1].white}" in done.text
    assert "手动调整" in done.text  # the explanation marks the boards changed

    # a bad choice is shown next to its field, never a dead end
    missing = client.get(url, params={"kind": "swap", "player": ids[seat]})
    assert missing.status_code == 422 and 'id="error-other"' in missing.text


def test_the_api_checks_then_applies_an_edit(client: TestClient, database: Database) -> None:
    api_login(client, "admin", ADMIN_PASSWORD)
    h = {"X-CSRF-Token": csrf(client)}
    made = client.post(
        "/api/events/tournaments",
        json={"name": "接口调整", "settings": {"system": "swiss", "rounds": 4}},
        headers=h,
    )
    event_id = made.json()["id"]
    event_admin.import_players(database, LOCAL, event_id, players_csv(8))
    rnd = event_admin.pair_next_round(database, LOCAL, event_id)
    ids = round_edits.player_ids(database, event_id)
    body = {"kind": "table", "player": int(ids[rnd.pairings[3].black]), "board": 1}
    base = f"/api/events/{event_id}/rounds/1/edits"
    check = client.post(f"{base}/check", json=body, headers=h)
    assert check.status_code == 200, check.text
    assert check.json()["refused"] is False and check.json()["changed"] == [1, 4]
    no_reason = client.post(base, json={**body, "reason": ""}, headers=h)
    assert no_reason.status_code == 422 and no_reason.json()["error"] == "invalid_setting"
    assert "states its reason" in no_reason.json()["message"]
    done = client.post(base, json={**body, "reason": "轮椅棋手"}, headers=h)
    assert done.status_code == 201, done.text
    out = done.json()
    assert out["pairings"][0]["black"] == rnd.pairings[3].black
    (edit,) = out["edits"]
    assert edit["reason"] == "轮椅棋手"
    assert edit["change"]["code"] == "move %(a)s to board %(board)s"
    assert out["explanations"][0]["by_hand"] is True
    bad = client.post(f"{base}/check", json={"kind": "shuffle", "player": 1}, headers=h)
    assert bad.status_code == 422


def test_a_handicap_game_says_its_stones_in_the_explanation(
    client: TestClient, database: Database
) -> None:
    token = admin(client)
    event_id = create(client, token, color_policy="handicap")
    event_admin.import_players(database, LOCAL, event_id, players_csv(8))
    event_admin.pair_next_round(database, LOCAL, event_id)
    page = client.get(f"/events/{event_id}/manage/rounds/1").text
    why = page[page.index('id="why"') : page.index('id="why-legend"')]
    assert re.search(r"<li>让 \d 子</li>", why), why
