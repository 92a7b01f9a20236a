"""R-ORG-1 through the JSON API: every write endpoint × every role, on SQLite and PostgreSQL.

An action a role may not take answers 403 (401 without a login) and changes nothing. A new
write endpoint must be added to ``ENDPOINTS`` — ``test_the_matrix_covers_every_write_endpoint``
fails until it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Result, select

from tests.server.conftest import ADMIN_PASSWORD, api_login, csrf
from tests.store.conftest import CHEAP_HASHER, postgres_schema
from weiqi.clock.control import TimeControl
from weiqi.league.settings import TeamEventSettings
from weiqi.roles import Role
from weiqi.server.app import create_app
from weiqi.services import accounts, event_admin, games, live, team_coaches, tournament
from weiqi.services.actor import Actor
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.store.entry_claims import EntryClaimRow
from weiqi.store.games import GameRecordRow
from weiqi.store.live import PlayerAccountRow
from weiqi.store.models import EventRole, EventRow, User
from weiqi.store.tournament import EventSettingsRow, GameRow, PlayerRow, RoundRow
from weiqi.tournament.settings import EventSettings, System

SWISS = EventSettings(System.SWISS, rounds=5)


LOCAL = Actor.local()
PASSWORD = "correct horse"
# Everyone who may knock: nobody, a logged-in user without a role, each role in the event, an
# organiser of another event, and the site administrator.
ACTORS = [
    "anonymous",
    "public",
    "player",
    "referee",
    "chief_referee",
    "organiser",
    "other_organiser",
    "admin",
]
LOGGED_IN = frozenset(ACTORS) - {"anonymous"}
Send = Callable[[], httpx.Response]


@dataclass
class World:
    db: Database
    app_clients: dict[str, TestClient]
    event_id: int
    other_event_id: int
    user_ids: dict[str, int] = field(default_factory=dict)

    def call(self, actor: str, method: str, path: str, **kwargs: object) -> Send:
        """The request, ready to send (with the actor's CSRF token)."""
        client = self.app_clients[actor]
        headers = {"X-CSRF-Token": csrf(client)}
        return lambda: client.request(method, path, headers=headers, **kwargs)  # type: ignore[arg-type]

    def new_user(self, name: str) -> int:
        return accounts.create_user(self.db, LOCAL, name, PASSWORD).id


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def world(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[World]:
    previous = accounts.set_password_hasher(CHEAP_HASHER)
    with ExitStack() as stack:
        if request.param == "postgres":
            url = stack.enter_context(postgres_schema())
        else:
            url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'weiqi.sqlite3'}"
        db = Database(url)
        db.upgrade()
        stack.callback(db.dispose)
        accounts.ensure_site_admin(db, ADMIN_PASSWORD)
        # the event every role holds a role in: a team event, whose rounds _team_rounds makes
        event = create_event(db, LOCAL, "the event", TeamEventSettings(boards=8, cycles=2)).id
        other = create_event(db, LOCAL, "another event", SWISS).id
        app = create_app(db, secret_key="matrix")
        w = World(db, {}, event, other)
        for actor in ACTORS:
            client = stack.enter_context(TestClient(app))
            w.app_clients[actor] = client
            if actor in ("anonymous", "admin"):
                continue
            w.user_ids[actor] = w.new_user(actor)
            if actor in ("player", "referee", "chief_referee", "organiser"):
                accounts.grant_role(db, LOCAL, w.user_ids[actor], event, Role(actor))
            if actor == "other_organiser":
                accounts.grant_role(db, LOCAL, w.user_ids[actor], other, Role.ORGANISER)
        for actor in LOGGED_IN:
            api_login(w.app_clients[actor], actor, ADMIN_PASSWORD if actor == "admin" else PASSWORD)
        yield w
    accounts.set_password_hasher(previous)


def _create_user(w: World, actor: str) -> Send:
    return w.call(
        actor, "POST", "/api/users", json={"username": f"made-by-{actor}", "password": PASSWORD}
    )


def _create_event(w: World, actor: str) -> Send:
    body = {"name": f"event of {actor}", "settings": {"system": "round_robin"}}
    return w.call(actor, "POST", "/api/events", json=body)


def _grant_role(w: World, actor: str) -> Send:
    target = w.new_user(f"grantee-{actor}")
    return w.call(
        actor,
        "POST",
        f"/api/events/{w.event_id}/roles",
        json={"user_id": target, "role": "referee"},
    )


def _revoke_role(w: World, actor: str) -> Send:
    target = w.new_user(f"revokee-{actor}")
    accounts.grant_role(w.db, LOCAL, target, w.event_id, Role.PLAYER)
    return w.call(actor, "DELETE", f"/api/events/{w.event_id}/roles/{target}/player")


def _tournament(w: World, players: int = 8, rounds: int = 0, time_control: str = "") -> int:
    """A fresh Swiss where each actor holds the role it holds in the world's event."""
    settings = EventSettings(System.SWISS, rounds=3, play="online", time_control=time_control)  # type: ignore[arg-type]
    info = create_event(w.db, LOCAL, "积分编排赛", settings)
    for actor in ("player", "referee", "chief_referee", "organiser"):
        accounts.grant_role(w.db, LOCAL, w.user_ids[actor], info.id, Role(actor))
    if players:
        rows = "\n".join(f"P{i},{i % 5 + 1}d" for i in range(players))
        event_admin.import_players(w.db, LOCAL, info.id, f"name,rank\n{rows}\n")
    for _ in range(rounds):
        event_admin.pair_next_round(w.db, LOCAL, info.id)
    return info.id


def _create_tournament(w: World, actor: str) -> Send:
    body = {"name": f"赛事 of {actor}", "settings": {"system": "swiss", "rounds": 5}}
    return w.call(actor, "POST", "/api/events/tournaments", json=body)


def _put_settings(w: World, actor: str) -> Send:
    event = _tournament(w, players=0)
    body = {"name": "改名", "settings": {"system": "round_robin"}}
    return w.call(actor, "PUT", f"/api/events/{event}/settings", json=body)


def _register_player(w: World, actor: str) -> Send:
    event = _tournament(w, players=0)
    return w.call(
        actor, "POST", f"/api/events/{event}/players", json={"name": "李明", "rank": "5段"}
    )


def _import_players(w: World, actor: str) -> Send:
    event = _tournament(w, players=0)
    body = {"csv": "姓名,段位\n李明,5d\n王芳,3d\n"}
    return w.call(actor, "POST", f"/api/events/{event}/players/import", json=body)


def _withdraw_player(w: World, actor: str) -> Send:
    event = _tournament(w)
    player = event_admin.dashboard(w.db, LOCAL, event).players[0].id
    return w.call(actor, "POST", f"/api/events/{event}/players/{player}/withdraw")


def _edit_player(w: World, actor: str) -> Send:
    event = _tournament(w)
    player = event_admin.dashboard(w.db, LOCAL, event).players[0].id
    body = {"name": "李明远", "rank": "4d"}
    return w.call(actor, "PUT", f"/api/events/{event}/players/{player}", json=body)


def _delete_player(w: World, actor: str) -> Send:
    event = _tournament(w)
    player = event_admin.dashboard(w.db, LOCAL, event).players[0].id
    return w.call(actor, "DELETE", f"/api/events/{event}/players/{player}")


def _reinstate_player(w: World, actor: str) -> Send:
    event = _tournament(w)
    first = event_admin.dashboard(w.db, LOCAL, event).players[0]
    event_admin.withdraw(w.db, LOCAL, event, first.name)
    return w.call(actor, "POST", f"/api/events/{event}/players/{first.id}/reinstate")


def _set_absences(w: World, actor: str) -> Send:
    event = _tournament(w)
    player = event_admin.dashboard(w.db, LOCAL, event).players[0].id
    body = {"rounds": [2]}
    return w.call(actor, "PUT", f"/api/events/{event}/players/{player}/absences", json=body)


def _pair_round(w: World, actor: str) -> Send:
    return w.call(actor, "POST", f"/api/events/{_tournament(w)}/rounds")


def _publish_round(w: World, actor: str) -> Send:
    event = _tournament(w, rounds=1)
    return w.call(actor, "POST", f"/api/events/{event}/rounds/1/publish", json={})


def _round_start(w: World, actor: str) -> Send:
    event = _tournament(w, rounds=1)
    body = {"start": "2030-06-01 09:30"}
    return w.call(actor, "PUT", f"/api/events/{event}/rounds/1/start", json=body)


def _unpair_round(w: World, actor: str) -> Send:
    return w.call(actor, "DELETE", f"/api/events/{_tournament(w, rounds=1)}/rounds/1")


def _edit_body(w: World) -> tuple[int, dict[str, object]]:
    """A paired round 1 (not published) and a swap of two of its players."""
    event = _tournament(w, rounds=1)
    games = event_admin.round_detail(w.db, LOCAL, event, 1).pairings
    ids = {p.name: p.id for p in event_admin.dashboard(w.db, LOCAL, event).players}
    a, b = ids[games[0].black], ids[games[1].black]
    return event, {"kind": "swap", "player": a, "other": b}


def _check_edit(w: World, actor: str) -> Send:
    event, body = _edit_body(w)
    return w.call(actor, "POST", f"/api/events/{event}/rounds/1/edits/check", json=body)


def _make_edit(w: World, actor: str) -> Send:
    event, body = _edit_body(w)
    body["reason"] = "两位棋手同一单位"
    return w.call(actor, "POST", f"/api/events/{event}/rounds/1/edits", json=body)


def _change_password(w: World, actor: str) -> Send:
    """A change to another password and back (a password cannot be "changed" to itself), so the
    next tests log in as before."""
    old = ADMIN_PASSWORD if actor == "admin" else PASSWORD
    there = w.call(actor, "POST", "/api/account/password", json={"current": old, "new": old + "!"})

    def send() -> httpx.Response:
        first = there()
        if first.status_code != 200:
            return first
        # the change started a new session, with a new CSRF token
        new = {"current": old + "!", "new": old}
        return w.call(actor, "POST", "/api/account/password", json=new)()

    return send


def _game_tournament(w: World, *steps: str) -> int:
    """A new round robin of two players, round 1 paired, the matrix's roles granted in it;
    board 1 brought along ``steps`` (``count``, ``result``, ``confirm``) by the command line."""
    ev = create_event(w.db, LOCAL, "results", EventSettings(system=System.ROUND_ROBIN)).id
    tournament.import_players(w.db, LOCAL, ev, "name\nLi\nWang\n")
    tournament.pair_round(w.db, LOCAL, ev)
    for actor in ("player", "referee", "chief_referee", "organiser"):
        accounts.grant_role(w.db, LOCAL, w.user_ids[actor], ev, Role(actor))
    for step in steps:
        if step == "count":
            games.enter_result(w.db, LOCAL, ev, 1, 1, "184.5")
        if step == "result":
            games.enter_result(w.db, LOCAL, ev, 1, 1, "B+R")
        if step == "confirm":
            games.confirm_result(w.db, LOCAL, ev, 1, 1)
    return ev


def _game_write(what: str, body: dict[str, object], *steps: str) -> Callable[[World, str], Send]:
    def prepare(w: World, actor: str) -> Send:
        ev = _game_tournament(w, *steps)
        return w.call(actor, "POST", f"/api/events/{ev}/rounds/1/boards/1/{what}", json=body)

    return prepare


def _round_results(w: World, actor: str) -> Send:
    ev = _game_tournament(w)
    body = {"rows": [{"board": 1, "result": "W+R"}]}
    return w.call(actor, "POST", f"/api/events/{ev}/rounds/1/results", json=body)


GAME = "/api/events/{event_id}/rounds/{number}/boards/{board}"
TEAM_GAME = "/api/events/{event_id}/rounds/{number}/matches/{match}/boards/{board}"
REFEREES = frozenset({"admin", "chief_referee", "referee"})


def _team_game_event(w: World, *steps: str, online: bool = False) -> int:
    """A new team event of two 2-board teams, round 1 revealed, the matrix's roles granted in
    it; match 1 board 1 brought along ``steps`` (``count``, ``result``, ``confirm``);
    ``online``: its boards played in the room, under a time control."""
    from weiqi.league.settings import TeamEventSettings
    from weiqi.services import teams
    from weiqi.services.games import TeamBoard
    from weiqi.tournament.settings import PlayMode

    play = PlayMode.ONLINE if online else PlayMode.BOARD
    control = TimeControl.parse("10m+3x30s") if online else None
    settings = TeamEventSettings(boards=2, play=play, time_control=control)
    ev = create_event(w.db, LOCAL, "团体赛", settings).id
    for actor in ("player", "referee", "chief_referee", "organiser"):
        accounts.grant_role(w.db, LOCAL, w.user_ids[actor], ev, Role(actor))
    teams.import_teams(w.db, LOCAL, ev, "team,name,rank\nA,A1,5d\nA,A2,5d\nB,B1,5d\nB,B2,5d\n")
    teams.pair_round(w.db, LOCAL, ev)
    for t in "AB":
        teams.submit_lineup(w.db, LOCAL, ev, 1, t, [f"{t}1", f"{t}2"])
    teams.reveal_round(w.db, LOCAL, ev, 1)
    board = TeamBoard(1, 1)
    for step in steps:
        if step == "count":
            games.enter_result(w.db, LOCAL, ev, 1, board, "184.5")
        if step == "result":
            games.enter_result(w.db, LOCAL, ev, 1, board, "B+R")
        if step == "confirm":
            games.confirm_result(w.db, LOCAL, ev, 1, board)
    return ev


def _team_game_write(
    what: str, body: dict[str, object], *steps: str
) -> Callable[[World, str], Send]:
    def prepare(w: World, actor: str) -> Send:
        ev = _team_game_event(w, *steps)
        path = f"/api/events/{ev}/rounds/1/matches/1/boards/1/{what}"
        return w.call(actor, "POST", path, json=body)

    return prepare


#: The referee workflow of a board: (action, body, steps before it, who may).
WORKFLOW: list[tuple[str, dict[str, object], tuple[str, ...], frozenset[str]]] = [
    ("result", {"result": "184.5"}, (), REFEREES | {"organiser"}),
    ("confirm", {}, ("result",), REFEREES),
    ("acknowledge", {"color": "B"}, ("result",), REFEREES | {"organiser"}),
    ("recount", {"color": "W"}, ("count",), REFEREES | {"organiser"}),
    ("infractions", {"kind": "clock_before_move", "offender": "B"}, (), REFEREES),
    # R-TIME-2 / Art. 22.7: White may leave in Black's time (a fresh record, Black to move)
    ("seat-leave", {"player": "W"}, (), REFEREES),
    ("rulings", {"kind": "forfeit", "reason": "absent", "loser": "W"}, (), REFEREES),
    (
        "correction",
        {"result": "W+R", "reason": "cheating"},
        ("result", "confirm"),
        frozenset({"admin", "chief_referee"}),
    ),
]


def _replay_clock(w: World, actor: str) -> Send:
    events = [{"op": "start", "now": 0}, {"op": "press", "now": 5, "color": "B"}]
    return w.call(actor, "POST", "/api/clock/replay", json={"tc": "3x30s", "events": events})


def _team_rounds(w: World) -> None:
    """Give the world's team event two teams of 8 and two rounds (once): round 1 revealed,
    so each actor can record its own board; round 2 open for lineups."""
    from weiqi.services import teams

    if teams.team_event_info(w.db, w.event_id).entrants:
        return
    roster = "team,name,rank\n" + "\n".join(f"{t},{t}{i},5d" for t in "AB" for i in range(1, 9))
    teams.import_teams(w.db, LOCAL, w.event_id, roster)
    team_coaches.assign_coach(w.db, LOCAL, w.event_id, "A", "player")
    teams.pair_round(w.db, LOCAL, w.event_id)
    teams.pair_round(w.db, LOCAL, w.event_id)
    for t in "AB":
        teams.submit_lineup(w.db, LOCAL, w.event_id, 1, t, [f"{t}{i}" for i in range(1, 9)])
    teams.reveal_round(w.db, LOCAL, w.event_id, 1)


def _submit_lineup(w: World, actor: str) -> Send:
    _team_rounds(w)
    lineup = {"team": "A", "players": [f"A{i}" for i in range(1, 9)]}
    return w.call(actor, "POST", f"/api/events/{w.event_id}/rounds/2/lineups", json=lineup)


def _assign_coach(w: World, actor: str) -> Send:
    w.new_user(f"coach-by-{actor}")
    body = {"team": "A", "username": f"coach-by-{actor}", "role": "captain"}
    return w.call(actor, "POST", f"/api/events/{_team_event(w)}/teams/coaches", json=body)


def _record_boards(w: World, actor: str) -> Send:
    _team_rounds(w)
    board = {"referee": 1, "chief_referee": 2, "admin": 3}.get(actor, 6)
    sheet = {"rows": [{"team": "A", "board": board, "result": "B+R"}]}
    url = f"/api/events/{w.event_id}/rounds/1/results"
    return w.call(actor, "POST", url, json=sheet)


def _team_event(w: World, system: str = "round_robin", rounds: int = 0) -> int:
    """A fresh team event of four 2-board teams, the matrix's roles granted in it; ``rounds``
    paired (round 1 of a knockout revealed and drawn 2:2 on its first match)."""
    from weiqi.services import team_admin, teams

    settings = team_admin.settings_from_form({"system": system, "boards": "2"})
    ev = create_event(w.db, LOCAL, "团体赛", settings).id
    for actor in ("player", "referee", "chief_referee", "organiser"):
        accounts.grant_role(w.db, LOCAL, w.user_ids[actor], ev, Role(actor))
    roster = "team,name,rank\n" + "\n".join(f"{t},{t}{i},5d" for t in "ABCD" for i in (1, 2))
    teams.import_teams(w.db, LOCAL, ev, roster)
    for _ in range(rounds):
        teams.pair_round(w.db, LOCAL, ev)
    if system == "knockout" and rounds:
        for t in "ABCD":
            teams.submit_lineup(w.db, LOCAL, ev, 1, t, [f"{t}1", f"{t}2"])
        teams.reveal_round(w.db, LOCAL, ev, 1)
        home = teams.show_round(w.db, ev, 1).matches[0].home
        teams.record_results(w.db, LOCAL, ev, 1, [(home, 1, "B+R"), (home, 2, "B+R")])
    return ev


def _create_team_event(w: World, actor: str) -> Send:
    body = {"name": f"团体赛 of {actor}", "settings": {"boards": 3, "max_foreign": 1}}
    return w.call(actor, "POST", "/api/events/teams", json=body)


def _import_teams(w: World, actor: str) -> Send:
    from weiqi.services import team_admin

    settings = team_admin.settings_from_form({"boards": "2"})
    ev = create_event(w.db, LOCAL, "团体赛", settings).id
    for role in ("organiser", "chief_referee", "referee", "player"):
        accounts.grant_role(w.db, LOCAL, w.user_ids[role], ev, Role(role))
    body = {"csv": "队名,姓名,段位\n甲,甲1,5d\n甲,甲2,4d\n乙,乙1,5d\n乙,乙2,4d\n"}
    return w.call(actor, "POST", f"/api/events/{ev}/teams/import", json=body)


def _first_team(w: World, rounds: int = 0) -> tuple[int, int, int]:
    """A fresh team event (``_team_event``): its id, its first team's and first player's ids."""
    from weiqi.services import team_admin

    ev = _team_event(w, rounds=rounds)
    team = team_admin.team_cards(w.db, ev)[0]
    return ev, team.id, team.roster[0].id


def _rename_team(w: World, actor: str) -> Send:
    ev, team, _ = _first_team(w)
    return w.call(actor, "PUT", f"/api/events/{ev}/teams/{team}", json={"name": f"队 {actor}"})


def _delete_team(w: World, actor: str) -> Send:
    ev, team, _ = _first_team(w)
    return w.call(actor, "DELETE", f"/api/events/{ev}/teams/{team}")


def _edit_roster_player(w: World, actor: str) -> Send:
    ev, team, player = _first_team(w)
    body = {"name": f"李 {actor}", "rank": "3段"}
    return w.call(actor, "PUT", f"/api/events/{ev}/teams/{team}/players/{player}", json=body)


def _pair_team_round(w: World, actor: str) -> Send:
    return w.call(actor, "POST", f"/api/events/{_team_event(w)}/rounds", json={})


def _reveal_team_round(w: World, actor: str) -> Send:
    ev = _team_event(w, rounds=1)
    return w.call(actor, "POST", f"/api/events/{ev}/rounds/1/reveal")


def _team_round_start(w: World, actor: str) -> Send:
    ev = _team_event(w, rounds=1)
    body = {"start": "2030-06-01 09:30"}
    return w.call(actor, "PUT", f"/api/events/{ev}/rounds/1/start", json=body)


def _record_playoff(w: World, actor: str) -> Send:
    from weiqi.services import teams

    ev = _team_event(w, "knockout", rounds=1)
    winner = teams.show_round(w.db, ev, 1).matches[0].away
    url = f"/api/events/{ev}/rounds/1/playoff"
    return w.call(actor, "POST", url, json={"winner": winner})


# Whoever organises any event may create one (R-ORG-1); the organisers and the chief referee run
# the entries, settings and publication; the chief referee pairs.
ORGANISERS = frozenset({"admin", "organiser", "other_organiser"})
RUNNERS = frozenset({"admin", "organiser", "chief_referee"})
CHIEF = frozenset({"admin", "chief_referee"})


# endpoint (as OpenAPI names it) → (set up a call by an actor, the actors that may make it)
def _invite(w: World, actor: str) -> Send:
    """Live play (issue #11): a one-time invitation code for an entrant."""
    event = _tournament(w, players=2)
    player = live.player_id(w.db, event, "P0")
    return w.call(actor, "POST", f"/api/events/{event}/players/{player}/invite", json={})


def _redeem(w: World, actor: str) -> Send:
    """Live play (issue #11): any logged-in user redeems a code (a fresh one each time)."""
    event = _tournament(w, players=2)
    code = live.create_invite(w.db, LOCAL, event, live.player_id(w.db, event, "P1")).code
    return w.call(actor, "POST", "/api/invites/redeem", json={"code": code})


def _team_invite(w: World, actor: str) -> Send:
    """Live play (issue #11): a one-time invitation code for a roster player."""
    from weiqi.services import teams

    ev = _team_game_event(w)
    with w.db.transaction() as session:
        team = next(r for r in teams.event_teams(session, ev) if r.code == "A")
        team_id, player = team.id, team.roster[0].id
    return w.call(actor, "POST", f"/api/events/{ev}/teams/{team_id}/players/{player}/invite")


def _claim_event(w: World) -> tuple[int, int]:
    """Entry claims (issue #11): a fresh event, and the id of its entrant P0."""
    event = _tournament(w, players=2)
    return event, live.player_id(w.db, event, "P0")


def _claim(w: World, actor: str) -> Send:
    """Any logged-in user claims an entrant (in a fresh event each time)."""
    event, player = _claim_event(w)
    return w.call(actor, "POST", f"/api/events/{event}/claims", json={"player_id": player})


def _pending_claim(w: World) -> tuple[int, int]:
    """A fresh event and a claim the user ``player`` made there."""
    from weiqi.services import entry_claims
    from weiqi.services.server_clock import SYSTEM_CLOCK

    event, player = _claim_event(w)
    claimant = Actor(w.user_ids["player"], "player")
    return event, entry_claims.claim_entry(w.db, claimant, event, player, SYSTEM_CLOCK).id


def _approve_claim(w: World, actor: str) -> Send:
    event, claim = _pending_claim(w)
    return w.call(actor, "POST", f"/api/events/{event}/claims/{claim}/approve")


def _decline_claim(w: World, actor: str) -> Send:
    event, claim = _pending_claim(w)
    body = {"reason": "不是本人"}
    return w.call(actor, "POST", f"/api/events/{event}/claims/{claim}/decline", json=body)


def _withdraw_claim(w: World, actor: str) -> Send:
    """Only the claimant withdraws a claim (the organisers decline it instead)."""
    _, claim = _pending_claim(w)
    return w.call(actor, "DELETE", f"/api/claims/{claim}")


LIVE_GAME = "/api/events/{event_id}/rounds/{number}/boards/{board}/live"
TEAM_LIVE_GAME = "/api/events/{event_id}/rounds/{number}/matches/{match}/boards/{board}/live"


def _live_write(
    what: str, body: dict[str, object], paused: bool = False, team: bool = False
) -> Callable[[World, str], Send]:
    """Live play (issue #11): a referee's action in a game the server runs (started, its clock
    running; ``paused``: paused by a referee first) — ``team``: match 1's board 1 of a team
    event, at the team board's address."""

    def prepare(w: World, actor: str) -> Send:
        from weiqi.services import live_referee
        from weiqi.services.games import BoardKey, TeamBoard

        board: BoardKey
        if team:
            ev, board = _team_game_event(w, online=True), TeamBoard(1, 1)
            path = f"/api/events/{ev}/rounds/1/matches/1/boards/1/live/{what}"
        else:
            ev, board = _tournament(w, players=2, time_control="10m+3x30s"), 1
            tournament.pair_round(w.db, LOCAL, ev)
            path = f"/api/events/{ev}/rounds/1/boards/1/live/{what}"
        seq = live.start_game(w.db, ev, 1, board).seq
        if paused:
            seq = live_referee.pause(w.db, LOCAL, ev, 1, board, seq).snapshot.seq
        return w.call(actor, "POST", path, json={"expected_seq": seq, **body})

    return prepare


def _live_actions(
    prefix: str, team: bool
) -> dict[tuple[str, str], tuple[Callable[[World, str], Send], frozenset[str]]]:
    """The referee console's actions on a live board (issue #11): a clock correction is the
    chief referee's, the rest any referee's — individual and team boards alike."""
    infraction = {"kind": "disturbing", "offender": "B", "penalty": "warning"}
    ruling = {"kind": "forfeit", "loser": "W", "reason": "掉线"}
    clock = {"color": "B", "seconds": "30", "reason": "时钟故障"}
    return {
        ("POST", f"{prefix}/pause"): (
            _live_write("pause", {"reason": "网络故障"}, team=team),
            REFEREES,
        ),
        ("POST", f"{prefix}/resume"): (_live_write("resume", {}, paused=True, team=team), REFEREES),
        ("POST", f"{prefix}/infraction"): (
            _live_write("infraction", infraction, team=team),
            REFEREES,
        ),
        ("POST", f"{prefix}/ruling"): (_live_write("ruling", ruling, team=team), REFEREES),
        ("POST", f"{prefix}/answer"): (_live_write("answer", {}, team=team), REFEREES),
        ("POST", f"{prefix}/clock"): (_live_write("clock", clock, team=team), CHIEF),
    }


ENDPOINTS: dict[tuple[str, str], tuple[Callable[[World, str], Send], frozenset[str]]] = {
    ("POST", "/api/users"): (_create_user, frozenset({"admin"})),
    ("POST", "/api/events"): (_create_event, ORGANISERS),
    ("POST", "/api/events/tournaments"): (_create_tournament, ORGANISERS),
    ("PUT", "/api/events/{event_id}/settings"): (_put_settings, RUNNERS),
    ("POST", "/api/events/{event_id}/players"): (_register_player, RUNNERS),
    ("POST", "/api/events/{event_id}/players/import"): (_import_players, RUNNERS),
    ("POST", "/api/events/{event_id}/players/{player_id}/withdraw"): (_withdraw_player, RUNNERS),
    ("PUT", "/api/events/{event_id}/players/{player_id}"): (_edit_player, RUNNERS),
    ("DELETE", "/api/events/{event_id}/players/{player_id}"): (_delete_player, RUNNERS),
    ("POST", "/api/events/{event_id}/players/{player_id}/reinstate"): (_reinstate_player, RUNNERS),
    ("PUT", "/api/events/{event_id}/players/{player_id}/absences"): (_set_absences, RUNNERS),
    ("POST", "/api/events/{event_id}/rounds"): (_pair_round, CHIEF),
    ("POST", "/api/events/{event_id}/rounds/{number}/publish"): (_publish_round, RUNNERS),
    ("PUT", "/api/events/{event_id}/rounds/{number}/start"): (_round_start, RUNNERS),
    ("DELETE", "/api/events/{event_id}/rounds/{number}"): (_unpair_round, CHIEF),
    ("POST", "/api/events/{event_id}/rounds/{number}/edits/check"): (_check_edit, CHIEF),
    ("POST", "/api/events/{event_id}/rounds/{number}/edits"): (_make_edit, CHIEF),
    ("POST", "/api/events/{event_id}/roles"): (_grant_role, frozenset({"admin", "organiser"})),
    ("DELETE", "/api/events/{event_id}/roles/{user_id}/{role}"): (
        _revoke_role,
        frozenset({"admin", "organiser"}),
    ),
    ("POST", "/api/account/password"): (_change_password, LOGGED_IN),
    ("POST", "/api/events/{event_id}/players/{player_id}/invite"): (_invite, RUNNERS),
    ("POST", "/api/invites/redeem"): (_redeem, LOGGED_IN),
    ("POST", "/api/events/{event_id}/claims"): (_claim, LOGGED_IN),
    ("POST", "/api/events/{event_id}/claims/{claim_id}/approve"): (_approve_claim, RUNNERS),
    ("POST", "/api/events/{event_id}/claims/{claim_id}/decline"): (_decline_claim, RUNNERS),
    ("DELETE", "/api/claims/{claim_id}"): (_withdraw_claim, frozenset({"player"})),
    # R-REF-7: results, confirmation, infractions and rulings; corrections by the chief referee
    ("POST", f"{GAME}/result"): (
        _game_write("result", {"result": "184.5"}),
        REFEREES | {"organiser"},
    ),
    ("POST", f"{GAME}/confirm"): (_game_write("confirm", {}, "result"), REFEREES),
    ("POST", f"{GAME}/acknowledge"): (
        _game_write("acknowledge", {"color": "B"}, "result"),
        REFEREES | {"organiser"},
    ),
    ("POST", f"{GAME}/recount"): (
        _game_write("recount", {"color": "W"}, "count"),
        REFEREES | {"organiser"},
    ),
    ("POST", f"{GAME}/infractions"): (
        _game_write("infractions", {"kind": "clock_before_move", "offender": "B"}),
        REFEREES,
    ),
    # R-TIME-2 / Art. 22.7: White may leave in Black's time (a fresh record, Black to move)
    ("POST", f"{GAME}/seat-leave"): (_game_write("seat-leave", {"player": "W"}), REFEREES),
    ("POST", f"{GAME}/rulings"): (
        _game_write("rulings", {"kind": "forfeit", "reason": "absent", "loser": "W"}),
        REFEREES,
    ),
    ("POST", f"{GAME}/correction"): (
        _game_write("correction", {"result": "W+R", "reason": "cheating"}, "result", "confirm"),
        frozenset({"admin", "chief_referee"}),
    ),
    ("POST", "/api/events/{event_id}/rounds/{number}/results"): (_round_results, REFEREES),
    # Live play (issue #11): the referee console's actions, individual and team boards
    **_live_actions(LIVE_GAME, team=False),
    **_live_actions(TEAM_LIVE_GAME, team=True),
    ("POST", "/api/events/{event_id}/teams/{team_id}/players/{player_id}/invite"): (
        _team_invite,
        RUNNERS,
    ),
    # The voice clock's replay reads and stores nothing: open to everybody, anonymous too.
    ("POST", "/api/clock/replay"): (_replay_clock, frozenset(ACTORS)),
    # Team events: a coach or captain holds the player role and submits for its own team
    # (the player coaches A: test_r_fmt_1_a_coach_cannot_submit_another_teams_lineup); referees
    # record board results.
    ("POST", "/api/events/{event_id}/rounds/{number}/lineups"): (
        _submit_lineup,
        frozenset({"admin", "organiser", "chief_referee", "player"}),
    ),
    ("POST", "/api/events/teams"): (_create_team_event, ORGANISERS),
    ("POST", "/api/events/{event_id}/teams/import"): (_import_teams, RUNNERS),
    ("POST", "/api/events/{event_id}/teams/coaches"): (_assign_coach, RUNNERS),
    ("PUT", "/api/events/{event_id}/teams/{team_id}"): (_rename_team, RUNNERS),
    ("DELETE", "/api/events/{event_id}/teams/{team_id}"): (_delete_team, RUNNERS),
    ("PUT", "/api/events/{event_id}/teams/{team_id}/players/{player_id}"): (
        _edit_roster_player,
        RUNNERS,
    ),
    ("POST", "/api/events/{event_id}/rounds/{number}/reveal"): (_reveal_team_round, CHIEF),
    ("POST", "/api/events/{event_id}/rounds/{number}/playoff"): (_record_playoff, REFEREES),
}
#: The endpoints every event has whose work depends on its kind: the same address, the same
#: roles, for a team event (issue #10: one address scheme). Each is in ``ENDPOINTS`` with an
#: individual event; here with a team event.
TEAM_KIND: dict[tuple[str, str], tuple[Callable[[World, str], Send], frozenset[str]]] = {
    ("POST", "/api/events/{event_id}/rounds"): (_pair_team_round, CHIEF),
    ("PUT", "/api/events/{event_id}/rounds/{number}/start"): (_team_round_start, RUNNERS),
    ("POST", "/api/events/{event_id}/rounds/{number}/results"): (_record_boards, REFEREES),
}
# R-REF-7 on team boards: the same workflow, the same roles, as on an individual event's board
ENDPOINTS.update(
    {
        ("POST", f"{TEAM_GAME}/{what}"): (_team_game_write(what, body, *steps), who)
        for what, body, steps, who in WORKFLOW
    }
)
# Logging in and out are open to everybody; ``test_everyone_logs_in_and_out`` covers them.
# So is spending an invitation code for a program's session (it logs in as the entrant's
# code-only account): tests/live/test_bot_sessions.py covers it.
SESSION_ENDPOINTS = {
    ("POST", "/api/session"),
    ("DELETE", "/api/session"),
    ("POST", "/api/invites/session"),
    ("POST", "/api/signup"),  # makes its own account: tests/server/test_signup.py
}


def snapshot(db: Database) -> tuple[object, ...]:
    """What an action may change, read as plain columns: users, events, role grants, the
    tournaments, every board's result and record head, the team events.

    The world grows by a tournament or two a test, and this is read twice a test: through the
    services' objects (``site_overview``) it took most of the module's time (O(tests²))."""
    with db.transaction() as session:
        read = session.connection()  # plain rows: the ORM's took half the module's time
        users = _plain(
            read.execute(
                select(User.username, User.is_admin, User.session_epoch).order_by(User.username)
            )
        )
        events = read.scalars(
            select(EventRow.name).order_by(EventRow.created_at.desc(), EventRow.id.desc())
        ).all()
        grants = _plain(
            read.execute(
                select(User.username, EventRole.event_id, EventRole.role)
                .join(User, User.id == EventRole.user_id)
                .order_by(EventRole.event_id, EventRole.role, User.username)
            )
        )
        boards = _plain(read.execute(select(GameRow.id, GameRow.result, GameRow.confirmed)))
        claims = _plain(read.execute(select(EntryClaimRow.id, EntryClaimRow.state)))
        links = _plain(read.execute(select(PlayerAccountRow.id, PlayerAccountRow.user_id)))
        records = _plain(read.execute(select(GameRecordRow.game_id, GameRecordRow.head)))
    return (
        users,
        events,
        grants,
        tournament_state(db),
        sorted(boards),
        sorted(records),
        team_state(db),
        sorted(claims),
        sorted(links, key=str),
    )


def team_state(db: Database) -> tuple[object, ...]:
    """Teams, rounds, lineups, reveals and playoffs of every team event (its boards are the
    games of :func:`state`)."""
    from weiqi.store.teams import (
        LineupBoardRow,
        LineupRow,
        TeamCoachRow,
        TeamMatchRow,
        TeamRow,
    )
    from weiqi.store.tournament import PlayerRow

    with db.transaction() as session:
        read = session.connection()  # plain rows: the ORM's took half the module's time
        lineups: dict[tuple[int, int], list[str]] = {}
        for round_id, team_id, code in read.execute(
            select(LineupRow.round_id, LineupRow.team_id, PlayerRow.player_code)
            .outerjoin(LineupBoardRow, LineupBoardRow.lineup_id == LineupRow.id)
            .outerjoin(PlayerRow, PlayerRow.id == LineupBoardRow.player_id)
            .order_by(LineupRow.id, LineupBoardRow.position)
        ):
            players = lineups.setdefault((round_id, team_id), [])
            if code is not None:  # a forfeit's lineup names nobody
                players.append(code)
        return (
            sorted(_plain(read.execute(select(TeamCoachRow.team_id, TeamCoachRow.user_id)))),
            sorted((r, t, tuple(players)) for (r, t), players in lineups.items()),
            sorted(_plain(read.execute(select(TeamRow.event_id, TeamRow.code, TeamRow.name)))),
            sorted(
                _plain(
                    read.execute(
                        select(PlayerRow.id, PlayerRow.name, PlayerRow.rank).where(
                            PlayerRow.team_id.is_not(None)
                        )
                    )
                )
            ),
            sorted(
                _plain(
                    read.execute(select(RoundRow.event_id, RoundRow.number, RoundRow.revealed_at))
                ),
                key=str,
            ),
            sorted(_plain(read.execute(select(TeamMatchRow.id, TeamMatchRow.playoff_winner_id)))),
        )


def tournament_state(db: Database) -> tuple[object, ...]:
    """Settings, players and rounds of every tournament, for "nothing changed"."""
    with db.transaction() as session:
        read = session.connection()  # plain rows: the ORM's took half the module's time
        return (
            _plain(read.execute(select(EventSettingsRow.event_id, EventSettingsRow.settings_json))),
            _plain(read.execute(select(PlayerRow.name, PlayerRow.withdrawn_after))),
            _plain(
                read.execute(
                    select(
                        RoundRow.event_id, RoundRow.number, RoundRow.published, RoundRow.starts_at
                    )
                )
            ),
        )


def _plain(result: Result[Any]) -> list[tuple[Any, ...]]:
    """Rows as plain tuples, which sort and compare at C speed (rows do not)."""
    return [tuple(row) for row in result]


#: Writes any logged-in user may make: an anonymous caller is asked to log in (401) before
#: anything else, where one without the action's role is refused (403).
LOGIN_ONLY = {
    ("POST", "/api/account/password"),
    ("POST", "/api/events/{event_id}/claims"),
    ("DELETE", "/api/claims/{claim_id}"),
    ("POST", "/api/invites/redeem"),
}

CASES = [(endpoint, False) for endpoint in ENDPOINTS] + [(endpoint, True) for endpoint in TEAM_KIND]


@pytest.mark.parametrize(
    ("endpoint", "team"), CASES, ids=lambda e: f"{e[0]} {e[1]}" if isinstance(e, tuple) else str(e)
)
@pytest.mark.parametrize("actor", ACTORS)
def test_r_org_1_permissions(
    world: World, endpoint: tuple[str, str], team: bool, actor: str
) -> None:
    """R-ORG-1: allowed roles succeed; every other gets 403 (401 if anonymous) and no change.
    An endpoint whose work depends on the event's kind is tried with either kind."""
    prepare, allowed = (TEAM_KIND if team else ENDPOINTS)[endpoint]
    send = prepare(world, actor)  # its set-up (a user to grant a role to, …) comes first
    before = snapshot(world.db)
    response = send()
    if actor in allowed:
        assert response.status_code in (200, 201, 204), response.text
        return
    expected = 401 if actor == "anonymous" and endpoint in LOGIN_ONLY else 403
    assert response.status_code == expected, response.text
    assert response.json()["error"] in ("permission_denied", "login_required")
    assert snapshot(world.db) == before


def test_r_fmt_1_a_coach_cannot_submit_another_teams_lineup(world: World) -> None:
    """R-FMT-1: the player coaches team A; its lineup for team B is refused (403) and changes
    nothing, the organiser's is sealed."""
    _team_rounds(world)
    lineup = {"team": "B", "players": [f"B{i}" for i in range(8, 0, -1)]}
    path = f"/api/events/{world.event_id}/rounds/2/lineups"
    before = snapshot(world.db)
    response = world.call("player", "POST", path, json=lineup)()
    assert response.status_code == 403, response.text
    assert "do not coach" in response.json()["message"]
    assert snapshot(world.db) == before
    assert world.call("organiser", "POST", path, json=lineup)().status_code == 204
    assert snapshot(world.db) != before


@pytest.mark.parametrize("endpoint", list(ENDPOINTS), ids=lambda e: f"{e[0]} {e[1]}")
def test_every_write_endpoint_needs_the_csrf_token(world: World, endpoint: tuple[str, str]) -> None:
    method, path = endpoint
    path = path.format(
        event_id=world.event_id,
        user_id=world.user_ids["player"],
        role="player",
        player_id=1,
        team_id=1,
        number=1,
        board=1,
        match=1,
        claim_id=1,
    )
    before = snapshot(world.db)
    response = world.app_clients["admin"].request(method, path, json={})
    assert response.status_code == 403 and response.json()["error"] == "csrf"
    assert snapshot(world.db) == before


def test_the_matrix_covers_every_write_endpoint(world: World) -> None:
    schema = world.app_clients["anonymous"].get("/openapi.json").json()
    writes = {
        (method.upper(), path)
        for path, operations in schema["paths"].items()
        for method in operations
        if method.upper() in ("POST", "PUT", "PATCH", "DELETE")
    }
    assert writes == set(ENDPOINTS) | SESSION_ENDPOINTS


@pytest.mark.parametrize("actor", sorted(LOGGED_IN))
def test_everyone_logs_in_and_out(world: World, actor: str) -> None:
    with TestClient(world.app_clients["anonymous"].app) as client:
        api_login(client, actor, ADMIN_PASSWORD if actor == "admin" else PASSWORD)
        assert client.get("/api/session").json()["user"]["username"] == actor
        out = client.delete("/api/session", headers={"X-CSRF-Token": csrf(client)})
        assert out.status_code == 204
        assert client.get("/api/session").json()["user"] is None
