"""Game points (R-SCORE-IND-1) and each player's history, derived from the event's rounds.

Every result kind scores: a win 2 / loss 0 (by count, resignation, time, forfeit or ruling), a
draw 1 each, both lose 0 each (counted as played, R-DRAW-LOT), no result and replay per the event
settings, a bye per the settings (Swiss-type systems; in a round robin or a bracket a bye is just
a rest). Round-robin withdrawals with fewer than half the rounds played void all that player's
results (R-WD-1). Every paired game — a forfeit too — counts as met, so the pair is never paired
again; a forfeit gives no colour (the game was not played) and no float.

>>> from weiqi.rules.color import Color
>>> from weiqi.rules.result import Reason
>>> from weiqi.tournament.settings import EventSettings, System
>>> s = EventSettings(system=System.SWISS, rounds=3)
>>> game_points(Result.win(Color.WHITE, Reason.TIME), s)
(0, 2)
>>> game_points(Result.draw(), s), game_points(Result.both_lose(), s)
((1, 1), (0, 0))
>>> game_points(Result.replay(), s) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from weiqi.rules.color import Color
from weiqi.rules.result import Outcome, Reason, Result
from weiqi.tournament.records import Event, Game
from weiqi.tournament.settings import EventSettings
from weiqi.tournament.standings import Competitor, Encounter

OutcomeLetter = Literal["W", "D", "L", "N"]


def game_points(result: Result | None, settings: EventSettings) -> tuple[int, int] | None:
    """(Black's points, White's points), or None while the game is outstanding."""
    if result is None:
        return None
    o = result.outcome
    if o is Outcome.WIN:
        win, loss = settings.points_win, settings.points_loss
        return (win, loss) if result.winner is Color.BLACK else (loss, win)
    if o is Outcome.DRAW:
        return (settings.points_draw, settings.points_draw)
    if o is Outcome.BOTH_LOSE:
        return (settings.points_loss, settings.points_loss)
    if o is Outcome.BOTH_WIN:
        return (settings.points_win, settings.points_win)
    if o is Outcome.NO_RESULT:
        return (settings.no_result_points, settings.no_result_points)
    if settings.replay_points is None:
        return None
    return (settings.replay_points, settings.replay_points)


def outcome_letter(result: Result, color: Color) -> OutcomeLetter:
    """W/D/L/N of a final ``result`` from ``color``'s side (both lose: L, both win: W)."""
    o = result.outcome
    if o is Outcome.WIN:
        return "W" if result.winner is color else "L"
    if o is Outcome.DRAW:
        return "D"
    if o is Outcome.BOTH_LOSE:
        return "L"
    if o is Outcome.BOTH_WIN:
        return "W"
    return "N"


def is_forfeit(result: Result | None) -> bool:
    return result is not None and result.reason is Reason.FORFEIT


@dataclass
class PlayerHistory:
    """One player's event so far, from the rounds (derived, never stored)."""

    id: str
    points: int = 0
    initial_points: int = 0
    encounters: list[Encounter] = field(default_factory=list)
    opponents: set[str] = field(default_factory=set)
    colors: list[Color] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)
    losses: int = 0
    games_played: int = 0
    floats: list[int] = field(default_factory=list)
    score_before: dict[int, int] = field(default_factory=dict)

    @property
    def color_string(self) -> str:
        return "".join(c.value for c in self.colors)


def voided_players(event: Event) -> frozenset[str]:
    """Round-robin players whose results are void: withdrawn with fewer than half the rounds
    played (R-WD-1, Art. 28.2)."""
    s = event.settings
    if not s.system.is_round_robin:
        return frozenset()
    from weiqi.tournament.systems.round_robin import schedule_length

    total = schedule_length(event)
    out = set()
    for e in event.entrants:
        if e.withdrawn_after is None:
            continue
        played = sum(
            1
            for r in event.rounds[: e.withdrawn_after]
            for g in r.games
            if e.id in g.players and g.result is not None and not is_forfeit(g.result)
        )
        if 2 * played < total:
            out.add(e.id)
    return frozenset(out)


def histories(event: Event, upto: int | None = None) -> dict[str, PlayerHistory]:
    """Each entrant's history over rounds 1..``upto`` (default: all paired rounds).

    Outstanding games (no result yet) count as met for pairing but score nothing yet.
    """
    s = event.settings
    rounds = event.rounds if upto is None else event.rounds[:upto]
    hist = {e.id: PlayerHistory(e.id) for e in event.entrants}
    void = voided_players(event)
    scored_byes = s.system.is_swiss
    for e in event.entrants:
        if e.joined_round > 1 and s.system.is_swiss:
            missed = e.joined_round - 1
            hist[e.id].initial_points = missed * s.late_entry_points
            hist[e.id].points = hist[e.id].initial_points
    absent = [e for e in event.entrants if e.absent_rounds]
    # by id(result): a big event has few distinct results, shared by its games
    scored: dict[int, tuple[_Scored, dict[int, tuple[dict[str, object], dict[str, object]]]]]
    scored = {}
    for rnd in rounds:
        for h in hist.values():
            h.score_before[rnd.number] = h.points
        for g in rnd.games:
            _add_game(hist, g, s, void, scored)
        for pid in rnd.byes:
            h = hist[pid]
            h.byes.append(rnd.number)
            if scored_byes:
                h.points += s.bye_points
                h.encounters.append(Encounter(rnd.number, None, s.bye_points, "W", False))
        for e in absent:
            if rnd.number in e.absent_rounds and e.active_in(rnd.number):
                h = hist[e.id]
                h.points += s.absent_points
                h.encounters.append(Encounter(rnd.number, None, s.absent_points, "N", False))
    return hist


_Scored = tuple[Result, bool, "tuple[int, int] | None", OutcomeLetter, OutcomeLetter]
_new = object.__new__


def _encounter(template: dict[str, object], number: int, opponent: str) -> Encounter:
    """``Encounter(number, opponent, **template)`` without the frozen dataclass's one
    ``object.__setattr__`` a field (a 10,000-player event has 90,000 encounters)."""
    e = _new(Encounter)
    d = e.__dict__
    d.update(template)
    d["round"] = number
    d["opponent"] = opponent
    return e


def _template(
    points: int, letter: OutcomeLetter, in_tb: bool, sos_adjust: int
) -> dict[str, object]:
    """The fields of an :class:`Encounter` besides its round and opponent."""
    return {
        "points": points,
        "outcome": letter,
        "in_tiebreaks": in_tb,
        "game_points": 0,
        "board_points": (),
        "sos_adjust": sos_adjust,
    }


def _add_game(
    hist: Mapping[str, PlayerHistory],
    g: Game,
    s: EventSettings,
    void: frozenset[str],
    scored: dict[int, tuple[_Scored, dict[int, tuple[dict[str, object], dict[str, object]]]]],
) -> None:
    b, w = hist[g.black], hist[g.white]
    b.opponents.add(g.white)
    w.opponents.add(g.black)
    result = g.result
    if result is None:
        _outstanding(b, w, g, s)
        return
    known = scored.get(id(result))
    if known is None or known[0][0] is not result:
        pts = game_points(result, s)
        black_letter = outcome_letter(result, Color.BLACK)
        white_letter = outcome_letter(result, Color.WHITE)
        known = scored[id(result)] = (
            (result, is_forfeit(result), pts, black_letter, white_letter),
            {},
        )
    (_, forfeit, pts, black_letter, white_letter), templates = known
    if not forfeit:
        b.colors.append(Color.BLACK)
        w.colors.append(Color.WHITE)
        gap = b.score_before[g.round] - w.score_before[g.round]
        if gap:
            b.floats.append(1 if gap > 0 else -1)
            w.floats.append(-1 if gap > 0 else 1)
    if pts is None:
        _outstanding(b, w, g, s)
        return
    if void and (g.black in void or g.white in void):
        return
    # handicap-adjusted SOS: the stones Black received are taken off White's score in Black's
    # SOS and added to Black's in White's (a stone is worth a win)
    adjust = g.handicap * s.points_win if s.sos_handicap else 0
    black_points, white_points = pts
    pair = templates.get(adjust)
    if pair is None:  # what both encounters of such a game hold besides round and opponent
        in_tb = s.forfeit_in_sos or not forfeit
        pair = (
            _template(black_points, black_letter, in_tb, -adjust),
            _template(white_points, white_letter, in_tb, adjust),
        )
        templates[adjust] = pair
    black_template, white_template = pair
    b.points += black_points
    w.points += white_points
    b.encounters.append(_encounter(black_template, g.round, g.white))
    w.encounters.append(_encounter(white_template, g.round, g.black))
    if black_letter == "L":
        b.losses += 1
    if white_letter == "L":
        w.losses += 1
    if not forfeit:
        b.games_played += 1
        w.games_played += 1


def _outstanding(b: PlayerHistory, w: PlayerHistory, g: Game, s: EventSettings) -> None:
    """EGF standings count the opponent of a game without its result yet: it is a game, not a
    round without one (a virtual opponent), and scores nothing until it ends."""
    if s.unplayed_sos == "own_start":
        b.encounters.append(Encounter(g.round, g.white, 0, "N"))
        w.encounters.append(Encounter(g.round, g.black, 0, "N"))


def competitors(
    event: Event, hist: Mapping[str, PlayerHistory], initial: Mapping[str, int] | None = None
) -> list[Competitor]:
    """The standings' view of the players (voided round-robin players are left out)."""
    void = voided_players(event)
    extra = initial or {}
    own_start = event.settings.unplayed_sos == "own_start"
    out = []
    for e in event.entrants:
        if e.id in void:
            continue
        if e.withdrawn_after == 0:  # withdrew before the start: not in the event (R-WD-1)
            continue
        h = hist[e.id]
        out.append(
            Competitor(
                id=e.id,
                name=e.name,
                encounters=tuple(h.encounters),
                initial_points=h.initial_points + extra.get(e.id, 0),
                warnings=event.warnings.get(e.id, 0),
                rating=e.rating if e.rating is not None else float(e.strength),
                virtual_opponent=extra.get(e.id, 0) if own_start else None,
            )
        )
    return out


def outstanding_games(event: Event, number: int) -> list[Game]:
    """The games of round ``number`` still waiting for a (final) result."""
    rnd = event.rounds[number - 1]
    return [g for g in rnd.games if game_points(g.result, event.settings) is None]
