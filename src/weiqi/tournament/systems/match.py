"""A match of several games (多局决胜制): best of 3, 5 or 7 between two players.

Game 1's colours are drawn by nigiri, here a lot from ``random.Random`` with the recorded round
seed; colours then alternate. The match stops as soon as one player has more than half the
points on offer (a draw counts one point of two); if all games are played and the points are
equal, the match is tied. Where the event shares places, it ends tied; where it does not and
settles ties by playoff (``shared_places=False, tie_resolution="playoff"``, set in advance,
R-PLAYOFF), playoff games (加赛, labelled P1, P2 …) follow one a round, colours still
alternating, until one player is ahead; a lot (``tie_resolution="lot"``) is drawn in the
standings instead. A withdrawn player forfeits the remaining games (R-WD-1).

>>> from weiqi.tournament.players import Entrant
>>> from weiqi.tournament.records import Round
>>> from weiqi.tournament.settings import EventSettings, System
>>> s = EventSettings(System.MATCH, best_of=3, shared_places=False, tie_resolution="playoff")
>>> event = Event(s, (Entrant("A", "A"), Entrant("B", "B")))
>>> for _ in range(3):  # three draws: 3 points each
...     plan = Match().next_round(event)
...     game = plan.games[0].with_result(Result.draw())
...     event = Event(s, event.entrants, (*event.rounds, Round(plan.number, (game,))))
>>> Match().is_finished(event), Match().next_round(event).games[0].label
(False, 'P1')
"""

from __future__ import annotations

import random

from weiqi.errors import Conflict
from weiqi.messages import Msg
from weiqi.rules.color import Color
from weiqi.rules.result import Reason, Result
from weiqi.tournament.records import Event, Game, RoundPlan
from weiqi.tournament.scoring import histories
from weiqi.tournament.settings import MatchSettings, variant_of


class Match:
    def _players(self, event: Event) -> tuple[str, str]:
        ids = [e.id for e in event.entrants if e.withdrawn_after != 0]
        if len(ids) != 2:
            raise Conflict(Msg("a match is between two players, not %(ids)s", ids=len(ids)))
        return ids[0], ids[1]

    def blocker(self, event: Event) -> Msg | None:
        from weiqi.tournament.systems import incomplete

        why = incomplete(event)
        if why is not None:
            return why
        try:
            if self.is_finished(event):
                return Msg("the match is decided")
        except Conflict as err:  # not two players
            return err.msg
        return None

    def next_round(self, event: Event) -> RoundPlan:
        from weiqi.tournament.systems import require_pairable, round_seed

        require_pairable(self, event)
        a, b = self._players(event)
        r = event.next_round_number
        s = variant_of(event.settings, MatchSettings)
        seed = round_seed(s, 1)
        first_black = a if random.Random(seed).random() < 0.5 else b
        if r == 1:
            black_id = first_black
        else:
            previous = event.rounds[-1].games[0]
            black_id = previous.white
        white_id = b if black_id == a else a
        label = f"G{r}" if r <= s.best_of else f"P{r - s.best_of}"  # P: a playoff game (加赛)
        entrant = event.entrant
        black, white = entrant[black_id], entrant[white_id]
        winner = None
        if not black.active_in(r):
            winner = white.id
        elif not white.active_in(r):
            winner = black.id
        result = None
        if winner is not None:
            result = Result.win(Color.BLACK if winner == black.id else Color.WHITE, Reason.FORFEIT)
        # a match is played even: nigiri and alternating colours, never a handicap
        game = Game(r, 1, black.id, white.id, result, 0, s.komi, label)
        return RoundPlan(r, (game,), seed=seed)

    def points(self, event: Event) -> dict[str, int]:
        return {pid: h.points for pid, h in histories(event).items()}

    def is_finished(self, event: Event) -> bool:
        a, b = self._players(event)
        pts = self.points(event)
        s = variant_of(event.settings, MatchSettings)
        played_out = len(event.rounds) >= s.best_of
        if pts[a] == pts[b]:  # level once every game is played: the playoff set in advance
            return played_out and not self.plays_off(event)
        return played_out or 2 * max(pts[a], pts[b]) > s.best_of * s.points_win  # a majority

    @staticmethod
    def plays_off(event: Event) -> bool:
        """Whether a tied match goes to playoff games (R-PLAYOFF), as the event set it."""
        s = event.settings
        return not s.shared_places and s.tie_resolution == "playoff"

    def eliminated(self, event: Event) -> frozenset[str]:
        return frozenset()
