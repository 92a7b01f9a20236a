"""The draft's forms answer as every other form does (``errors.status_of``): a pick of a
player not in the pool is bad input (422), a move out of turn a conflict (409) — the draft
page again, saying why in the reader's language, the draft unchanged."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf
from tests.services.test_races import LOCAL, closed_season
from weiqi.services import league
from weiqi.store.database import Database


def test_a_draft_move_refused_says_why_with_the_status_of_its_kind(
    client: TestClient, database: Database
) -> None:
    season, _ = closed_season(database)
    league.close_season(database, LOCAL, season)
    draft = league.start_draft(database, LOCAL, season, base=1)
    for club in "AB":
        league.protect(database, LOCAL, draft.id, club, [f"{club}1"])
    on_the_clock = league.show_draft(database, draft.id).on_the_clock
    assert on_the_clock is not None
    other = "B" if on_the_clock == "A" else "A"
    api_login(client, "admin", ADMIN_PASSWORD)
    token = csrf(client)
    before = league.show_draft(database, draft.id).log

    nobody = client.post(
        f"/drafts/{draft.id}/pick",
        data={"club": on_the_clock, "player": "无此人", "csrf_token": token},
        follow_redirects=False,
    )
    assert nobody.status_code == 422 and "无此人" in nobody.text
    out_of_turn = client.post(
        f"/drafts/{draft.id}/pass",
        data={"club": other, "csrf_token": token},
        follow_redirects=False,
    )
    assert out_of_turn.status_code == 409 and f"轮到{on_the_clock}" in out_of_turn.text
    assert league.show_draft(database, draft.id).log == before
