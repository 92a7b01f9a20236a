"""Issue #7: the same end-to-end JSON API test on SQLite and on PostgreSQL (the ``client``
fixture runs on both; the PostgreSQL case is marked ``postgres``).

Only the API is driven, with a CSRF token on every write, each user in their role (R-ORG-1):
the administrator creates the event and the accounts and grants the roles, the organiser imports
players and publishes 5 rounds that the chief referee pairs, the referee enters and confirms
results (one board by entry then confirmation, the rest from the round sheet), the chief referee
corrects a confirmed result with a reason (R-REF-7), and the standings JSON is the same on both
databases: it equals ``STANDINGS`` below and a computation made here from the published rounds
(R-RANK-SWISS).
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf
from tests.server.test_event_admin_services import players_csv

PASSWORD = "一个好密码 2026"
ROUNDS = 5
RESULTS = ("B+R", "W+R", "185", "183.5", "0", "184.5", "W+R", "B+R", "176", "B+F", "BL", "W+1.5")
"""Board n's entry is ``RESULTS[(n + round) % 12]``: codes and Black's counts, a draw, a
forfeit, a both-lose, spread over the boards from round to round."""

STANDINGS = [
    ("选手07", 10, 29), ("选手14", 8, 27), ("选手05", 8, 25), ("选手13", 7, 31),
    ("选手00", 7, 27), ("选手17", 6, 24), ("选手08", 6, 19), ("选手11", 6, 16),
]  # fmt: skip
"""The leaders (name, points, 对手分) after 5 rounds: recorded once, so a database that ranks
differently fails on its own as well as differing from the other."""


def game_points(result: str) -> tuple[int, int]:
    """R-SCORE-IND-1 written out here: (Black's, White's) points."""
    if result.startswith("B+"):
        return 2, 0
    if result.startswith("W+"):
        return 0, 2
    return {"0": (1, 1), "BL": (0, 0)}[result]


class Api:
    """The client, logged in as one user at a time, sending that session's CSRF token."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.headers: dict[str, str] = {}

    def log_in(self, username: str, password: str = PASSWORD) -> None:
        self.client.cookies.clear()
        api_login(self.client, username, password)
        self.headers = {"X-CSRF-Token": csrf(self.client)}

    def post(self, url: str, body: Any = None, status: int = 200) -> Any:
        response = self.client.post(url, json=body, headers=self.headers)
        assert response.status_code == status, response.text
        return response.json() if response.content else None

    def get(self, url: str) -> Any:
        response = self.client.get(url)
        assert response.status_code == 200, response.text
        return response.json()


def test_r_org_1_end_to_end_api_on_sqlite_and_postgresql(client: TestClient) -> None:
    """R-ORG-1, R-REF-7, R-RANK-SWISS through the JSON API only, on either database."""
    api = Api(client)
    api.log_in("admin", ADMIN_PASSWORD)
    users = {
        role: api.post("/api/users", {"username": name, "password": PASSWORD}, 201)["id"]
        for role, name in (
            ("organiser", "zuwei"),
            ("chief_referee", "zhuxi"),
            ("referee", "caipan"),
            ("player", "qishou"),
        )
    }
    body = {"name": "2026 围棋公开赛", "settings": {"system": "swiss", "rounds": ROUNDS}}
    ev = api.post("/api/events/tournaments", body, 201)["id"]
    for role, user_id in users.items():
        api.post(f"/api/events/{ev}/roles", {"user_id": user_id, "role": role}, 201)

    api.log_in("zuwei")
    assert api.post(f"/api/events/{ev}/players/import", {"csv": players_csv(24)}) == {
        "imported": 24
    }
    for number in range(1, ROUNDS + 1):
        api.log_in("zhuxi")  # the chief referee pairs (编排), the organiser publishes
        rnd = api.post(f"/api/events/{ev}/rounds", None, 201)
        assert rnd["number"] == number and len(rnd["pairings"]) == 12
        api.log_in("zuwei")
        assert api.post(f"/api/events/{ev}/rounds/{number}/publish", {"published": True})[
            "published"
        ]

        api.log_in("caipan")
        games = f"/api/events/{ev}/rounds/{number}"
        entries = {b: RESULTS[(b + number) % len(RESULTS)] for b in range(1, 13)}
        # board 1 the long way: entered, then confirmed (guarded by the record's seq)
        entered = api.post(f"{games}/boards/1/result", {"result": entries.pop(1)})
        assert not entered["confirmed"]
        api.post(f"{games}/boards/1/confirm", {"expected_seq": entered["seq"]})
        rows = [{"board": b, "result": r} for b, r in entries.items()]
        sheet = api.post(f"{games}/results", {"rows": rows})
        assert sheet["changed"] == 11
        assert all(b["confirmed"] for b in sheet["boards"])
        if number == 2:
            # R-REF-7: a referee may not change a confirmed result; the chief referee may,
            # with a reason that the history keeps
            before = api.get(f"{games}/boards/2")
            refused = {"result": "B+R", "reason": "想改"}
            api.post(f"{games}/boards/2/correction", refused, 403)
            api.log_in("zhuxi")
            fix = {"result": "B+R", "reason": "记录员记错颜色"}
            fixed = api.post(f"{games}/boards/2/correction", fix)
            assert before["result"] != "B+R" and fixed["result"] == "B+R"
            assert fixed["seq"] == before["seq"] + 1
        if number == ROUNDS:
            # R-ORG-1: a player's write is refused and changes nothing
            api.log_in("qishou")
            before = api.get(f"{games}/boards/3")
            api.post(f"{games}/boards/3/correction", {"result": "W+R", "reason": "我赢了"}, 403)
            api.post(f"{games}/results", {"rows": [{"board": 3, "result": "W+R"}]}, 403)
            assert api.get(f"{games}/boards/3") == before

    standings = api.get(f"/api/events/{ev}/standings")
    assert standings["rounds"] == ROUNDS
    assert [t["code"] for t in standings["tiebreaks"]] == ["SOS", "WARN"]
    shown = [
        (r["player"]["name"], r["points"], int(r["tiebreaks"]["SOS"])) for r in standings["rows"]
    ]

    points: dict[str, int] = {}
    opponents: dict[str, list[str]] = {}
    for number in range(1, ROUNDS + 1):
        for board in api.get(f"/api/events/{ev}/rounds/{number}")["pairings"]:
            black, white = board["black_player"]["name"], board["white_player"]["name"]
            b, w = game_points(board["result"])
            points[black] = points.get(black, 0) + b
            points[white] = points.get(white, 0) + w
            opponents.setdefault(black, []).append(white)
            opponents.setdefault(white, []).append(black)
    computed = {n: (points[n], sum(points[o] for o in opponents[n])) for n in points}
    assert all(computed[name] == (p, s) for name, p, s in shown)
    keys = [(p, s) for _, p, s in shown]
    assert keys == sorted(keys, reverse=True)
    assert shown[: len(STANDINGS)] == STANDINGS
