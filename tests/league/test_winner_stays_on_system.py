"""R-FMT-3 擂台赛 as a competition system: paired by ``system_for`` and ranked by the generic
standings, through the same entry points as a team round robin."""

from __future__ import annotations

import pytest

from weiqi.errors import Conflict
from weiqi.league.team_rounds import team_entrants, team_event, team_settings
from weiqi.league.winner_stays_on import PlayerOrder, StageSetup, WinnerStaysOn, stage_event
from weiqi.messages import Msg
from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result
from weiqi.tournament.records import Event, EventKind, Round
from weiqi.tournament.scoring import competitors, histories
from weiqi.tournament.settings import System
from weiqi.tournament.standings import Standing, rank
from weiqi.tournament.systems import TournamentSystem, system_for

BLACK = Result.win(Color.BLACK, Reason.RESIGNATION)
WHITE = Result.win(Color.WHITE, Reason.RESIGNATION)


def play_out(system: TournamentSystem, event: Event, results: list[Result]) -> Event:
    """Pair each round through the protocol and record its one game's result."""
    for result in results:
        plan = system.next_round(event)
        event = event.with_round(
            Round(plan.number, tuple(g.with_result(result) for g in plan.games))
        )
    return event


def table(event: Event) -> list[Standing]:
    """The generic standings of any event, players or teams."""
    return rank(competitors(event, histories(event)), ())


def test_r_fmt_3_winner_stays_on_paired_and_ranked_like_a_team_round_robin() -> None:
    """R-FMT-3: the 擂台赛 and a team round robin go through ``system_for``, ``next_round``
    and the same standings; the 擂台赛's rounds are its games, team against team."""
    settings = team_settings(System.ROUND_ROBIN)
    teams = team_entrants(["CN", "JP", "KR"])
    robin = system_for(settings, EventKind.TEAM)
    robin_event = play_out(robin, team_event(settings, teams, []), [BLACK] * 3)
    assert robin.is_finished(robin_event)
    assert [s.id for s in table(robin_event)] and all(s.points == 2 for s in table(robin_event))

    setup = StageSetup({"CN": ["c1", "c2"], "JP": ["j1", "j2"], "KR": ["k1"]})
    stage = system_for(settings, EventKind.TEAM, setup)
    event = Event(settings, team_entrants(setup.teams), kind=EventKind.TEAM)
    # the challenger takes black and wins each game; the loser's team sends the next player
    event = play_out(stage, event, [BLACK, BLACK, BLACK, BLACK])
    games = [(g.black, g.white, g.label) for r in event.rounds for g in r.games]
    assert games == [
        ("JP", "CN", "j1–c1"),
        ("CN", "JP", "c2–j1"),
        ("JP", "CN", "j2–c2"),
        ("KR", "JP", "k1–j2"),
    ]
    assert stage.is_finished(event) and stage.eliminated(event) == {"CN", "JP"}
    assert stage.blocker(event) == Msg("the match is over")
    with pytest.raises(Conflict):
        stage.next_round(event)
    # the table counts the games each team won (2 a win); the 擂台赛's winner is the last
    # team standing (KR), which the service names instead of a table
    ranked = table(event)
    assert [(s.id, s.points) for s in ranked] == [("JP", 4), ("CN", 2), ("KR", 2)]
    assert event == stage_event(setup, [BLACK] * 4, settings)


def test_r_fmt_3_winner_stays_on_system_waits_for_a_result_and_a_sent_player() -> None:
    """R-FMT-3: the next game waits for the last one's result, and in chosen order for the
    player the losing team sends; the system replays the state machine the service keeps."""
    teams = {"CN": ["c1", "c2"], "JP": ["j1", "j2"]}
    setup = StageSetup(teams, PlayerOrder.CHOSEN, sends=(("CN", "c2"), ("JP", "j1")))
    system = system_for(team_settings(System.MATCH), EventKind.TEAM, setup)
    event = stage_event(setup, [])
    plan = system.next_round(event)
    assert [(g.black, g.white, g.label) for g in plan.games] == [("JP", "CN", "j1–c2")]
    playing = event.with_round(plan.to_round())
    assert system.blocker(playing) == Msg(
        "round %(rounds)s: no final result on board(s) %(boards)s", rounds=1, boards="1"
    )
    event = event.with_round(Round(1, (plan.games[0].with_result(BLACK),)))
    assert system.blocker(event) == Msg(
        "%(awaiting)s must send its next player first", awaiting="CN"
    )
    machine = WinnerStaysOn(teams, PlayerOrder.CHOSEN)
    machine.send("CN", "c2")
    machine.send("JP", "j1")
    machine.next_game()
    machine.record(BLACK)
    replayed = system.replay(event)  # type: ignore[attr-defined]
    assert (replayed.out, replayed.awaiting) == (machine.out, machine.awaiting)
