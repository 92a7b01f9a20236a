"""The organisers' JSON API end to end, on SQLite and PostgreSQL (R-ORG-1, R-WD-1)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf
from tests.server.test_event_admin_services import players_csv


def test_r_org_1_create_import_pair_publish_unpair_through_the_api(client: TestClient) -> None:
    api_login(client, "admin", ADMIN_PASSWORD)
    h = {"X-CSRF-Token": csrf(client)}
    body = {"name": "2026 俱乐部积分编排赛", "settings": {"system": "swiss", "rounds": 5}}
    made = client.post("/api/events/tournaments", json=body, headers=h)
    assert made.status_code == 201, made.text
    event = made.json()
    assert event["tiebreaks"] == ["SOS", "WARN"] and event["settings"]["komi"] == "15/4"
    eid = event["id"]

    bad = client.post(
        f"/api/events/{eid}/settings",
        json={"name": "x", "settings": {"system": "swiss"}},
        headers=h,
    )
    assert bad.status_code == 405
    wrong = client.put(
        f"/api/events/{eid}/settings",
        json={"name": "x", "settings": {"system": "swiss"}},
        headers=h,
    )
    assert wrong.status_code == 422 and wrong.json()["error"] == "invalid_setting"
    assert "rounds" in wrong.json()["message"]

    rejected = client.post(
        f"/api/events/{eid}/players/import",
        json={"csv": players_csv(24).replace("选手03,2d", "选手03,12d")},
        headers=h,
    )
    assert rejected.status_code == 422
    assert rejected.json()["problems"] == [{"line": 5, "reason": "rank 12d: level must be 1..9"}]
    in_chinese = client.post(
        f"/api/events/{eid}/players/import",
        json={"csv": players_csv(24).replace("选手03,2d", "选手03,12d")},
        headers={**h, "Accept-Language": "zh-CN"},
    ).json()
    # the refused rows come in the caller's language, like the error's message
    (problem,) = in_chinese["problems"]
    assert problem["line"] == 5 and "level must" not in problem["reason"]
    assert any("\u4e00" <= c <= "\u9fff" for c in problem["reason"]), problem
    assert in_chinese["code"] and "message" in in_chinese
    assert client.get(f"/api/events/{eid}/manage").json()["players"] == []
    imported = client.post(
        f"/api/events/{eid}/players/import", json={"csv": players_csv(24)}, headers=h
    )
    assert imported.json() == {"imported": 24}
    one = client.post(
        f"/api/events/{eid}/players",
        json={"name": "李明", "rank": "5段", "birth_date": "1990-02-03"},
        headers=h,
    )
    assert one.status_code == 201 and one.json()["rank"] == "5d"

    paired = client.post(f"/api/events/{eid}/rounds", headers=h)
    assert paired.status_code == 201
    rnd = paired.json()
    assert rnd["number"] == 1 and not rnd["published"] and len(rnd["pairings"]) == 12
    assert len(rnd["byes"]) == 1 and len(rnd["explanations"]) == 12
    assert rnd["totals"]["games"] == 12

    with TestClient(client.app) as public:
        assert public.get(f"/api/events/{eid}/rounds/1/pairing").status_code == 403
        published = client.post(
            f"/api/events/{eid}/rounds/1/publish", json={"published": True}, headers=h
        )
        assert published.json()["published"] is True
        seen = public.get(f"/api/events/{eid}/rounds/1/pairing")
        assert seen.status_code == 200 and seen.json()["pairings"] == rnd["pairings"]

    assert client.delete(f"/api/events/{eid}/rounds/1", headers=h).status_code == 204
    assert client.get(f"/api/events/{eid}/manage").json()["rounds"] == []
    again = client.post(f"/api/events/{eid}/rounds", headers=h).json()
    assert again["pairings"] == rnd["pairings"]

    pid = client.get(f"/api/events/{eid}/manage").json()["players"][0]["id"]
    gone = client.post(f"/api/events/{eid}/players/{pid}/withdraw", headers=h).json()
    assert (
        gone["after_round"] == 1
        and gone["consequence"] == "The results stand; the player is not paired again."
    )
    assert client.post(f"/api/events/{eid}/players/{pid}/withdraw", headers=h).status_code == 409


def test_the_schema_documents_the_organisers_endpoints(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/api/events/tournaments",
        "/api/events/{event_id}/settings",
        "/api/events/{event_id}/manage",
        "/api/events/{event_id}/players/import",
        "/api/events/{event_id}/rounds",
        "/api/events/{event_id}/rounds/{number}/pairing",
        "/api/events/{event_id}/rounds/{number}/publish",
    ):
        assert path in paths, path
        for operation in paths[path].values():
            assert operation.get("description"), (path, operation)


def test_r_org_1_post_events_creates_either_kind_with_its_settings(client: TestClient) -> None:
    """``POST /api/events`` creates an individual or a team event with its settings (issue #10:
    no event without them), and ``/api/events/{id}/settings`` reads and changes either kind's;
    a body without settings is refused naming them."""
    api_login(client, "admin", ADMIN_PASSWORD)
    h = {"X-CSRF-Token": csrf(client)}
    made = client.post(
        "/api/events",
        json={"name": "甲级联赛", "kind": "team", "settings": {"boards": 4, "system": "swiss",
                                                            "rounds": 3}},
        headers=h,
    )  # fmt: skip
    assert made.status_code == 201, made.text
    team = made.json()["id"]
    assert (made.json()["kind"], made.json()["system"], made.json()["entrants"]) == (
        "team", "swiss", 0)  # fmt: skip
    rounds = client.get(f"/api/events/{team}/standings")
    assert rounds.status_code == 200, rounds.text
    shown = client.get(f"/api/events/{team}/settings").json()
    assert shown["settings"]["boards"] == 4 and shown["locked"]["boards"] == (
        "set when the event was created"
    )
    assert "deadline_minutes" not in shown["locked"]
    body = {"name": "甲级联赛", "settings": {**shown["settings"], "boards": 5}}
    refused = client.put(f"/api/events/{team}/settings", json=body, headers=h)
    assert refused.status_code == 422 and refused.json()["args"]["field"]["code"] == "boards"
    body["settings"] = {**shown["settings"], "deadline_minutes": 45}
    changed = client.put(f"/api/events/{team}/settings", json=body, headers=h)
    assert changed.status_code == 200, changed.text
    assert changed.json()["settings"]["deadline_minutes"] == 45
    made = client.post(
        "/api/events", json={"name": "春季赛", "settings": {"system": "swiss", "rounds": 4}},
        headers=h,
    )  # fmt: skip
    assert made.status_code == 201, made.text
    settings = client.get(f"/api/events/{made.json()['id']}/settings").json()
    assert (settings["system"], settings["settings"]["rounds"]) == ("swiss", 4)
    refused = client.post("/api/events", json={"name": "无赛制"}, headers=h)
    assert refused.status_code == 422 and "settings" in refused.text
    assert [e["name"] for e in client.get("/api/events").json()] == ["春季赛", "甲级联赛"]


def test_r_fmt_3_a_setting_only_another_system_reads_is_refused_by_the_api(
    client: TestClient,
) -> None:
    """A setting only other systems read (best of N: a match's; a McMahon bar: McMahon's) sent
    for a Swiss is the sender's mistake: refused naming the field and the systems that read
    it, nothing stored. A change to another system may send back what the event held under the
    earlier one; the event then holds its new system's settings only (issue #10: one typed
    variant per system)."""
    api_login(client, "admin", ADMIN_PASSWORD)
    h = {"X-CSRF-Token": csrf(client)}
    body = {"name": "春季赛", "settings": {"system": "swiss", "rounds": 4, "best_of": 5}}
    refused = client.post("/api/events", json=body, headers=h)
    assert refused.status_code == 422, refused.text
    assert refused.json()["args"]["field"]["code"] == "best_of"
    assert refused.json()["message"] == "best_of: applies to match only, not to swiss"
    assert client.get("/api/events").json() == []
    made = client.post(
        "/api/events", json={"name": "对抗赛", "settings": {"system": "match", "best_of": 5}},
        headers=h,
    ).json()  # fmt: skip
    shown = client.get(f"/api/events/{made['id']}/settings").json()
    swiss = {**shown["settings"], "system": "swiss", "rounds": 3}
    changed = client.put(
        f"/api/events/{made['id']}/settings", json={"name": "对抗赛", "settings": swiss}, headers=h
    )
    assert changed.status_code == 200, changed.text  # best_of 5 was stored, not sent anew
    now = changed.json()["settings"]
    assert now["system"] == "swiss" and "best_of" not in now and "mcmahon_bar" not in now
    bar = {**now, "mcmahon_bar": "3d"}
    refused = client.put(
        f"/api/events/{made['id']}/settings", json={"name": "对抗赛", "settings": bar}, headers=h
    )
    assert refused.status_code == 422 and refused.json()["args"]["field"]["code"] == "mcmahon_bar"
