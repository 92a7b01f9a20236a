"""The event so far as values: games, rounds, the event, and a round plan (the next round).

A pairing is a :class:`Game` without a result (or with a result already fixed, such as the
forfeit a withdrawn round-robin player leaves behind, R-WD-1).

>>> from weiqi.tournament.settings import EventSettings, System
>>> from weiqi.tournament.players import Entrant
>>> g = Game(round=1, board=1, black="a", white="b")
>>> g.players, g.opponent_of("a"), g.color_of("b").zh
(('a', 'b'), 'b', '白')
>>> ev = Event(EventSettings(system=System.SWISS, rounds=3), (Entrant("a", "A"), Entrant("b", "B")))
>>> ev.next_round_number
1
>>> ev.kind.zh
'个人赛'
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from weiqi.errors import Conflict, NotFound
from weiqi.messages import Msg
from weiqi.rules.color import Color
from weiqi.rules.result import Outcome, Result
from weiqi.tournament.players import Entrant, by_id
from weiqi.tournament.settings import KOMI_STONES, EventSettings

_new = object.__new__


@dataclass(frozen=True)
class Game:
    """One game of a round: who plays Black and White on which board, and its result.

    ``label`` places the game in a bracket (``WB2-1``, ``LB3-2``, ``GF``) or a match (``G2``).
    ``handicap`` 0 is an even game with ``komi``; 1 is 让先 (komi 0); 2…9 are stones.
    """

    round: int
    board: int
    black: str
    white: str
    result: Result | None = None
    handicap: int = 0
    komi: Fraction = KOMI_STONES
    label: str = ""

    @property
    def players(self) -> tuple[str, str]:
        return (self.black, self.white)

    def opponent_of(self, player: str) -> str:
        # color_of refuses a player not on this board
        return self.white if self.color_of(player) is Color.BLACK else self.black

    def color_of(self, player: str) -> Color:
        if player == self.black:
            return Color.BLACK
        if player == self.white:
            return Color.WHITE
        raise NotFound(
            Msg(
                "%(player)s does not play on board %(board)s of round %(round)s",
                player=player,
                board=self.board,
                round=self.round,
            )
        )

    def winner(self) -> str | None:
        """The winner's id for a won game, else None."""
        if self.result is None or self.result.outcome is not Outcome.WIN:
            return None
        return self.black if self.result.winner is Color.BLACK else self.white

    @classmethod
    def of(
        cls,
        round: int,
        board: int,
        black: str,
        white: str,
        result: Result | None,
        handicap: int,
        komi: Fraction,
        label: str,
    ) -> Game:
        """``Game(round, board, …)``, built without the frozen dataclass's one
        ``object.__setattr__`` a field: loading a 10,000-player event builds 45,000 games.

        >>> Game.of(1, 2, "a", "b", None, 0, KOMI_STONES, "") == Game(1, 2, "a", "b")
        True
        """
        game = _new(cls)
        game.__dict__.update(
            round=round,
            board=board,
            black=black,
            white=white,
            result=result,
            handicap=handicap,
            komi=komi,
            label=label,
        )
        return game

    def with_result(self, result: Result | None) -> Game:
        return Game(
            self.round,
            self.board,
            self.black,
            self.white,
            result,
            self.handicap,
            self.komi,
            self.label,
        )


@dataclass(frozen=True)
class Round:
    """A paired round: its games and the players with a bye (轮空)."""

    number: int
    games: tuple[Game, ...]
    byes: tuple[str, ...] = ()
    seed: int | None = None

    def game_on(self, board: int) -> Game:
        for g in self.games:
            if g.board == board:
                return g
        raise NotFound(
            Msg("round %(number)s has no board %(board)s", number=self.number, board=board)
        )

    def game_of(self, player: str) -> Game | None:
        for g in self.games:
            if player in g.players:
                return g
        return None


class EventKind(enum.Enum):
    """What an event's entrants are: players (个人赛) or teams (团体赛)."""

    INDIVIDUAL = "individual"
    TEAM = "team"

    @property
    def zh(self) -> str:
        return "个人赛" if self is EventKind.INDIVIDUAL else "团体赛"


@dataclass(frozen=True)
class Event:
    """An event as its system sees it: settings, entrants, the rounds paired so far, warnings
    per entrant, and its kind.

    A team event is the same value over team codes (:mod:`weiqi.league.team_rounds` builds it):
    a match is one game whose Black is the home team (listed first) and whose result is the
    match's, and the systems pair it by the same rules as players.
    """

    settings: EventSettings
    entrants: tuple[Entrant, ...]
    rounds: tuple[Round, ...] = ()
    warnings: Mapping[str, int] = field(default_factory=dict)
    kind: EventKind = EventKind.INDIVIDUAL

    def __post_init__(self) -> None:
        by_id(self.entrants)  # refuses duplicate ids
        for i, rnd in enumerate(self.rounds, start=1):
            if rnd.number != i:
                raise Conflict(
                    Msg("round %(number)s stored where round %(i)s belongs", number=rnd.number, i=i)
                )

    @property
    def next_round_number(self) -> int:
        return len(self.rounds) + 1

    @property
    def entrant(self) -> Mapping[str, Entrant]:
        return by_id(self.entrants)

    def with_round(self, rnd: Round) -> Event:
        return Event(self.settings, self.entrants, (*self.rounds, rnd), self.warnings, self.kind)

    def with_result(self, round_number: int, board: int, result: Result) -> Event:
        """The event with one result recorded (a board that does not exist raises NotFound)."""
        if not 1 <= round_number <= len(self.rounds):
            raise NotFound(Msg("round %(round_number)s is not paired", round_number=round_number))
        rnd = self.rounds[round_number - 1]
        rnd.game_on(board)
        games = tuple(g.with_result(result) if g.board == board else g for g in rnd.games)
        new = Round(rnd.number, games, rnd.byes, rnd.seed)
        rounds = tuple(new if r.number == round_number else r for r in self.rounds)
        return Event(self.settings, self.entrants, rounds, self.warnings, self.kind)


@dataclass(frozen=True)
class PairExplanation:
    """Why two players were paired: their scores, colour histories and seeding positions."""

    board: int
    black: str
    white: str
    score_black: int
    score_white: int
    colors_black: str
    colors_white: str
    seed_black: int
    seed_white: int
    group_size: int
    seeding_deviation: int
    same_club: bool
    color_violation: bool
    note: str = ""

    @property
    def score_gap(self) -> int:
        return abs(self.score_black - self.score_white)

    def text(self) -> str:
        """One line for a referee.

        >>> PairExplanation(1, "a", "b", 4, 4, "BW", "WB", 1, 4, 6, 0, False, False).text()
        'board 1: a (4, BW, seed 1) – b (4, WB, seed 4): score gap 0, seeding deviation 0'
        """
        parts = [f"score gap {self.score_gap}", f"seeding deviation {self.seeding_deviation}"]
        if self.color_violation:
            parts.append("colour rule broken")
        if self.same_club:
            parts.append("same club")
        if self.note:
            parts.append(self.note)
        return (
            f"board {self.board}: {self.black} ({self.score_black}, {self.colors_black or '-'}, "
            f"seed {self.seed_black}) – {self.white} ({self.score_white}, "
            f"{self.colors_white or '-'}, seed {self.seed_white}): " + ", ".join(parts)
        )


@dataclass(frozen=True)
class RoundTotals:
    """Quality figures of one round's pairing."""

    games: int
    score_gap_sum: int
    score_gap_max: int
    floats: int
    color_violations: int
    same_club_games: int


@dataclass(frozen=True)
class RoundPlan:
    """The next round as a system proposes it, with the reasons."""

    number: int
    games: tuple[Game, ...]
    byes: tuple[str, ...] = ()
    eliminated: tuple[str, ...] = ()
    seed: int | None = None
    explanations: tuple[PairExplanation, ...] = ()
    totals: RoundTotals | None = None

    def to_round(self) -> Round:
        return Round(self.number, self.games, self.byes, self.seed)

    def explain(self, a: str, b: str) -> PairExplanation:
        """Why ``a`` and ``b`` were paired."""
        for e in self.explanations:
            if {e.black, e.white} == {a, b}:
                return e
        raise NotFound(
            Msg("%(a)s and %(b)s are not paired in round %(number)s", a=a, b=b, number=self.number)
        )
