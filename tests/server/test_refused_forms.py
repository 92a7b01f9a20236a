"""Issue #13, "never a dead-end error page": a form's answer shown with its errors carries the
address of the page it belongs to (``<meta name="page-address">``, put in the address bar by
page.js), so that a reload asks for the page instead of re-POSTing or meeting a 405; the
language switch and the log-in link lead there too."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from tests.server.test_team_pages import FORM, TEAMS_CSV, admin, create, import_csv
from weiqi.services import teams
from weiqi.services.actor import Actor
from weiqi.store.database import Database

LOCAL = Actor.local()


def _address(page: str) -> str | None:
    found = re.search(r'<meta name="page-address" content="([^"]*)">', page)
    return found.group(1).replace("&amp;", "&") if found else None


def test_a_refused_form_names_the_page_address_that_a_get_answers(
    client: TestClient, database: Database
) -> None:
    token = admin(client)
    assert _address(client.get("/events/new?kind=team").text) is None  # a GET page: none
    refused = client.post(
        "/events/new?kind=team", data={**FORM, "boards": "x", "csrf_token": token}
    )
    assert refused.status_code == 422 and _address(refused.text) == "/events/new?kind=team"
    event_id = create(client, token)
    settings = client.post(
        f"/events/{event_id}/settings",
        data={"name": "x", "start_date": "2027-05-03", "end_date": "2027-05-01",
              "csrf_token": token},
    )  # fmt: skip
    assert settings.status_code == 422 and _address(settings.text) == f"/events/{event_id}/settings"
    assert f"?next=/events/{event_id}/settings" in settings.text  # the language switch
    bad_csv = import_csv(client, token, event_id, "队名,姓名\n黑龙,\n")
    assert bad_csv.status_code == 422 and _address(bad_csv.text) == f"/events/{event_id}/manage"
    import_csv(client, token, event_id, TEAMS_CSV)
    teams.pair_round(database, LOCAL, event_id)
    for m in teams.show_round(database, event_id, 1).matches:
        for t in (m.home, m.away):
            teams.submit_lineup(database, LOCAL, event_id, 1, t, [f"{t}1", f"{t}2", f"{t}3"])
    teams.reveal_round(database, LOCAL, event_id, 1)
    empty = client.post(
        f"/events/{event_id}/manage/rounds/1/matches/1/results", data={"csrf_token": token}
    )
    assert empty.status_code == 422 and "请至少填写一盘结果。" in empty.text
    assert _address(empty.text) == f"/events/{event_id}/manage/rounds/1"
    for address in (f"/events/{event_id}/settings", f"/events/{event_id}/manage/rounds/1"):
        assert client.get(address).status_code == 200, address  # what a reload asks for
