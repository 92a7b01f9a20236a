"""One read model per view of an individual event — a round, the standings — declared once,
built by one function each, and given as it is by the JSON API, the pages and the command
line's ``--json``, so the three cannot drift apart (issue #10).

Each model is a frozen dataclass of plain JSON values (a komi as the fraction's text, a result
as its code with the notations beside, a tie-break as a number): FastAPI answers it as it is,
and :func:`as_json` gives the command line the same keys and values. The builders are pure
(the event as the core sees it and its players' columns in, the model out) and import neither
SQLAlchemy nor pydantic, so the command line's fast SQLite reader (``services.event_rows``)
builds the very same standings as the API.

>>> from weiqi.services.event_rows import PlayerColumns
>>> from weiqi.tournament.records import Event
>>> from weiqi.tournament.settings import EventSettings, System
>>> a = PlayerColumns(1, "A", "", "5d", None, "", "", "", None, "{}", None, 1, 0, 0)
>>> b = a._replace(id=2, name="B", rank="4d")
>>> players = {"1": a, "2": b}
>>> event = Event(EventSettings(System.SWISS, rounds=3), (), ())
>>> table = standings_read("Club", event, players)
>>> [(r.place, r.name, r.points) for r in table.rows], table.rounds
([], 0)
>>> sorted(as_json(player_reads(players)["2"]))
['club', 'country', 'id', 'label', 'name', 'rank', 'withdrawn_after']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from weiqi.league.settings import TeamEventSettings
from weiqi.tournament.namesakes import Person, labels
from weiqi.tournament.ranks import Rank
from weiqi.tournament.records import RoundTotals
from weiqi.tournament.settings import EventSettings, settings_to_dict
from weiqi.tournament.standings import Value, tiebreak

if TYPE_CHECKING:
    from weiqi.rules.result import Result
    from weiqi.services.event_rows import LoadedPlayer
    from weiqi.tournament.records import Event


def as_json(model: object) -> dict[str, Any]:
    """A read model as the plain JSON object the API answers (the command line's ``--json``)."""
    return asdict(model)  # type: ignore[call-overload, no-any-return]


def number(value: Value) -> int | float:
    """A tie-break value as JSON: whole values as integers, others as decimals.

    >>> number(Fraction(7, 2)), number(Fraction(4, 1)), number(3)
    (3.5, 4, 3)
    """
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    return value


@dataclass(frozen=True)
class PlayerRead:
    """A player as every view names them."""

    id: int
    name: str
    label: str
    """The name as shown: with what tells namesakes apart, 张伟 (北京); the name if unique."""
    rank: str | None
    """5d, 2p, 3k."""
    club: str
    country: str
    withdrawn_after: int | None
    """The last round played by a withdrawn player."""


@dataclass(frozen=True)
class TieBreakRead:
    code: str
    zh: str
    en: str


@dataclass(frozen=True)
class StandingRead:
    """One row of the standings: issue #5's ``place, name, points, tiebreaks`` first."""

    place: int
    name: str
    label: str
    points: int
    tiebreaks: dict[str, int | float]
    """By code, in the event's order."""
    shared: bool
    by_lot: bool
    playoff: bool
    player: PlayerRead


@dataclass(frozen=True)
class StandingsRead:
    """The standings: the command line's ``--json`` prints the ``rows`` (issue #5: a list in
    place order), the API answers the whole."""

    event: str
    """The event's name."""
    rounds: int
    """The rounds counted."""
    tiebreaks: list[TieBreakRead]
    """In the event's order."""
    rows: list[StandingRead]
    void: list[PlayerRead]
    """Withdrawn round-robin players whose results are cancelled: no place (R-WD-1)."""


@dataclass(frozen=True)
class ResultRead:
    code: str
    """B+1.5, W+R, 0, BL, Void, Replay, B+J …"""
    sgf: str
    zh: str
    en: str


@dataclass(frozen=True)
class PairingRead:
    """One board of a round: issue #5's ``board, black, white`` (the names as shown) first."""

    board: int
    black: str
    white: str
    result: str | None
    """The result's code; ``notation`` has it in SGF, Chinese and English."""
    handicap: int
    """0 even with komi, 1 让先, 2…9 stones."""
    komi: str
    """In stones, as a fraction: 15/4."""
    label: str
    confirmed: bool
    phase: str
    """not_started (no record), playing (a record, no result yet), finished, confirmed."""
    events: int
    """The length of the board's record."""
    black_player: PlayerRead
    white_player: PlayerRead
    notation: ResultRead | None


@dataclass(frozen=True)
class RoundRead:
    """A round: issue #5's ``round, pairings, bye`` (a name or null) first; ``byes`` every bye
    of the round (a knockout may give several), ``bye_players`` the same players in full."""

    round: int
    pairings: list[PairingRead]
    bye: str | None
    byes: list[str]
    bye_players: list[PlayerRead]
    bye_points: int | None
    """What a bye scores, or None where a bye is only a rest (round robin, bracket)."""
    seed: int | None
    """The seed of the round's drawing of lots."""
    event: str
    """The event's name."""
    starts_at: str | None = None
    """When the round starts as its organisers set it (online games start then), in the
    event's time zone with its offset: ``2027-05-01T09:30+08:00``; None when not set."""


@dataclass(frozen=True)
class BoardFacts:
    """What the stored board adds to the core's game: its confirmation and record length."""

    confirmed: bool
    events: int


def player_reads(players: Mapping[str, LoadedPlayer]) -> dict[str, PlayerRead]:
    """Every player of an event (``players`` by core id: all of them, so that namesakes are
    told apart) as the views name them, by core id."""
    shown = labels(Person(p.id, p.name, p.club, p.birth_date, p.licence) for p in players.values())
    codes: dict[str, str] = {}
    out = {}
    for pid, p in players.items():
        rank = None
        if p.rank:
            rank = codes.get(p.rank) or codes.setdefault(p.rank, Rank.parse(p.rank).code)
        out[pid] = PlayerRead(p.id, p.name, shown[p.id], rank, p.club, p.country, p.withdrawn_after)
    return out


Keep = Callable[[PlayerRead], bool]


def tiebreak_reads(codes: Sequence[str]) -> list[TieBreakRead]:
    """The registry's names of ``codes`` (a team's per-board ``B1`` … too)."""
    return [TieBreakRead(t.code, t.zh, t.en) for t in map(tiebreak, codes)]


def standings_read(
    name: str, event: Event, players: Mapping[str, LoadedPlayer], keep: Keep | None = None
) -> StandingsRead:
    """Places, points and the event's tie-breaks in its order over the event's rounds
    (R-RANK-RR, R-RANK-SWISS, R-PLAYOFF); with ``keep``, the rows of the players it keeps
    (their places those of the whole field)."""
    from weiqi.tournament.ranking import standings
    from weiqi.tournament.scoring import voided_players

    refs = player_reads(players)
    codes = event.settings.tiebreak_codes  # none by default in a bracket
    rows = [
        StandingRead(
            s.place,
            refs[s.id].name,
            refs[s.id].label,
            s.points,
            {c: number(s.tiebreaks.get(c, 0)) for c in codes},
            s.shared,
            s.by_lot,
            s.playoff,
            refs[s.id],
        )
        for s in standings(event)
        if keep is None or keep(refs[s.id])
    ]
    void = [
        refs[p] for p in sorted(voided_players(event), key=int) if keep is None or keep(refs[p])
    ]
    return StandingsRead(name, len(event.rounds), tiebreak_reads(codes), rows, void)


def result_read(r: Result | None) -> ResultRead | None:
    return None if r is None else ResultRead(r.to_code(), r.to_sgf(), r.to_zh(), r.to_en())


def board_phase(has_result: bool, facts: BoardFacts) -> str:
    """Where a board stands, from its stored row alone (no record replayed): ``not_started``
    (no record), ``playing`` (a record, no result yet: in play or being counted),
    ``finished`` (a result, not confirmed) or ``confirmed``. The round's read model and a
    watching script's board states (``live_bot.board_states``) say it by this one rule.

    >>> board_phase(False, BoardFacts(False, 0)), board_phase(True, BoardFacts(False, 9))
    ('not_started', 'finished')
    """
    if facts.confirmed:
        return "confirmed"
    if has_result:
        return "finished"
    return "playing" if facts.events else "not_started"


def round_read(
    name: str,
    event: Event,
    players: Mapping[str, LoadedPlayer],
    number: int,
    boards: Mapping[int, BoardFacts],
    keep: Keep | None = None,
    starts_at: str | None = None,
) -> RoundRead:
    """Round ``number`` of ``event``: its boards in order with results as far as recorded
    (``boards``: each board's stored facts) and its byes; with ``keep``, the boards where
    either player is kept, and the byes kept."""
    rnd = event.rounds[number - 1]
    refs = player_reads(players)
    pairings = []
    for g in sorted(rnd.games, key=lambda g: g.board):
        black, white = refs[g.black], refs[g.white]
        if keep is not None and not (keep(black) or keep(white)):
            continue
        stored = boards.get(g.board, BoardFacts(False, 0))
        # a board whose seal does not hold counts as not played, and so is not confirmed
        facts = BoardFacts(stored.confirmed and g.result is not None, stored.events)
        pairings.append(
            PairingRead(
                g.board,
                black.label,
                white.label,
                g.result.to_code() if g.result is not None else None,
                g.handicap,
                str(g.komi),
                g.label,
                facts.confirmed,
                board_phase(g.result is not None, facts),
                facts.events,
                black,
                white,
                result_read(g.result),
            )
        )
    byes = sorted(
        (refs[p] for p in rnd.byes if keep is None or keep(refs[p])), key=lambda r: r.label
    )
    s = event.settings
    return RoundRead(
        rnd.number,
        pairings,
        byes[0].label if byes else None,
        [p.label for p in byes],
        byes,
        s.bye_points if s.system.is_swiss else None,
        rnd.seed,
        name,
        starts_at,
    )


# -- team events ----------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamBoardRead:
    """One board of a match: the players as codes and as every page shows them."""

    board: int
    sitting: int
    """0, or the sitting of a rotation match's board (第几轮 of the rotation)."""
    home_player: str | None
    away_player: str | None
    home_name: str | None
    away_name: str | None
    home_color: str
    result: str | None
    confirmed: bool


@dataclass(frozen=True)
class MatchRead:
    match: int
    home: str
    away: str
    submitted: dict[str, bool]
    """Whether each team's lineup is in."""
    boards: list[TeamBoardRead]
    """Empty until the lineups are revealed."""
    game_points: list[int] | None
    match_points: list[int] | None
    winner: str | None
    decided_by_board_one: bool
    decided_by_playoff: bool


@dataclass(frozen=True)
class EventSettingsRead:
    """An event of either kind with its settings: what creating it, and reading and changing
    its settings, answer (the API's, and ``weiqi event set --json``)."""

    id: int
    name: str
    kind: str
    """``individual`` or ``team``."""
    system: str
    settings: dict[str, Any]
    """The settings of the kind, every one (``settings_to_dict``)."""
    tiebreaks: list[str]
    """The tie-break codes in effect, in order (a team event's: its ranking's)."""
    entrants: int
    """Its players, or a team event's teams."""
    rounds: int
    details: dict[str, Any]
    """Dates (ISO 8601), venue and time zone."""
    locked: dict[str, str]
    """The settings that cannot change now, each with why (a message id): an individual
    event's once round 1 is paired, a team event's fixed ones from the start."""


@dataclass(frozen=True)
class TeamRoundRead:
    """A team event's round: ``weiqi round show --json`` and the API give this object."""

    round: int
    date: str | None
    starts_at: str | None
    deadline: str | None
    revealed_at: str | None
    """Times in ISO 8601, UTC."""
    bye: str | None
    matches: list[MatchRead]
    lineups: dict[str, list[str]]
    explanations: list[dict[str, Any]]
    """Why each match was paired (a Swiss's; ``pair_explanation.BoardWhy.as_json``), when the
    round is shown; ``round pair --explain --json`` prints the same."""
    totals: RoundTotals | None = None
    """The pairing's totals (an individual round's fields: ``games`` counts matches,
    ``floats`` teams paired down, ``color_violations`` the home/away rule broken)."""


@dataclass(frozen=True)
class TeamStandingRead:
    place: int
    team: str
    name: str
    played: int
    won: int
    drawn: int
    lost: int
    match_points: int
    game_points: int
    board_points: list[int]
    shared: bool


# -- the event ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundSummaryRead:
    number: int
    games: int
    finished: int
    """Games with a result that scores."""
    byes: int

    @property
    def complete(self) -> bool:
        return self.finished == self.games


@dataclass(frozen=True)
class EventRead:
    """An event's summary, either kind: ``weiqi event show --json`` and the API's overview."""

    id: int
    name: str
    kind: str
    """``individual`` or ``team``."""
    system: str
    system_zh: str
    system_en: str
    settings: dict[str, Any]
    """Every setting of the event, as ``event create`` takes them."""
    tiebreaks: list[TieBreakRead]
    """What ranks the entrants, in order: the tie-breaks, or a team event's ranking."""
    entrants: int
    """Its players, or a team event's teams."""
    rounds_paired: int
    """The rounds shown (the public ones to the public)."""
    rounds_planned: int | None
    """The rounds the event will have: the Swiss's number, a round robin's schedule length."""
    current_round: int | None
    """The round being played: the first with results missing, else the last."""
    rounds: list[RoundSummaryRead]
    """Each round's games (a team event's matches), how many are finished, its byes."""


def round_summaries(event: Event) -> list[RoundSummaryRead]:
    """Each round's games, how many of them have a result that scores, and its byes."""
    from weiqi.tournament.scoring import game_points

    s = event.settings
    return [
        RoundSummaryRead(
            r.number,
            len(r.games),
            sum(1 for g in r.games if game_points(g.result, s) is not None),
            len(r.byes),
        )
        for r in event.rounds
    ]


def current_round(rounds: Sequence[RoundSummaryRead]) -> int | None:
    """The round being played: the first with results missing, else the last."""
    for r in rounds:
        if not r.complete:
            return r.number
    return rounds[-1].number if rounds else None


def rounds_planned(event: Event) -> int | None:
    """The rounds the event will have: the Swiss's number, a round robin's schedule length
    over its starting field."""
    from weiqi.tournament.systems import starting_field

    return event.settings.planned_rounds(len(starting_field(event)))


def event_read(
    event_id: int,
    name: str,
    settings: EventSettings | TeamEventSettings,
    entrants: int,
    rounds: list[RoundSummaryRead],
    planned: int | None,
) -> EventRead:
    """The summary of event ``event_id`` of either kind over ``rounds``."""
    team = isinstance(settings, TeamEventSettings)
    return EventRead(
        event_id,
        name,
        "team" if team else "individual",
        settings.system.value,
        settings.system.zh,
        settings.system.en,
        settings_to_dict(settings),
        tiebreak_reads(settings.tiebreak_codes),
        entrants,
        len(rounds),
        planned,
        current_round(rounds),
        rounds,
    )
