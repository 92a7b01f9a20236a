"""Colours and handicap of a pairing under the event's colour policy (R-SCORE-3, R-HCP-1/2).

Even games keep the colours the system chose, with the event's komi (3¾ stones by default).
With the handicap policy, the weaker player takes Black: one rank apart is 让先 (no komi), more
is that many stones (no komi; the ruleset gives back half the stones at counting).

>>> from weiqi.tournament.players import Entrant
>>> from weiqi.tournament.ranks import Rank
>>> from weiqi.tournament.settings import EventSettings, System
>>> s = EventSettings(system=System.SWISS, rounds=3, color_policy="handicap")
>>> a, b = Entrant("a", "A", Rank.parse("5d")), Entrant("b", "B", Rank.parse("2d"))
>>> g = even_or_handicap(s, 1, 1, a, b)
>>> g.black, g.white, g.handicap, g.komi
('b', 'a', 3, Fraction(0, 1))

With a threshold (EGF events: even from 1d up), both players' strengths are capped at it:
two players at or above it play even, a 3d against a 2k plays as 1d against 2k. With the
McMahon basis the McMahon scores before the round (``scores``, in points) decide instead of the
ranks, so a kyu player who won his way up gets fewer stones:

>>> from dataclasses import replace
>>> t = replace(s, handicap_threshold=Rank.parse("1d"))
>>> even_or_handicap(t, 1, 1, a, b).handicap
0
>>> c = Entrant("c", "C", Rank.parse("2k"))
>>> even_or_handicap(t, 1, 1, a, c).handicap, even_or_handicap(s, 1, 1, a, c).handicap
(2, 6)
>>> m = replace(t, handicap_basis="mcmahon")
>>> even_or_handicap(m, 3, 1, a, c, scores={"a": 60, "c": 58}).handicap
1
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result
from weiqi.tournament.players import Entrant
from weiqi.tournament.ranks import Rank, Scale, handicap_between
from weiqi.tournament.records import Game
from weiqi.tournament.settings import EventSettings


def even_or_handicap(
    settings: EventSettings,
    round_number: int,
    board: int,
    black: Entrant,
    white: Entrant,
    forfeit_winner: str | None = None,
    label: str = "",
    scores: Mapping[str, int] | None = None,
    score_cap: int | None = None,
) -> Game:
    """The game for a pair whose colours the system chose, adjusted for the colour policy.

    ``forfeit_winner`` presets a forfeit result (a withdrawn opponent, R-WD-1); ``scores`` are
    the McMahon scores before the round (points), for a handicap on the McMahon basis, capped
    at ``score_cap`` (the start score of the threshold rank).
    """
    stones, weaker = _handicap(settings, black, white, scores, score_cap)
    if stones >= 1:
        stronger = white if weaker is black else black
        return Game(
            round_number,
            board,
            weaker.id,
            stronger.id,
            _forfeit(weaker, forfeit_winner),
            stones,
            Fraction(0),
            label,
        )
    result = _forfeit(black, forfeit_winner)
    return Game(round_number, board, black.id, white.id, result, 0, settings.komi, label)


def _handicap(
    settings: EventSettings,
    a: Entrant,
    b: Entrant,
    scores: Mapping[str, int] | None,
    score_cap: int | None,
) -> tuple[int, Entrant]:
    """The stones of a pair and who takes them (0 stones: an even game)."""
    if settings.color_policy != "handicap" or a.rank is None or b.rank is None:
        return 0, a
    threshold = settings.handicap_threshold
    if settings.handicap_basis == "mcmahon" and scores is not None:
        # McMahon scores in whole wins, capped at ``score_cap`` (what a player of the
        # threshold rank starts with) as ranks are capped at the threshold
        win = settings.points_win
        ma, mb = scores[a.id] // win, scores[b.id] // win
        if score_cap is not None:
            ma, mb = min(ma, score_cap // win), min(mb, score_cap // win)
        if ma == mb:
            return 0, a
        weaker = a if ma < mb else b
        stones = max(0, abs(ma - mb) - settings.handicap_reduction)
        return min(stones, settings.handicap_max), weaker
    ra, rb = a.rank, b.rank
    if threshold is not None and (ra.scale is Scale.PROFESSIONAL) == (
        rb.scale is Scale.PROFESSIONAL
    ):
        ra = Rank.from_strength(min(ra.strength, threshold.strength))
        rb = Rank.from_strength(min(rb.strength, threshold.strength))
    stronger, weaker = (a, b) if ra.strength >= rb.strength else (b, a)
    strong_rank, weak_rank = (ra, rb) if stronger is a else (rb, ra)
    stones = handicap_between(
        strong_rank,
        weak_rank,
        reduction=settings.handicap_reduction,
        maximum=settings.handicap_max,
    )
    return stones, weaker


def _forfeit(black: Entrant, winner: str | None) -> Result | None:
    if winner is None:
        return None
    return Result.win(Color.BLACK if winner == black.id else Color.WHITE, Reason.FORFEIT)
