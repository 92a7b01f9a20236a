"""Knockout (淘汰制): single elimination and double elimination with a grand final.

Standard seeding: in bracket order 1, 16, 8, 9, 4, 13, 5, 12, … so seed 1 meets seed N (the
lowest) first and seeds 1 and 2 only in the final; in a field that is not a power of two the
missing seeds are byes, which fall to the top seeds.

Double elimination: the winners' bracket (WB) plays one round per event round; its losers drop
into the losers' bracket (LB), which alternates a round among its own players with a round
against the next WB losers (taken in reverse order every other time, to put off rematches).
The WB champion meets the LB champion in the grand final (GF); if the LB champion wins and the
event allows a reset, a second final (GF2) decides, since only then has each lost twice.

A team knockout is the same bracket over team codes; the team from the upper line is home.

A knockout game needs a winner: a draw, no result or replay must be settled by a playoff whose
result is recorded on the board. Both lose (双方均负) puts both players out. A withdrawn player's
remaining games are forfeits (R-WD-1).

>>> bracket_order(8)
[1, 8, 4, 5, 2, 7, 3, 6]
>>> bracket_order(16)
[1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from weiqi.errors import Conflict
from weiqi.messages import Msg
from weiqi.rules.result import Outcome
from weiqi.tournament.records import Event, EventKind, Game, RoundPlan
from weiqi.tournament.settings import DoubleEliminationSettings, System, variant_of
from weiqi.tournament.systems import starting_field
from weiqi.tournament.systems.colors import even_or_handicap

Source = tuple[str, int | str]  # ("slot", index) | ("win", label) | ("lose", label)


def bracket_order(size: int) -> list[int]:
    """Seed numbers in bracket-slot order for a bracket of ``size`` (a power of two)."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


@dataclass(frozen=True)
class BracketMatch:
    label: str
    round: int
    sources: tuple[Source, Source]


def _power(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


def single_bracket(n: int) -> list[BracketMatch]:
    size = _power(n)
    matches: list[BracketMatch] = []
    prev: list[str] = []
    t = 1
    count = size // 2
    while count >= 1:
        labels = [f"R{t}-{i + 1}" for i in range(count)]
        for i, label in enumerate(labels):
            src: tuple[Source, Source] = (
                (("slot", 2 * i), ("slot", 2 * i + 1))
                if t == 1
                else (("win", prev[2 * i]), ("win", prev[2 * i + 1]))
            )
            matches.append(BracketMatch(label, t, src))
        prev, t, count = labels, t + 1, count // 2
    return matches


def double_bracket(n: int) -> tuple[list[BracketMatch], int]:
    """Every match of a double-elimination bracket, and the grand final's event round."""
    size = _power(n)
    k = size.bit_length() - 1
    matches: list[BracketMatch] = []
    wb: list[list[str]] = []
    for t in range(1, k + 1):
        labels = [f"WB{t}-{i + 1}" for i in range(size >> t)]
        for i, label in enumerate(labels):
            src: tuple[Source, Source] = (
                (("slot", 2 * i), ("slot", 2 * i + 1))
                if t == 1
                else (("win", wb[-1][2 * i]), ("win", wb[-1][2 * i + 1]))
            )
            matches.append(BracketMatch(label, t, src))
        wb.append(labels)
    lb_champion: Source
    if k >= 2:
        lb = [f"LB1-{i + 1}" for i in range(size // 4)]
        for i, label in enumerate(lb):
            matches.append(
                BracketMatch(label, 2, (("lose", wb[0][2 * i]), ("lose", wb[0][2 * i + 1])))
            )
        for j in range(2, 2 * (k - 1) + 1):
            if j % 2 == 0:
                s = j // 2
                drop = list(reversed(wb[s])) if s % 2 else list(wb[s])
                labels = [f"LB{j}-{i + 1}" for i in range(len(lb))]
                for i, label in enumerate(labels):
                    matches.append(BracketMatch(label, j + 1, (("win", lb[i]), ("lose", drop[i]))))
            else:
                labels = [f"LB{j}-{i + 1}" for i in range(len(lb) // 2)]
                for i, label in enumerate(labels):
                    matches.append(
                        BracketMatch(label, j + 1, (("win", lb[2 * i]), ("win", lb[2 * i + 1])))
                    )
            lb = labels
        lb_champion = ("win", lb[0])
    else:
        lb_champion = ("lose", wb[0][0])
    gf_round = 2 * k
    matches.append(BracketMatch("GF", gf_round, (("win", wb[-1][0]), lb_champion)))
    return matches, gf_round


@dataclass
class _Outcome:
    players: tuple[str | None, str | None]
    winner: str | None = None
    loser: str | None = None
    decided: bool = False
    game: Game | None = None


class _Bracket:
    """A bracket resolved against the event's rounds so far."""

    def __init__(self, event: Event, double: bool) -> None:
        self.event = event
        self.double = double
        self.field = starting_field(event)
        n = len(self.field)
        if n < 2:
            raise Conflict(Msg("a knockout needs at least two players"))
        size = _power(n)
        self.slots: list[str | None] = [
            self.field[s - 1].id if s <= n else None for s in bracket_order(size)
        ]
        if double:
            self.matches, self.gf_round = double_bracket(n)
        else:
            self.matches, self.gf_round = single_bracket(n), 0
        self.out: dict[str, _Outcome] = {}
        self.eliminated_in: dict[str, int] = {}
        self.losses: dict[str, int] = {e.id: 0 for e in self.field}
        self.reset: BracketMatch | None = None
        #: Games without a winner whose playoff is still to be recorded (R-PLAYOFF).
        self.playoffs_due: list[Msg] = []
        played = len(event.rounds)
        for m in self.matches:
            self._resolve(m, played)
        gf = self.out.get("GF")
        if double and gf and gf.decided:
            wb_champ = gf.players[0]
            lb_champ_won = gf.winner is not None and gf.winner != wb_champ
            reset = variant_of(event.settings, DoubleEliminationSettings).grand_final_reset
            if lb_champ_won and reset:
                self.reset = BracketMatch("GF2", self.gf_round + 1, (("win", "GF"), ("lose", "GF")))
                self._resolve(self.reset, played)
            elif gf.loser is not None:
                # without a reset the grand final is the last game: its loser is out even with
                # only one loss
                self.eliminated_in.setdefault(gf.loser, self.gf_round)

    def _settled(self, src: Source) -> bool:
        """Whether ``src`` names its player (or its absence) for good."""
        kind, ref = src
        if kind == "slot":
            return True
        o = self.out.get(str(ref))
        return o is not None and o.decided

    def _source(self, src: Source) -> str | None:
        kind, ref = src
        if kind == "slot":
            assert isinstance(ref, int)
            return self.slots[ref]
        o = self.out.get(str(ref))
        if o is None or not o.decided:
            return None
        return o.winner if kind == "win" else o.loser

    def _resolve(self, m: BracketMatch, played: int) -> None:
        a, b = self._source(m.sources[0]), self._source(m.sources[1])
        o = _Outcome((a, b))
        self.out[m.label] = o
        if (a is None or b is None) and all(self._settled(src) for src in m.sources):
            # a walkover (a bye, or a side emptied by 双方均负): its winner is known without a
            # game, even before its round — a final with one player left crowns the champion
            # instead of becoming a round of nothing but a bye
            o.winner, o.decided = (a if a is not None else b), True
            return
        if m.round > played:
            return
        if a is None or b is None:
            o.winner, o.decided = (a if a is not None else b), True
            return
        rnd = self.event.rounds[m.round - 1]
        game = next((g for g in rnd.games if set(g.players) == {a, b}), None)
        if game is None:
            raise Conflict(
                Msg(
                    "round %(round)s: the game %(label)s between %(a)s and %(b)s is missing",
                    round=m.round,
                    label=m.label,
                    a=a,
                    b=b,
                )
            )
        o.game = game
        if game.result is None:  # still being played: undecided (standings mid-round)
            return
        res = game.result
        if res.outcome is Outcome.WIN:
            o.winner = game.winner()
            o.loser = b if o.winner == a else a
            self._lose(o.loser, m.round)
        elif res.outcome is Outcome.BOTH_LOSE:
            for p in (a, b):
                self.losses[p] = 99
                self.eliminated_in.setdefault(p, m.round)
        else:  # undecided until its playoff's result is recorded on the board (R-PLAYOFF)
            self.playoffs_due.append(
                Msg(
                    "round %(round)s board %(board)s: a knockout game needs a winner; "
                    "record the playoff's result",
                    round=m.round,
                    board=game.board,
                )
            )
            return
        o.decided = True

    def _lose(self, player: str, round_number: int) -> None:
        self.losses[player] += 1
        if self.losses[player] >= (2 if self.double else 1):
            self.eliminated_in.setdefault(player, round_number)

    def all_matches(self) -> list[BracketMatch]:
        return self.matches + ([self.reset] if self.reset else [])

    def finished(self) -> bool:
        final = self.out["GF"] if self.double else self.out[self.matches[-1].label]
        if not final.decided:
            return False
        if self.reset is not None:
            return self.out["GF2"].decided
        return True

    def champion(self) -> str | None:
        if not self.finished():
            return None
        last = "GF2" if self.reset else ("GF" if self.double else self.matches[-1].label)
        return self.out[last].winner


class _Knockout:
    double = False

    def _bracket(self, event: Event) -> _Bracket:
        return _Bracket(event, self.double)

    def blocker(self, event: Event) -> Msg | None:
        from weiqi.tournament.systems import incomplete

        why = incomplete(event)
        if why is not None:
            return why
        try:
            br = self._bracket(event)
        except Conflict as err:  # fewer than two players
            return err.msg
        if br.playoffs_due:
            return br.playoffs_due[0]
        if br.finished():
            return Msg("the knockout is finished")
        return None

    def next_round(self, event: Event) -> RoundPlan:
        from weiqi.tournament.systems import require_pairable, round_seed

        require_pairable(self, event)
        br = self._bracket(event)
        r = event.next_round_number
        s = event.settings
        seed = round_seed(s, r)
        rng = random.Random(seed)
        entrant = event.entrant
        games: list[Game] = []
        byes: list[str] = []
        for m in br.all_matches():
            if m.round != r:
                continue
            a, b = br.out[m.label].players
            if a is None or b is None:
                if a is not None or b is not None:
                    byes.append(a if a is not None else b)  # type: ignore[arg-type]
                continue
            pa, pb = entrant[a], entrant[b]
            if event.kind is EventKind.TEAM:
                # the team from the upper bracket line is home (listed first); the match's
                # board colours follow from that by the event's board-colour policy
                black, white = pa, pb
            else:
                black, white = (pa, pb) if rng.random() < 0.5 else (pb, pa)
            gone_b, gone_w = not black.active_in(r), not white.active_in(r)
            winner = (
                white.id if gone_b and not gone_w else black.id if gone_w and not gone_b else None
            )
            game = even_or_handicap(s, r, len(games) + 1, black, white, winner, m.label)
            if gone_b and gone_w:
                from weiqi.rules.result import Result

                game = game.with_result(Result.both_lose())
            games.append(game)
        return RoundPlan(r, tuple(games), tuple(byes), seed=seed)

    def is_finished(self, event: Event) -> bool:
        return self._bracket(event).finished()

    def eliminated(self, event: Event) -> frozenset[str]:
        return frozenset(self._bracket(event).eliminated_in)

    def elimination_rounds(self, event: Event) -> tuple[dict[str, int], str | None]:
        """When each eliminated player went out, and the champion once there is one."""
        br = self._bracket(event)
        return dict(br.eliminated_in), br.champion()


class SingleElimination(_Knockout):
    """Single elimination: out after one loss."""

    double = False


class DoubleElimination(_Knockout):
    """Double elimination: winners' and losers' brackets and a grand final."""

    double = True


class HalvingKnockout:
    """A knockout paired round by round instead of on a bracket drawn in advance: round 1
    folds the seeding (1 v n, 2 v n−1 …), later rounds pair the winners in the order of their
    matches, the entrant that rested first; an odd field rests its first entrant (one bye a
    round). The first listed of a pair is Black (a team's home side).

    The team knockout (团体淘汰赛): its store keeps one bye a round, which a bracket of 5 or 6
    teams (three or two byes in round 1) would exceed.

    >>> from weiqi.rules.color import Color
    >>> from weiqi.rules.result import Reason, Result
    >>> from weiqi.tournament.players import Entrant
    >>> from weiqi.tournament.records import Round
    >>> from weiqi.tournament.settings import EventSettings, System
    >>> teams = tuple(Entrant(c, c, seeding=i) for i, c in enumerate("ABCDE", 1))
    >>> ev = Event(EventSettings(System.KNOCKOUT), teams, kind=EventKind.TEAM)
    >>> plan = HalvingKnockout().next_round(ev)
    >>> [(g.black, g.white) for g in plan.games], plan.byes
    ([('B', 'E'), ('C', 'D')], ('A',))
    >>> won = Result.win(Color.WHITE, Reason.RESIGNATION)
    >>> ev = ev.with_round(Round(1, tuple(g.with_result(won) for g in plan.games), plan.byes))
    >>> plan = HalvingKnockout().next_round(ev)
    >>> [(g.black, g.white) for g in plan.games], plan.byes, plan.eliminated
    ([('E', 'D')], ('A',), ('B', 'C'))
    """

    def _alive(self, event: Event, number: int, strict: bool = True) -> list[str]:
        """Who is still in before round ``number``, in pairing order; a game without a winner
        is refused (``strict``, for pairing) or keeps both in (still being played)."""
        if number == 1:
            return [e.id for e in starting_field(event)]
        rnd = event.rounds[number - 2]
        alive = list(rnd.byes)
        for g in rnd.games:
            winner = g.winner()
            if winner is not None:
                alive.append(winner)
            elif not strict:
                alive.extend(g.players)
            elif g.result is None or g.result.outcome is not Outcome.BOTH_LOSE:
                raise Conflict(
                    Msg(
                        "round %(round)s board %(board)s: a knockout game needs a winner; "
                        "record the playoff's result",
                        round=g.round,
                        board=g.board,
                    )
                )
        return alive

    def blocker(self, event: Event) -> Msg | None:
        from weiqi.tournament.systems import incomplete

        why = incomplete(event)
        if why is not None:
            return why
        r = event.next_round_number
        try:
            alive = self._alive(event, r)
        except Conflict as err:  # a game without a winner waits for its playoff
            return err.msg
        if len(alive) < 2:
            if r == 1 or not alive:
                return Msg("a knockout needs at least two players")
            return Msg("the knockout is over: %(alive)s won", alive=alive[0])
        return None

    def next_round(self, event: Event) -> RoundPlan:
        from weiqi.tournament.systems import require_pairable, round_seed

        require_pairable(self, event)
        r = event.next_round_number
        alive = self._alive(event, r)
        byes = (alive.pop(0),) if len(alive) % 2 else ()
        if r == 1:
            pairs = [(alive[i], alive[-1 - i]) for i in range(len(alive) // 2)]
        else:
            pairs = [(alive[i], alive[i + 1]) for i in range(0, len(alive), 2)]
        seed = round_seed(event.settings, r)
        rng = random.Random(seed)
        entrant = event.entrant
        games = []
        for board, (a, b) in enumerate(pairs, start=1):
            black, white = (a, b)
            if event.kind is EventKind.INDIVIDUAL and rng.random() < 0.5:
                black, white = b, a
            games.append(even_or_handicap(event.settings, r, board, entrant[black], entrant[white]))
        out = sorted(set(self._alive(event, r - 1)) - set(alive) - set(byes)) if r > 1 else []
        return RoundPlan(r, tuple(games), byes, eliminated=tuple(out), seed=seed)

    def is_finished(self, event: Event) -> bool:
        alive = self._alive(event, event.next_round_number, strict=False)
        return bool(event.rounds) and len(alive) < 2

    def eliminated(self, event: Event) -> frozenset[str]:
        alive = self._alive(event, event.next_round_number, strict=False)
        return frozenset(e.id for e in starting_field(event)) - frozenset(alive)


@dataclass(frozen=True)
class DrawnMatch:
    """One match of a bracket as far as the rounds so far decide it (for the bracket view).

    ``players`` are core ids, None where the side is not known yet or empty (a bye);
    ``section`` is ``""`` (single elimination), ``"WB"``, ``"LB"``, ``"GF"``; ``column`` counts
    the section's rounds from 1; ``playoff_due``: a game without a winner whose playoff's result
    is still to be recorded.
    """

    label: str
    round: int
    section: str
    column: int
    players: tuple[str | None, str | None]
    winner: str | None
    decided: bool
    walkover: bool
    game: Game | None
    playoff_due: bool = False


def drawn_bracket(event: Event) -> list[DrawnMatch]:
    """Every match of a single- or double-elimination bracket, resolved against the event's
    rounds (only those it holds: pass the public ones for the public view), in bracket order.

    >>> from weiqi.tournament.players import Entrant
    >>> from weiqi.tournament.settings import EventSettings, System
    >>> field = tuple(Entrant(str(i), f"P{i}", seeding=i) for i in range(1, 6))
    >>> drawn = drawn_bracket(Event(EventSettings(System.KNOCKOUT), field))
    >>> [(m.label, m.players, m.walkover) for m in drawn if m.round == 1]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('R1-1', ('1', None), True), ('R1-2', ('4', '5'), False),
     ('R1-3', ('2', None), True), ('R1-4', ('3', None), True)]
    >>> [(m.label, m.players) for m in drawn if m.round == 2]
    [('R2-1', ('1', None)), ('R2-2', ('2', '3'))]
    """
    br = _Bracket(event, event.settings.system is System.DOUBLE_ELIMINATION)
    out = []
    for m in br.all_matches():
        o = br.out[m.label]
        section = m.label[:2] if m.label.startswith(("GF", "WB", "LB")) else ""
        column = 1 if section == "GF" else int(m.label.split("-")[0].lstrip("RWLB"))
        if m.label == "GF2":
            column = 2
        a, b = o.players
        walkover = o.decided and o.game is None
        due = o.game is not None and o.game.result is not None and not o.decided
        out.append(
            DrawnMatch(
                m.label,
                m.round,
                section,
                column,
                (a, b),
                o.winner,
                o.decided,
                walkover,
                o.game,
                due,
            )
        )
    return out
