"""擂台赛, the winner-stays-on team match (R-FMT-3): the winner keeps playing; the loser is out and
his team (with three or more teams: the loser's team) sends the next player; a team is out when all
its players are; the last team standing wins.

The order of a team's players is fixed in advance (``PlayerOrder.FIXED``) or chosen, player by
player, by the team that must send the next one (``PlayerOrder.CHOSEN``, event setting).

>>> from weiqi.rules.color import Color
>>> from weiqi.rules.result import Reason, Result
>>> m = WinnerStaysOn({"CN": ["c1", "c2"], "JP": ["j1", "j2"]})
>>> g = m.next_game(); (g.holder, g.challenger, g.black)
(('CN', 'c1'), ('JP', 'j1'), ('JP', 'j1'))
>>> m.record(Result.win(Color.BLACK, Reason.RESIGNATION))  # j1 wins, c1 is out
>>> g = m.next_game(); (g.holder, g.challenger)
(('JP', 'j1'), ('CN', 'c2'))
>>> m.record(Result.win(Color.WHITE, Reason.RESIGNATION))  # j1 (white) wins again
>>> m.finished, m.winner
(True, 'JP')
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from weiqi.errors import Conflict, InputError, InvalidSetting
from weiqi.messages import Msg
from weiqi.rules.color import Color
from weiqi.rules.result import Outcome, Reason, Result

Seat = tuple[str, str]
"""(team id, player id)."""


class PlayerOrder(enum.Enum):
    FIXED = "fixed"  # every team's order is set before the match
    CHOSEN = "chosen"  # the team to send a player chooses him when its turn comes


@dataclass(frozen=True)
class Game:
    """One game of the match; ``black`` is the seat playing black."""

    number: int
    holder: Seat  # 擂主, the player who stays on while he wins
    challenger: Seat
    black: Seat
    result: Result | None = None

    @property
    def white(self) -> Seat:
        return self.challenger if self.black == self.holder else self.holder


class WinnerStaysOn:
    """The state machine of a 擂台赛.

    Colours: the challenger takes black unless ``rng`` is given, then each game's colours are
    drawn by nigiri from it (the seed is the caller's to record).
    """

    def __init__(
        self,
        teams: Mapping[str, Sequence[str]],
        order: PlayerOrder = PlayerOrder.FIXED,
        rng: random.Random | None = None,
    ) -> None:
        if len(teams) < 2:
            raise InvalidSetting("teams", Msg("a 擂台赛 needs at least two teams"))
        for team, players in teams.items():
            if not players:
                raise InvalidSetting(f"team {team}", Msg("has no players"))
            if len(set(players)) != len(players):
                raise InvalidSetting(f"team {team}", Msg("a player is listed twice"))
        self.order = order
        self.teams: tuple[str, ...] = tuple(teams)
        self._waiting: dict[str, list[str]] = {t: list(p) for t, p in teams.items()}
        self._rng = rng
        self.holder: Seat | None = None
        self.challenger: Seat | None = None
        self._holder_from: str | None = self.teams[0]
        self._challenger_from: str | None = self.teams[1]
        self.games: list[Game] = []
        self.out: list[Seat] = []
        self._fill()

    # -- who plays next ------------------------------------------------------------------------

    @property
    def awaiting(self) -> str | None:
        """The team that must choose its next player before the next game (CHOSEN order)."""
        if self.finished:
            return None
        if self.holder is None:
            return self._holder_from
        if self.challenger is None:
            return self._challenger_from
        return None

    def waiting(self, team: str) -> tuple[str, ...]:
        """The team's players who have not played yet."""
        return tuple(self._waiting[team])

    def send(self, team: str, player: str) -> None:
        """The awaited team sends ``player`` (CHOSEN order only)."""
        if self.order is not PlayerOrder.CHOSEN:
            raise Conflict(Msg("the order of players is fixed in advance"))
        if team != self.awaiting:
            raise Conflict(
                Msg(
                    "it is not %(team)s's turn to send a player (awaiting %(awaiting)s)",
                    team=team,
                    awaiting=self.awaiting,
                )
            )
        if player not in self._waiting[team]:
            raise InputError(
                Msg("player %(player)s", player=player),
                Msg("not a waiting player of %(team)s", team=team),
            )
        self._waiting[team].remove(player)
        if self.holder is None:
            self.holder = (team, player)
        else:
            self.challenger = (team, player)

    def next_game(self) -> Game:
        if self.finished:
            raise Conflict(Msg("the match is over"))
        if self.holder is None or self.challenger is None:
            raise Conflict(
                Msg("%(awaiting)s must send its next player first", awaiting=self.awaiting)
            )
        if self.games and self.games[-1].result is None:
            return self.games[-1]
        black = self.challenger
        if self._rng is not None and self._rng.random() < 0.5:
            black = self.holder
        game = Game(len(self.games) + 1, self.holder, self.challenger, black)
        self.games.append(game)
        return game

    def record(self, result: Result) -> None:
        """Record the result of the current game and move the match on."""
        if not self.games or self.games[-1].result is not None:
            raise Conflict(Msg("no game is being played; call next_game() first"))
        game = self.games[-1]
        self.games[-1] = Game(game.number, game.holder, game.challenger, game.black, result)
        if result.outcome in (Outcome.REPLAY, Outcome.NO_RESULT):
            return  # the same two players meet again
        if result.outcome is Outcome.WIN:
            loser = game.white if result.winner is Color.BLACK else game.black
            winner = game.holder if loser == game.challenger else game.challenger
            self.out.append(loser)
            self.holder, self.challenger = winner, None
            self._holder_from = None
            self._challenger_from = self._next_team(loser[0], exclude=winner[0])
        else:  # draw or both lose: both players are out
            self.out += [game.holder, game.challenger]
            self.holder = self.challenger = None
            self._holder_from = self._next_team(game.holder[0], exclude=None)
            self._challenger_from = self._next_team(game.challenger[0], exclude=self._holder_from)
        self._fill()

    def withdraw(self, team: str) -> None:
        """R-WD-1 (matches and team events): results so far stand; the team's remaining players
        are out, and its player on the stage loses the current game by forfeit."""
        if team not in self._waiting:
            raise InputError(Msg("team %(team)s", team=team), Msg("does not play this match"))
        if self.finished:
            raise Conflict(Msg("the match is over"))
        self.out += [(team, p) for p in self._waiting[team]]
        self._waiting[team] = []
        current = self.games[-1] if self.games and self.games[-1].result is None else None
        if current is not None and team in (current.holder[0], current.challenger[0]):
            loser = current.holder if current.holder[0] == team else current.challenger
            self.record(
                Result.win(Color.WHITE if loser == current.black else Color.BLACK, Reason.FORFEIT)
            )
            return
        for attr in ("holder", "challenger"):
            seat = getattr(self, attr)
            if seat is not None and seat[0] == team:
                self.out.append(seat)
                setattr(self, attr, None)
        if self.holder is None and self.challenger is not None:
            self.holder, self.challenger = self.challenger, None
        others = [t for t in self.teams if t != team and self._waiting[t]]
        holder_team = self.holder[0] if self.holder is not None else None
        if self.holder is None:
            self._holder_from = others[0] if others else None
            holder_team = self._holder_from
        if self.challenger is None:
            self._challenger_from = next((t for t in others if t != holder_team), None)
        self._fill()

    # -- the end ---------------------------------------------------------------------------------

    def alive(self) -> tuple[str, ...]:
        """Teams with a player still to play or on the stage."""
        on_stage = {s[0] for s in (self.holder, self.challenger) if s is not None}
        return tuple(t for t in self.teams if self._waiting[t] or t in on_stage)

    @property
    def finished(self) -> bool:
        return len(self.alive()) < 2

    @property
    def winner(self) -> str | None:
        """The last team standing; ``None`` while playing, or if the last two went out together."""
        alive = self.alive()
        return alive[0] if self.finished and alive else None

    # -- internals -------------------------------------------------------------------------------

    def _next_team(self, start: str, exclude: str | None) -> str | None:
        """``start`` if it still has players, else the next team after it (in the listed order)
        that has players and is not ``exclude``."""
        i = self.teams.index(start)
        for k in range(len(self.teams)):
            team = self.teams[(i + k) % len(self.teams)]
            if team != exclude and self._waiting[team]:
                return team
        return None

    def _fill(self) -> None:
        if self.order is not PlayerOrder.FIXED:
            return
        if self.holder is None and self._holder_from is not None:
            self.holder = (self._holder_from, self._waiting[self._holder_from].pop(0))
        if self.challenger is None and self._challenger_from is not None:
            self.challenger = (self._challenger_from, self._waiting[self._challenger_from].pop(0))
