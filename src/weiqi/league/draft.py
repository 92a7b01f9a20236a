"""The transfer draft (摘牌, R-LEAGUE-2): each club protects a base of players (4) and lists the
rest (挂牌); clubs pick listed players in the reverse order of last season's standing across the
divisions — the seed's example: the lower division's third place picks first … the top
division's champion 14th, i.e. the clubs of next season's top division, the promoted ones first.

A club may pass; rounds of picks continue until a whole round passes or the pool is empty. Every
pick and pass goes to an append-only log, and :func:`replay` rebuilds the draft from its setup
and log, so anyone can audit it. Listed players nobody picks stay with their clubs, or are
released (a setting).

>>> from weiqi.tournament.ranks import Rank
>>> def roster(c, n):
...     return [RosterEntry(f"{c}{i}", f"{c}{i}", Rank.parse("5p")) for i in range(1, n + 1)]
>>> d = Draft(["X", "Y"], {"X": roster("x", 5), "Y": roster("y", 6)},
...           {"X": ["x1", "x2", "x3", "x4"], "Y": ["y1", "y2", "y3", "y4"]})
>>> d.pool
('x5', 'y5', 'y6')
>>> d.on_the_clock, d.pick("X", "y6"), d.on_the_clock
('X', None, 'Y')
>>> d.pass_turn("Y"); d.pass_turn("X"); d.pass_turn("Y")
>>> d.finished, [e.text() for e in d.log]
(True, ['1.1 X picks y6 (from Y)', '1.2 Y passes', '2.1 X passes', '2.2 Y passes'])
>>> [p.player_id for p in d.rosters()["X"]]
['x1', 'x2', 'x3', 'x4', 'y6', 'x5']
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from weiqi.errors import Conflict, InputError, InvalidSetting
from weiqi.league.team import RosterEntry
from weiqi.messages import Msg


def combined_standing(*divisions: Sequence[str]) -> list[str]:
    """Last season's standing across divisions: the top division's table, then the next …

    >>> combined_standing(["A1", "A2"], ["B1", "B2", "B3"])
    ['A1', 'A2', 'B1', 'B2', 'B3']
    """
    out: list[str] = []
    for division in divisions:
        out.extend(division)
    if len(set(out)) != len(out):
        raise InvalidSetting("divisions", Msg("a club appears in two divisions"))
    return out


def draft_order(standing: Sequence[str], participants: Iterable[str]) -> list[str]:
    """The picking order: the reverse of ``standing`` (best first), keeping only ``participants``
    (by the seed text: the clubs of next season's top division).

    >>> top = [f"A{i}" for i in range(1, 13)]       # 甲 champion … 12th
    >>> lower = [f"B{i}" for i in range(1, 13)]     # 乙 champion … 12th
    >>> nxt = top[:11] + lower[:3]                  # 12th goes down, three come up
    >>> order = draft_order(combined_standing(top, lower), nxt)
    >>> order[:4], order[-1], len(order)
    (['B3', 'B2', 'B1', 'A11'], 'A1', 14)
    """
    wanted = set(participants)
    missing = wanted - set(standing)
    if missing:
        raise InvalidSetting(
            "participants",
            Msg("not in last season's standing: %(missing)s", missing=sorted(missing)),
        )
    return [club for club in reversed(standing) if club in wanted]


def check_protected(club: str, roster: Sequence[str], keep: Sequence[str], base: int) -> None:
    """Refuse a protected base that is not exactly ``base`` distinct players of the club's
    ``roster`` (all of them when it has fewer).

    >>> check_protected("A", ["a1", "a2", "a3"], ["a1", "a2"], 2)
    >>> check_protected("A", ["a1", "a2", "a3"], ["a1"], 2)
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: protected players of A: 1 protected; a club keeps a base of exactly 2
    """
    where = Msg("protected players of %(club)s", club=club)
    for pid in keep:
        if pid not in roster:
            raise InputError(where, Msg("%(pid)s is not on its roster", pid=pid))
    if len(set(keep)) != len(keep):
        raise InputError(where, Msg("a player is listed twice"))
    if len(keep) != min(base, len(roster)):
        raise InputError(
            where,
            Msg(
                "%(keep)s protected; a club keeps a base of exactly %(base)s",
                keep=len(keep),
                base=min(base, len(roster)),
            ),
        )


class Unpicked(enum.Enum):
    """What becomes of listed players nobody picks (draft setting)."""

    RETURN = "return"  # they stay with the club that listed them
    RELEASE = "release"  # they leave it (free players, see Draft.released)


class DraftAction(enum.Enum):
    PICK = "pick"
    PASS = "pass"


@dataclass(frozen=True)
class DraftEvent:
    """One line of the draft log: ``seq`` counts from 1 over the whole draft."""

    seq: int
    round: int
    turn: int
    club: str
    action: DraftAction
    player: str | None = None
    from_club: str | None = None

    def text(self) -> str:
        if self.action is DraftAction.PASS:
            return f"{self.round}.{self.turn} {self.club} passes"
        return f"{self.round}.{self.turn} {self.club} picks {self.player} (from {self.from_club})"


class Draft:
    """A draft in progress.

    ``rosters`` holds every club whose players may be listed (a club that does not pick, e.g. one
    relegated, may still list); ``order`` the picking clubs; ``protected`` each club's kept base.
    A club protects exactly ``base`` players, or its whole roster when it has fewer.
    ``max_roster`` (if set) stops a full club from picking (see :meth:`room`), so no roster ends
    the draft above it.
    """

    def __init__(
        self,
        order: Sequence[str],
        rosters: Mapping[str, Sequence[RosterEntry]],
        protected: Mapping[str, Sequence[str]],
        base: int = 4,
        max_roster: int | None = None,
        unpicked: Unpicked = Unpicked.RETURN,
    ) -> None:
        if len(set(order)) != len(order):
            raise InvalidSetting("draft order", Msg("a club picks twice a round"))
        if not order:
            raise InvalidSetting("draft order", Msg("no club picks"))
        for club in order:
            if club not in rosters:
                raise InvalidSetting("draft order", Msg("%(club)s has no roster", club=club))
        self.order = tuple(order)
        self.base = base
        self.max_roster = max_roster
        self.unpicked = unpicked
        self._rosters: dict[str, list[RosterEntry]] = {}
        self._origin: dict[str, str] = {}
        self._pool: dict[str, RosterEntry] = {}
        seen: set[str] = set()
        for club, roster in rosters.items():
            keep = list(protected.get(club, ()))
            check_protected(club, [e.player_id for e in roster], keep, base)
            self._rosters[club] = []
            for e in roster:
                if e.player_id in seen:
                    raise InputError(
                        Msg("roster of %(club)s", club=club),
                        Msg("%(player_id)s is on two rosters", player_id=e.player_id),
                    )
                seen.add(e.player_id)
                if e.player_id in keep:
                    self._rosters[club].append(replace(e, protected=True))
                else:
                    self._pool[e.player_id] = replace(e, protected=False)
                    self._origin[e.player_id] = club
        self.log: list[DraftEvent] = []
        self._round = 1
        self._turn = 0  # index into order
        self._picks_this_round = 0
        self._done = not self._pool

    # -- state -------------------------------------------------------------------------------------

    @property
    def pool(self) -> tuple[str, ...]:
        """Listed players not yet picked, in listing order."""
        return tuple(self._pool)

    def listed_by(self, player_id: str) -> str:
        return self._origin[player_id]

    @property
    def finished(self) -> bool:
        return self._done

    @property
    def round(self) -> int:
        return self._round

    @property
    def turn(self) -> int:
        """The position (from 1) of the club on the clock in this round's order."""
        return self._turn + 1

    @property
    def on_the_clock(self) -> str | None:
        """The club whose turn it is."""
        return None if self._done else self.order[self._turn]

    def rosters(self) -> dict[str, tuple[RosterEntry, ...]]:
        """Each club's roster: its base and its picks, plus (once the draft is over, if they
        return) its listed players nobody picked."""
        out = {c: list(r) for c, r in self._rosters.items()}
        if self._done and self.unpicked is Unpicked.RETURN:
            for pid, entry in self._pool.items():
                out[self._origin[pid]].append(entry)
        return {c: tuple(r) for c, r in out.items()}

    @property
    def released(self) -> tuple[RosterEntry, ...]:
        """Listed players nobody picked who leave their clubs (``Unpicked.RELEASE``, once over)."""
        if self._done and self.unpicked is Unpicked.RELEASE:
            return tuple(self._pool.values())
        return ()

    def room(self, club: str) -> int | None:
        """How many players ``club`` may still pick under ``max_roster`` (``None``: no limit).
        With ``Unpicked.RETURN`` its own listed players still in the pool count, since they stay
        if nobody picks them."""
        if self.max_roster is None:
            return None
        pending = 0
        if self.unpicked is Unpicked.RETURN:
            pending = sum(1 for pid in self._pool if self._origin[pid] == club)
        return max(0, self.max_roster - len(self._rosters[club]) - pending)

    # -- moves -------------------------------------------------------------------------------------

    def pick(self, club: str, player_id: str) -> None:
        self._check_turn(club)
        if player_id not in self._pool:
            raise InputError(
                Msg("player %(player_id)s", player_id=player_id), Msg("is not in the draft pool")
            )
        if self._origin[player_id] == club:
            raise Conflict(
                Msg(
                    "%(club)s listed %(player_id)s and cannot pick him back",
                    club=club,
                    player_id=player_id,
                )
            )
        if self.room(club) == 0:
            raise Conflict(
                Msg(
                    "%(club)s has a full roster (%(max_roster)s, counting its listed "
                    "players who stay if nobody picks them) and must pass",
                    club=club,
                    max_roster=self.max_roster,
                )
            )
        entry = self._pool.pop(player_id)
        self._rosters[club].append(entry)
        self._record(club, DraftAction.PICK, player_id, self._origin[player_id])
        self._picks_this_round += 1
        self._advance()

    def pass_turn(self, club: str) -> None:
        self._check_turn(club)
        self._record(club, DraftAction.PASS, None, None)
        self._advance()

    def _check_turn(self, club: str) -> None:
        if self._done:
            raise Conflict(Msg("the draft is over"))
        if club != self.on_the_clock:
            raise Conflict(
                Msg(
                    "it is %(on_the_clock)s's turn, not %(club)s's",
                    on_the_clock=self.on_the_clock,
                    club=club,
                )
            )

    def _record(
        self, club: str, action: DraftAction, player: str | None, origin: str | None
    ) -> None:
        self.log.append(
            DraftEvent(len(self.log) + 1, self._round, self._turn + 1, club, action, player, origin)
        )

    def _advance(self) -> None:
        if not self._pool:
            self._done = True
            return
        self._turn += 1
        if self._turn == len(self.order):
            if self._picks_this_round == 0:
                self._done = True
                return
            self._round += 1
            self._turn = 0
            self._picks_this_round = 0


def replay(
    order: Sequence[str],
    rosters: Mapping[str, Sequence[RosterEntry]],
    protected: Mapping[str, Sequence[str]],
    log: Iterable[DraftEvent],
    base: int = 4,
    max_roster: int | None = None,
    unpicked: Unpicked = Unpicked.RETURN,
) -> Draft:
    """Rebuild a draft from its setup and log, checking every line (its number, round, turn and
    club) against what the rules allow at that point; an altered log raises :class:`Conflict`."""
    draft = Draft(order, rosters, protected, base, max_roster, unpicked)
    for event in log:
        expected = (len(draft.log) + 1, draft.round, draft.turn, draft.on_the_clock)
        if (event.seq, event.round, event.turn, event.club) != expected:
            raise Conflict(
                Msg(
                    "draft log line %(seq)s: expected %(expected)s, found %(event)s",
                    seq=event.seq,
                    expected=expected,
                    event=event,
                )
            )
        if event.action is DraftAction.PICK:
            if event.player is None:
                raise Conflict(
                    Msg("draft log line %(seq)s: a pick without a player", seq=event.seq)
                )
            draft.pick(event.club, event.player)
            if draft.log[-1] != event:
                raise Conflict(
                    Msg("draft log line %(seq)s: recorded %(event)s", seq=event.seq, event=event)
                )
        else:
            draft.pass_turn(event.club)
    return draft
