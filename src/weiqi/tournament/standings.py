"""Standings of players and teams: points, then tie-breaks by code in the event's order, then
lot or playoff.

Generic over the competitor, a player or a team: it sees only encounters, each with the points
scored, the outcome and whether the opponent counts in the tie-break sums, and for a team the
game points (局分) it scored in the match, board by board. A team event plugs its scoring in
(:mod:`weiqi.league.standings`: match points 2/1/0 as the points); the codes are the same.

Tie-breaks (R-RANK-RR, R-RANK-SWISS, R-RANK-TEAM) are plain functions named by code, in one
registry (:data:`TIEBREAKS`, :data:`FUNCTIONS`, and the pattern ``B<n>`` through
:func:`tiebreak` and :func:`function`):

====== ========== ==================================================================
code   中文        meaning
====== ========== ==================================================================
SB     胜者小分    points of opponents beaten + half the points of opponents drawn
WARN   警告次数    fewer warnings in the whole event ranks first
SOS    对手分      sum of the opponents' points
TOTAL  总得分      points + (SOS / (top score / 2) − rounds); ranks *before* points
CUSS   累进分      sum of the running points after each round
SOS-1  对手分减一  SOS without the weakest opponent
SOSOS  对手分之和  sum of the opponents' SOS
DE     直胜        points scored against the others still tied
RATING 等级分      the rating (higher first)
MP     场分        the points themselves (a team's match points: TOTAL first, then MP)
GP     局分        the game points of every board of the team's matches
B1, …  第1台, …    the game points on board 1, 2, … (``B<n>``, any n ≥ 1)
====== ========== ==================================================================

>>> cs = [
...     Competitor("a", "A", (Encounter(1, "b", 2, "W"), Encounter(2, "c", 1, "D"))),
...     Competitor("b", "B", (Encounter(1, "a", 0, "L"), Encounter(2, None, 2, "W", False))),
...     Competitor("c", "C", (Encounter(2, "a", 1, "D"),)),
... ]
>>> [(s.place, s.id, s.points, s.tiebreaks["SOS"]) for s in rank(cs, ("SOS", "SB"))]
[(1, 'a', 3, 3), (2, 'b', 2, 3), (3, 'c', 1, 3)]
>>> tiebreak("B2").zh, tiebreak("GP").en
('第2台', 'Game points')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Literal

from weiqi.errors import InvalidSetting
from weiqi.messages import Msg

Value = int | Fraction | float


@dataclass(frozen=True)
class Encounter:
    """One round from a competitor's side; ``opponent`` None is a bye. A team's encounter is a
    match: ``points`` its match points, ``game_points`` (局分) and ``board_points`` (board 1
    first) what its players scored."""

    round: int
    opponent: str | None
    points: int
    outcome: Literal["W", "D", "L", "N"]
    in_tiebreaks: bool = True
    game_points: int = 0
    board_points: tuple[int, ...] = ()
    sos_adjust: int = 0
    """Added to the opponent's points where they count in this competitor's SOS (a handicap
    game's stones, when the event adjusts SOS for handicap)."""


@dataclass(frozen=True)
class Competitor:
    """``virtual_opponent``: the points a virtual opponent holds in each round without a game
    counted in SOS (a bye, an absence, a round not played): EGF events count the player's own
    start score there; None counts nothing."""

    id: str
    name: str
    encounters: tuple[Encounter, ...] = ()
    initial_points: int = 0
    warnings: int = 0
    rating: float = 0.0
    virtual_opponent: int | None = None

    @cached_property
    def points(self) -> int:
        """Computed once (the standings ask for it several times per competitor)."""
        return self.initial_points + sum(e.points for e in self.encounters)


@dataclass(frozen=True)
class Standing:
    place: int
    id: str
    name: str
    points: int
    tiebreaks: Mapping[str, Value]
    shared: bool = False
    by_lot: bool = False
    playoff: bool = False


@dataclass(frozen=True)
class TieBreak:
    """A code's names; ``en`` is also the msgid the shell translates (``board``'s with
    ``%(board)s`` in it: :data:`BOARD_EN`)."""

    code: str
    zh: str
    en: str
    higher_first: bool = True
    board: int | None = None
    """The board of a per-board code (``B2`` → 2); None for the others."""


TIEBREAKS: dict[str, TieBreak] = {
    t.code: t
    for t in (
        TieBreak("SB", "胜者小分", "Sonneborn-Berger"),
        TieBreak("WARN", "警告次数", "warnings", higher_first=False),
        TieBreak("SOS", "对手分", "sum of opponents' points"),
        TieBreak("TOTAL", "总得分", "total score"),
        TieBreak("CUSS", "累进分", "cumulative points"),
        TieBreak("SOS-1", "对手分减一", "SOS minus the lowest"),
        TieBreak("SOSOS", "对手分之和", "sum of opponents' SOS"),
        TieBreak("DE", "直胜", "direct encounter"),
        TieBreak("RATING", "等级分", "rating"),
        TieBreak("MP", "场分", "Match points"),
        TieBreak("GP", "局分", "Game points"),
    )
}

BOARD_PREFIX = "B"
BOARD_ZH = "第%(board)s台"
BOARD_EN = "Board %(board)s"
"""The names of ``B<n>``, the game points on board n, with the board as ``%(board)s``."""


def board_of(code: str) -> int | None:
    """The board of a per-board code, or None: ``B1`` → 1, ``B12`` → 12; ``B0``, ``B01``, ``B``
    name no board.

    >>> [board_of(c) for c in ("B1", "B12", "B0", "B01", "B", "SB")]
    [1, 12, None, None, None, None]
    """
    digits = code.removeprefix(BOARD_PREFIX)
    if digits == code or not (digits.isascii() and digits.isdigit()) or digits[0] == "0":
        return None
    return int(digits)


def tiebreak(code: str) -> TieBreak:
    """The registry's entry for ``code``: a code of :data:`TIEBREAKS`, or ``B<n>``; any other
    code is refused (``InvalidSetting`` on ``tiebreaks``)."""
    found = TIEBREAKS.get(code)
    if found is not None:
        return found
    board = board_of(code)
    if board is None:
        raise InvalidSetting("tiebreaks", Msg("unknown code %(code)s", code=repr(code)))
    args = {"board": board}
    return TieBreak(code, BOARD_ZH % args, BOARD_EN % args, board=board)


@dataclass
class _Table:
    """Values shared by the tie-break functions, computed once."""

    by_id: dict[str, Competitor]
    points: dict[str, int]
    rounds: int
    top_score: int
    cache: dict[str, dict[str, Value]] = field(default_factory=dict)

    def opponents(self, c: Competitor) -> list[Encounter]:
        """The encounters whose opponent counts in ``c``'s tie-break sums."""
        return [e for e in c.encounters if e.opponent is not None and e.in_tiebreaks]

    def virtual_rounds(self, c: Competitor) -> int:
        """Rounds (of ``rounds``) in which ``c`` has no opponent counted in the sums."""
        return max(0, self.rounds - len(self.opponents(c)))

    def sos_terms(self, c: Competitor) -> list[int]:
        """What each round adds to ``c``'s SOS: an opponent's points (handicap-adjusted), and
        the virtual opponent of each round without one, when the event counts them."""
        pts = self.points
        terms = []
        for e in self.opponents(c):
            assert e.opponent is not None
            terms.append(pts.get(e.opponent, 0) + e.sos_adjust)
        if c.virtual_opponent is not None:
            terms.extend([c.virtual_opponent] * self.virtual_rounds(c))
        return terms

    def sos(self) -> dict[str, Value]:
        """The sum of :meth:`sos_terms` for every competitor, in one pass over the encounters
        (the standings of 10,000 players × 9 rounds sum 90,000 of them)."""
        if "SOS" not in self.cache:
            pts = self.points
            out: dict[str, Value] = {}
            for cid, c in self.by_id.items():
                total = 0
                counted = 0
                for e in c.encounters:
                    if e.opponent is not None and e.in_tiebreaks:
                        total += pts.get(e.opponent, 0) + e.sos_adjust
                        counted += 1
                if c.virtual_opponent is not None:
                    total += c.virtual_opponent * max(0, self.rounds - counted)
                out[cid] = total
            self.cache["SOS"] = out
        return self.cache["SOS"]


TieBreakFunction = Callable[[_Table], dict[str, Value]]


def _sb(t: _Table) -> dict[str, Value]:
    out: dict[str, Value] = {}
    for cid, c in t.by_id.items():
        twice = 0
        for e in c.encounters:
            if e.opponent is None or not e.in_tiebreaks:
                continue
            if e.outcome == "W":
                twice += 2 * t.points.get(e.opponent, 0)
            elif e.outcome == "D":
                twice += t.points.get(e.opponent, 0)
        out[cid] = Fraction(twice, 2) if twice % 2 else twice // 2
    return out


def _warn(t: _Table) -> dict[str, Value]:
    return {cid: c.warnings for cid, c in t.by_id.items()}


def _sos(t: _Table) -> dict[str, Value]:
    return t.sos()


def _total(t: _Table) -> dict[str, Value]:
    """总得分 = points + (SOS / (top score / 2) − rounds)."""
    sos = t.sos()
    if t.top_score <= 0:
        return {cid: t.points[cid] for cid in t.by_id}
    half = Fraction(t.top_score, 2)
    return {cid: t.points[cid] + (Fraction(sos[cid]) / half - t.rounds) for cid in t.by_id}


def _cuss(t: _Table) -> dict[str, Value]:
    out: dict[str, Value] = {}
    for cid, c in t.by_id.items():
        running, total = c.initial_points, 0
        for e in sorted(c.encounters, key=lambda e: e.round):
            running += e.points
            total += running
        out[cid] = total
    return out


def _sos_minus_1(t: _Table) -> dict[str, Value]:
    """SOS without its lowest term: a virtual opponent's too (OpenGotha's SOSM-1)."""
    out: dict[str, Value] = {}
    for cid, c in t.by_id.items():
        terms = t.sos_terms(c)
        out[cid] = sum(terms) - min(terms) if terms else 0
    return out


def _sosos(t: _Table) -> dict[str, Value]:
    """A virtual opponent's SOS is its own points in every round."""
    sos = t.sos()
    out: dict[str, Value] = {}
    for cid, c in t.by_id.items():
        total: Value = 0
        for e in t.opponents(c):
            assert e.opponent is not None
            total += sos.get(e.opponent, 0)
        if c.virtual_opponent is not None:
            total += c.virtual_opponent * t.rounds * t.virtual_rounds(c)
        out[cid] = total
    return out


def _rating(t: _Table) -> dict[str, Value]:
    return {cid: c.rating for cid, c in t.by_id.items()}


def _mp(t: _Table) -> dict[str, Value]:
    return dict(t.points)


def _gp(t: _Table) -> dict[str, Value]:
    return {cid: sum(e.game_points for e in c.encounters) for cid, c in t.by_id.items()}


def _on_board(board: int) -> TieBreakFunction:
    i = board - 1

    def points_on_board(t: _Table) -> dict[str, Value]:
        return {
            cid: sum(e.board_points[i] for e in c.encounters if i < len(e.board_points))
            for cid, c in t.by_id.items()
        }

    return points_on_board


def direct_encounter(group: Sequence[Competitor]) -> dict[str, Value]:
    """Points each member of a tied group scored against the other members."""
    ids = {c.id for c in group}
    return {c.id: sum(e.points for e in c.encounters if e.opponent in ids) for c in group}


FUNCTIONS: dict[str, TieBreakFunction] = {
    "SB": _sb,
    "WARN": _warn,
    "SOS": _sos,
    "TOTAL": _total,
    "CUSS": _cuss,
    "SOS-1": _sos_minus_1,
    "SOSOS": _sosos,
    "RATING": _rating,
    "MP": _mp,
    "GP": _gp,
}


def function(code: str) -> TieBreakFunction | None:
    """The function of ``code`` (of :data:`FUNCTIONS`, or ``B<n>``'s); None for DE, whose
    values depend on the tie (``rank`` computes them). Unknown codes are refused as by
    :func:`tiebreak`."""
    found = FUNCTIONS.get(code)
    if found is not None:
        return found
    board = tiebreak(code).board
    return None if board is None else _on_board(board)


def tiebreak_values(
    competitors: Sequence[Competitor],
    codes: Sequence[str],
    *,
    rounds: int | None = None,
    top_score: int | Literal["achieved"] | None = None,
    points_win: int = 2,
    score_step: int = 1,
) -> dict[str, dict[str, Value]]:
    """Every code's value for every competitor (DE is left out: it depends on the tie).

    ``rounds`` defaults to the highest round number seen; ``top_score`` to the full score
    ``points_win × rounds`` (R-RANK-SWISS), or the highest points achieved with "achieved".
    ``score_step`` rounds every score down to a multiple of it before anything is summed (EGF
    events round half points down to whole wins: ``points_win``).
    """
    table = _table(competitors, rounds, top_score, points_win, score_step)
    out: dict[str, dict[str, Value]] = {}
    for code in codes:
        fn = function(code)
        if fn is not None:
            out[code] = fn(table)
    return out


def rounded(points: int, step: int) -> int:
    """``points`` rounded down to a multiple of ``step``.

    >>> rounded(67, 2), rounded(-3, 2), rounded(5, 1)
    (66, -4, 5)
    """
    return points // step * step


def _table(
    competitors: Sequence[Competitor],
    rounds: int | None,
    top_score: int | Literal["achieved"] | None,
    points_win: int,
    score_step: int = 1,
) -> _Table:
    by_id = {c.id: c for c in competitors}
    points = {c.id: rounded(c.points, score_step) for c in competitors}
    if rounds is None:
        rounds = max((e.round for c in competitors for e in c.encounters), default=0)
    if top_score == "achieved":
        top = max(points.values(), default=0)
    elif top_score is None:
        top = points_win * rounds
    else:
        top = top_score
    return _Table(by_id, points, rounds, top)


def rank(
    competitors: Sequence[Competitor],
    codes: Sequence[str],
    *,
    rounds: int | None = None,
    top_score: int | Literal["achieved"] | None = None,
    points_win: int = 2,
    shared_places: bool = True,
    tie_resolution: Literal["lot", "playoff"] = "lot",
    seed: int = 0,
    score_step: int = 1,
) -> list[Standing]:
    """Order competitors by points (or by TOTAL when it is the first code), then by ``codes``.

    Competitors still equal after every code share a place when ``shared_places``; otherwise a
    lot drawn with ``random.Random(seed)`` orders them (``by_lot``), or, with
    ``tie_resolution="playoff"``, they keep the shared place marked ``playoff`` until playoff
    games decide (R-PLAYOFF).
    """
    values = tiebreak_values(
        competitors,
        codes,
        rounds=rounds,
        top_score=top_score,
        points_win=points_win,
        score_step=score_step,
    )
    points = {c.id: rounded(c.points, score_step) for c in competitors}
    primary_total = bool(codes) and codes[0] == "TOTAL"
    later = list(codes[1:] if primary_total else codes)
    first: dict[str, Value] = values["TOTAL"] if primary_total else dict(points)
    rng = random.Random(seed)
    de: dict[str, Value] = {}
    ordered: list[tuple[list[Competitor], bool]] = []  # (tied group, resolved)

    def split(
        group: list[Competitor], key: Callable[[Competitor], Value], higher: bool
    ) -> list[list[Competitor]]:
        group.sort(key=key, reverse=higher)
        out: list[list[Competitor]] = []
        for c in group:
            if out and key(out[-1][0]) == key(c):
                out[-1].append(c)
            else:
                out.append([c])
        return out

    def refine(group: list[Competitor], rest: list[str]) -> None:
        if len(group) == 1 or not rest:
            ordered.append((group, len(group) == 1))
            return
        code, tail = rest[0], rest[1:]
        if code == "DE":
            vals = direct_encounter(group)
            for c in group:
                de[c.id] = vals[c.id]
            parts = split(group, lambda c: vals[c.id], True)
        else:
            vals = values[code]
            parts = split(group, lambda c: vals[c.id], tiebreak(code).higher_first)
        for part in parts:
            refine(part, tail)

    base = sorted(competitors, key=lambda c: c.id)
    for group in split(base, lambda c: first[c.id], True):
        refine(group, later)

    table: list[Standing] = []
    place = 1
    for group, _resolved in ordered:
        tied = len(group) > 1
        if tied and not shared_places and tie_resolution == "lot":
            group = sorted(group, key=lambda c: c.id)
            rng.shuffle(group)
        for i, c in enumerate(group):
            tbs: dict[str, Value] = {}
            for code in codes:
                tbs[code] = de.get(c.id, 0) if code == "DE" else values[code][c.id]
            if tied and (shared_places or tie_resolution == "playoff"):
                table.append(
                    Standing(
                        place,
                        c.id,
                        c.name,
                        points[c.id],
                        tbs,
                        shared=True,
                        playoff=not shared_places,
                    )
                )
            else:
                table.append(Standing(place + i, c.id, c.name, points[c.id], tbs, by_lot=tied))
        place += len(group)
    return table


def format_value(value: Value) -> str:
    """Render a tie-break value: integers plainly, fractions as decimals with two places.

    >>> format_value(7), format_value(Fraction(15, 2)), format_value(Fraction(1, 3))
    ('7', '7.5', '0.33')
    >>> format_value(1 / 3), format_value(2400.0)
    ('0.33', '2400')
    """
    if isinstance(value, float):  # as a read model carries it: shown as the value it stands for
        value = Fraction(value).limit_denominator(10**6)
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        text = f"{float(value):.2f}".rstrip("0")
        return text
    return str(value)
