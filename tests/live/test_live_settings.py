"""The event's setting for a long disconnection in live play (issue #11): on the settings page
in Chinese, a bad value refused beside its field with what was typed kept, a good one saved and
shown on the referee console; it may change after round 1 (it decides no game)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import (  # noqa: F401  (the fixtures)
    ADMIN_PASSWORD,
    api_login,
    client,
    csrf,
)
from weiqi.services import event_admin, tournament
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.details import details_form

LOCAL = Actor.local()


def test_the_disconnection_setting_is_refused_beside_its_field_then_saved(
    client: TestClient,  # noqa: F811
    database: Database,
) -> None:
    settings = event_admin.settings_from_form({"system": "swiss", "rounds": "3"})
    ev = create_event(database, LOCAL, "网络赛", settings).id
    event_admin.import_players(database, LOCAL, ev, "name,rank\n甲,1d\n乙,2d\n丙,3d\n丁,4d\n")
    event_admin.pair_next_round(database, LOCAL, ev)  # after round 1: still editable
    api_login(client, "admin", ADMIN_PASSWORD)
    page = client.get(f"/events/{ev}/settings", headers={"Accept-Language": "zh-CN"})
    assert page.status_code == 200 and "网络对局：棋手断线多少秒后提醒裁判" in page.text
    info = tournament.tournament_info(database, ev)
    form = {
        **event_admin.settings_form(info.settings),
        **details_form(info.details),
        "name": "网络赛",
        "csrf_token": csrf(client),
    }
    bad = client.post(f"/events/{ev}/settings", data={**form, "disconnect_alert": "5000"})
    assert bad.status_code == 422
    assert 'id="error-disconnect_alert"' in bad.text and "须在0到3600之间" in bad.text
    assert 'name="disconnect_alert" type="number" inputmode="numeric" value="5000"' in bad.text
    good = client.post(f"/events/{ev}/settings", data={**form, "disconnect_alert": "90"})
    assert good.status_code == 200, good.text
    assert tournament.tournament_info(database, ev).settings.disconnect_alert == 90
    console = client.get(f"/events/{ev}/rounds/1/referee")
    assert "棋手断线90秒及以上时在此提醒裁判" in console.text
    cleared = client.post(f"/events/{ev}/settings", data={**form, "disconnect_alert": ""})
    assert cleared.status_code == 200
    assert tournament.tournament_info(database, ev).settings.disconnect_alert is None
