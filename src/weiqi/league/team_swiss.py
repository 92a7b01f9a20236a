"""Team Swiss (积分编排 on teams, R-FMT-3 with R-RANK-TEAM): the individual pairing engine
(``weiqi.tournament.pairing``) pairs teams by match points; "black" there is team A here, the
team listed first, black on board 1 (``BoardColors.ALTERNATE``), so board colours balance over
the rounds the way a player's colours do.

>>> from weiqi.league.match import TeamMatch
>>> from weiqi.rules.color import Color
>>> from weiqi.rules.result import Reason, Result
>>> win = Result.win(Color.BLACK, Reason.RESIGNATION)
>>> r1 = [TeamMatch.pair("A", "D", ("a",), ("d",)).record(1, win),
...       TeamMatch.pair("C", "B", ("c",), ("b",)).record(1, win)]
>>> fixtures, bye = pair_team_round(["A", "B", "C", "D"], [r1], seeding=["A", "B", "C", "D"])
>>> sorted((f.home, f.away) for f in fixtures), bye  # winners meet, losers meet, colours swap
([('B', 'D'), ('C', 'A')], None)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from weiqi.errors import InputError
from weiqi.league.calendar import Fixture
from weiqi.league.match import TeamMatch
from weiqi.league.standings import BYE_MATCH_POINTS
from weiqi.messages import Msg
from weiqi.tournament.pairing import Candidate, PairingOptions, pair


def team_candidates(
    teams: Sequence[str],
    rounds: Sequence[Iterable[TeamMatch]],
    seeding: Sequence[str],
    byes: Iterable[str] = (),
    clubs: dict[str, str] | None = None,
) -> list[Candidate]:
    """The teams as the pairing engine sees them: score = match points of finished matches
    plus ``BYE_MATCH_POINTS`` for each of the team's ``byes`` (a bye is a won match), seed =
    place in ``seeding`` (strongest first), colours = team A ("B") or team B ("W") by round,
    opponents = teams already met."""
    seed = {t: i for i, t in enumerate(seeding)}
    missing = [t for t in teams if t not in seed]
    if missing:
        raise InputError(
            "seeding", Msg("no seeding place for %(missing)s", missing=", ".join(missing))
        )
    points = dict.fromkeys(teams, 0)
    colours = dict.fromkeys(teams, "")
    met: dict[str, set[str]] = {t: set() for t in teams}
    for matches in rounds:
        for m in matches:
            for team, mark in ((m.a, "B"), (m.b, "W")):
                if team not in points:
                    continue
                colours[team] += mark
                met[team].add(m.opponent(team))
                if m.finished:
                    s = m.score()
                    points[team] += s.match_points_a if team == m.a else s.match_points_b
    byes = list(byes)
    for team in byes:
        if team in points:
            points[team] += BYE_MATCH_POINTS
    had_bye = set(byes)
    return [
        Candidate(
            t,
            score=points[t],
            seed=seed[t],
            colours=colours[t],
            opponents=frozenset(met[t]),
            had_bye=t in had_bye,
            club=(clubs or {}).get(t, ""),
        )
        for t in teams
    ]


def pair_team_round(
    teams: Sequence[str],
    rounds: Sequence[Iterable[TeamMatch]],
    seeding: Sequence[str],
    byes: Iterable[str] = (),
    options: PairingOptions | None = None,
    rng: random.Random | None = None,
) -> tuple[list[Fixture], str | None]:
    """The next round's fixtures (best score groups first) and the team with the bye, if any.

    No two teams meet twice; ``options`` are the individual engine's (fold or slip, avoiding
    the same club …); ``rng`` breaks colour ties only (seed it and record the seed).
    """
    rounds = [list(r) for r in rounds]
    cands = team_candidates(teams, rounds, seeding, byes)
    result = pair(cands, options, rng=rng or random.Random(0))
    number = len(rounds) + 1
    fixtures = [Fixture(number, p.black, p.white) for p in result.pairs]
    return fixtures, result.bye
