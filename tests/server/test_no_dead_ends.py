"""Issue #13, "Settings and results": a drawn knockout game says at once that a playoff (加赛)
decides it and links to where its result is entered (R-PLAYOFF); the manage page says why the
next round cannot be paired instead of offering a button that fails; a refused form — a stale
second tab, a correction without a reason — comes back to the page it was sent from with the
problem next to its field and what was typed kept, never the bare error page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tests.server.conftest import api_login
from weiqi.cli import app
from weiqi.errors import Conflict
from weiqi.i18n import render
from weiqi.roles import Role
from weiqi.services import accounts, event_admin, games
from weiqi.services import tournament as t
from weiqi.services.actor import Actor
from weiqi.services.event_admin import publish_round
from weiqi.services.events import create_event
from weiqi.store.database import Database
from weiqi.tournament.records import Event
from weiqi.tournament.settings import EventSettings, System
from weiqi.tournament.systems import pairing_blocker

LOCAL = Actor.local()
PASSWORD = "quiet tortoise 123"


def _event(
    db: Database, settings: EventSettings, players: int, *roles: Role, pair: bool = True
) -> int:
    ev = create_event(db, LOCAL, "淘汰赛", settings).id
    names = "\n".join(f"棋手{i}" for i in range(1, players + 1))
    t.import_players(db, LOCAL, ev, f"name\n{names}\n")
    if pair:
        t.pair_round(db, LOCAL, ev)
        publish_round(db, LOCAL, ev, 1)
    for role in roles:
        user = accounts.create_user(db, LOCAL, role.value, PASSWORD)
        accounts.grant_role(db, LOCAL, user.id, ev, role)
    return ev


def _token(html: str) -> str:
    found = re.search(r'name="csrf-token" content="([^"]+)"', html)
    assert found
    return found.group(1)


KNOCKOUT = EventSettings(system=System.KNOCKOUT)


# -- a drawn knockout game and its playoff (R-PLAYOFF) ---------------------------------------


def test_r_playoff_a_draw_entered_on_the_sheet_names_the_playoff_until_it_is_recorded(
    client: TestClient, database: Database
) -> None:
    """R-PLAYOFF: a draw confirmed from the round sheet of a knockout: the sheet at once lists
    the board as waiting for its playoff, with a link to where its result is entered, and
    marks its row; once the playoff's result is in, both are gone."""
    ev = _event(database, KNOCKOUT, 4, Role.CHIEF_REFEREE)
    api_login(client, "chief_referee", PASSWORD)
    url = f"/events/{ev}/rounds/1/results"
    token = _token(client.get(url).text)
    sheet = client.post(url, data={"csrf_token": token, "result_1": "0", "result_2": "B+R"})
    assert sheet.status_code == 200 and 'id="playoffs-due"' in sheet.text
    assert "加赛" in sheet.text
    assert f'href="/events/{ev}/rounds/1/boards/1#played-again"' in sheet.text
    assert 'class="playoff-due"' in sheet.text and 'name="result_1"' in sheet.text
    assert games.game_view(database, ev, 1, 1).playoff_due

    done = client.post(url, data={"csrf_token": token, "result_1": "W+R"})
    assert done.status_code == 200
    assert 'id="playoffs-due"' not in done.text and 'class="playoff-due"' not in done.text
    view = games.game_view(database, ev, 1, 1)
    assert view.result == "W+R" and not view.playoff_due


def test_r_playoff_the_game_page_warns_on_entering_and_on_confirming_a_draw(
    client: TestClient, database: Database
) -> None:
    """R-PLAYOFF: on the game page, entering a draw in a knockout says at once that a playoff
    will decide it; confirming it says so again and opens the page at the playoff's form."""
    ev = _event(database, KNOCKOUT, 4, Role.CHIEF_REFEREE)
    api_login(client, "chief_referee", PASSWORD)
    url = f"/events/{ev}/rounds/1/boards/1"
    page = client.get(url)
    seq = games.game_view(database, ev, 1, 1).seq
    entered = client.post(
        f"{url}/result",
        data={"csrf_token": _token(page.text), "entry": "0", "seq": seq},
        follow_redirects=False,
    )
    assert entered.status_code == 303 and entered.headers["location"].endswith("#playoff-due")
    shown = client.get(entered.headers["location"]).text
    assert 'id="playoff-due"' in shown and shown.count("加赛") >= 2  # the flash and the notice
    seq = games.game_view(database, ev, 1, 1).seq
    confirmed = client.post(
        f"{url}/confirm",
        data={"csrf_token": _token(shown), "seq": seq},
        follow_redirects=False,
    )
    assert confirmed.headers["location"].endswith("#played-again")
    shown = client.get(confirmed.headers["location"]).text
    assert 'id="played-again"' in shown and 'href="#played-again"' in shown


def test_r_playoff_a_draw_outside_a_knockout_needs_no_playoff(
    client: TestClient, database: Database
) -> None:
    """A drawn round-robin game is final: no playoff is announced."""
    ev = _event(database, EventSettings(system=System.ROUND_ROBIN), 4, Role.CHIEF_REFEREE)
    t.record_result(database, LOCAL, ev, 1, 1, "0")
    api_login(client, "chief_referee", PASSWORD)
    assert not games.game_view(database, ev, 1, 1).playoff_due
    assert 'id="playoffs-due"' not in client.get(f"/events/{ev}/rounds/1/results").text


# -- the manage page never offers a round that cannot be paired ------------------------------


def _dashboard_blocker(db: Database, ev: int) -> str | None:
    why = event_admin.dashboard(db, LOCAL, ev).pair_blocker
    return render(why, "en") if why is not None else None


def test_the_dashboard_says_why_the_next_round_cannot_be_paired(database: Database) -> None:
    """The dashboard's reason is what pairing would refuse with: a knockout waiting for a
    playoff, a round still without results, a Swiss whose field is down to one player; none
    where the round pairs."""
    ko = _event(database, KNOCKOUT, 4)
    assert "no final result" in (_dashboard_blocker(database, ko) or "")
    t.record_result(database, LOCAL, ko, 1, 1, "0")
    t.record_result(database, LOCAL, ko, 1, 2, "B+R")
    why = _dashboard_blocker(database, ko)
    assert why is not None and "playoff" in why
    with pytest.raises(Conflict) as refused:
        t.pair_round(database, LOCAL, ko)
    assert render(refused.value.msg, "en") == why
    t.record_result(database, LOCAL, ko, 1, 1, "B+R")  # the playoff's result
    assert _dashboard_blocker(database, ko) is None
    assert t.pair_round(database, LOCAL, ko).number == 2

    swiss = _event(database, EventSettings(system=System.SWISS, rounds=3), 3, pair=False)
    for name in ("棋手1", "棋手2"):
        t.withdraw_player(database, LOCAL, swiss, name)
    assert _dashboard_blocker(database, swiss) == "round 1: fewer than two players left to pair"
    empty = _event(database, EventSettings(system=System.ROUND_ROBIN), 0, pair=False)
    assert "at least two players" in (_dashboard_blocker(database, empty) or "")


@pytest.mark.parametrize(
    "settings",
    [
        EventSettings(system=System.SWISS, rounds=2),
        EventSettings(system=System.ROUND_ROBIN),
        KNOCKOUT,
        EventSettings(system=System.DOUBLE_ELIMINATION),
    ],
    ids=["swiss", "round_robin", "knockout", "double_elimination"],
)
def test_the_blocker_is_none_exactly_when_the_round_pairs(
    database: Database, settings: EventSettings
) -> None:
    """Through a whole event (draws included), the blocker is ``None`` exactly when pairing
    succeeds, and otherwise it is the refusal pairing gives."""
    ev = _event(database, settings, 5, pair=False)
    for _ in range(12):
        event, _players = _load(database, ev)
        why = pairing_blocker(event.settings, event)
        try:
            number = t.pair_round(database, LOCAL, ev).number
        except Conflict as err:
            assert why == err.msg
            break
        assert why is None
        for g in games.round_games(database, ev, number):
            if not g.confirmed:  # a draw on board 1 (a playoff in a bracket), wins elsewhere
                entry = "0" if g.board == 1 else "B+R"
                t.record_result(database, LOCAL, ev, number, g.board, entry)
                if games.game_view(database, ev, number, g.board).played_again:
                    probe, _players = _load(database, ev)
                    assert pairing_blocker(probe.settings, probe) is not None
                    t.record_result(database, LOCAL, ev, number, g.board, "W+R")
    else:
        pytest.fail("the event never finished")


def _load(db: Database, ev: int) -> tuple[Event, object]:
    """The event as the core sees it."""
    with db.transaction() as session:
        return t._load(session, ev)


def test_the_manage_page_shows_the_reason_instead_of_the_button(
    client: TestClient, database: Database
) -> None:
    """A knockout waiting for a playoff: the manage page names the board and links to its
    round sheet, with no pairing button; once the playoff is in, the button is back."""
    ev = _event(database, KNOCKOUT, 4, Role.CHIEF_REFEREE)
    t.record_result(database, LOCAL, ev, 1, 1, "0")
    t.record_result(database, LOCAL, ev, 1, 2, "B+R")
    api_login(client, "chief_referee", PASSWORD)
    page = client.get(f"/events/{ev}/manage").text
    assert 'id="pair-blocked"' in page and 'id="pair-round"' not in page
    assert "第2轮" in page and "加赛" in page
    assert f'href="/events/{ev}/rounds/1/results"' in page
    t.record_result(database, LOCAL, ev, 1, 1, "W+R")
    page = client.get(f"/events/{ev}/manage").text
    assert 'id="pair-blocked"' not in page and 'id="pair-round"' in page


# -- never a dead end ------------------------------------------------------------------------


def test_a_stale_tab_entering_a_result_comes_back_to_the_game_page(
    client: TestClient, database: Database
) -> None:
    """A second tab loaded before the board was confirmed sends a result: the game page comes
    back as the board is now (409), the message at its top — not the error page."""
    ev = _event(database, EventSettings(system=System.ROUND_ROBIN), 4, Role.CHIEF_REFEREE)
    api_login(client, "chief_referee", PASSWORD)
    url = f"/events/{ev}/rounds/1/boards/1"
    stale = client.get(url).text
    seq = games.game_view(database, ev, 1, 1).seq
    t.record_result(database, LOCAL, ev, 1, 1, "B+R")
    answer = client.post(
        f"{url}/result", data={"csrf_token": _token(stale), "entry": "W+R", "seq": seq}
    )
    assert answer.status_code == 409
    assert 'id="game-facts"' in answer.text and 'id="refused"' in answer.text
    assert "autofocus" in answer.text and 'id="correct-result"' in answer.text


def test_a_correction_names_every_problem_next_to_its_field_and_keeps_the_input(
    client: TestClient, database: Database
) -> None:
    """A correction with a bad result and a blank reason: both named at once, next to their
    fields, the result typed kept and focused (422) — the board unchanged."""
    ev = _event(database, EventSettings(system=System.ROUND_ROBIN), 4, Role.CHIEF_REFEREE)
    t.record_result(database, LOCAL, ev, 1, 1, "B+R")
    api_login(client, "chief_referee", PASSWORD)
    url = f"/events/{ev}/rounds/1/boards/1"
    page = client.get(url).text
    seq = games.game_view(database, ev, 1, 1).seq
    answer = client.post(
        f"{url}/correction",
        data={"csrf_token": _token(page), "result": "W+X", "reason": "  ", "seq": seq},
    )
    assert answer.status_code == 422 and 'id="game-facts"' in answer.text
    assert 'id="correct-result-result-error"' in answer.text
    assert 'id="correct-result-reason-error"' in answer.text
    assert re.search(r'name="result" [^>]*value="W\+X" autofocus', answer.text)
    assert games.game_view(database, ev, 1, 1).result == "B+R"


def test_a_second_tab_pairing_again_ends_on_the_manage_page_with_the_reason(
    client: TestClient, database: Database
) -> None:
    """Round 1 paired in one tab; the other tab's "pair round 1" comes back to the manage
    page with why (round 1 has no results yet), not the error page."""
    ev = _event(database, EventSettings(system=System.SWISS, rounds=3), 4, Role.CHIEF_REFEREE,
                pair=False)  # fmt: skip
    api_login(client, "chief_referee", PASSWORD)
    page = client.get(f"/events/{ev}/manage").text
    t.pair_round(database, LOCAL, ev)
    answer = client.post(
        f"/events/{ev}/manage/rounds", data={"csrf_token": _token(page)}, follow_redirects=False
    )
    assert answer.status_code == 303 and answer.headers["location"].endswith("/manage#rounds")
    shown = client.get(answer.headers["location"]).text
    assert 'role="status"' in shown and "第1轮" in shown and 'id="pair-round"' not in shown


def test_an_empty_round_sheet_comes_back_with_its_reason(
    client: TestClient, database: Database
) -> None:
    """A round sheet sent without any result: the sheet again with the reason, not an error
    page."""
    ev = _event(database, EventSettings(system=System.ROUND_ROBIN), 4, Role.CHIEF_REFEREE)
    api_login(client, "chief_referee", PASSWORD)
    url = f"/events/{ev}/rounds/1/results"
    answer = client.post(url, data={"csrf_token": _token(client.get(url).text)})
    assert answer.status_code == 422 and 'id="problems"' in answer.text
    assert 'id="round-sheet"' in answer.text


def test_r_playoff_the_api_and_the_command_line_say_a_playoff_is_due(
    client: TestClient, database: Database, tmp_path: Path
) -> None:
    """R-PLAYOFF: a draw in a knockout through the API answers ``playoff_due`` and through
    ``weiqi round result`` prints a note with the command to enter the playoff's result."""
    ev = _event(database, KNOCKOUT, 4, Role.CHIEF_REFEREE)
    api_login(client, "chief_referee", PASSWORD)
    token = _token(client.get(f"/events/{ev}/rounds/1/results").text)
    h = {"X-CSRF-Token": token}
    base = f"/api/events/{ev}/rounds/1/boards/1"
    entered = client.post(f"{base}/result", json={"result": "0"}, headers=h)
    assert entered.status_code == 200, entered.text
    view = entered.json()
    assert view["result"] == "0" and view["playoff_due"]

    runner = CliRunner()
    db = str(tmp_path / "ko.sqlite3")
    (tmp_path / "p.csv").write_text("name\nA\nB\nC\nD\n", encoding="utf-8")
    for args in (
        ["event", "create", "--db", db, "--name", "KO", "--system", "knockout"],
        ["player", "import", "--db", db, str(tmp_path / "p.csv")],
        ["round", "pair", "--db", db],
    ):
        assert runner.invoke(app, args).exit_code == 0
    drawn = runner.invoke(app, ["round", "result", "0", "--round", "1", "--board", "1", "--db", db])
    assert drawn.exit_code == 0, drawn.output
    assert "note: a knockout game needs a winner" in drawn.output
    won = runner.invoke(app, ["round", "result", "B+R", "--round", "1", "--board", "1", "--db", db])
    assert won.exit_code == 0 and "note:" not in won.output
