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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from weiqi.errors import Conflict, InputError, InvalidSetting
from weiqi.league.team_rounds import team_entrants, team_settings
from weiqi.messages import Msg
from weiqi.rules.color import Color
from weiqi.rules.result import Outcome, Reason, Result
from weiqi.tournament.records import Event, EventKind, Game, Round, RoundPlan
from weiqi.tournament.settings import EventSettings, System

Seat = tuple[str, str]
"""(team id, player id)."""


class PlayerOrder(enum.Enum):
    FIXED = "fixed"  # every team's order is set before the match
    CHOSEN = "chosen"  # the team to send a player chooses him when its turn comes


@dataclass(frozen=True)
class StageGame:
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
        self.games: list[StageGame] = []
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

    def next_game(self) -> StageGame:
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
        game = StageGame(len(self.games) + 1, self.holder, self.challenger, black)
        self.games.append(game)
        return game

    def record(self, result: Result) -> None:
        """Record the result of the current game and move the match on."""
        if not self.games or self.games[-1].result is not None:
            raise Conflict(Msg("no game is being played; call next_game() first"))
        game = self.games[-1]
        self.games[-1] = StageGame(game.number, game.holder, game.challenger, game.black, result)
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


@dataclass(frozen=True)
class StageSetup:
    """What a 擂台赛 is played from besides its results: each team's players in order (its
    sealed lineup), how the next player is chosen, the nigiri seed (``None``: the challenger
    takes black) and, in chosen order, the players sent so far in the order they were sent."""

    teams: Mapping[str, Sequence[str]]
    order: PlayerOrder = PlayerOrder.FIXED
    seed: int | None = None
    sends: tuple[Seat, ...] = ()


class WinnerStaysOnSystem:
    """The 擂台赛 as a competition system (:class:`~weiqi.tournament.systems.TournamentSystem`)
    over team codes, like the team round robin, Swiss and knockout.

    Its rounds are the successive games, one game a round between two teams (Black's team
    first): a 擂台赛 pairs one game at a time, each decided by the result before it, which is
    what the protocol's "the next round, given the event so far" already is. One match whose
    games expand through the lineups would not fit: with three or more teams it has no two
    sides, and its games are not known before they are played. The players come from the
    :class:`StageSetup`; :meth:`replay` is the state machine after the event's results.

    >>> from weiqi.tournament.records import Round
    >>> system = WinnerStaysOnSystem(StageSetup({"CN": ["c1", "c2"], "JP": ["j1"]}))
    >>> event = stage_event(system.setup, ())
    >>> plan = system.next_round(event); [(g.black, g.white, g.label) for g in plan.games]
    [('JP', 'CN', 'j1–c1')]
    >>> won = plan.games[0].with_result(Result.win(Color.WHITE, Reason.RESIGNATION))
    >>> event = event.with_round(Round(1, (won,)))  # c1 (white) beats j1: Japan is out
    >>> system.is_finished(event), sorted(system.eliminated(event))
    (True, ['JP'])
    >>> system.blocker(event)
    Msg('the match is over')
    """

    def __init__(self, setup: StageSetup) -> None:
        self.setup = setup

    def replay(self, event: Event) -> WinnerStaysOn:
        """The match after the event's games (the last one may be in play, without a result),
        each checked against the game the match seats."""
        played = []
        for rnd in event.rounds:
            [game] = rnd.games  # one game a round
            played.append(((game.black, game.white), game.result))
        return self._replay(played)

    def play(self, results: Iterable[Result]) -> WinnerStaysOn:
        """The match after ``results``, the results of its games in the order recorded."""
        return self._replay([(None, r) for r in results])

    def _replay(
        self, games: Sequence[tuple[tuple[str, str] | None, Result | None]]
    ) -> WinnerStaysOn:
        """Replay ``games`` (the teams of each as stored, when known, and its result), the sends
        taken in turn whenever a team is awaited."""
        stage, fill = self._start()
        for teams, result in games:
            fill()
            seated = stage.next_game()
            if teams is not None and teams != (seated.black[0], seated.white[0]):
                raise Conflict(
                    Msg(
                        "round %(number)s stored where round %(i)s belongs",
                        number=len(stage.games),
                        i=seated.number,
                    )
                )
            if result is None:
                break
            stage.record(result)
        fill()
        return stage

    def follow(
        self, games: Sequence[tuple[Seat, Seat, Result | None]]
    ) -> tuple[WinnerStaysOn, int]:
        """The match after the stored ``games`` that it seats, and how many those are: each
        game is its (black, white) seats as stored and its result (``None``: in play). It stops
        at the first game the match does not seat — other players (a result before it was
        changed), or the match is over — or at the game in play, which stays seated.

        >>> system = WinnerStaysOnSystem(StageSetup({"CN": ["c1", "c2"], "JP": ["j1"]}))
        >>> won = Result.win(Color.WHITE, Reason.RESIGNATION)  # c1 beats j1
        >>> stage, agreed = system.follow([(("JP", "j1"), ("CN", "c1"), won)])
        >>> agreed, stage.finished, stage.winner
        (1, True, 'CN')
        >>> stage, agreed = system.follow([(("JP", "j1"), ("CN", "c2"), won)])  # not seated so
        >>> agreed, [(g.black, g.result) for g in stage.games]
        (0, [(('JP', 'j1'), None)])
        """
        stage, fill = self._start()
        agreed = 0
        for black, white, result in games:
            fill()
            if stage.finished or stage.awaiting is not None:
                break
            seated = stage.next_game()
            if (black, white) != (seated.black, seated.white):
                break
            agreed += 1
            if result is None:
                break
            stage.record(result)
        fill()
        return stage, agreed

    def _start(self) -> tuple[WinnerStaysOn, Callable[[], None]]:
        """The match before its first game, and what takes the next sends whenever a team is
        awaited (chosen order)."""
        setup = self.setup
        rng = random.Random(setup.seed) if setup.seed is not None else None
        stage = WinnerStaysOn(setup.teams, setup.order, rng)
        sends = iter(setup.sends)

        def fill() -> None:
            while stage.awaiting is not None:
                sent = next(sends, None)
                if sent is None:
                    return
                stage.send(*sent)

        return stage, fill

    def next_round(self, event: Event) -> RoundPlan:
        from weiqi.tournament.systems import require_pairable

        require_pairable(self, event)
        game = self.replay(event).next_game()
        number = event.next_round_number
        return RoundPlan(number, (_team_game(number, game),))

    def blocker(self, event: Event) -> Msg | None:
        if event.rounds and any(g.result is None for g in event.rounds[-1].games):
            return Msg(
                "round %(rounds)s: no final result on board(s) %(boards)s",
                rounds=len(event.rounds),
                boards="1",
            )
        stage = self.replay(event)
        if stage.finished:
            return Msg("the match is over")
        if stage.awaiting is not None:
            return Msg("%(awaiting)s must send its next player first", awaiting=stage.awaiting)
        return None

    def is_finished(self, event: Event) -> bool:
        return self.replay(event).finished

    def eliminated(self, event: Event) -> frozenset[str]:
        """The teams with no player left to play or on the stage."""
        stage = self.replay(event)
        return frozenset(stage.teams) - frozenset(stage.alive())


def _team_game(number: int, game: StageGame) -> Game:
    """A game of the stage as the systems see it: Black's team against White's, one board,
    labelled with the two players (Black's first)."""
    return Game(
        number,
        1,
        game.black[0],
        game.white[0],
        game.result,
        label=f"{game.black[1]}–{game.white[1]}",
    )


def stage_event(
    setup: StageSetup, results: Sequence[Result], settings: EventSettings | None = None
) -> Event:
    """The 擂台赛 as the systems read it: the teams (seeded in the order listed) and one round
    per game of ``results`` (the results in the order they were recorded), over team codes.
    ``settings`` score it for the standings (match points 2 / 1 / 0 by default).

    >>> s = StageSetup({"CN": ["c1", "c2"], "JP": ["j1", "j2"]})
    >>> ev = stage_event(s, [Result.win(Color.BLACK, Reason.RESIGNATION)])
    >>> [(g.black, g.white, g.label, g.result.to_code()) for r in ev.rounds for g in r.games]
    [('JP', 'CN', 'j1–c1', 'B+R')]
    """
    machine = WinnerStaysOnSystem(setup).play(results)
    rounds = tuple(
        Round(g.number, (_team_game(g.number, g),)) for g in machine.games if g.result is not None
    )
    return Event(
        settings or team_settings(System.MATCH),
        team_entrants(setup.teams),
        rounds,
        kind=EventKind.TEAM,
    )
