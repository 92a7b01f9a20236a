"""Colours and handicap of a pairing under the event's colour policy (R-SCORE-3, R-HCP-1/2).

Even games keep the colours the system chose, with the event's komi (3¾ stones by default).
With the handicap policy, the weaker player takes Black: one rank apart is 让先 (no komi), more
is that many stones (no komi; the ruleset gives back half the stones at counting).

>>> from weiqi.tournament.players import Entrant
>>> from weiqi.tournament.ranks import Rank
>>> from weiqi.tournament.settings import EventSettings, System
>>> s = EventSettings(system=System.SWISS, rounds=3, colour_policy="handicap")
>>> a, b = Entrant("a", "A", Rank.parse("5d")), Entrant("b", "B", Rank.parse("2d"))
>>> g = even_or_handicap(s, 1, 1, a, b)
>>> g.black, g.white, g.handicap, g.komi
('b', 'a', 3, Fraction(0, 1))
"""

from __future__ import annotations

from fractions import Fraction

from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result
from weiqi.tournament.players import Entrant
from weiqi.tournament.ranks import handicap_between
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
) -> Game:
    """The game for a pair whose colours the system chose, adjusted for the colour policy.

    ``forfeit_winner`` presets a forfeit result (a withdrawn opponent, R-WD-1).
    """
    if settings.colour_policy == "handicap" and black.rank is not None and white.rank is not None:
        stronger, weaker = (
            (black, white) if black.rank.strength >= white.rank.strength else (white, black)
        )
        assert stronger.rank is not None and weaker.rank is not None
        stones = handicap_between(
            stronger.rank,
            weaker.rank,
            reduction=settings.handicap_reduction,
            maximum=settings.handicap_max,
        )
        if stones >= 1:
            black, white = weaker, stronger
            return Game(
                round_number,
                board,
                black.id,
                white.id,
                _forfeit(black, forfeit_winner),
                stones,
                Fraction(0),
                label,
            )
    result = _forfeit(black, forfeit_winner)
    return Game(round_number, board, black.id, white.id, result, 0, settings.komi, label)


def _forfeit(black: Entrant, winner: str | None) -> Result | None:
    if winner is None:
        return None
    return Result.win(Color.BLACK if winner == black.id else Color.WHITE, Reason.FORFEIT)
