"""Edits by hand of a paired round (issue #13): swap two players, pair two players by hand,
give the bye to another player, move a player's game to another table.

:func:`edit_round` applies one :class:`RoundEdit` to a round of a Swiss-type event (Swiss,
McMahon, Swiss with elimination, K-loss knockout) and says what the edited pairing breaks, as
:class:`Problem` values: a rematch or a forbidden pair (the hard rules of the pairing: refused,
unless the system allows rematches), a second bye, a colour rule (three of one colour in a
row, a colour difference above 2), a score gap, a same-club game. It never decides whether to
apply it: the chief referee confirms the warnings with a reason (``services.round_edits``).
:func:`explain_round` explains the edited pairing as the system explains its own.

Players seated elsewhere keep their colours; a player moved into another seat takes that
seat's colour; two players paired by hand keep theirs when they differ, else the one who needs
the colour more gets it (the one named first on a tie). A handicap game's colours follow the
handicap, as the system gives them.

>>> from weiqi.tournament.players import Entrant
>>> from weiqi.tournament.records import Round
>>> from weiqi.tournament.settings import EventSettings, System
>>> from weiqi.rules.result import Reason, Result
>>> from weiqi.rules.color import Color
>>> won = Result.win(Color.BLACK, Reason.RESIGNATION)
>>> s = EventSettings(system=System.SWISS, rounds=3)
>>> people = tuple(Entrant(p, p.upper()) for p in "abcd")
>>> r1 = Round(1, (Game(1, 1, "a", "b", won),
...                Game(1, 2, "c", "d", won)))
>>> r2 = Round(2, (Game(2, 1, "a", "c"), Game(2, 2, "d", "b")))
>>> ev = Event(s, people, (r1, r2))
>>> done = edit_round(ev, 2, RoundEdit(EditKind.SWAP, "c", "b"))
>>> [(g.board, g.black, g.white) for g in done.games], done.refused
([(1, 'a', 'b'), (2, 'd', 'c')], True)
>>> [p.kind.value for p in done.problems]
['rematch', 'score_gap', 'rematch', 'score_gap']
>>> str(done.problems[0].message({"a": "A", "b": "B"}))
'board 1: A and B have played each other already; the Swiss rules allow no rematch'
>>> done = edit_round(ev, 2, RoundEdit(EditKind.TABLE, "b", board=1))
>>> [(g.board, g.black, g.white) for g in done.games], done.problems
([(1, 'd', 'b'), (2, 'a', 'c')], ())
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from weiqi.errors import Conflict, InvalidSetting, NotFound
from weiqi.messages import Msg
from weiqi.rules.color import Color
from weiqi.tournament.pairing import (
    Candidate,
    Method,
    Pair,
    breaks_color_rule,
    color_need,
    seeding_deviations,
)
from weiqi.tournament.records import Event, Game, PairExplanation, Round, RoundTotals
from weiqi.tournament.scoring import PlayerHistory, histories
from weiqi.tournament.settings import System


class EditKind(enum.StrEnum):
    """What an edit does (the values are the API's and the command line's words)."""

    SWAP = "swap"
    """Two players change places (seat and colour); one of them may be the bye."""
    PAIR = "pair"
    """Two players play each other; their former opponents play each other (or one of them
    takes the bye that one of the two had)."""
    BYE = "bye"
    """The player takes the bye; the player who had it takes the seat."""
    TABLE = "table"
    """The player's game moves to another board; the game there takes the board left."""


@dataclass(frozen=True)
class RoundEdit:
    """One edit: ``player`` (an id), ``other`` (an id: swap, pair), ``board`` (table).

    >>> str(RoundEdit(EditKind.PAIR, "a", "b").describe({"a": "张三", "b": "李四"}))
    'pair 张三 with 李四 by hand'
    """

    kind: EditKind
    player: str
    other: str = ""
    board: int = 0

    def describe(self, names: Mapping[str, str]) -> Msg:
        """The edit in words (players named by ``names``, their labels)."""
        a = names.get(self.player, self.player)
        b = names.get(self.other, self.other)
        if self.kind is EditKind.SWAP:
            return Msg("swap %(a)s and %(b)s", a=a, b=b)
        if self.kind is EditKind.PAIR:
            return Msg("pair %(a)s with %(b)s by hand", a=a, b=b)
        if self.kind is EditKind.BYE:
            return Msg("give the bye to %(a)s", a=a)
        return Msg("move %(a)s to board %(board)s", a=a, board=self.board)


class ProblemKind(enum.StrEnum):
    """What an edited pairing breaks."""

    REMATCH = "rematch"
    FORBIDDEN = "forbidden"
    SECOND_BYE = "second_bye"
    COLOR = "color"
    SCORE_GAP = "score_gap"
    SAME_CLUB = "same_club"


@dataclass(frozen=True)
class Problem:
    """A rule the edited pairing breaks: on ``board`` (None: the bye), for ``players``.

    ``refused``: a hard rule of the system (a rematch in a Swiss, a forbidden pair) — the edit
    cannot be confirmed. ``gap``: the score gap; ``colors``: the player's colours with this
    round's (``BWBB``), for the colour rule.
    """

    kind: ProblemKind
    board: int | None
    players: tuple[str, ...]
    refused: bool = False
    gap: int = 0
    colors: str = ""

    def message(self, names: Mapping[str, str]) -> Msg:
        """The problem in words, players named by ``names`` (their labels).

        >>> p = Problem(ProblemKind.COLOR, 3, ("a",), colors="BBB")
        >>> str(p.message({"a": "张三"}))
        'board 3: 张三 would play Black a third time in a row'
        """
        who = [names.get(p, p) for p in self.players]
        if self.kind is ProblemKind.REMATCH:
            if self.refused:
                return Msg(
                    "board %(board)s: %(a)s and %(b)s have played each other already; the "
                    "Swiss rules allow no rematch",
                    board=self.board,
                    a=who[0],
                    b=who[1],
                )
            return Msg(
                "board %(board)s: %(a)s and %(b)s have played each other already",
                board=self.board,
                a=who[0],
                b=who[1],
            )
        if self.kind is ProblemKind.FORBIDDEN:
            return Msg(
                "board %(board)s: %(a)s and %(b)s must not be paired (the event's settings "
                "forbid this pair)",
                board=self.board,
                a=who[0],
                b=who[1],
            )
        if self.kind is ProblemKind.SECOND_BYE:
            return Msg("%(a)s has had a bye already: this would be a second bye", a=who[0])
        if self.kind is ProblemKind.SCORE_GAP:
            return Msg(
                "board %(board)s: %(a)s and %(b)s are in different score groups (score gap "
                "%(gap)s)",
                board=self.board,
                a=who[0],
                b=who[1],
                gap=self.gap,
            )
        if self.kind is ProblemKind.SAME_CLUB:
            return Msg(
                "board %(board)s: %(a)s and %(b)s are from the same club",
                board=self.board,
                a=who[0],
                b=who[1],
            )
        color = Color(self.colors[-1])
        if self.colors.endswith(color.value * 3):
            return Msg(
                "board %(board)s: %(a)s would play %(color)s a third time in a row",
                board=self.board,
                a=who[0],
                color=color,
            )
        return Msg(
            "board %(board)s: %(a)s would play %(color)s %(more)s times more than the other colour",
            board=self.board,
            a=who[0],
            color=color,
            more=abs(self.colors.count("B") - self.colors.count("W")),
        )


@dataclass(frozen=True)
class EditedRound:
    """A round's games and byes after an edit, the boards it changed and what it breaks."""

    games: tuple[Game, ...]
    byes: tuple[str, ...]
    changed: tuple[int, ...]
    problems: tuple[Problem, ...]

    @property
    def refused(self) -> bool:
        """Whether a hard rule forbids the edit (it cannot be confirmed)."""
        return any(p.refused for p in self.problems)


def editable(event: Event) -> bool:
    """Whether the event's system pairs round by round by the Swiss matching (whose rounds are
    edited by hand); a round robin's table and a bracket are not.

    >>> from weiqi.tournament.settings import EventSettings
    >>> editable(Event(EventSettings(System.SWISS, rounds=3), ()))
    True
    >>> editable(Event(EventSettings(System.ROUND_ROBIN), ()))
    False
    """
    from weiqi.tournament.systems import system_for
    from weiqi.tournament.systems.swiss import Swiss

    return isinstance(system_for(event.settings, event.kind), Swiss)


def _prior(event: Event, number: int) -> Event:
    return Event(
        event.settings, event.entrants, event.rounds[: number - 1], event.warnings, event.kind
    )


def _round(event: Event, number: int) -> Round:
    if not 1 <= number <= len(event.rounds):
        raise NotFound(Msg("round %(number)s is not paired", number=number))
    return event.rounds[number - 1]


def _candidates(event: Event, number: int) -> tuple[list[Candidate], Method]:
    """The matching's view of round ``number``'s players, as the system saw them when it
    paired the round (the same lot: the round's seed), and the seeding method."""
    from weiqi.tournament.systems import round_seed
    from weiqi.tournament.systems.swiss import candidates, field_for

    prior = _prior(event, number)
    rnd = event.rounds[number - 1]
    field, _ = field_for(prior, number)
    seen = {e.id for e in field}
    playing = [pid for g in rnd.games for pid in g.players] + list(rnd.byes)
    extra = [event.entrant[pid] for pid in playing if pid not in seen]
    rng = random.Random(round_seed(event.settings, number))
    cands, method = candidates(prior, [*field, *extra], histories(prior), rng)
    return cands, method


def edit_round(event: Event, number: int, edit: RoundEdit) -> EditedRound:
    """Round ``number`` of ``event`` with ``edit`` applied, and what the edit breaks.

    Refused (``Conflict``) for a system that is not paired by the Swiss matching, a round with
    a result, and an edit that changes nothing; ``NotFound`` for a player not in the round;
    ``InvalidSetting("board", …)`` for a board the round does not have.
    """
    if not editable(event):
        raise Conflict(
            Msg("this system pairs by its fixed table or bracket; its rounds are not edited")
        )
    rnd = _round(event, number)
    if any(g.result is not None for g in rnd.games):
        raise Conflict(
            Msg("round %(number)s has results; its pairing can no longer change", number=number)
        )
    seats: dict[int, list[str]] = {g.board: [g.black, g.white] for g in rnd.games}
    byes = list(rnd.byes)
    hist = histories(_prior(event, number))
    entrants = event.entrant

    def name(pid: str) -> str:
        return entrants[pid].name if pid in entrants else pid

    def where(pid: str) -> tuple[int, int] | None:
        """(board, 0 Black / 1 White), None for the bye; NotFound if not in the round."""
        for board, pair in seats.items():
            if pid in pair:
                return board, pair.index(pid)
        if pid in byes:
            return None
        raise NotFound(
            Msg("%(name)s does not play in round %(number)s", name=name(pid), number=number)
        )

    def put(at: tuple[int, int] | None, pid: str, was: str) -> None:
        if at is None:
            byes[byes.index(was)] = pid
        else:
            seats[at[0]][at[1]] = pid

    a, b = edit.player, edit.other
    pa = where(a)
    if edit.kind in (EditKind.SWAP, EditKind.PAIR):
        if not b or a == b:
            raise InvalidSetting("other", Msg("choose a second, different player"))
        pb = where(b)
        if pa is None and pb is None:
            raise Conflict(Msg("both players have a bye: nothing changes"))
        if edit.kind is EditKind.SWAP:
            put(pa, b, a)
            put(pb, a, b)
        elif pa is not None and pb is not None and pa[0] == pb[0]:
            raise Conflict(Msg("%(a)s and %(b)s play each other already", a=name(a), b=name(b)))
        else:
            _pair(seats, byes, hist, a, pa, b, pb)
    elif edit.kind is EditKind.BYE:
        if pa is None:
            raise Conflict(Msg("%(a)s has the bye already", a=name(a)))
        if not byes:
            raise Conflict(
                Msg(
                    "round %(number)s has no bye (an even number of players): swap or pair "
                    "players instead",
                    number=number,
                )
            )
        holder = byes[0]
        put(pa, holder, a)
        byes[0] = a
    else:
        if pa is None:
            raise Conflict(Msg("%(a)s has the bye: there is no board to move", a=name(a)))
        if edit.board not in seats:
            raise InvalidSetting(
                "board", Msg("the round has boards 1 to %(boards)s", boards=len(seats))
            )
        if edit.board == pa[0]:
            raise Conflict(
                Msg("%(a)s plays on board %(board)s already", a=name(a), board=edit.board)
            )
        seats[pa[0]], seats[edit.board] = seats[edit.board], seats[pa[0]]
    return _result(event, number, rnd, seats, byes, hist)


def _pair(
    seats: dict[int, list[str]],
    byes: list[str],
    hist: Mapping[str, PlayerHistory],
    a: str,
    pa: tuple[int, int] | None,
    b: str,
    pb: tuple[int, int] | None,
) -> None:
    """Seat ``a`` against ``b`` on one of their boards; their former opponents meet on the
    other (or one of them takes the bye one of the two had)."""
    if pa is None or pb is None:
        # one of the two had the bye: the other's opponent takes it
        player, at = (b, pb) if pa is None else (a, pa)
        assert at is not None
        board, side = at
        left = seats[board][1 - side]
        bye_holder = a if pa is None else b
        byes[byes.index(bye_holder)] = left
        seats[board] = _seat(player, bye_holder, Color.BLACK if side == 0 else Color.WHITE, hist)
        return
    (ia, sa), (ib, sb) = pa, pb
    a_opp, b_opp = seats[ia][1 - sa], seats[ib][1 - sb]
    seats[ia] = _seat(a, b, Color.BLACK if sa == 0 else Color.WHITE, hist, other_wants=sb)
    seats[ib] = _seat(
        a_opp, b_opp, Color.BLACK if sa == 1 else Color.WHITE, hist, other_wants=1 - sb
    )


def _seat(
    first: str,
    second: str,
    first_wants: Color,
    hist: Mapping[str, PlayerHistory],
    other_wants: int | None = None,
) -> list[str]:
    """[Black, White] of two players paired by hand: ``first`` keeps ``first_wants`` unless
    both want it and ``second`` needs it more (``other_wants``: 0 Black, 1 White; None: the
    other colour)."""
    second_wants = (
        (Color.WHITE if first_wants is Color.BLACK else Color.BLACK)
        if other_wants is None
        else (Color.BLACK if other_wants == 0 else Color.WHITE)
    )
    black_first = first_wants is Color.BLACK
    if first_wants is second_wants:
        need_a, strength_a = color_need(hist[first].color_string)
        need_b, strength_b = color_need(hist[second].color_string)
        a_claim = strength_a if need_a is first_wants else 0
        b_claim = strength_b if need_b is first_wants else 0
        if b_claim > a_claim:
            black_first = first_wants is not Color.BLACK
    return [first, second] if black_first else [second, first]


def _result(
    event: Event,
    number: int,
    rnd: Round,
    seats: Mapping[int, list[str]],
    byes: Sequence[str],
    hist: Mapping[str, PlayerHistory],
) -> EditedRound:
    from weiqi.tournament.systems.colors import even_or_handicap
    from weiqi.tournament.systems.swiss import mcmahon_start_of

    s = event.settings
    old = {g.board: g for g in rnd.games}
    old_pairs = {frozenset(g.players) for g in rnd.games}
    old_color = {pid: c for g in rnd.games for pid, c in zip(g.players, "BW", strict=True)}
    cands, _ = _candidates(event, number)
    scores = {c.id: c.score for c in cands}
    cap = None
    if s.handicap_threshold is not None and s.system is System.MCMAHON:
        cap = mcmahon_start_of(event, s.handicap_threshold)
    rematch_allowed = s.losses_to_eliminate is not None
    forbidden = {frozenset(p) for p in s.forbidden_pairs}
    entrant = event.entrant
    games: list[Game] = []
    changed: list[int] = []
    problems: list[Problem] = []
    for board in sorted(seats):
        black, white = seats[board]
        before = old[board]
        if (black, white) == before.players:
            games.append(before)
            continue
        changed.append(board)
        g = even_or_handicap(
            s,
            number,
            board,
            entrant[black],
            entrant[white],
            label=before.label,
            scores=scores,
            score_cap=cap,
        )
        games.append(g)
        pair = frozenset(g.players)
        players = g.players
        if pair not in old_pairs:
            if g.white in hist[g.black].opponents:
                problems.append(
                    Problem(ProblemKind.REMATCH, board, players, refused=not rematch_allowed)
                )
            if pair in forbidden:
                problems.append(Problem(ProblemKind.FORBIDDEN, board, players, refused=True))
            gap = abs(scores[g.black] - scores[g.white])
            if gap:
                problems.append(Problem(ProblemKind.SCORE_GAP, board, players, gap=gap))
            club = entrant[g.black].club
            if s.avoid_same_club and club and club == entrant[g.white].club:
                problems.append(Problem(ProblemKind.SAME_CLUB, board, players))
        if not g.handicap:
            for pid, color in zip(g.players, "BW", strict=True):
                colors = hist[pid].color_string + color
                if old_color.get(pid) != color and breaks_color_rule(colors):
                    problems.append(Problem(ProblemKind.COLOR, board, (pid,), colors=colors))
    for pid in byes:
        if pid not in rnd.byes and hist[pid].byes:
            problems.append(Problem(ProblemKind.SECOND_BYE, None, (pid,)))
    return EditedRound(tuple(games), tuple(byes), tuple(changed), tuple(problems))


def explain_round(
    event: Event, number: int, games: Sequence[Game]
) -> tuple[tuple[PairExplanation, ...], RoundTotals]:
    """Why each pair of ``games`` (round ``number`` of ``event``, as edited) is what it is,
    and the round's totals — the same figures the system gives its own pairing.

    >>> from weiqi.tournament.players import Entrant
    >>> from weiqi.tournament.settings import EventSettings
    >>> ev = Event(EventSettings(System.SWISS, rounds=3), tuple(Entrant(p, p) for p in "abcd"),
    ...            (Round(1, (Game(1, 1, "a", "b"), Game(1, 2, "c", "d"))),))
    >>> why, totals = explain_round(ev, 1, (Game(1, 1, "a", "c"), Game(1, 2, "b", "d")))
    >>> [e.seeding_deviation for e in why], [e.seed_black for e in why], totals.score_gap_max
    ([0, 0], [1, 2], 0)
    >>> why, _ = explain_round(ev, 1, (Game(1, 1, "a", "b"), Game(1, 2, "c", "d")))
    >>> [e.seeding_deviation for e in why]
    [1, 1]
    """
    from weiqi.tournament.systems.swiss import explain, totals

    cands, method = _candidates(event, number)
    by_id = {c.id: c for c in cands}
    ends = [(g.black, g.white) for g in games]
    playing = {pid for g in games for pid in g.players}
    # the bye is chosen before the matching, which seeds the players left (as the system does)
    devs = seeding_deviations([c for c in cands if c.id in playing], ends, method)
    pairs = [
        Pair(
            black,
            white,
            abs(by_id[black].score - by_id[white].score),
            dev,
            breaks_color_rule(by_id[black].colors + "B")
            or breaks_color_rule(by_id[white].colors + "W"),
            bool(by_id[black].club) and by_id[black].club == by_id[white].club,
        )
        for (black, white), dev in zip(ends, devs, strict=True)
    ]
    why = explain(games, cands, pairs)
    return why, totals(why)


__all__ = [
    "EditKind",
    "EditedRound",
    "Problem",
    "ProblemKind",
    "RoundEdit",
    "edit_round",
    "editable",
    "explain_round",
]
