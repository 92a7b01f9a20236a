"""Team events: create one with its team settings, import teams and rosters, pair rounds, take
sealed lineups, reveal them at the deadline, record board results, and read matches, standings
(R-RANK-TEAM) and per-player and per-board records. Each function owns one transaction; the
rules (lineups, scoring, standings, team Swiss) come from the pure core ``weiqi.league``. What time
it is (a lineup's deadline, a reveal) is the server's clock (``clock=``), never the caller's word.

>>> from datetime import UTC, datetime, timedelta
>>> from weiqi.services.server_clock import ManualClock
>>> from weiqi.store.database import Database
>>> db = Database("sqlite://"); db.upgrade()
>>> local = Actor.local()
>>> from weiqi.services.events import create_event
>>> ev = create_event(db, local, "Club teams", TeamEventSettings(boards=2))
>>> csv = "team,name,rank,nationality\\n" + "\\n".join(
...     f"{t},{t}{i},{5 - i}d,CN" for t in "ABC" for i in (1, 2, 3))
>>> import_teams(db, local, ev.id, csv)
3
>>> rnd = pair_round(db, local, ev.id, start=datetime(2026, 5, 1, 9, 0, tzinfo=UTC))
>>> [(m.home, m.away) for m in rnd.matches], rnd.bye, rnd.deadline.isoformat()
([('B', 'C')], 'A', '2026-05-01T08:30:00+00:00')
>>> clock = ManualClock(datetime(2026, 5, 1, 8, 0, tzinfo=UTC))
>>> submit_lineup(db, local, ev.id, 1, "B", ["C1", "B1"], clock=clock)
Traceback (most recent call last):
...
weiqi.errors.LineupRejected: lineup of B: board 1: player C1 is not on the roster
>>> submit_lineup(db, local, ev.id, 1, "B", ["B2", "B1"], clock=clock)
>>> shown = reveal_round(db, local, ev.id, 1, clock=clock.advance(timedelta(minutes=30)))
>>> [(b.board, b.home_player, b.away_player, b.result) for b in shown.matches[0].boards]
[(1, 'B2', None, 'B+F'), (2, 'B1', None, 'W+F')]
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import cast

from sqlalchemy import select
from sqlalchemy.orm import Session, object_session

from weiqi.errors import Conflict, Duplicate, InputError, InvalidSetting, LineupRejected, NotFound
from weiqi.formats.team_csv import parse_team_csv
from weiqi.formats.team_results_csv import parse_team_results
from weiqi.i18n import N_
from weiqi.league.calendar import Fixture
from weiqi.league.lineup import Lineup, lineups_for_round
from weiqi.league.lineup import validate_lineup as core_validate_lineup
from weiqi.league.match import (
    BoardGame,
    PlayerRecord,
    TeamMatch,
    board_colors,
    board_records,
    game_points,
    player_records,
    rotation_match,
)
from weiqi.league.settings import TeamEventSettings
from weiqi.league.standings import members_total, team_standings
from weiqi.league.team import RosterEntry, Team, TeamType, event_order, free_code
from weiqi.league.team_rounds import (
    PlayedMatch,
    TeamRound,
    require_knockout_winners,
    team_entrants,
    team_event,
    team_fixtures,
    team_settings,
)
from weiqi.messages import Msg
from weiqi.rules.color import Color
from weiqi.rules.result import Outcome, Result
from weiqi.services import games
from weiqi.services.actor import Actor
from weiqi.services.event_admin import (
    LOCKED_PLAYED,
    check_rounds_paired,
    explanation_views,
    move_round_start,
    stored_totals,
)
from weiqi.services.events import (
    Competition,
    EventKind,
    competition,
    count_rows,
    details_in,
    event_name,
    event_rounds,
    existing_event,
    round_or_latest,
    round_row,
    store_name_and_details,
    store_settings,
    stored_settings,
    team_by_code,
)
from weiqi.services.pair_explanation import BoardWhy, board_whys
from weiqi.services.permissions import Action, require
from weiqi.services.read_models import (
    MatchRead,
    RoundSummaryRead,
    TeamBoardRead,
    TeamRoundRead,
    TeamStandingRead,
)
from weiqi.services.server_clock import SYSTEM_CLOCK, ServerClock, as_utc
from weiqi.services.team_coaches import require_coach
from weiqi.services.tournament import explanation_json
from weiqi.store.database import Database
from weiqi.store.locks import lock_event
from weiqi.store.seals import broken_in, seal_row
from weiqi.store.teams import (
    LeagueDivisionRow,
    LineupBoardRow,
    LineupRow,
    TeamMatchRow,
    TeamRow,
)
from weiqi.store.tournament import EventSettingsRow, GameRow, PlayerRow, RoundRow
from weiqi.text import check_entrants
from weiqi.tournament.details import EventDetails, format_local
from weiqi.tournament.namesakes import Person, labels, shared_name
from weiqi.tournament.ranks import Rank
from weiqi.tournament.records import Event, RoundPlan, RoundTotals
from weiqi.tournament.settings import System
from weiqi.tournament.systems import TournamentSystem, system_for


@dataclass(frozen=True)
class BoardView:
    board: int
    sitting: int
    home_player: str | None
    away_player: str | None
    home_color: str
    result: str | None
    confirmed: bool = False
    """The result is confirmed in the board's game record (R-REF-7)."""
    home_name: str | None = None
    away_name: str | None = None
    """The players as every page shows them (:func:`roster_labels`: the roster row's current
    name, namesakes apart — ``张伟 (黑龙)``; ``None``: the code is the name shown); an edited
    name shows on every game already played."""


@dataclass(frozen=True)
class MatchView:
    number: int
    home: str
    away: str
    submitted: dict[str, bool]
    boards: tuple[BoardView, ...]
    game_points: tuple[int, int] | None = None
    match_points: tuple[int, int] | None = None
    winner: str | None = None
    decided_by_board_one: bool = False
    decided_by_playoff: bool = False


@dataclass(frozen=True)
class TeamRoundView:
    number: int
    date: str | None
    starts_at: datetime | None
    deadline: datetime | None
    revealed_at: datetime | None
    bye: str | None
    matches: tuple[MatchView, ...]
    lineups: dict[str, tuple[str, ...]] = field(default_factory=dict)
    explanation: tuple[BoardWhy, ...] = ()
    """Why each match was paired (a Swiss's choices; ``show_round`` only), match by match."""
    totals: RoundTotals | None = None
    """The pairing's totals with its explanation (score gaps, teams paired down, home/away
    rule broken)."""


def iso(at: datetime | None) -> str | None:
    """A stored time as ISO 8601 in UTC (minutes)."""
    return as_utc(at).isoformat(timespec="minutes") if at is not None else None


def _board_read(b: BoardView) -> TeamBoardRead:
    return TeamBoardRead(b.board, b.sitting, b.home_player, b.away_player, b.home_name,
                         b.away_name, b.home_color, b.result, b.confirmed)  # fmt: skip


def round_read(view: TeamRoundView) -> TeamRoundRead:
    """A round as the API, the pages' JSON and ``weiqi round show --json`` give it (one read
    model, ``services.read_models``)."""
    return TeamRoundRead(
        view.number,
        view.date,
        iso(view.starts_at),
        iso(view.deadline),
        iso(view.revealed_at),
        view.bye,
        [
            MatchRead(
                m.number,
                m.home,
                m.away,
                dict(m.submitted),
                [_board_read(b) for b in m.boards],
                list(m.game_points) if m.game_points else None,
                list(m.match_points) if m.match_points else None,
                m.winner,
                m.decided_by_board_one,
                m.decided_by_playoff,
            )
            for m in view.matches
        ],
        {team: list(players) for team, players in view.lineups.items()},
        [w.as_json() for w in view.explanation],
        view.totals,
    )


def record_to_dict(r: PlayerRecord, shown: Mapping[str, str] | None = None) -> dict[str, object]:
    """A player's record (for board prizes) as plain JSON values: the API's and ``--json``'s;
    with ``shown`` (labels by code, :func:`code_labels`) the name as pages show it too."""
    return {
        "player": r.player_id,
        **({"name": shown.get(r.player_id, r.player_id)} if shown is not None else {}),
        "team": r.team,
        "games": r.games,
        "wins": r.wins,
        "draws": r.draws,
        "losses": r.losses,
        "game_points": r.game_points,
        "boards": list(r.boards),
    }


# -- settings in the store ------------------------------------------------------------------


def settings_of(row: EventSettingsRow) -> TeamEventSettings:
    """The settings of the team event whose settings row is ``row`` (:func:`event_row`)."""
    settings = stored_settings(row)
    assert isinstance(settings, TeamEventSettings), row.kind  # event_row checks the kind
    return settings


def event_row(session: Session, event_id: int) -> EventSettingsRow:
    """The settings row of team event ``event_id``; ``NotFound`` for no event and for an event
    that is not a team event."""
    row = session.get(EventSettingsRow, event_id)
    if row is None or row.kind != EventKind.TEAM.value:
        existing_event(session, event_id)
        raise NotFound(Msg("event %(event_id)s is not a team event", event_id=event_id))
    return row


def event_teams(session: Session, event_id: int) -> list[TeamRow]:
    return list(
        session.scalars(select(TeamRow).where(TeamRow.event_id == event_id).order_by(TeamRow.id))
    )


def core_team(row: TeamRow) -> Team:
    declared = sorted(
        (r for r in row.roster if r.declared_position is not None),
        key=lambda r: r.declared_position or 0,
    )
    order = tuple(r.code for r in declared)
    return Team(
        row.code,
        row.name,
        tuple(
            RosterEntry(
                r.code,
                r.name,
                Rank.parse(r.rank or ""),
                int(r.rating or 0),
                r.country,
                r.foreign,
                r.protected,
                r.birth_date,
            )
            for r in row.roster
        ),
        club=row.club,
        coach=row.coach,
        captain=row.captain,
        order=order,
    )


def _codes(session: Session, event_id: int) -> tuple[dict[int, str], dict[int, str]]:
    """Team codes and player codes by row id."""
    teams = {t.id: t.code for t in event_teams(session, event_id)}
    players = {
        r.id: r.code
        for r in session.scalars(select(PlayerRow).where(PlayerRow.event_id == event_id))
    }
    return teams, players


def roster_labels(session: Session, event_id: int) -> dict[int, str]:
    """How each roster player of the event is shown, by roster row id: the current name (an
    edited name is shown everywhere), and for namesakes what tells them apart — the team, else
    the birth year (``张伟 (黑龙)``, ``张伟 (1990)``; ``weiqi.tournament.namesakes``)."""
    rows = session.execute(
        select(PlayerRow.id, PlayerRow.name, TeamRow.name, PlayerRow.birth_date)
        .join(TeamRow, PlayerRow.team_id == TeamRow.id)
        .where(PlayerRow.event_id == event_id)
        .order_by(PlayerRow.id)
    )
    return labels(Person(rid, name, team, born) for rid, name, team, born in rows)


def code_labels(db: Database, event_id: int) -> dict[str, str]:
    """Each roster player's label (:func:`roster_labels`) by player code: what a page, a
    table or a command shows for a code.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> from weiqi.services.events import create_event
    >>> ev = create_event(db, Actor.local(), "团体赛", TeamEventSettings(boards=1))
    >>> import_teams(db, Actor.local(), ev.id, "team,name,rank\\nA,张伟,5d\\nB,张伟,4d\\n")
    2
    >>> code_labels(db, ev.id)
    {'张伟': '张伟 (A)', '张伟 (B)': '张伟 (B)'}
    """
    with db.transaction() as session:
        event_row(session, event_id)
        shown = roster_labels(session, event_id)
        _, codes = _codes(session, event_id)
        return {codes[rid]: label for rid, label in shown.items()}


def find_roster_player(
    rows: Sequence[PlayerRow],
    shown: Mapping[int, str],
    typed: str,
    *,
    field: str = "player",
    names_first: bool = True,
) -> PlayerRow:
    """The roster row of ``rows`` that ``typed`` means: its label as pages show it (``shown``,
    by row id), a name only one of ``rows`` has, or its code. A name two of them share is
    ``InputError`` listing both labels — even when it is also one's code (the first 张伟 entered
    keeps the code ``张伟``): a person typing it means a name. ``names_first=False`` reads an
    exact code first, for what a form's choice or an API client sends; nobody so called is
    ``NotFound``."""
    text = typed.strip()
    if not names_first:
        coded = next((r for r in rows if r.player_code == text), None)
        if coded is not None:
            return coded
    labelled = {r.id: shown.get(r.id, r.name) for r in rows}
    by_label = [r for r in rows if labelled[r.id] == text]
    if len(by_label) == 1:
        return by_label[0]
    named = [r for r in rows if r.name == text]
    if len(named) == 1 and not by_label:
        return named[0]
    if len(named) > 1:
        names = [labelled[r.id] for r in named]
        raise shared_name(field, text, names)
    by_code = [r for r in rows if r.player_code == text]
    if by_code:
        return by_code[0]
    raise NotFound(Msg("no player %(name)s", name=repr(text)))


def board_result(code: str | None) -> Result | None:
    """A board's result as its match scores it: the current result of the board's game
    record; a replay or no result is a game still to be played again (R-REF-3).

    >>> board_result("W+R").to_zh(), board_result("Replay"), board_result(None)
    ('白中盘胜', None, None)
    """
    if not code:
        return None
    result = Result.parse(code)
    return None if result.outcome in (Outcome.REPLAY, Outcome.NO_RESULT) else result


def _core_match(m: TeamMatchRow, teams: dict[int, str], players: dict[int, str]) -> TeamMatch:
    bad = _broken(m)
    return TeamMatch(
        teams[m.home_id],
        teams[m.away_id],
        tuple(
            BoardGame(
                g.board,
                players[g.home_player_id] if g.home_player_id is not None else None,
                players[g.away_player_id] if g.away_player_id is not None else None,
                Color(g.home_plays),
                board_result(g.result) if g.id not in bad else None,
                g.sitting,
            )
            for g in m.games
        ),
    )


def _broken(m: TeamMatchRow) -> frozenset[int]:
    """The boards of ``m``'s event whose seal does not hold (``store.seals``): their results
    count as not played, on every page and in every table."""
    session = object_session(m)
    if session is None or not m.games:
        return frozenset()
    return broken_in(session, m.round.event_id)


def _seated_matches(session: Session, event_id: int) -> list[list[TeamMatch]]:
    """The matches of every round whose lineups are revealed (seated boards), by round."""
    teams, players = _codes(session, event_id)
    return [
        [_core_match(m, teams, players) for m in r.matches]
        for r in event_rounds(session, event_id)
        if r.revealed_at is not None
    ]


def event_matches(session: Session, event_id: int) -> tuple[list[TeamMatch], int]:
    """The finished matches of an event (as the core sees them) and how many are not finished
    (sealed, or with boards still to play)."""
    teams, players = _codes(session, event_id)
    done: list[TeamMatch] = []
    open_ = 0
    for r in event_rounds(session, event_id):
        for m in r.matches:
            core = _core_match(m, teams, players)
            if r.revealed_at is not None and core.games and core.finished:
                done.append(core)
            else:
                open_ += 1
    return done, open_


def _info(session: Session, event_id: int) -> Competition[TeamEventSettings]:
    event_row(session, event_id)  # a team event's
    return cast(Competition[TeamEventSettings], competition(session, event_id))


def _event_time(session: Session, event_id: int, moment: datetime) -> str:
    """``moment`` as a lineup's refusal says it: in the event's time zone, as its pages show
    times, and to the second — a lineup a few seconds late is told so, not "submitted at
    14:25, after the deadline (14:25)"."""
    return format_local(moment, details_in(session, event_id).time_zone, "%Y-%m-%d %H:%M:%S")


# -- use cases ------------------------------------------------------------------------------


TEAM_EDITABLE = frozenset(
    {"rounds", "deadline_minutes", "ranking", "game_start", "lag_gain", "lag_cap", "time_control"}
)
"""The team settings that may change at any time, as an individual event's tie-breaks and
number of rounds may after round 1: a Swiss's number of rounds (never below the rounds
paired), the lineup deadline of the rounds still to pair (a paired round keeps its own), the
ranking (the standings are derived from the matches on every read), when online boards
start (a board begun stays begun), their lag allowance and time control (a board begun keeps
the ones its record started with). The others shape the rosters, lineups and matches already
made; a league division's come from its season."""

TEAM_EDITABLE_UNPAIRED = frozenset({"play", "komi", "cycle"})
"""The team settings that may change until round 1 is paired, as an individual event's play
mode and game rules: the games of a paired round are played where and as the event said."""

DIVISION_EDITABLE = frozenset({"time_control"})
"""The settings a league division sets for itself, its season having none of them: the time
control of its boards."""

FIXED_SETTING = N_("set when the event was created")
SEASON_SETTING = N_("a league division's settings are its season's")


def locked_fields(settings: TeamEventSettings, paired: int, division: bool) -> dict[str, str]:
    """Each team setting of an event with ``settings`` and ``paired`` rounds that cannot
    change now, with why (a msgid): all of a league ``division``'s (its season's), the game
    rules and play mode once a round is paired, and those set when the event was created (see
    :data:`TEAM_EDITABLE`). The settings page shows them read-only, the API lists them, and a
    change of one is refused with the same reason.

    >>> locked = locked_fields(TeamEventSettings(boards=3), 1, False)
    >>> locked["boards"] == FIXED_SETTING, locked["komi"] == LOCKED_PLAYED, "ranking" in locked
    (True, True, False)
    """
    locked: dict[str, str] = {}
    for f in dataclasses.fields(TeamEventSettings):
        if division and f.name not in DIVISION_EDITABLE:
            locked[f.name] = SEASON_SETTING
        elif f.name in TEAM_EDITABLE_UNPAIRED:
            if paired:
                locked[f.name] = LOCKED_PLAYED
        elif f.name not in TEAM_EDITABLE or (
            f.name == "rounds" and settings.system is not System.SWISS
        ):
            locked[f.name] = FIXED_SETTING
    return locked


def _check_team_change(
    division: bool, old: TeamEventSettings, new: TeamEventSettings, paired: int
) -> None:
    """Refuse a change of ``old`` into ``new`` of a setting :func:`locked_fields` names:
    ``InvalidSetting`` naming the field and why."""
    locked = locked_fields(old, paired, division)
    for f in dataclasses.fields(TeamEventSettings):
        if f.name in locked and getattr(old, f.name) != getattr(new, f.name):
            raise InvalidSetting(f.name, Msg(locked[f.name]))
    if new.system is System.SWISS:
        check_rounds_paired(new.rounds, paired)


def update_team_event(
    db: Database,
    actor: Actor,
    event_id: int,
    name: str,
    details: EventDetails,
    settings: TeamEventSettings | None = None,
) -> Competition[TeamEventSettings]:
    """Change a team event's name and details (dates, venue, time zone) and the
    team settings of :data:`TEAM_EDITABLE` (``settings``: the event's with those changed;
    ``None``: kept) at any time; the other team settings (boards, team type, system …) stay as
    the event was created with, and a change of one is refused naming it.

    >>> from weiqi.tournament.details import EventDetails
    >>> db = Database("sqlite://"); db.upgrade()
    >>> from weiqi.services.events import create_event
    >>> ev = create_event(db, Actor.local(), "市团体赛", TeamEventSettings(boards=3))
    >>> info = update_team_event(db, Actor.local(), ev.id, " 市团体赛 2027 ",
    ...                          EventDetails(venue="天津棋院", time_zone="Europe/Paris"))
    >>> info.name, info.details.venue, info.details.time_zone
    ('市团体赛 2027', '天津棋院', 'Europe/Paris')
    >>> later = dataclasses.replace(info.settings, deadline_minutes=60)
    >>> changed = update_team_event(db, Actor.local(), ev.id, info.name, info.details, later)
    >>> changed.settings.deadline_minutes
    60
    >>> update_team_event(db, Actor.local(), ev.id, info.name, info.details,
    ...                   dataclasses.replace(later, boards=4))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: boards: set when the event was created
    """
    name = event_name(name)
    with db.transaction() as session:
        require(session, actor, Action.EDIT_SETTINGS, event_id)
        lock_event(session, event_id)  # a new version: the public pages show the new details
        row = event_row(session, event_id)  # NotFound for an event that is not a team event
        if settings is not None:
            paired = count_rows(session, RoundRow, event_id)
            in_season = session.get(LeagueDivisionRow, event_id) is not None
            _check_team_change(in_season, settings_of(row), settings, paired)
            store_settings(row, settings)  # what differs is what may change
        store_name_and_details(session, event_id, name, details)
        session.flush()
        return _info(session, event_id)


def team_event_info(db: Database, event_id: int) -> Competition[TeamEventSettings]:
    with db.transaction() as session:
        return _info(session, event_id)


def _recoded(team: Team, taken: set[str]) -> Team:
    """``team`` with a free code for each player entered without an id whose code (the name,
    or the name and team) another player of the event already has: a namesake; an explicit id
    taken stays taken (refused by :func:`add_teams`)."""
    codes: dict[str, str] = {}
    used = taken | set(team.player_ids)  # the team's own codes stay theirs
    for e in team.roster:
        default = e.player_id == e.name or e.player_id.startswith(f"{e.name} (")
        if e.player_id in taken and default:
            codes[e.player_id] = free_code(e.name, team.name, used, e.birth_date)
            used.add(codes[e.player_id])
    if not codes:
        return team
    return dataclasses.replace(
        team,
        roster=tuple(
            dataclasses.replace(e, player_id=codes.get(e.player_id, e.player_id))
            for e in team.roster
        ),
        captain=codes.get(team.captain, team.captain),
        order=tuple(codes.get(c, c) for c in team.order),
    )


def add_teams(session: Session, event_id: int, teams: Sequence[Team], boards: int) -> None:
    """Store ``teams`` with their rosters in ``event_id`` (inside the caller's transaction),
    refusing a team code or an explicit player id already in the event and a roster too small
    to field. A player entered without an id whose name another player of the event has (two
    张伟 of two teams) is a namesake: they get a code of their own (:func:`free_code`)."""
    existing_teams = {t.code for t in event_teams(session, event_id)}
    _, players = _codes(session, event_id)
    existing_players = set(players.values())
    check_entrants(len(existing_teams) + len(teams))
    check_entrants(len(existing_players) + sum(len(t.roster) for t in teams))
    stored: list[Team] = []
    for t in teams:
        if t.team_id in existing_teams:
            raise Duplicate(
                Msg("team %(team_id)s", team_id=t.team_id), Msg("is already in the event")
            )
        if len(t.roster) < boards:
            raise InputError(
                Msg("team %(team_id)s", team_id=t.team_id),
                Msg(
                    "%(roster)s players cannot field %(boards)s boards",
                    roster=len(t.roster),
                    boards=boards,
                ),
            )
        t = _recoded(t, existing_players)
        clash = [p for p in t.player_ids if p in existing_players]
        if clash:
            raise Duplicate(
                Msg("team %(team_id)s", team_id=t.team_id),
                Msg("%(clash)s already play in the event", clash=", ".join(clash)),
            )
        existing_players |= set(t.player_ids)
        stored.append(t)
    for t in stored:
        row = TeamRow(
            event_id=event_id,
            code=t.team_id,
            name=t.name,
            club=t.club,
            coach=t.coach,
            captain=t.captain,
        )
        declared = {code: i for i, code in enumerate(t.order, start=1)}
        row.roster = [
            PlayerRow(
                event_id=event_id,
                position=i,
                player_code=e.player_id,
                name=e.name,
                rank=e.rank.code,
                rating=e.rating,
                country=e.nationality,
                birth_date=e.birth_date,
                foreign=e.foreign,
                protected=e.protected,
                declared_position=declared.get(e.player_id),
            )
            for i, e in enumerate(t.roster, start=1)
        ]
        session.add(row)
    session.flush()


def import_teams(
    db: Database,
    actor: Actor,
    event_id: int,
    text: str,
    source: str = "teams.csv",
    home_nationality: str | None = None,
) -> int:
    """Enter the teams and rosters of a CSV file — all of them, or none (bad rows by line)."""
    teams = parse_team_csv(text, source, home_nationality)
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        lock_event(session, event_id)  # not while round 1 is being paired
        row = event_row(session, event_id)
        if event_rounds(session, event_id):
            raise Conflict(Msg("the event has started; teams enter before round 1 is paired"))
        add_teams(session, event_id, teams, settings_of(row).boards)
        return len(teams)


def _paired_rounds(session: Session, event_id: int) -> list[TeamRound]:
    """Every paired round as the systems read it: seated matches once revealed, else fixtures."""
    teams, players = _codes(session, event_id)
    return [
        TeamRound(
            tuple(
                PlayedMatch(
                    _core_match(m, teams, players),
                    teams[m.playoff_winner_id] if m.playoff_winner_id is not None else None,
                )
                if r.revealed_at is not None
                else PlayedMatch.fixture(teams[m.home_id], teams[m.away_id])
                for m in r.matches
            ),
            teams[r.bye_team_id] if r.bye_team_id is not None else None,
        )
        for r in event_rounds(session, event_id)
    ]


def _next_round_event(
    session: Session, row: EventSettingsRow
) -> tuple[TournamentSystem, Event] | None:
    """The system and the core event of the next round, after the team pairing's own
    preconditions (teams enough, board matches, the previous round played and decided), each
    raised as ``Conflict``; ``None`` for a 擂台赛 not yet begun (one round, no fixtures)."""
    settings = settings_of(row)
    listed = event_teams(session, row.event_id)
    if len(listed) < 2:
        raise Conflict(Msg("a team event needs at least two teams"))
    if not settings.team_type.plays_board_matches:
        raise Conflict(
            Msg(
                "队员总分制: the members play an individual tournament; the team "
                "table adds up their points (members_total)"
            )
        )
    if settings.stage:
        if event_rounds(session, row.event_id):
            raise Conflict(Msg("a 擂台赛 is one round, played game by game"))
        return None
    rounds = _paired_rounds(session, row.event_id)
    if rounds and settings.system is not System.ROUND_ROBIN:
        if any(not m.seated for m in rounds[-1].matches):
            raise Conflict(
                Msg(
                    "round %(number)s has not been played (lineups not revealed)",
                    number=len(rounds),
                )
            )
        if any(not m.match.finished for r in rounds for m in r.matches):
            raise Conflict(Msg("the previous round has boards without a result"))
        if settings.system is System.KNOCKOUT:
            require_knockout_winners(rounds, settings.board_one_decides)
    core = team_settings(settings.system, settings.rounds, settings.cycle_count, settings.seed)
    teams = team_entrants(
        [t.code for t in listed], {t.code: t.name for t in listed}, {t.code: t.club for t in listed}
    )
    event = team_event(core, teams, rounds, settings.board_one_decides)
    return system_for(core, event.kind), event


def _next_plan(session: Session, row: EventSettingsRow) -> RoundPlan | None:
    """The next round paired by the event's system: the same system objects as an individual
    event's, over the team codes (``weiqi.league.team_rounds``); ``None``: a 擂台赛 has no
    rounds to pair."""
    found = _next_round_event(session, row)
    if found is None:
        return None
    system, event = found
    return system.next_round(event)


@dataclass(frozen=True)
class NextRound:
    """Whether a team event's next round can be paired: ``finished`` (every round is paired
    and played), else ``blocker``, what pairing would refuse with (``None``: it can be)."""

    finished: bool
    blocker: Msg | None


def next_round(db: Database, event_id: int) -> NextRound:
    """What :func:`pair_round` would do now, checked without pairing: the same team
    preconditions, then the system's ``blocker``. The dashboard shows the reason instead of a
    button that fails.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> from weiqi.services.events import create_event
    >>> ev = create_event(db, Actor.local(), "市团体赛", TeamEventSettings(boards=2))
    >>> next_round(db, ev.id).blocker.id
    'a team event needs at least two teams'
    """
    with db.transaction() as session:
        row = event_row(session, event_id)
        try:
            found = _next_round_event(session, row)
        except Conflict as err:
            # a 擂台赛 is one round: once paired, there is no next one
            done = settings_of(row).stage and bool(event_rounds(session, event_id))
            return NextRound(done, None if done else err.msg)
        if found is None:
            return NextRound(False, None)
        system, event = found
        if event.rounds and system.is_finished(event):
            return NextRound(True, None)
        return NextRound(False, system.blocker(event))


def pair_round(
    db: Database, actor: Actor, event_id: int, start: datetime | None = None
) -> TeamRoundView:
    """Pair the next round by the event's system (round robin, Swiss, knockout: the systems of
    individual events, over team codes) and store its matches; ``start`` fixes the lineup
    deadline (``deadline_minutes`` before it)."""
    with db.transaction() as session:
        require(session, actor, Action.PAIR_ROUND, event_id)
        lock_event(session, event_id)  # of two pairings at once, the second sees the first
        row = event_row(session, event_id)
        number = count_rows(session, RoundRow, event_id) + 1
        plan = _next_plan(session, row)
        fixtures, bye = team_fixtures(plan) if plan is not None else ([], None)
        starts = as_utc(start)
        seed = settings_of(row).seed * 1000 + number
        rnd = team_round_row(session, event_id, number, fixtures, bye, seed=seed)
        if plan is not None:  # why each match (a Swiss's choices), as an individual round's
            rnd.explanation_json = explanation_json(plan)
        rnd.starts_at = starts
        rnd.lineup_deadline = _lineup_deadline(row, starts)
        session.add(rnd)
        session.flush()
        return _round_view(session, rnd)


def team_round_row(
    session: Session,
    event_id: int,
    number: int,
    fixtures: Sequence[Fixture],
    bye: str | None,
    *,
    seed: int,
) -> RoundRow:
    """Team round ``number`` of event ``event_id`` as it is stored, not yet added: a match for
    each fixture in its order (board 1's colours by ``home``), ``bye`` the team that rests,
    public once paired (as every team round); a pairing (:func:`pair_round`) and a league's
    calendar (``league.create_season``) alike.

    >>> from weiqi.league.calendar import Fixture
    >>> db = Database("sqlite://"); db.upgrade()
    >>> from weiqi.services.events import create_event
    >>> ev = create_event(db, Actor.local(), "团体赛", TeamEventSettings(boards=1))
    >>> rows = "team,name,rank\\n甲,张,5d\\n乙,李,5d\\n丙,王,5d\\n"
    >>> _ = import_teams(db, Actor.local(), ev.id, rows)
    >>> with db.transaction() as session:
    ...     ids = {t.code: t.id for t in event_teams(session, ev.id)}
    ...     a, b, c = ids
    ...     rnd = team_round_row(session, ev.id, 1, [Fixture(1, a, b)], c, seed=1)
    ...     [(m.number, m.home_id == ids[a], m.away_id == ids[b]) for m in rnd.matches]
    [(1, True, True)]
    >>> rnd.bye_team_id == ids[c], rnd.published
    (True, True)
    """
    teams = {t.code: t.id for t in event_teams(session, event_id)}
    rnd = RoundRow(
        event_id=event_id,
        number=number,
        published=True,  # a team round's matches are public once paired
        seed=seed,
        bye_team_id=teams[bye] if bye is not None else None,
    )
    rnd.matches = [
        TeamMatchRow(number=i, home_id=teams[f.home], away_id=teams[f.away])
        for i, f in enumerate(fixtures, start=1)
    ]
    return rnd


def _lineup_deadline(row: EventSettingsRow, starts: datetime | None) -> datetime | None:
    """When a round starting at ``starts`` closes its lineups: the event's
    ``deadline_minutes`` before; no start, no deadline."""
    minutes = settings_of(row).deadline_minutes
    return starts - timedelta(minutes=minutes) if starts is not None else None


def set_round_start(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    start: str,
    clock: ServerClock = SYSTEM_CLOCK,
) -> TeamRoundView:
    """Set when team round ``number`` starts, as an individual round's
    (``event_admin.set_round_start``: typed in the event's time zone, later than now, not once
    a board has begun): an online event whose boards start at the round's start time has the
    server start them then. A round whose lineups are still sealed moves its lineup deadline
    with it (``deadline_minutes`` before); a revealed one keeps the deadline it closed at.

    >>> from weiqi.services.server_clock import ManualClock
    >>> from datetime import UTC
    >>> db = Database("sqlite://"); db.upgrade()
    >>> from weiqi.services.events import create_event
    >>> ev = create_event(db, Actor.local(), "网络团体赛", TeamEventSettings(boards=1))
    >>> _ = import_teams(db, Actor.local(), ev.id, "team,name,rank\\n甲队,张,5d\\n乙队,李,5d\\n")
    >>> _ = pair_round(db, Actor.local(), ev.id)
    >>> now = ManualClock(datetime(2026, 12, 1, 0, 0, tzinfo=UTC))
    >>> view = set_round_start(db, Actor.local(), ev.id, 1, "2026-12-05 09:30", now)
    >>> view.starts_at.isoformat(), view.deadline.isoformat()
    ('2026-12-05T01:30:00+00:00', '2026-12-05T01:00:00+00:00')
    """
    with db.transaction() as session:
        require(session, actor, Action.PUBLISH_ROUND, event_id)
        lock_event(session, event_id)
        row = event_row(session, event_id)
        rnd = round_row(session, event_id, number)
        when = move_round_start(session, rnd, start, clock)
        if rnd.revealed_at is None:
            rnd.lineup_deadline = _lineup_deadline(row, when)
        session.flush()
        return _round_view(session, rnd)


def _match_of(matches: Iterable[TeamMatchRow], team_id: int) -> TeamMatchRow | None:
    """The first of ``matches`` (a round's) that ``team_id`` plays."""
    return next((m for m in matches if team_id in (m.home_id, m.away_id)), None)


def is_stage(session: Session, event_id: int) -> bool:
    """Whether ``event_id`` is a 擂台赛 (whose games are its one round's matches)."""
    row = session.get(EventSettingsRow, event_id)
    return row is not None and row.kind == EventKind.TEAM.value and settings_of(row).stage


def _team_match(
    session: Session, event_id: int, rnd: RoundRow, team_id: int
) -> TeamMatchRow | None:
    """The match ``team_id`` plays in ``rnd``: a 擂台赛's games are its round's matches, one
    after the other, and a team's is its latest (the earlier ones are over)."""
    stage = is_stage(session, event_id)
    return _match_of(reversed(rnd.matches) if stage else rnd.matches, team_id)


def _seal(
    session: Session,
    row: EventSettingsRow,
    rnd: RoundRow,
    team: str,
    players: Sequence[str],
    now: datetime,
    sealed: frozenset[str] | None = None,
    typed: bool = False,
) -> None:
    """Seal ``team``'s lineup of ``rnd``; a later one replaces it until the deadline. With
    ``sealed`` (the teams that had one when the request came), a lineup sealed by somebody else
    in the meantime is not replaced unseen: ``Conflict``."""
    number = rnd.number
    team_row = team_by_code(session, row.event_id, team)
    if rnd.revealed_at is not None:
        raise LineupRejected(
            team,
            Msg(
                "the lineups of round %(number)s were revealed at %(revealed_at)s",
                number=number,
                revealed_at=_event_time(session, row.event_id, rnd.revealed_at),
            ),
        )
    deadline = as_utc(rnd.lineup_deadline)
    if deadline is not None and now >= deadline:
        raise LineupRejected(
            team,
            Msg(
                "submitted at %(now)s, after the deadline (%(deadline)s)",
                now=_event_time(session, row.event_id, now),
                deadline=_event_time(session, row.event_id, deadline),
            ),
        )
    if not settings_of(row).stage and _match_of(rnd.matches, team_row.id) is None:
        raise LineupRejected(team, Msg("has no match in round %(number)s", number=number))
    codes = _typed_codes(session, team_row, players, typed)
    lineup = core_validate_lineup(core_team(team_row), codes, settings_of(row).lineup)
    existing = session.scalar(
        select(LineupRow).where(LineupRow.round_id == rnd.id, LineupRow.team_id == team_row.id)
    )
    if existing is not None and sealed is not None and team not in sealed:
        raise Conflict(
            Msg(
                "a lineup of %(team)s for round %(number)s was sealed by somebody else at the "
                "same moment; nothing of yours was stored: reload and submit again if yours "
                "should count",
                team=team,
                number=number,
            )
        )
    if existing is None:
        existing = LineupRow(round_id=rnd.id, team_id=team_row.id)
        session.add(existing)
    elif existing.boards:
        existing.boards.clear()
        session.flush()  # the old boards go before the new ones take their positions
    existing.boards = _lineup_boards(team_row, lineup)
    existing.source = "submitted"
    existing.submitted_at = now


def _typed_codes(
    session: Session, team_row: TeamRow, typed: Sequence[str], names_first: bool
) -> list[str]:
    """The player codes of ``team_row`` that ``typed`` names (codes, labels as the pages show
    them, or names; :func:`find_roster_player`); one the roster has not is kept as typed for the
    lineup rules to refuse, a name two players of the team share is ``LineupRejected``."""
    shown = roster_labels(session, team_row.event_id)
    out: list[str] = []
    for text in typed:
        if not text.strip():
            out.append(text.strip())
            continue
        try:
            found = find_roster_player(team_row.roster, shown, text, names_first=names_first)
            out.append(found.code)
        except NotFound:
            out.append(text.strip())
        except InputError as err:
            raise LineupRejected(team_row.code, err.reason) from None
    return out


def _lineup_boards(team_row: TeamRow, lineup: Sequence[str]) -> list[LineupBoardRow]:
    """The boards of ``lineup`` (player codes of ``team_row``'s roster, board 1 first)."""
    roster = {r.code: r for r in team_row.roster}
    return [
        LineupBoardRow(position=i, player=roster[code]) for i, code in enumerate(lineup, start=1)
    ]


def _sealed_teams(session: Session, event_id: int, number: int) -> frozenset[str]:
    """The teams with a lineup sealed for round ``number``."""
    return frozenset(
        session.scalars(
            select(TeamRow.code)
            .join(LineupRow, LineupRow.team_id == TeamRow.id)
            .join(RoundRow, RoundRow.id == LineupRow.round_id)
            .where(RoundRow.event_id == event_id, RoundRow.number == number)
        )
    )


def submit_lineup(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    team: str,
    players: Sequence[str],
    *,
    clock: ServerClock = SYSTEM_CLOCK,
    typed: bool = False,
) -> None:
    """Seal a team's lineup for a round (the last one before the deadline counts); refused with
    :class:`LineupRejected` naming the reason, and then nothing is stored.

    ``players`` are the players' codes (what the lineup form's choices and API clients send);
    a label as the pages show it (``张伟 (1990)``) or a name only one player of the team has is
    taken too. ``typed`` (the command line: what a person typed) reads names first: a name two
    players of the team share is refused with both labels even when it is one's code."""
    submit_lineups(db, actor, event_id, number, {team: players}, clock=clock, typed=typed)


def submit_lineups(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    lineups: Mapping[str, Sequence[str]],
    *,
    clock: ServerClock = SYSTEM_CLOCK,
    typed: bool = False,
) -> int:
    """Seal several teams' lineups in one transaction (the chief referee entering the sheets
    handed in): every one, or none when one is refused. A player-role account (a coach) may
    submit only for the teams it coaches (R-FMT-1), else ``PermissionDenied`` and nothing is
    stored. The time of submission is ``clock``'s: a lineup after the deadline is refused."""
    now = clock.now()
    with db.transaction() as session:
        require(session, actor, Action.SUBMIT_LINEUP, event_id)
        require_coach(session, actor, event_id, lineups)
        sealed = _sealed_teams(session, event_id, number)  # what the submitter could know of
        lock_event(session, event_id)
        row = event_row(session, event_id)
        rnd = round_row(session, event_id, number)
        for team, players in lineups.items():
            _seal(session, row, rnd, team, players, now, sealed, typed)
        return len(lineups)


@dataclass(frozen=True)
class SealedLineup:
    """A team's lineup as it was sealed: player codes by board and when."""

    players: tuple[str, ...]
    submitted_at: datetime


def sealed_lineup(
    db: Database, actor: Actor, event_id: int, number: int, team: str
) -> SealedLineup | None:
    """The lineup ``team`` sealed for round ``number``, for whoever may submit it (its coach or
    captain, the organisers, the chief referee) — others get ``PermissionDenied``, as the
    lineups stay secret until revealed; ``None`` when the team has sealed none."""
    with db.transaction() as session:
        require(session, actor, Action.SUBMIT_LINEUP, event_id)
        require_coach(session, actor, event_id, [team])
        team_row = team_by_code(session, event_id, team)
        rnd = round_row(session, event_id, number)
        row = session.scalar(
            select(LineupRow).where(LineupRow.round_id == rnd.id, LineupRow.team_id == team_row.id)
        )
        if row is None:
            return None
        return SealedLineup(row.players, as_utc(row.submitted_at))


def reveal_round(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    *,
    clock: ServerClock = SYSTEM_CLOCK,
) -> TeamRoundView:
    """Publish a round's lineups together (not before the deadline) and seat the boards: a team
    without a lineup plays its previous one or forfeits its boards (event setting)."""
    now = clock.now()
    with db.transaction() as session:
        require(session, actor, Action.PAIR_ROUND, event_id)
        lock_event(session, event_id)  # no lineup sealed while the boards are seated
        row = event_row(session, event_id)
        settings = settings_of(row)
        rnd = round_row(session, event_id, number)
        if rnd.revealed_at is not None:
            raise Conflict(
                Msg("the lineups of round %(number)s are already revealed", number=number)
            )
        if rnd.lineup_deadline is not None and now < as_utc(rnd.lineup_deadline):
            raise Conflict(
                Msg(
                    "the lineups of round %(number)s are sealed until "
                    "%(lineup_deadline)s (now %(now)s)",
                    number=number,
                    lineup_deadline=_event_time(session, event_id, rnd.lineup_deadline),
                    now=_event_time(session, event_id, now),
                )
            )
        for r in event_rounds(session, event_id):
            if r.number < number and r.revealed_at is None:
                raise Conflict(Msg("round %(number)s is not revealed yet", number=r.number))
        teams = {t.id: t for t in event_teams(session, event_id)}
        code_to_id = {t.code: t.id for t in teams.values()}
        roster_id = {(t.code, r.code): r.id for t in teams.values() for r in t.roster}
        lineups = lineup_rows(session, event_id)
        revealed = {teams[lr.team_id].code: lr.players for lr in lineups.get(rnd.id, [])}
        previous: dict[str, Lineup] = {}
        for r in event_rounds(session, event_id):
            if r.number >= number:
                break
            for lr in lineups.get(r.id, []):
                if lr.players:
                    previous[teams[lr.team_id].code] = lr.players
        wso = settings.stage
        playing = (
            [t.code for t in teams.values()]
            if wso
            else [teams[t].code for m in rnd.matches for t in (m.home_id, m.away_id)]
        )
        if not settings.team_type.lineup_each_round:
            # 分台定人制: the event fixes the boards by rank and rating; no lineup is needed
            by_code = {t.code: t for t in teams.values()}
            for code in playing:
                if code not in revealed:
                    order = event_order(core_team(by_code[code]), settings.team_type)
                    revealed[code] = order[: settings.boards]
        chosen = lineups_for_round(revealed, playing, previous, settings.lineup)
        for code, lineup in chosen.items():
            if any(teams[lr.team_id].code == code for lr in lineups.get(rnd.id, [])):
                continue
            source = (
                "fixed" if code in revealed else "previous" if lineup is not None else "forfeit"
            )
            session.add(
                LineupRow(
                    round_id=rnd.id,
                    team_id=code_to_id[code],
                    boards=_lineup_boards(teams[code_to_id[code]], lineup or ()),
                    source=source,
                    submitted_at=now,
                )
            )
        if wso and sum(1 for lineup in chosen.values() if lineup) < 2:
            raise Conflict(Msg("a 擂台赛 needs the lineups of at least two teams"))
        rng = random.Random(rnd.seed)
        for m in rnd.matches:
            home, away = teams[m.home_id].code, teams[m.away_id].code
            la, lb = chosen[home], chosen[away]
            if settings.team_type is TeamType.ROTATION and la is not None and lb is not None:
                seated = rotation_match(home, away, la, lb)
            else:
                cols = board_colors(settings.boards, settings.board_colors, rng)
                seated = TeamMatch.pair(home, away, la, lb, cols, settings.boards)
            m.games = [
                GameRow.team_board(
                    rnd.id,
                    g.board,
                    g.sitting,
                    (
                        roster_id[(home, g.a_player)] if g.a_player else None,
                        roster_id[(away, g.b_player)] if g.b_player else None,
                    ),
                    g.a_color.value,
                    str(settings.komi),
                    g.result.to_code() if g.result is not None else None,
                )
                for g in seated.games
            ]
        rnd.revealed_at = now
        session.flush()
        for m in rnd.matches:  # an empty seat's forfeit counts from now: sealed, no record
            for board in m.games:
                if board.result is not None:
                    seal_row(session, board)
        session.flush()
        if wso:  # its first game is seated now (chosen order: once both players are sent)
            from weiqi.services.winner_stays_on import settle_stage  # (it imports this module)

            settle_stage(session, event_id)
        return _round_view(session, rnd)


def lineup_rows(session: Session, event_id: int) -> dict[int, list[LineupRow]]:
    out: dict[int, list[LineupRow]] = {}
    rows = session.scalars(
        select(LineupRow)
        .join(RoundRow, LineupRow.round_id == RoundRow.id)
        .where(RoundRow.event_id == event_id)
        .order_by(LineupRow.id)
    )
    for lr in rows:
        out.setdefault(lr.round_id, []).append(lr)
    return out


def match_number(db: Database, event_id: int, number: int, team: str) -> int:
    """The number in round ``number`` of the match ``team`` (a code or a name) plays; where a
    command names a team board by its team, as ``round result --team`` does."""
    with db.transaction() as session:
        rnd = round_row(session, event_id, number)
        m = _team_match(session, event_id, rnd, team_by_code(session, event_id, team).id)
        if m is None:
            raise NotFound(
                Msg("%(team)s has no match in round %(number)s", team=team, number=number)
            )
        return m.number


def _set_board_result(
    session: Session,
    actor: Actor,
    event_id: int,
    rnd: RoundRow,
    team: str,
    board: int,
    result: Result,
    sitting: int,
) -> TeamMatchRow:
    number = rnd.number
    team_row = team_by_code(session, event_id, team)
    m = _team_match(session, event_id, rnd, team_row.id)
    if m is None:
        raise NotFound(Msg("%(team)s has no match in round %(number)s", team=team, number=number))
    if rnd.revealed_at is None:
        raise Conflict(
            Msg(
                "round %(number)s: the lineups are not revealed, no board is seated",
                number=number,
            )
        )
    game = next((g for g in m.games if g.board == board and g.sitting == sitting), None)
    if game is None:
        raise NotFound(
            Msg(
                "round %(number)s: %(team)s's match has no board %(board)s",
                number=number,
                team=team,
                board=board,
            )
        )
    games.refuse_empty_board(game, number)
    if not is_stage(session, event_id):  # (a 擂台赛 plays a replay again: the same two meet)
        game_points(result, Color.BLACK)  # a replay or no result scores nothing: refused here
    # the signed sheet: entered and confirmed in the board's game record, like an individual
    # event's ``round result`` (R-REF-7); a confirmed board is changed by a correction only
    games.enter_and_confirm(session, actor, event_id, games.refereed_game(session, game), result)
    return m


def _sheet_round(
    session: Session, actor: Actor, event_id: int, number: int
) -> tuple[EventSettingsRow, RoundRow]:
    """The team event and its round ``number``, for entering signed sheets in the caller's
    transaction: who may enter one (enter and confirm, as on an individual event's sheet), and
    the event locked, so that a board confirmed meanwhile is seen as confirmed."""
    require(session, actor, Action.ENTER_RESULT, event_id)
    require(session, actor, Action.CONFIRM_RESULT, event_id)
    lock_event(session, event_id)
    return event_row(session, event_id), round_row(session, event_id, number)


def record_board_result(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    team: str,
    board: int,
    code: str,
    sitting: int = 0,
) -> MatchView:
    """Record one board's result of ``team``'s match in a round (``Result`` codes: B+R, W+1.5,
    0, BL …); colours are the match's, so ``B+R`` means black on that board won."""
    result = Result.parse(code)
    with db.transaction() as session:
        row, rnd = _sheet_round(session, actor, event_id, number)
        m = _set_board_result(session, actor, event_id, rnd, team, board, result, sitting)
        session.flush()
        teams, players = _codes(session, event_id)
        return _match_view(m, teams, players, True, {}, settings_of(row).board_one_decides)


def record_results(
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    rows: Sequence[tuple[str, int, str] | tuple[str, int, str, int]],
) -> int:
    """Record several boards of a round — ``(team, board, result code)`` each, or ``(team,
    board, result code, sitting)`` for the sittings (from 0) of a 全队轮赛制 match — in one
    transaction: every row, or none when one is refused."""
    parsed = [(r[0], r[1], Result.parse(r[2]), r[3] if len(r) == 4 else 0) for r in rows]
    with db.transaction() as session:
        _, rnd = _sheet_round(session, actor, event_id, number)
        for team, board, result, sitting in parsed:
            _set_board_result(session, actor, event_id, rnd, team, board, result, sitting)
        return len(parsed)


def record_results_csv(
    db: Database, actor: Actor, event_id: int, number: int, text: str, source: str = "results.csv"
) -> int:
    """Record a round's board results from CSV ``team,board,result`` — every row, or none; a
    refused row is named by its line."""
    rows = parse_team_results(text, source)
    with db.transaction() as session:
        _, rnd = _sheet_round(session, actor, event_id, number)
        for line, team, board, code, sitting in rows:
            try:
                result = Result.parse(code)
                _set_board_result(session, actor, event_id, rnd, team, board, result, sitting)
            except (NotFound, Conflict, InputError, InvalidSetting) as err:
                raise InputError.at_line(source, line, err.msg) from None
        return len(rows)


def record_playoff(
    db: Database, actor: Actor, event_id: int, number: int, winner: str
) -> MatchView:
    """Record the winner of the playoff (加赛, R-PLAYOFF) that decides ``winner``'s drawn match
    in a knockout; the match points stay as the boards gave them."""
    with db.transaction() as session:
        require(session, actor, Action.RECORD_RESULT, event_id)
        lock_event(session, event_id)  # one playoff winner, not two
        row = event_row(session, event_id)
        if row.system != System.KNOCKOUT.value:
            raise Conflict(
                Msg("only a knockout match is decided by a playoff; the table shares places")
            )
        rnd = round_row(session, event_id, number)
        team_row = team_by_code(session, event_id, winner)
        m = _match_of(rnd.matches, team_row.id)
        if m is None:
            raise NotFound(
                Msg("%(winner)s has no match in round %(number)s", winner=winner, number=number)
            )
        teams, players = _codes(session, event_id)
        core = _core_match(m, teams, players)
        if rnd.revealed_at is None or not core.games or not core.finished:
            raise Conflict(
                Msg(
                    "round %(number)s: %(a)s–%(b)s is not finished",
                    number=number,
                    a=core.a,
                    b=core.b,
                )
            )
        score = core.score(settings_of(row).board_one_decides)
        if score.winner is not None:
            raise Conflict(
                Msg(
                    "%(a)s–%(b)s has a winner, %(winner)s; no playoff",
                    a=core.a,
                    b=core.b,
                    winner=score.winner,
                )
            )
        if m.playoff_winner_id is not None:
            raise Conflict(Msg("the playoff of %(a)s–%(b)s is recorded", a=core.a, b=core.b))
        m.playoff_winner_id = team_row.id
        session.flush()
        return _match_view(m, teams, players, True, {}, settings_of(row).board_one_decides)


def _match_view(
    m: TeamMatchRow,
    teams: dict[int, str],
    players: dict[int, str],
    revealed: bool,
    submitted: dict[str, bool],
    board_one_decides: bool = False,
    names: dict[int, str] | None = None,
) -> MatchView:
    core = _core_match(m, teams, players)
    named = names or {}
    bad = _broken(m)
    boards = tuple(
        BoardView(
            g.board,
            g.sitting,
            players.get(g.home_player_id) if g.home_player_id is not None else None,
            players.get(g.away_player_id) if g.away_player_id is not None else None,
            g.home_plays,
            g.result if g.id not in bad else None,
            bool(g.confirmed) and g.id not in bad,
            named.get(g.home_player_id) if g.home_player_id is not None else None,
            named.get(g.away_player_id) if g.away_player_id is not None else None,
        )
        for g in m.games
    )
    view = MatchView(m.number, core.a, core.b, submitted, boards if revealed else ())
    if revealed and core.games and core.finished:
        s = core.score(board_one_decides)
        playoff = s.winner is None and m.playoff_winner_id is not None
        return MatchView(
            view.number,
            view.home,
            view.away,
            submitted,
            view.boards,
            (s.game_points_a, s.game_points_b),
            (s.match_points_a, s.match_points_b),
            teams[m.playoff_winner_id] if playoff and m.playoff_winner_id else s.winner,
            s.decided_by_board_one,
            playoff,
        )
    return view


def _round_view(session: Session, rnd: RoundRow, *, explain: bool = False) -> TeamRoundView:
    row = event_row(session, rnd.event_id)
    teams, players = _codes(session, rnd.event_id)
    names = roster_labels(session, rnd.event_id)
    lineups = lineup_rows(session, rnd.event_id).get(rnd.id, [])
    submitted = {teams[lr.team_id]: lr.source == "submitted" for lr in lineups}
    revealed = rnd.revealed_at is not None
    matches = tuple(
        _match_view(
            m,
            teams,
            players,
            revealed,
            {teams[t]: submitted.get(teams[t], False) for t in (m.home_id, m.away_id)},
            settings_of(row).board_one_decides,
            names,
        )
        for m in rnd.matches
    )
    return TeamRoundView(
        rnd.number,
        rnd.date.isoformat() if rnd.date is not None else None,
        rnd.starts_at,
        rnd.lineup_deadline,
        rnd.revealed_at,
        teams[rnd.bye_team_id] if rnd.bye_team_id is not None else None,
        matches,
        # sealed lineups stay secret: only whether a team has submitted is shown
        {teams[lr.team_id]: lr.players for lr in lineups} if revealed else {},
        *(_explanation(session, rnd) if explain else ((), None)),
    )


def _explanation(
    session: Session, rnd: RoundRow
) -> tuple[tuple[BoardWhy, ...], RoundTotals | None]:
    """Why each match of ``rnd`` was paired, teams by name, and the pairing's totals (none
    stored: none)."""
    stored = json.loads(rnd.explanation_json or "{}")
    if not stored.get("explanations"):
        return (), None
    names = {t.code: t.name for t in event_teams(session, rnd.event_id)}
    return board_whys(explanation_views(stored, names, {}), team=True), stored_totals(stored)


def show_round(db: Database, event_id: int, number: int | None = None) -> TeamRoundView:
    """A paired round (the latest by default): matches, and boards once revealed."""
    with db.transaction() as session:
        event_row(session, event_id)
        return _round_view(session, round_or_latest(session, event_id, number), explain=True)


def event_summary(
    db: Database, event_id: int
) -> tuple[Competition[TeamEventSettings], list[RoundSummaryRead]]:
    """The event and each round's matches, how many of them are decided and its bye, read
    from one snapshot (the overview's, ``read_models.EventRead``)."""
    with db.transaction() as session:
        info = _info(session, event_id)
        views = [_round_view(session, r) for r in event_rounds(session, event_id)]
    rounds = [
        RoundSummaryRead(
            v.number,
            len(v.matches),
            sum(1 for m in v.matches if m.match_points is not None),
            1 if v.bye else 0,
        )
        for v in views
    ]
    return info, rounds


def list_rounds(db: Database, event_id: int) -> list[TeamRoundView]:
    """Every round of the event (the calendar of a league division)."""
    with db.transaction() as session:
        event_row(session, event_id)
        return [_round_view(session, r) for r in event_rounds(session, event_id)]


def standings(db: Database, event_id: int) -> list[TeamStandingRead]:
    """The team standings (R-RANK-TEAM): match points, game points, board 1, board 2, …
    (a Swiss as its ranking setting says); equal on every key → a shared place. The read
    model the API answers, the pages render and ``weiqi standings --json`` prints."""
    with db.transaction() as session:
        row = event_row(session, event_id)
        settings = settings_of(row)
        if settings.stage:
            raise Conflict(Msg("a 擂台赛 has a winner, not a table: see its games"))
        names = {t.code: t.name for t in event_teams(session, event_id)}
        matches = [m for r in _seated_matches(session, event_id) for m in r]
        byes = _byes(session, event_id) if settings.system is not System.ROUND_ROBIN else []
    table = team_standings(
        matches, list(names), settings.ranking, settings.board_one_decides, byes=byes
    )
    places = [s.place for s in table]
    return [
        TeamStandingRead(
            s.place,
            s.team,
            names[s.team],
            s.row.played,
            s.row.won,
            s.row.drawn,
            s.row.lost,
            s.row.match_points,
            s.row.game_points,
            list(s.row.board_points) or [0] * settings.boards,
            places.count(s.place) > 1,
        )
        for s in table
    ]


def _byes(session: Session, event_id: int) -> list[str]:
    """The team of each bye so far, once per bye."""
    teams = {t.id: t.code for t in event_teams(session, event_id)}
    return [
        teams[r.bye_team_id] for r in event_rounds(session, event_id) if r.bye_team_id is not None
    ]


def records(
    db: Database, event_id: int
) -> tuple[list[PlayerRecord], dict[int, list[PlayerRecord]]]:
    """Each player's record (best first) and the records of each board, for board prizes."""
    with db.transaction() as session:
        row = event_row(session, event_id)
        matches = [m for r in _seated_matches(session, event_id) for m in r]
    players = sorted(
        player_records(matches).values(), key=lambda r: (-r.game_points, r.games, r.player_id)
    )
    return players, {b: board_records(matches, b) for b in range(1, settings_of(row).boards + 1)}


def members_total_standings(
    db: Database, event_id: int, tournament_id: int, counted: int | None = None
) -> list[tuple[int, str, int]]:
    """队员总分制 (R-FMT-1): each team's total of its members' points in the individual
    tournament ``tournament_id`` (the best ``counted`` members only, if given); a member is
    found by name. Equal totals share a place."""
    from weiqi.services.tournament import event_standings

    with db.transaction() as session:
        row = event_row(session, event_id)
        if settings_of(row).team_type is not TeamType.MEMBERS_TOTAL:
            raise Conflict(
                Msg("event %(event_id)s is not a 队员总分制 team event", event_id=event_id)
            )
        members = {t.code: [r.name for r in t.roster] for t in event_teams(session, event_id)}
    points = {s.name: s.points for s in event_standings(db, tournament_id)}
    entered = {name for names in members.values() for name in names}
    if not entered & set(points):
        raise Conflict(
            Msg(
                "no member of these teams plays in event %(tournament_id)s",
                tournament_id=tournament_id,
            )
        )
    return members_total(members, points, counted)
