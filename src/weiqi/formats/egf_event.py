"""An event's results as the EGF results table (``.h9``): what the rating lists read.

:func:`egf_results` takes the event and its standings through a round and gives the
:class:`~weiqi.formats.egf.EgfResults` that :func:`~weiqi.formats.egf.write_h9` writes: every
player with at least one game (the EGF rates games; a player who played none is left out),
in the standings' order and places, names in the EGF's order and letters (Chinese names in
pinyin, surname first: :mod:`weiqi.formats.romanize`; the original name stays in our
database), rank, country, club, the score and tie-break columns in wins, and one result a
round with the opponent's line, colour and handicap.

>>> from weiqi.formats.opengotha_event import read_gotha, to_event
>>> from weiqi.tournament.ranking import standings
>>> from weiqi.tournament.records import Event
>>> from pathlib import Path
>>> data = Path(__file__).parents[3] / "tests" / "data" / "opengotha" / "levallois-2018.xml"
>>> ev = to_event(read_gotha(data.read_bytes()))
>>> table = standings(Event(ev.settings, ev.entrants, ev.rounds))
>>> from weiqi.formats.egf import write_h9
>>> print(write_h9(egf_results(ev, table)).splitlines()[6])
   1 Noel Remy                       2K FR 92Le    4    0 1881 0    5+/w0    4+/w0    2+/w0    6+/w0
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from weiqi.formats.egf import EgfPlayer, EgfResults, EgfRound, Score
from weiqi.formats.opengotha_event import ImportedEvent
from weiqi.formats.romanize import egf_name
from weiqi.rules.color import Color
from weiqi.rules.result import Outcome, Reason
from weiqi.tournament.players import Entrant
from weiqi.tournament.records import Game
from weiqi.tournament.settings import System
from weiqi.tournament.standings import Standing

#: Our tie-break codes under the names the EGF tables give their columns.
COLUMNS = {"SOS": "SOS", "SOSOS": "SOSOS", "SB": "SODOS", "SOS-1": "SOS-1", "CUSS": "CUSS"}
COLUMNS_OTHER = {"DE": "SDC", "RATING": "Rating"}


def _score(value: Fraction | int | float, per_win: int) -> Score:
    exact = Fraction(value) / per_win
    return exact.numerator if exact.denominator == 1 else exact


def egf_results(
    event: ImportedEvent, table: Sequence[Standing], through_round: int | None = None
) -> EgfResults:
    """The table of ``event`` for the standings ``table`` (computed through ``through_round``,
    default every round paired)."""
    s = event.settings
    rounds = through_round or len(event.rounds)
    played = {p for rnd in event.rounds[:rounds] for g in rnd.games for p in g.players}
    rows = [st for st in table if st.id in played]
    line = {st.id: n for n, st in enumerate(rows, start=1)}
    entrants = {e.id: e for e in event.entrants}
    codes = [c for c in s.tiebreak_codes if c in COLUMNS or c in COLUMNS_OTHER]
    criteria = (
        "MMS" if s.system is System.MCMAHON else "NBW",
        *(COLUMNS.get(c) or COLUMNS_OTHER[c] for c in codes),
    )
    win = s.points_win
    # each round's game of each player, found once (a 2,000-player event has 10,000 games)
    games = [{p: g for g in rnd.games for p in g.players} for rnd in event.rounds]
    players = []
    place, previous = 0, None
    for n, st in enumerate(rows, start=1):
        if st.place != previous:
            place, previous = n, st.place
        e = entrants[st.id]
        extra = dict(e.extra)
        if "surname" in extra:
            surname, given = egf_name(extra["surname"], extra.get("given_name", ""))
        else:
            surname, given = egf_name(e.name)
        values: list[Score] = [_score(st.points, win)]
        for code in codes:
            value = st.tiebreaks[code]
            values.append(int(value) if code == "RATING" else _score(value, win))
        players.append(
            EgfPlayer(
                place=place,
                surname=surname,
                given_name=given,
                rank=e.rank.code if e.rank else "30k",
                country=e.country,
                club=e.club,
                criteria=tuple(values),
                rounds=tuple(_round(event, e, r, games, line) for r in range(1, rounds + 1)),
                pin=extra.get("egf_pin", ""),
            )
        )
    header = [("EV", event.name)]
    d = event.details
    if d.venue:  # the EGF's "country,city": the country is not ours to tell
        header.append(("PC", "," + d.venue.replace("]", ")")))
    if d.start_date is not None:
        header.append(("DT", f"{d.start_date},{d.end_date or d.start_date}"))
    header.append(("KM", f"{float(s.komi * 2):g}"))
    if s.color_policy == "handicap":
        header.append(("HA", f"h{s.handicap_reduction}"))
    return EgfResults(header=tuple(header), criteria=criteria, players=tuple(players))


def _round(
    event: ImportedEvent,
    e: Entrant,
    number: int,
    games: Sequence[Mapping[str, Game]],
    line: Mapping[str, int],
) -> EgfRound:
    s = event.settings
    if number > len(event.rounds):
        return EgfRound(0, "-", "", 0)
    rnd = event.rounds[number - 1]
    pid = e.id
    game = games[number - 1].get(pid)
    if game is None:
        points = s.bye_points if pid in rnd.byes else 0
        if pid not in rnd.byes and number in e.absent_rounds:
            points = s.absent_points
        outcome = "+" if points >= s.points_win else "=" if points else "-"
        return EgfRound(0, outcome, "", 0)  # type: ignore[arg-type]
    color = game.color_of(pid)
    result = game.result
    if result is None or result.outcome in (Outcome.NO_RESULT, Outcome.REPLAY):
        outcome = "?"
    elif result.outcome is Outcome.WIN:
        outcome = "+" if result.winner is color else "-"
    elif result.outcome is Outcome.DRAW:
        outcome = "="
    elif result.outcome is Outcome.BOTH_WIN:
        outcome = "+"
    else:
        outcome = "-"
    forfeit = result is not None and result.reason is Reason.FORFEIT
    return EgfRound(
        line[game.opponent_of(pid)],
        outcome,  # type: ignore[arg-type]
        "b" if color is Color.BLACK else "w",
        game.handicap,
        forfeit=forfeit,
    )
