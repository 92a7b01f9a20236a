"""The voice clock's server side: the plan compiled for clock.js, the setting form and its
errors, and the replay API (the browser tests are in test_voice_clock_browser.py)."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import csrf
from weiqi.clock import TimeControl, schedule
from weiqi.server.app import create_app
from weiqi.server.voice_clock import PRESETS, plan, replay_log, settings_from_form
from weiqi.store.database import Database


@pytest.fixture(scope="module")
def client(sqlite_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app for the module: the clock reads and stores nothing, so one database will do."""
    path = tmp_path_factory.mktemp("clock") / "weiqi.sqlite3"
    shutil.copyfile(sqlite_template, path)
    db = Database(f"sqlite:///{path}")
    with TestClient(create_app(db, secret_key="clock")) as c:
        yield c
    db.dispose()


def clock_data(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="clock-data">(.*?)</script>', html)
    assert found, "no clock data in the page"
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def field_errors(html: str) -> dict[str, str]:
    return dict(re.findall(r'class="field-error" id="error-(\w+)" role="alert">([^<]*)<', html))


def replay(client: TestClient, tc: str, events: list[dict[str, Any]]) -> Any:
    response = client.post(
        "/api/clock/replay",
        json={"tc": tc, "events": events},
        headers={"X-CSRF-Token": csrf(client)},
    )
    return response


# -- the plan --------------------------------------------------------------------------------


def test_r_time_3_plan_carries_the_clock_modules_call_outs_for_every_period() -> None:
    """R-TIME-3: the page speaks exactly weiqi.clock.schedule's calls, per periods left."""
    tc = TimeControl.parse("1m+3x30s")
    p = plan(tc, "zh_CN")
    assert sorted(p["callouts"]) == ["1", "2", "3"]
    for left in (1, 2, 3):
        expected = [(round(c.at * 1000), c.zh, c.en) for c in schedule(30, left)]
        assert [(c["at_ms"], c["zh"], c["en"]) for c in p["callouts"][str(left)]] == expected
    assert [c["zh"] for c in p["callouts"]["1"]][-10:] == [str(k) for k in range(1, 11)]
    assert p["callouts"]["2"][-1]["zh"] == "30秒，还剩1次"
    assert p["initial"] == {"main": 60000, "periods": 3, "period": 0, "moves": 0, "used": 0}
    assert (p["speech_lang"], p["outcome"]) == ("zh-CN", {"B": "白超时胜", "W": "黑超时胜"})
    english = plan(tc, "en")
    assert english["speech_lang"] == "en-US" and english["outcome"]["B"] == "White wins on time"


def test_plan_of_every_preset_and_system() -> None:
    for preset in PRESETS:
        p = plan(preset.tc, "zh_CN")
        assert TimeControl.parse(p["settings"]) == preset.tc
        assert (p["callouts"] != {}) == (preset.tc.system.value == "byo_yomi")
    mpp = plan(TimeControl.parse("15/10m"), "zh_CN")
    assert (mpp["initial"]["period"], mpp["moves"], mpp["carry_over"]) == (600_000, 15, True)
    assert plan(TimeControl.parse("10m+5s/move"), "en")["increment_ms"] == 5000


# -- the page and its form -------------------------------------------------------------------


def test_setting_page_offers_the_presets_in_chinese(client: TestClient) -> None:
    page = client.get("/clock")
    assert page.status_code == 200
    for text in ("语音计时钟", "60分钟＋5次1分钟读秒（全国赛）", "30秒×3", "包干 90分钟"):
        assert text in page.text
    assert "定时限步 15步/10分钟" in page.text and "费舍尔制 10分钟＋每手5秒" in page.text
    assert 'href="/clock?tc=60m%20incl%205x60s"' in page.text
    assert 'href="/clock"' in client.get("/").text  # the nav link


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.key)
def test_each_preset_opens_the_clock_with_its_plan(client: TestClient, preset: Any) -> None:
    page = client.get("/clock", params={"tc": preset.settings})
    assert page.status_code == 200
    data = clock_data(page.text)
    assert data["plan"] == plan(preset.tc, "zh_CN")
    assert data["simulate"] is False and data["messages"]["B"] == "黑方"
    assert '<script type="module" src="/static/clock-page.js">' in page.text


def test_simulate_flag_reaches_the_page(client: TestClient) -> None:
    page = client.get("/clock", params={"tc": "3x30s", "simulate": "1"})
    assert clock_data(page.text)["simulate"] is True and "模拟时间" in page.text


def test_free_form_redirects_to_the_canonical_setting(client: TestClient) -> None:
    form = {"system": "byo_yomi", "main_time": "60m", "periods": "5", "period_time": "1m"}
    chinese = client.get("/clock", params={**form, "included": "on"}, follow_redirects=False)
    assert chinese.status_code == 303 and chinese.headers["location"] == "/clock?tc=55m%2B5x60s"
    plus = client.get("/clock", params={**form, "simulate": "1"}, follow_redirects=False)
    assert plus.headers["location"] == "/clock?tc=1h%2B5x60s&simulate=1"
    mpp = {"system": "moves_per_period", "main_time": "", "moves": "15", "period_time": "10m"}
    canadian = client.get("/clock", params=mpp, follow_redirects=False)
    assert canadian.headers["location"] == "/clock?tc=15%2F10m+canadian"


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ({"system": "byo_yomi", "main_time": "1m", "periods": "0", "period_time": "30s"},
         "periods", "读秒至少一次"),
        ({"system": "byo_yomi", "main_time": "1m", "periods": "3", "period_time": "0"},
         "period_time", "须大于0秒"),
        ({"system": "byo_yomi", "main_time": "一小时", "periods": "3", "period_time": "30"},
         "main_time", "须为时长，如 90m、1h30m、30s 或 45"),
        ({"system": "byo_yomi", "main_time": "4m", "periods": "5", "period_time": "60",
          "included": "on"}, "periods", "5 × 60秒 = 300秒，超过了240秒的时限"),
        ({"system": "byo_yomi", "main_time": "1m", "periods": "x", "period_time": "30"},
         "periods", "须为整数"),
        ({"system": "absolute", "main_time": ""}, "main_time", "包干用时制下必须大于0"),
        ({"system": "fischer", "main_time": "10m", "increment": "0"},
         "increment", "须大于0（否则请用包干用时制）"),
        ({"system": "moves_per_period", "moves": "0", "period_time": "10m"},
         "moves", "每节至少一手"),
        ({"system": "sundial"}, "system", "未知计时方式"),
    ],
)  # fmt: skip
def test_invalid_free_form_names_the_field(
    client: TestClient, form: dict[str, str], field: str, message: str
) -> None:
    """The form is validated by TimeControl itself; its error lands on the field it names."""
    page = client.get("/clock", params=form)
    assert page.status_code == 422
    errors = field_errors(page.text)
    assert list(errors) == [field] and message in errors[field]
    if field != "system":  # the form comes back as it was sent
        assert f'name="{field}" value="{form.get(field, "")}"' in page.text
    assert "clock-data" not in page.text


def test_invalid_settings_string_names_the_setting_field(client: TestClient) -> None:
    page = client.get("/clock", params={"tc": "5x0s"})
    assert page.status_code == 422
    assert field_errors(page.text) == {"tc": "每次时长：须大于0秒"}
    english = client.get("/clock", params={"tc": "tomorrow"}, headers={"Accept-Language": "en"})
    assert english.status_code == 422
    assert "time control: cannot read the duration" in field_errors(english.text)["tc"]


def test_edit_fills_the_form_with_the_setting(client: TestClient) -> None:
    page = client.get("/clock", params={"tc": "60m+15/10m canadian", "edit": "1"})
    assert page.status_code == 200 and "clock-data" not in page.text
    assert '<option value="moves_per_period" selected>' in page.text
    assert 'name="moves" value="15"' in page.text and 'name="period_time" value="10m"' in page.text
    values = {"system": "moves_per_period", "main_time": "1h", "moves": "15", "period_time": "10m"}
    assert settings_from_form(values).format() == "1h+15/10m canadian"


def test_english_page(client: TestClient) -> None:
    page = client.get("/clock", params={"tc": "3x30s"}, headers={"Accept-Language": "en"})
    data = clock_data(page.text)
    assert data["plan"]["lang"] == "en" and data["messages"]["log_pause"] == "Paused"
    assert "3 × 30 s byo-yomi" in page.text


# -- the replay API ---------------------------------------------------------------------------


def test_r_time_3_replay_lists_the_call_outs_with_their_move(client: TestClient) -> None:
    """R-TIME-3: main time, then the byo-yomi calls of each period; the last period counts."""
    events = [
        {"op": "start", "now": 0},
        {"op": "press", "now": 10, "color": "B"},
        {"op": "advance", "now": 10 + 60 + 90},
    ]
    body = replay(client, "1m+3x30s", events).json()
    calls = [(c["move"], c["color"], c["offset_ms"], c["zh"]) for c in body["callouts"]]
    assert calls[:6] == [
        (1, "W", 75_000, "15秒"),
        (1, "W", 80_000, "20秒"),
        (1, "W", 85_000, "25秒"),
        (1, "W", 88_000, "28秒"),
        (1, "W", 89_000, "29秒"),
        (1, "W", 90_000, "30秒，还剩2次"),
    ]
    assert [c[3] for c in calls[-12:]] == ["15秒", "20秒", *[str(k) for k in range(1, 11)]]
    assert calls[-1][2] == 150_000
    assert body["result"] == {"code": "B+T", "zh": "黑超时胜", "en": "Black wins on time"}
    assert body["state"]["flag_at"] == 160_000 and body["state"]["flagged"] == "W"


def test_r_time_2_a_move_under_a_period_costs_nothing(client: TestClient) -> None:
    """R-TIME-2: 29 s in byo-yomi keeps every period, 65 s costs two of 30 s."""
    events = [
        {"op": "start", "now": 0},
        {"op": "press", "now": 60 + 29, "color": "B"},
        {"op": "press", "now": 90, "color": "W"},
        {"op": "press", "now": 90 + 65, "color": "B"},
    ]
    body = replay(client, "1m+3x30s", events).json()
    assert body["state"]["black"]["periods"] == 1
    assert body["remaining"]["B"]["periods"] == 1 and body["remaining"]["W"]["main"] == 59.0


def test_r_time_2_forfeited_turn_on_request(client: TestClient) -> None:
    """R-TIME-2: at the flagged player's request the run-out is a pass; the last period stays."""
    events = [
        {"op": "start", "now": 0},
        {"op": "advance", "now": 30},
        {"op": "forfeit_turn", "now": 40},
    ]
    body = replay(client, "1x30s pass", events).json()
    assert body["result"] is None and body["state"]["to_move"] == "W"
    assert body["state"]["black"]["periods"] == 1 and body["state"]["moves"] == 1
    refused = replay(client, "1x30s", events)
    assert refused.status_code == 409 and refused.json()["error"] == "conflict"


def test_r_time_1_absolute_time_runs_out(client: TestClient) -> None:
    """R-TIME-1: absolute time, running out loses; stopping the clocks ends the count."""
    flagged = replay(client, "90m", [{"op": "start", "now": 0}, {"op": "advance", "now": 5400}])
    assert flagged.json()["result"]["zh"] == "白超时胜"
    events = [{"op": "start", "now": 0}, {"op": "stop", "now": 100}, {"op": "advance", "now": 9e3}]
    stopped = replay(client, "90m", events).json()
    assert stopped["state"]["status"] == "stopped" and stopped["result"] is None


def test_r_time_4_moves_per_period_with_carry_over(client: TestClient) -> None:
    """R-TIME-4: two moves in 30 s; what is left of a period carries into the next."""
    events = [{"op": "start", "now": 0}]
    t = 0.0
    for k in range(4):
        t += 10
        events.append({"op": "press", "now": t, "color": "B" if k % 2 == 0 else "W"})
    body = replay(client, "2/30s", events).json()
    assert (
        body["state"]["black"]["period"] == 10_000 + 30_000 and body["state"]["black"]["moves"] == 2
    )


def test_r_time_5_a_pause_is_not_counted(client: TestClient) -> None:
    """R-TIME-5: the pause's 10 minutes cost nobody anything."""
    events = [
        {"op": "start", "now": 0},
        {"op": "pause", "now": 20},
        {"op": "resume", "now": 620},
        {"op": "press", "now": 630, "color": "B"},
    ]
    body = replay(client, "3x30s", events).json()
    assert body["state"]["black"]["periods"] == 2  # 30 s of moving time: one period
    log = [e for e in events if e["op"] != "press"] + [{"op": "advance", "now": 628}]
    calls = [c["zh"] for c in replay_log(TimeControl.parse("3x30s"), log)["callouts"]]
    assert calls == ["15秒", "20秒", "25秒", "28秒"]


def test_replay_errors_name_what_is_wrong(client: TestClient) -> None:
    bad_tc = replay(client, "5x0s", [])
    assert bad_tc.status_code == 422
    assert bad_tc.json() == {
        "error": "invalid_setting",
        "code": "%(field)s: %(reason)s",
        "args": {
            "field": {"code": "period_time", "args": {}},
            "reason": {"code": "must be more than 0 seconds", "args": {}},
        },
        "message": "period_time: must be more than 0 seconds",
    }
    no_time = replay(client, "3x30s", [{"op": "start"}])
    assert no_time.status_code == 422 and "event 1" in no_time.json()["message"]
    wrong_turn = replay(client, "3x30s", [{"op": "start", "now": 0}, {"op": "press", "now": 1,
                                                                     "color": "W"}])  # fmt: skip
    assert wrong_turn.status_code == 409
    backwards = replay(client, "3x30s", [{"op": "start", "now": 5}, {"op": "pause", "now": 1}])
    assert backwards.status_code == 422 and "backwards" in backwards.json()["message"]
    color = replay(client, "3x30s", [{"op": "start", "now": 0, "color": "red"}])
    assert color.status_code == 422


def test_plan_api(client: TestClient) -> None:
    body = client.get("/api/clock/plan", params={"tc": "3x30s"}).json()
    assert body == plan(TimeControl.parse("3x30s"), "zh_CN")
    assert client.get("/api/clock/plan", params={"tc": "3x"}).status_code == 422


def test_r_time_5_sealed_move_through_the_replay(client: TestClient) -> None:
    """R-TIME-5: the sealer's clock runs until sealing; nothing runs until resumption."""
    events = [
        {"op": "start", "now": 0},
        {"op": "seal", "now": 20, "color": "B"},
        {"op": "advance", "now": 3000},
    ]
    sealed = replay(client, "1m+3x30s", events).json()
    assert sealed["state"]["status"] == "paused" and sealed["state"]["sealed"] is True
    events += [{"op": "resume", "now": 3600}, {"op": "advance", "now": 3605}]
    body = replay(client, "1m+3x30s", events).json()
    assert body["state"]["sealed"] is False and body["state"]["to_move"] == "W"
    assert (body["remaining"]["B"]["main"], body["remaining"]["W"]["main"]) == (40.0, 55.0)
