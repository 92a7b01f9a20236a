"""What anybody may read about an individual event: the overview, each public round's
pairings and results, the standings with the event's tie-breaks, the crosstable and one
player's games. No permission is needed (R-ORG-1: the public reads); nothing is written.

A round is public once it is published; :func:`round_is_public` is the one place that decides.
Standings, crosstable and player pages count the public rounds only, so nothing leaks from a
round the organiser has not published yet.

A crosstable cell from its row's side, and the values tables print:

>>> CrossCell(3, opponent=12, color=Color.BLACK, outcome="W").text(bye_word="轮空")
'12b+'
>>> CrossCell(4, opponent=7, color=Color.WHITE, outcome="L", forfeit=True).text("bye")
'7−!'
>>> CrossCell(5, bye=True).text("轮空"), format_value(Fraction(19, 2))
('轮空', '9.5')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from weiqi.clock.control import TimeControl
from weiqi.errors import NotFound, PermissionDenied
from weiqi.messages import Msg
from weiqi.rules.color import Color
from weiqi.rules.result import Result

# The event as the core sees it is loaded by the tournament service; reusing its loader keeps
# one definition of how stored rows become a core ``Event``.
from weiqi.services import read_models
from weiqi.services.actor import Actor
from weiqi.services.events import details_in, event_rounds, no_player, round_or_latest
from weiqi.services.permissions import Action, require
from weiqi.services.player_names import matches_fields, player_labels, search_terms
from weiqi.services.read_models import (
    BoardFacts,
    EventRead,
    RoundRead,
    RoundSummaryRead,
    StandingsRead,
)
from weiqi.services.tournament import _load, _settings_row
from weiqi.store import versions
from weiqi.store.database import Database
from weiqi.store.games import GameRecordRow
from weiqi.store.models import EventRow
from weiqi.store.tournament import GameRow, PlayerRow, RoundRow
from weiqi.tournament.details import EventDetails, local_time
from weiqi.tournament.ranks import Rank
from weiqi.tournament.records import Event, Game
from weiqi.tournament.scoring import (
    game_points,
    histories,
    is_forfeit,
    outcome_letter,
    voided_players,
)
from weiqi.tournament.settings import EventSettings, System
from weiqi.tournament.standings import Value, format_value

__all__ = [
    "Bracket",
    "BracketColumn",
    "BracketMatchView",
    "BracketSection",
    "BracketSide",
    "CrossCell",
    "CrossRow",
    "Crosstable",
    "EventOverview",
    "Grid",
    "GridGame",
    "GridRow",
    "PlayerCard",
    "PlayerGame",
    "PlayerList",
    "PlayerRef",
    "Schedule",
    "ScheduleBoard",
    "ScheduleRound",
    "TeamEventOverview",
    "bracket",
    "crosstable",
    "event_read",
    "event_version",
    "format_value",
    "grid",
    "is_team_event",
    "overview",
    "player_card",
    "player_list",
    "require_round_visible",
    "round_is_public",
    "round_read",
    "schedule",
    "standings_read",
    "team_overview",
]

Letter = Literal["W", "D", "L", "N"]


@dataclass(frozen=True)
class PlayerRef:
    """A player as public pages name them."""

    id: int
    name: str
    rank: Rank | None
    club: str
    withdrawn_after: int | None = None
    label: str = ""
    """The name, with what tells a namesake apart (``张伟 (北京)``); the name if none."""
    country: str = ""


@dataclass(frozen=True)
class EventOverview:
    id: int
    name: str
    settings: EventSettings
    players: int
    rounds_planned: int | None
    """The rounds the event will have: the Swiss's number, a round robin's schedule length."""
    rounds: tuple[RoundSummaryRead, ...]
    details: EventDetails = field(default_factory=EventDetails)
    """Dates, venue and time zone."""

    @property
    def time_control(self) -> TimeControl | None:
        """The event's time control (its settings'), which heads its pages with its details."""
        return self.settings.time_control

    @property
    def tiebreaks(self) -> tuple[str, ...]:
        return self.settings.tiebreak_codes

    @property
    def current_round(self) -> int | None:
        """The round being played: the first public round with results missing, else the last."""
        return read_models.current_round(self.rounds)


@dataclass(frozen=True)
class PlayerList:
    """The event's players for the public: name (namesakes told apart), rank, club, country."""

    event_name: str
    players: tuple[PlayerRef, ...]
    """The players ``search`` matches, in the order of entry."""
    total: int
    """Every player of the event."""
    search: str = ""


@dataclass(frozen=True)
class CrossCell:
    """One round of one row: the opponent's row number, colour, outcome from the row's side.

    ``outcome`` None with an opponent is a game without a (final) result yet; without an
    opponent and without ``bye`` the player did not play that round.
    """

    round: int
    opponent: int | None = None
    color: Color | None = None
    outcome: Letter | None = None
    forfeit: bool = False
    bye: bool = False
    void: bool = False

    def text(self, bye_word: str) -> str:
        """``12b+`` (won with Black against row 12), ``3w=``, ``5b−``, ``7+!`` (forfeit),
        ``bye_word`` for a bye, ``(…)`` around a cancelled result, empty when not playing."""
        if self.bye:
            return bye_word
        if self.opponent is None:
            return ""
        sign = {"W": "+", "D": "=", "L": "−", "N": "~", None: ""}[self.outcome]
        if self.forfeit:
            out = f"{self.opponent}{sign}!"
        else:
            color = self.color.value.lower() if self.color else ""
            out = f"{self.opponent}{color}{sign}"
        return f"({out})" if self.void else out


@dataclass(frozen=True)
class CrossRow:
    row: int
    place: int | None
    shared: bool
    player: PlayerRef
    cells: tuple[CrossCell, ...]
    points: int
    tiebreaks: tuple[Value, ...]


@dataclass(frozen=True)
class Crosstable:
    event_name: str
    codes: tuple[str, ...]
    rounds: int
    rows: tuple[CrossRow, ...]


@dataclass(frozen=True)
class PlayerGame:
    round: int
    board: int | None
    color: Color | None
    opponent: PlayerRef | None
    """None for a bye."""
    opponent_row: int | None
    result: Result | None
    outcome: Letter | None
    points: int | None
    """What the game scored for the player (None while outstanding or cancelled)."""
    running: int
    """The player's points after this round."""
    handicap: int = 0
    komi: Fraction = Fraction(0)
    void: bool = False


@dataclass(frozen=True)
class PlayerCard:
    event_name: str
    player: PlayerRef
    place: int | None
    shared: bool
    points: int
    games: tuple[PlayerGame, ...]


# -- what is public -------------------------------------------------------------------------


def round_is_public(row: RoundRow) -> bool:
    """Whether the public may see a paired round: once the organiser publishes it, where
    rounds carry a ``published`` flag; every paired round until that flag exists."""
    return bool(getattr(row, "published", True))


def require_round_visible(db: Database, actor: Actor, event_id: int, number: int) -> None:
    """Refuse (``NotFound``, as if it did not exist) a read of an unpublished round's boards,
    records or sheet by anybody but its referees, chief referee and organisers — the one check
    every read of a round's games goes through (pages, API, SGF). A round that does not exist
    passes: the read itself names what is missing."""
    with db.transaction() as session:
        check_round_visible(session, actor, event_id, number)


def check_round_visible(session: Session, actor: Actor, event_id: int, number: int) -> None:
    """:func:`require_round_visible` inside a transaction the caller holds (a room's socket
    reads the board, the seat and the state in the same one)."""
    rows = {
        row.number: row
        for row in session.scalars(
            select(RoundRow).where(RoundRow.event_id == event_id, RoundRow.number <= number)
        )
    }
    for n in range(1, number + 1):
        row = rows.get(n)
        if row is None:
            return
        if not round_is_public(row):
            break
    else:
        return
    try:
        require(session, actor, Action.ENTER_RESULT, event_id)
    except PermissionDenied:
        raise NotFound(Msg("round %(number)s is not public", number=number)) from None


def _public_count(session: Session, event_id: int) -> int:
    """How many rounds, from the first, are public (a later round never shows before an
    earlier one)."""
    count = 0
    for row in event_rounds(session, event_id):
        if not round_is_public(row):
            break
        count += 1
    return count


def _public_event(session: Session, event_id: int) -> tuple[Event, dict[str, PlayerRow], str]:
    event, players = _load(session, event_id)
    count = _public_count(session, event_id)
    trimmed = Event(event.settings, event.entrants, event.rounds[:count], event.warnings)
    model = session.get(EventRow, event_id)
    assert model is not None  # _load found its settings
    return trimmed, players, model.name


def _refs(players: Mapping[str, PlayerRow]) -> dict[str, PlayerRef]:
    """Every player of the event as public pages name them (namesakes told apart), by core id."""
    shown = player_labels(players.values())
    ranks: dict[str, Rank] = {}
    out = {}
    for pid, row in players.items():
        rank = None
        if row.rank:
            rank = ranks.get(row.rank) or ranks.setdefault(row.rank, Rank.parse(row.rank))
        out[pid] = PlayerRef(
            row.id,
            row.name,
            rank,
            row.club,
            row.withdrawn_after,
            label=shown[row.id],
            country=row.country,
        )
    return out


def event_version(db: Database, event_id: int) -> versions.Version | None:
    """What every public page of ``event_id`` is derived from: it changes with every write
    to the event (``store.versions``), so a page kept under it is current while it stays the
    same. ``None`` where there is no version yet (keep nothing then).

    Read it *before* the page's data: a page is then never older than its version.
    """
    # One SELECT on a plain connection (rolled back when closed), not a session: every public
    # page's request reads it, and a session's set-up and commit cost twice the query.
    with db.connection() as connection:
        return versions.read(connection, event_id)


# -- use cases ------------------------------------------------------------------------------


def overview(db: Database, event_id: int) -> EventOverview:
    """The event's settings and its public rounds with how many results are in."""
    with db.transaction() as session:
        event, players, name = _public_event(session, event_id)
        details = details_in(session, event_id)
    rounds = tuple(read_models.round_summaries(event))
    planned = read_models.rounds_planned(event)
    return EventOverview(event_id, name, event.settings, len(players), planned, rounds, details)


def _matches(terms: tuple[str, ...], ref: PlayerRef) -> bool:
    rank = ref.rank.code if ref.rank else None
    return matches_fields(terms, (ref.label, ref.name, ref.club, ref.country), rank)


def _event_for(
    session: Session, event_id: int, public: bool
) -> tuple[Event, dict[str, PlayerRow], str]:
    """The event with its public rounds (``public``) or all of them, its players and name."""
    if public:
        return _public_event(session, event_id)
    event, players = _load(session, event_id)
    model = session.get(EventRow, event_id)
    assert model is not None  # _load found its settings
    return event, players, model.name


def _keeper(search: str) -> read_models.Keep | None:
    """Whether a player matches ``search`` (name, club, rank); None keeps every player."""
    terms = search_terms(search)
    if not terms:
        return None
    return lambda p: matches_fields(terms, (p.label, p.name, p.club, p.country), p.rank)


def stored_boards(
    session: Session, event_id: int, number: int
) -> list[tuple[int, str | None, bool, int]]:
    """Each board of individual round ``number``, in order, from the stored rows alone (one
    query, no record replayed: cheap on a round of thousands of boards): ``(board, result,
    confirmed, events)``, ``events`` the length of its record (0: none yet). The round's
    page and a script watching the round (``live_bot.board_states``) read it.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> with db.transaction() as session:  # a round not paired has no boards
    ...     stored_boards(session, 1, 1)
    []

    (``live_bot.board_states`` shows a paired round's.)
    """
    rows = session.execute(
        select(GameRow.board, GameRow.result, GameRow.confirmed, GameRecordRow.seq)
        .join(RoundRow, GameRow.round_id == RoundRow.id)
        .outerjoin(GameRecordRow, GameRecordRow.game_id == GameRow.id)
        .where(RoundRow.event_id == event_id, RoundRow.number == number)
        .order_by(GameRow.board)
    )
    return [(int(b), result, bool(c), int(seq or 0)) for b, result, c, seq in rows]


def _board_facts(session: Session, event_id: int, number: int) -> dict[int, BoardFacts]:
    """Each board of round ``number``: its confirmation and its record's length."""
    return {
        b: BoardFacts(confirmed, events)
        for b, _, confirmed, events in stored_boards(session, event_id, number)
    }


def round_read(
    db: Database, event_id: int, number: int | None, search: str = "", *, public: bool = True
) -> RoundRead:
    """Round ``number`` as the API, the pages and ``weiqi round show --json`` give it
    (:class:`read_models.RoundRead`); ``public``: only a public round, as anybody may read it
    (otherwise ``NotFound``), else any paired round, ``None`` the latest, as its organisers
    see it; with ``search``, the boards and byes of the players it matches."""
    keep = _keeper(search)
    with db.transaction() as session:
        _settings_row(session, event_id)
        if public:
            count = _public_count(session, event_id)
            if number is None or not 1 <= number <= count:
                raise NotFound(Msg("round %(number)s is not public", number=number))
        event, players, name = _event_for(session, event_id, public)
        row = round_or_latest(session, event_id, number)
        number = row.number
        boards = _board_facts(session, event_id, number)
        starts = None
        if row.starts_at is not None:
            zone = details_in(session, event_id).time_zone
            starts = local_time(row.starts_at, zone).isoformat(timespec="minutes")
    return read_models.round_read(name, event, players, number, boards, keep, starts)


def standings_read(
    db: Database, event_id: int, search: str = "", *, public: bool = True
) -> StandingsRead:
    """The standings as the API, the pages and ``weiqi standings --json`` give them
    (:class:`read_models.StandingsRead`): over the public rounds, or with ``public`` False
    over every paired round (the organisers' view); with ``search``, the rows it matches
    (R-RANK-RR, R-RANK-SWISS, R-PLAYOFF)."""
    keep = _keeper(search)
    with db.transaction() as session:
        event, players, name = _event_for(session, event_id, public)
    return read_models.standings_read(name, event, players, keep)


def event_read(db: Database, event_id: int, *, public: bool = True) -> EventRead:
    """The event's summary, either kind, as the API's overview and ``weiqi event show --json``
    give it (:class:`read_models.EventRead`): over the public rounds, or with ``public`` False
    over every paired round (the organisers' view; a team round is public once paired)."""
    if is_team_event(db, event_id):
        from weiqi.services import teams

        info, rounds = teams.event_summary(db, event_id)
        planned = info.settings.planned_rounds(info.entrants)
        return read_models.event_read(event_id, info.name, info.settings, info.entrants, rounds,
                                      planned)  # fmt: skip
    with db.transaction() as session:
        event, players, name = _event_for(session, event_id, public)
    rounds, planned = read_models.round_summaries(event), read_models.rounds_planned(event)
    return read_models.event_read(event_id, name, event.settings, len(players), rounds, planned)


def player_list(db: Database, event_id: int, search: str = "") -> PlayerList:
    """Every player of the event (withdrawn ones too, marked), in the order of entry; with
    ``search``, those it matches (name, club, rank). Entries are public from the start."""
    terms = search_terms(search)
    with db.transaction() as session:
        _, players, name = _public_event(session, event_id)
    refs = _refs(players)
    shown = tuple(r for r in refs.values() if _matches(terms, r))
    return PlayerList(name, shown, len(refs), search.strip())


def crosstable(db: Database, event_id: int) -> Crosstable:
    """Every player's rounds, rows in the order of the standings; a withdrawn round-robin
    player whose results are cancelled follows without a place, the cells in brackets."""
    with db.transaction() as session:  # one snapshot for the table and its standings
        event, players, name = _public_event(session, event_id)
    table = read_models.standings_read(name, event, players)
    refs = _refs(players)
    order = [str(r.player.id) for r in table.rows] + [str(p.id) for p in table.void]
    row_of = {pid: i for i, pid in enumerate(order, start=1)}
    void = voided_players(event)
    by_pid = {str(r.player.id): r for r in table.rows}
    rows = []
    for pid in order:
        cells = tuple(_cell(event, rnd.number - 1, pid, row_of, void) for rnd in event.rounds)
        standing = by_pid.get(pid)
        rows.append(
            CrossRow(
                row_of[pid],
                standing.place if standing else None,
                standing.shared if standing else False,
                refs[pid],
                cells,
                standing.points if standing else 0,
                tuple(standing.tiebreaks.values()) if standing else (),
            )
        )
    codes = tuple(t.code for t in table.tiebreaks)
    return Crosstable(table.event, codes, len(event.rounds), tuple(rows))


def _cell(
    event: Event, index: int, pid: str, row_of: dict[str, int], void: frozenset[str]
) -> CrossCell:
    rnd = event.rounds[index]
    if pid in rnd.byes:
        return CrossCell(rnd.number, bye=True)
    game = rnd.game_of(pid)
    if game is None:
        return CrossCell(rnd.number)
    opp = game.opponent_of(pid)
    return CrossCell(
        rnd.number,
        opponent=row_of.get(opp),
        color=game.color_of(pid),
        outcome=_outcome(event, game, pid),
        forfeit=is_forfeit(game.result),
        void=pid in void or opp in void,
    )


def _outcome(event: Event, game: Game, pid: str) -> Letter | None:
    """W/D/L/N from ``pid``'s side, None while the game has no final result."""
    if game_points(game.result, event.settings) is None:
        return None
    assert game.result is not None
    return outcome_letter(game.result, game.color_of(pid))


def player_card(db: Database, event_id: int, player_id: int) -> PlayerCard:
    """One player's rounds with colours, results, points and the running score."""
    table = crosstable(db, event_id)
    with db.transaction() as session:
        event, players, name = _public_event(session, event_id)
    refs = _refs(players)
    pid = str(player_id)
    if pid not in players:
        raise no_player(event_id, player_id)
    hist = histories(event)[pid]
    row = next((r for r in table.rows if r.player.id == player_id), None)
    # the standings may count points the games do not (a McMahon start score)
    start = row.points - hist.points if row else 0
    row_of = {str(r.player.id): r.row for r in table.rows}
    void = voided_players(event)
    games = []
    for i, rnd in enumerate(event.rounds):
        after = hist.score_before[rnd.number + 1] if i + 1 < len(event.rounds) else hist.points
        running = after + start
        if pid in rnd.byes:
            bye = event.settings.bye_points if event.settings.system.is_swiss else None
            games.append(
                PlayerGame(
                    rnd.number, None, None, None, None, None, "W" if bye else None, bye, running
                )
            )
            continue
        game = rnd.game_of(pid)
        if game is None:
            games.append(PlayerGame(rnd.number, None, None, None, None, None, None, None, running))
            continue
        opp = game.opponent_of(pid)
        pts = game_points(game.result, event.settings)
        cancelled = pid in void or opp in void
        mine = None
        if pts is not None and not cancelled:
            mine = pts[0] if game.color_of(pid) is Color.BLACK else pts[1]
        games.append(
            PlayerGame(
                rnd.number,
                game.board,
                game.color_of(pid),
                refs[opp],
                row_of.get(opp),
                game.result,
                _outcome(event, game, pid),
                mine,
                running,
                game.handicap,
                game.komi,
                cancelled,
            )
        )
    return PlayerCard(
        name,
        refs[pid],
        row.place if row else None,
        row.shared if row else False,
        hist.points + start,
        tuple(games),
    )


# -- team events ----------------------------------------------------------------------------


@dataclass(frozen=True)
class TeamEventOverview:
    """What the public pages of a team event (or a league division) need for their frame."""

    id: int
    name: str
    system_zh: str
    boards: int
    rounds: tuple[RoundSummaryRead, ...]
    season_id: int | None = None
    """The league season of a division (its table and calendar are linked from its pages)."""
    details: EventDetails = field(default_factory=EventDetails)
    """Dates, venue and time zone: the head of every public page and sheet, with
    ``time_control``."""
    stage: bool = False
    """A 擂台赛: its round's matches are its games, one after the other, and ``boards`` is how
    many players each team's order holds."""
    time_control: TimeControl | None = None
    """The event's time control (its settings')."""

    @property
    def current_round(self) -> int | None:
        return read_models.current_round(self.rounds)


def team_overview(db: Database, event_id: int) -> TeamEventOverview:
    """A team event's name, system and rounds with how many matches are finished."""
    from weiqi.services import teams

    info, rounds = teams.event_summary(db, event_id)
    s = info.settings
    return TeamEventOverview(info.id, info.name, s.system.zh, s.boards, tuple(rounds),
                             info.season_id, info.details, s.stage, s.time_control)  # fmt: skip


def is_team_event(db: Database, event_id: int) -> bool:
    """Whether ``event_id`` is a team event (its public pages are the team pages)."""
    from weiqi.services.events import EventKind, event_kind

    try:
        return event_kind(db, event_id) is EventKind.TEAM
    except NotFound:
        return False


# -- round robin schedule and grid, knockout bracket (issue #13) ----------------------------


@dataclass(frozen=True)
class ScheduleBoard:
    board: int
    black: PlayerRef
    white: PlayerRef
    result: Result | None = None


@dataclass(frozen=True)
class ScheduleRound:
    number: int
    paired: bool
    """The round is paired and public: its boards are the real pairing, with results."""
    boards: tuple[ScheduleBoard, ...]
    byes: tuple[PlayerRef, ...]


@dataclass(frozen=True)
class Schedule:
    """A round robin's whole schedule (轮次表); empty while the organisers have not published
    it (nothing of a schedule leaks before then)."""

    event_name: str
    published: bool
    rounds: tuple[ScheduleRound, ...]


def _round_robin(event: Event) -> None:
    if not event.settings.system.is_round_robin:
        raise NotFound(Msg("the event is not a round robin"))


def schedule(db: Database, event_id: int) -> Schedule:
    """Every round of a round robin, once its schedule is published: a public round as paired
    (with its results), a later one by the Berger table (black, white, the bye). Before round 1
    the table follows the entries as they stand."""
    from weiqi.tournament.systems import starting_field
    from weiqi.tournament.systems.round_robin import berger_schedule

    with db.transaction() as session:
        event, players, name = _public_event(session, event_id)
    _round_robin(event)
    if not event.settings.schedule_published:
        return Schedule(name, False, ())
    refs = _refs(players)
    field_ = starting_field(event)
    table = berger_schedule(len(field_), event.settings.cycle_count)
    rounds = []
    for number, pairs in enumerate(table, start=1):
        if number <= len(event.rounds):
            rnd = event.rounds[number - 1]
            boards = tuple(
                ScheduleBoard(g.board, refs[g.black], refs[g.white], g.result)
                for g in sorted(rnd.games, key=lambda g: g.board)
            )
            byes = tuple(refs[p] for p in rnd.byes)
            rounds.append(ScheduleRound(number, True, boards, byes))
            continue
        planned: list[ScheduleBoard] = []
        rest: list[PlayerRef] = []
        for b, w in pairs:
            if b >= len(field_) or w >= len(field_):
                rest.append(refs[field_[min(b, w)].id])
            else:
                planned.append(
                    ScheduleBoard(len(planned) + 1, refs[field_[b].id], refs[field_[w].id])
                )
        rounds.append(ScheduleRound(number, False, tuple(planned), tuple(rest)))
    return Schedule(name, True, tuple(rounds))


@dataclass(frozen=True)
class GridGame:
    """One game of a grid cell from the row player's side: W/D/L/N (None while outstanding),
    the points it scored the row player, whether it was a forfeit or is cancelled."""

    round: int
    outcome: Letter | None
    points: int | None
    forfeit: bool = False
    void: bool = False


@dataclass(frozen=True)
class GridRow:
    number: int
    """The Berger number (seeding order), which heads the row and the column."""
    player: PlayerRef
    cells: tuple[tuple[GridGame, ...] | None, ...]
    """One per column; None on the diagonal; a cell holds a game per cycle played so far."""
    points: int
    place: int | None
    shared: bool


@dataclass(frozen=True)
class Grid:
    """The N×N round-robin grid (循环赛对阵表), players down and across in seeding order."""

    event_name: str
    rows: tuple[GridRow, ...]
    points_win: int
    points_draw: int
    points_loss: int


def grid(db: Database, event_id: int) -> Grid:
    """A round robin's grid over its public rounds: each cell the results between the row and
    the column player, totals and place from the standings (none for cancelled results)."""
    from weiqi.tournament.systems import starting_field

    with db.transaction() as session:  # one snapshot for the grid and its standings
        event, players, name = _public_event(session, event_id)
    _round_robin(event)
    table = read_models.standings_read(name, event, players)
    refs = _refs(players)
    order = [e.id for e in starting_field(event)]
    index = {pid: i for i, pid in enumerate(order)}
    void = voided_players(event)
    met: dict[tuple[str, str], list[GridGame]] = {}
    for rnd in event.rounds:
        for g in rnd.games:
            pts = game_points(g.result, event.settings)
            cancelled = g.black in void or g.white in void
            for pid, i in ((g.black, 0), (g.white, 1)):
                opp = g.opponent_of(pid)
                mine = None if pts is None or cancelled else pts[i]
                met.setdefault((pid, opp), []).append(
                    GridGame(
                        rnd.number, _outcome(event, g, pid), mine, is_forfeit(g.result), cancelled
                    )
                )
    by_pid = {str(r.player.id): r for r in table.rows}
    rows = []
    for pid in order:
        cells = tuple(None if other == pid else tuple(met.get((pid, other), ())) for other in order)
        standing = by_pid.get(pid)
        rows.append(
            GridRow(
                index[pid] + 1,
                refs[pid],
                cells,
                standing.points if standing else 0,
                standing.place if standing else None,
                standing.shared if standing else False,
            )
        )
    s = event.settings
    return Grid(name, tuple(rows), s.points_win, s.points_draw, s.points_loss)


@dataclass(frozen=True)
class BracketSide:
    player: PlayerRef | None
    """None: not known yet, or nobody (a bye)."""
    won: bool


@dataclass(frozen=True)
class BracketMatchView:
    label: str
    round: int
    sides: tuple[BracketSide, BracketSide]
    bye: bool
    """A walkover: one side is empty, the other advances without a game."""
    board: int | None
    result: Result | None
    playoff_due: bool


@dataclass(frozen=True)
class BracketColumn:
    """One round of one section of the bracket, its matches top to bottom."""

    number: int
    matches: tuple[BracketMatchView, ...]


@dataclass(frozen=True)
class BracketSection:
    key: Literal["", "WB", "LB", "GF"]
    """``""``: a single-elimination bracket; winners', losers' bracket, grand final."""
    columns: tuple[BracketColumn, ...]


@dataclass(frozen=True)
class Bracket:
    event_name: str
    double: bool
    sections: tuple[BracketSection, ...]
    champion: PlayerRef | None


def bracket(db: Database, event_id: int) -> Bracket:
    """A single- or double-elimination bracket over the public rounds: who has met or meets
    whom, the winners advancing, byes as walkovers, a grand final (and its reset) if any."""
    from weiqi.tournament.systems import starting_field
    from weiqi.tournament.systems.knockout import drawn_bracket

    with db.transaction() as session:
        event, players, name = _public_event(session, event_id)
    if not event.settings.is_bracket:
        raise NotFound(Msg("the event is not a knockout bracket"))
    refs = _refs(players)
    if len(starting_field(event)) < 2:  # nothing drawn yet
        return Bracket(name, event.settings.system is System.DOUBLE_ELIMINATION, (), None)
    drawn = drawn_bracket(event)
    sections: dict[str, dict[int, list[BracketMatchView]]] = {}
    for m in drawn:
        sides = tuple(
            BracketSide(refs[p] if p is not None else None, m.decided and p == m.winner)
            for p in m.players
        )
        view = BracketMatchView(
            m.label,
            m.round,
            (sides[0], sides[1]),
            m.walkover and None in m.players,
            m.game.board if m.game else None,
            m.game.result if m.game else None,
            m.playoff_due,
        )
        sections.setdefault(m.section, {}).setdefault(m.column, []).append(view)
    out = tuple(
        BracketSection(
            key,  # type: ignore[arg-type]
            tuple(BracketColumn(n, tuple(ms)) for n, ms in sorted(cols.items())),
        )
        for key, cols in sections.items()
    )
    # the last match decides: the final, the grand final, or its reset once there is one
    last = drawn[-1]
    champion = refs[last.winner] if last.decided and last.winner is not None else None
    return Bracket(name, event.settings.system is System.DOUBLE_ELIMINATION, out, champion)
