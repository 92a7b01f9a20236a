"""League seasons and the transfer draft (R-LEAGUE-1, R-LEAGUE-2).

A season holds divisions (甲, 乙 …, top first); each division is a team event (see
``services.teams``) whose rounds are created up front from the dated double round robin
(12 clubs → 22 rounds). Lineups, results and the table of a division go through the team-event
services; this module creates the season, closes it (final orders, promotion and relegation) and
runs the draft, whose log is replayed and checked (``weiqi.league.draft.replay``) on every read.

>>> import datetime
>>> from weiqi.store.database import Database
>>> db = Database("sqlite://"); db.upgrade()
>>> local = Actor.local()
>>> def clubs(prefix):
...     return "team,name,rank\\n" + "\\n".join(
...         f"{prefix}{c},{prefix}{c}{i},5p" for c in "123" for i in range(1, 5))
>>> s = create_season(db, local, "2026", [("甲", clubs("A")), ("乙", clubs("B"))],
...                   SeasonSettings(boards=2, min_roster=2, max_roster=6, promoted=1, relegated=1),
...                   start=datetime.date(2026, 3, 7))
>>> [(d.division, d.clubs, d.rounds) for d in s.divisions]
[('甲', 3, 6), ('乙', 3, 6)]
>>> [r.date for r in season_calendar(db, s.id, "甲")][:2]
['2026-03-07', '2026-03-14']
>>> close_season(db, local, s.id)
Traceback (most recent call last):
...
weiqi.errors.Conflict: division 甲: 6 of 6 matches are not finished
"""

from __future__ import annotations

import datetime
import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from weiqi.errors import (
    Conflict,
    FieldsRejected,
    InputError,
    InvalidSetting,
    NotFound,
)
from weiqi.formats.team_csv import parse_team_csv
from weiqi.league.draft import (
    Draft,
    DraftAction,
    DraftEvent,
    Unpicked,
    check_protected,
    combined_standing,
    draft_order,
    replay,
)
from weiqi.league.lineup import MissingLineup
from weiqi.league.season import (
    Season,
    SeasonSettings,
    final_order,
    promotion_and_relegation,
)
from weiqi.league.standings import TeamRanking, team_standings
from weiqi.league.team import RosterEntry
from weiqi.messages import Msg
from weiqi.services.actor import Actor
from weiqi.services.events import add_event, count_rows, event_name, settings_row
from weiqi.services.permissions import Action, allowed_in, require
from weiqi.services.teams import (
    TeamRoundView,
    add_teams,
    core_team,
    event_matches,
    list_rounds,
    team_round_row,
)
from weiqi.store.database import Database
from weiqi.store.locks import lock_event
from weiqi.store.teams import (
    DraftLogRow,
    DraftRow,
    LeagueDivisionRow,
    SeasonRow,
    TeamRow,
)
from weiqi.store.tournament import RoundRow
from weiqi.text import clean_name
from weiqi.tournament.ranks import Rank
from weiqi.tournament.settings import settings_to_dict, settings_values, time_control_value


def season_settings_from_dict(raw: object) -> SeasonSettings:
    """A season's settings as stored (``settings_to_dict``): a key the settings do not have,
    or a value of the wrong type, is ``InvalidSetting`` naming it."""
    return SeasonSettings(**settings_values(SeasonSettings, raw))  # type: ignore[arg-type]


@dataclass(frozen=True)
class DivisionInfo:
    division: str
    event_id: int
    clubs: int
    rounds: int


@dataclass(frozen=True)
class SeasonInfo:
    id: int
    name: str
    settings: SeasonSettings
    divisions: tuple[DivisionInfo, ...]
    closed: bool

    def division(self, label: str | None) -> DivisionInfo:
        """The division called ``label`` (``None``: the top one), as a page's ``?division=``
        names it; ``NotFound`` for a name the season does not have — never another division's
        table in its place."""
        if label is None:
            return self.divisions[0]
        found = next((d for d in self.divisions if d.division == label), None)
        if found is None:
            raise NotFound(
                Msg(
                    "season %(season_id)s has no division %(division)s",
                    season_id=self.id,
                    division=repr(label),
                )
            )
        return found


@dataclass(frozen=True)
class SeasonEnd:
    """The final orders of each division and next season's divisions (R-LEAGUE-1)."""

    final: dict[str, list[str]]
    next_divisions: dict[str, list[str]]


@dataclass(frozen=True)
class DraftView:
    id: int
    season_id: int
    order: tuple[str, ...]
    base: int
    protected: dict[str, list[str]]
    waiting_to_protect: tuple[str, ...]
    pool: tuple[tuple[str, str], ...]  # (player, listed by)
    log: tuple[DraftEvent, ...]
    round: int
    on_the_clock: str | None
    finished: bool
    rosters: dict[str, list[str]]
    released: tuple[str, ...]


# -- seasons --------------------------------------------------------------------------------


def _season(session: Session, season_id: int) -> SeasonRow:
    row = session.get(SeasonRow, season_id)
    if row is None:
        raise NotFound(Msg("season %(season_id)s does not exist", season_id=season_id))
    return row


def _division_rows(session: Session, season_id: int) -> list[LeagueDivisionRow]:
    return list(
        session.scalars(
            select(LeagueDivisionRow)
            .where(LeagueDivisionRow.season_id == season_id)
            .order_by(LeagueDivisionRow.event_id)
        )
    )


def _lock_season(session: Session, season_id: int) -> list[LeagueDivisionRow]:
    """Hold the write lock (``store.locks``) of every division's event of the season, in the
    order of their ids (two writers of one season never wait for each other crosswise), and
    forget what the session read before: what the caller checks next is read under the lock.
    A season's close and its draft are written under these locks, so of two at once the second
    sees the first."""
    for d in _division_rows(session, season_id):
        lock_event(session, d.event_id)
    session.expire_all()
    return _division_rows(session, season_id)


def _season_info(session: Session, season: SeasonRow) -> SeasonInfo:
    divisions = []
    for d in _division_rows(session, season.id):
        clubs = count_rows(session, TeamRow, d.event_id)
        rounds = count_rows(session, RoundRow, d.event_id)
        divisions.append(DivisionInfo(d.division, d.event_id, clubs, rounds))
    settings = season_settings_from_dict(json.loads(season.settings_json))
    return SeasonInfo(
        season.id, season.name, settings, tuple(divisions), season.final_json is not None
    )


def create_season(
    db: Database,
    actor: Actor,
    name: str,
    divisions: Sequence[tuple[str, str]],
    settings: SeasonSettings,
    start: datetime.date,
    days: int = 7,
    home_nationality: str | None = None,
) -> SeasonInfo:
    """Create a season: each division (label, teams-and-rosters CSV), top division first, gets
    a team event with the dated double round robin of its clubs, one round every ``days``."""
    from weiqi.league.calendar import weekly_dates

    # each division's event is named "<season> <division>": both must fit an event's name
    name = event_name(name)
    if not divisions:
        raise InvalidSetting("divisions", Msg("a season has at least one division"))
    divisions = [(clean_name("divisions", label, max_length=32), text) for label, text in divisions]
    for label, _ in divisions:
        event_name(f"{name} {label}")  # the division's event
    labels = [label for label, _ in divisions]
    if len(set(labels)) != len(labels):
        raise InvalidSetting("divisions", Msg("a division is named twice"))
    parsed = []
    seen: dict[str, str] = {}
    for label, text in divisions:
        teams = parse_team_csv(text, f"division {label}", home_nationality)
        for t in teams:
            if t.team_id in seen:
                raise InputError(
                    Msg("club %(team_id)s", team_id=t.team_id),
                    Msg("in divisions %(seen)s and %(label)s", seen=seen[t.team_id], label=label),
                )
            seen[t.team_id] = label
        n = len(teams)
        rounds = 2 * (n - 1 + n % 2)
        dates = weekly_dates(start, rounds, days)
        # the core checks rosters against the season's settings and draws the calendar
        season = Season(label, teams, settings, dates)
        parsed.append((label, teams, season))
    team_settings = settings.division
    with db.transaction() as session:
        require(session, actor, Action.CREATE_EVENT)
        row = SeasonRow(
            name=name,
            settings_json=json.dumps(settings_to_dict(settings), ensure_ascii=False),
        )
        session.add(row)
        session.flush()
        for label, teams, season in parsed:
            # as every event is created: whoever creates the season (an organiser of an
            # earlier event, not a site administrator) organises and referees its divisions
            event_id = add_event(session, actor, f"{name} {label}", settings_row(team_settings))
            session.add(LeagueDivisionRow(event_id=event_id, season_id=row.id, division=label))
            add_teams(session, event_id, teams, settings.boards)
            for number, fixtures in enumerate(season.calendar, start=1):
                playing = {c for f in fixtures for c in (f.home, f.away)}
                resting = [c for c in season.team_ids if c not in playing]
                bye = resting[0] if resting else None
                rnd = team_round_row(session, event_id, number, fixtures, bye, seed=number)
                rnd.date = fixtures[0].date if fixtures else None
                session.add(rnd)
        session.flush()
        return _season_info(session, row)


def season_info(db: Database, season_id: int) -> SeasonInfo:
    with db.transaction() as session:
        return _season_info(session, _season(session, season_id))


def _newest(db: Database, id_column: InstrumentedAttribute[int], none: Msg) -> int:
    """The highest id of ``id_column``'s table, its newest row (``NotFound`` saying ``none``
    when the table is empty)."""
    with db.transaction() as session:
        found = session.scalar(select(func.max(id_column)))
        if found is None:
            raise NotFound(none)
        return int(found)


def latest_season(db: Database) -> int:
    """The newest season in the database (for commands that name none)."""
    return _newest(db, SeasonRow.id, Msg("no league season in this database; create one first"))


def division_event(db: Database, season_id: int, division: str | None = None) -> int:
    """The team event of a division (the top division by default)."""
    with db.transaction() as session:
        _season(session, season_id)
        rows = _division_rows(session, season_id)
        if division is None:
            return rows[0].event_id
        for d in rows:
            if d.division == division:
                return d.event_id
        raise NotFound(
            Msg(
                "season %(season_id)s has no division %(division)s (it has %(join)s)",
                season_id=season_id,
                division=repr(division),
                join=", ".join(d.division for d in rows),
            )
        )


def season_calendar(
    db: Database, season_id: int, division: str | None = None
) -> list[TeamRoundView]:
    """The dated rounds of a division with their fixtures (and boards once revealed)."""
    return list_rounds(db, division_event(db, season_id, division))


def _final_orders(
    session: Session, season_id: int, settings: SeasonSettings
) -> dict[str, list[str]]:
    divisions = _division_rows(session, season_id)
    out: dict[str, list[str]] = {}
    for i, d in enumerate(divisions):
        matches, unfinished = event_matches(session, d.event_id)
        if unfinished:
            total = len(matches) + unfinished
            raise Conflict(
                Msg(
                    "division %(division)s: %(unfinished)s of %(total)s matches are not finished",
                    division=d.division,
                    unfinished=unfinished,
                    total=total,
                )
            )
        clubs = [
            t.code
            for t in session.scalars(
                select(TeamRow).where(TeamRow.event_id == d.event_id).order_by(TeamRow.id)
            )
        ]
        table = team_standings(matches, clubs, TeamRanking.ROUND_ROBIN, settings.board_one_decides)
        cuts = []
        if i > 0:
            cuts.append(settings.promoted)
        if i < len(divisions) - 1:
            cuts.append(len(table) - settings.relegated)
        out[d.division] = final_order(table, cuts)
    return out


def close_season(db: Database, actor: Actor, season_id: int) -> SeasonEnd:
    """End the season: final orders (a shared place across a promotion or relegation line needs
    a playoff first), and next season's divisions — the bottom ``relegated`` of each division go
    down, the top ``promoted`` of the one below come up."""
    with db.transaction() as session:
        season = _season(session, season_id)
        divisions = _division_rows(session, season_id)
        # R-ORG-1: the chief referee announces the final places
        require(session, actor, Action.PAIR_ROUND, divisions[0].event_id)
        divisions = _lock_season(session, season_id)  # a result entered meanwhile comes first
        if season.final_json is not None:
            raise Conflict(Msg("season %(season_id)s is already closed", season_id=season_id))
        settings = season_settings_from_dict(json.loads(season.settings_json))
        final = _final_orders(session, season_id, settings)
        labels = [d.division for d in divisions]
        down: dict[str, list[str]] = {}
        up: dict[str, list[str]] = {}
        for upper, lower in itertools.pairwise(labels):
            # the core checks that no more clubs move than the divisions hold
            promotion_and_relegation(
                final[upper], final[lower], settings.promoted, settings.relegated
            )
            down[upper] = final[upper][len(final[upper]) - settings.relegated :]
            up[lower] = final[lower][: settings.promoted]
        nxt: dict[str, list[str]] = {}
        for i, label in enumerate(labels):
            moving = set(down.get(label, [])) | set(up.get(label, []))
            from_above = down.get(labels[i - 1], []) if i > 0 else []
            from_below = up.get(labels[i + 1], []) if i + 1 < len(labels) else []
            stay = [c for c in final[label] if c not in moving]
            nxt[label] = [*from_above, *stay, *from_below]
        season.final_json = json.dumps({"final": final, "next": nxt}, ensure_ascii=False)
        return SeasonEnd(final, nxt)


def season_end(db: Database, season_id: int) -> SeasonEnd:
    with db.transaction() as session:
        season = _season(session, season_id)
        if season.final_json is None:
            raise Conflict(Msg("season %(season_id)s is not closed yet", season_id=season_id))
        data = json.loads(season.final_json)
        return SeasonEnd(data["final"], data["next"])


# -- the organisers' pages of a season ------------------------------------------------------


@dataclass(frozen=True)
class SeasonForm:
    """What the new-season form asks besides the divisions: the settings, the date of round 1,
    the days between rounds and the nationality that is not foreign (外援)."""

    settings: SeasonSettings
    start: datetime.date
    days: int
    home_nationality: str | None


#: The new-season form's fields as it first shows them: 围甲's settings.
SEASON_FORM_DEFAULTS: dict[str, str] = {
    "start": "",
    "days": "7",
    "boards": "4",
    "min_roster": "4",
    "max_roster": "6",
    "max_foreign": "1",
    "missing": MissingLineup.PREVIOUS.value,
    "promoted": "2",
    "relegated": "2",
    "home_nationality": "CN",
}


def season_form(form: Mapping[str, str]) -> SeasonForm:
    """Read the new-season form (empty fields take :data:`SEASON_FORM_DEFAULTS`; an empty
    ``max_foreign`` is no limit). Every unreadable field is named at once
    (``FieldsRejected``); settings that do not fit together raise ``InvalidSetting``.

    >>> f = season_form({"start": "2026-03-07", "boards": "2", "min_roster": "2"})
    >>> f.start.isoformat(), f.days, f.settings.boards, f.settings.max_foreign
    ('2026-03-07', 7, 2, None)
    >>> season_form({"start": "7 March", "boards": "two"})
    Traceback (most recent call last):
    ...
    weiqi.errors.FieldsRejected: start: must be a date (YYYY-MM-DD)
    """
    problems: dict[str, Msg] = {}

    def number(field: str, low: int = 0) -> int | None:
        text = form.get(field, "").strip()
        if not text:
            text = SEASON_FORM_DEFAULTS.get(field, "") if field != "max_foreign" else ""
        if not text:
            return None
        try:
            value = int(text)
        except ValueError:
            problems[field] = Msg("must be a whole number")
            return None
        if value < low:
            problems[field] = Msg("must be at least 1") if low == 1 else Msg("cannot be negative")
            return None
        return value

    start: datetime.date | None = None
    try:
        start = datetime.date.fromisoformat(form.get("start", "").strip())
    except ValueError:
        problems["start"] = Msg("must be a date (YYYY-MM-DD)")
    days, boards = number("days", 1), number("boards", 1)
    min_roster, max_roster = number("min_roster", 1), number("max_roster", 1)
    max_foreign = number("max_foreign")
    promoted, relegated = number("promoted"), number("relegated")
    missing_text = form.get("missing", "").strip() or MissingLineup.PREVIOUS.value
    try:
        missing = MissingLineup(missing_text)
    except ValueError:
        problems["missing"] = Msg("unknown value %(text)s", text=repr(missing_text))
    time_control = None
    try:
        time_control = time_control_value(form.get("time_control", ""))
    except InvalidSetting as err:
        problems["time_control"] = err.reason
    if problems:
        raise FieldsRejected(problems)
    assert start is not None and days is not None and boards is not None
    assert min_roster is not None and max_roster is not None
    assert promoted is not None and relegated is not None
    settings = SeasonSettings(
        boards=boards,
        min_roster=min_roster,
        max_roster=max_roster,
        max_foreign=max_foreign,
        missing=missing,
        board_one_decides=bool(form.get("board_one_decides")),
        promoted=promoted,
        relegated=relegated,
        time_control=time_control,
    )
    home = form.get("home_nationality", "").strip().upper() or None
    return SeasonForm(settings, start, days, home)


@dataclass(frozen=True)
class SeasonCard:
    """A season in the list of the home page."""

    id: int
    name: str
    divisions: tuple[str, ...]
    closed: bool
    draft_id: int | None
    top_event_id: int | None
    """The top division's team event (whose roles run the season)."""


def list_seasons(db: Database) -> list[SeasonCard]:
    """Every league season, newest first, with its divisions and its draft (if any).

    >>> from weiqi.store.database import Database
    >>> db = Database("sqlite://"); db.upgrade()
    >>> list_seasons(db)
    []
    """
    with db.transaction() as session:
        labels: dict[int, list[str]] = {}
        top: dict[int, int] = {}
        for season_id, label, event_id in session.execute(
            select(
                LeagueDivisionRow.season_id, LeagueDivisionRow.division, LeagueDivisionRow.event_id
            ).order_by(LeagueDivisionRow.event_id)
        ):
            labels.setdefault(season_id, []).append(label)
            top.setdefault(season_id, event_id)
        drafts = {s: d for s, d in session.execute(select(DraftRow.season_id, DraftRow.id))}
        rows = session.scalars(select(SeasonRow).order_by(SeasonRow.id.desc()))
        return [
            SeasonCard(
                r.id,
                r.name,
                tuple(labels.get(r.id, [])),
                r.final_json is not None,
                drafts.get(r.id),
                top.get(r.id),
            )
            for r in rows
        ]


@dataclass(frozen=True)
class DivisionProgress:
    division: DivisionInfo
    finished: int
    """Matches with a result."""
    total: int


@dataclass(frozen=True)
class SeasonPage:
    """The organisers' page of a season: its divisions and how far each has got, the final
    orders and next season's divisions once closed, its draft, and what ``actor`` may do."""

    season: SeasonInfo
    progress: tuple[DivisionProgress, ...]
    end: SeasonEnd | None
    draft_id: int | None
    may_close: bool
    """The chief referee (or a site administrator) closes the season."""
    may_draft: bool
    """The league's organisers run the draft."""

    @property
    def all_played(self) -> bool:
        return all(p.finished == p.total for p in self.progress)


def season_page(db: Database, actor: Actor, season_id: int) -> SeasonPage:
    """Read :class:`SeasonPage` (``NotFound`` if there is no such season)."""
    with db.transaction() as session:
        row = _season(session, season_id)
        info = _season_info(session, row)
        progress = []
        for d in info.divisions:
            matches, unfinished = event_matches(session, d.event_id)
            progress.append(DivisionProgress(d, len(matches), len(matches) + unfinished))
        end = None
        if row.final_json is not None:
            data = json.loads(row.final_json)
            end = SeasonEnd(data["final"], data["next"])
        draft_id = session.scalar(select(DraftRow.id).where(DraftRow.season_id == season_id))
        top = info.divisions[0].event_id
        return SeasonPage(
            info,
            tuple(progress),
            end,
            draft_id,
            allowed_in(session, actor, Action.PAIR_ROUND, top),
            allowed_in(session, actor, Action.RUN_DRAFT, top),
        )


# -- the draft ------------------------------------------------------------------------------


def _entry_to_dict(e: RosterEntry) -> dict[str, object]:
    return {
        "id": e.player_id,
        "name": e.name,
        "rank": e.rank.code,
        "rating": e.rating,
        "nationality": e.nationality,
        "foreign": e.foreign,
    }


def _entry_from_dict(d: Mapping[str, object]) -> RosterEntry:
    return RosterEntry(
        str(d["id"]),
        str(d["name"]),
        Rank.parse(str(d["rank"])),
        int(d["rating"]),  # type: ignore[call-overload]
        str(d["nationality"]),
        bool(d["foreign"]),
    )


def _draft_row(session: Session, draft_id: int) -> DraftRow:
    row = session.get(DraftRow, draft_id)
    if row is None:
        raise NotFound(Msg("draft %(draft_id)s does not exist", draft_id=draft_id))
    return row


def latest_draft(db: Database) -> int:
    """The newest draft in the database (for commands that name none)."""
    return _newest(
        db, DraftRow.id, Msg("no draft in this database; start one after closing a season")
    )


def _setup(
    row: DraftRow,
) -> tuple[list[str], dict[str, list[RosterEntry]], int, int | None, Unpicked]:
    data = json.loads(row.setup_json)
    rosters = {c: [_entry_from_dict(e) for e in es] for c, es in data["rosters"].items()}
    return data["order"], rosters, data["base"], data["max_roster"], Unpicked(data["unpicked"])


def _replayed(row: DraftRow) -> Draft:
    """The draft rebuilt from its setup and log; every log line is checked (R-LEAGUE-2)."""
    order, rosters, base, max_roster, unpicked = _setup(row)
    protected = json.loads(row.protected_json)
    missing = [c for c in rosters if c not in protected]
    if missing:
        raise Conflict(
            Msg(
                "not every club has protected its base yet: %(missing)s", missing=", ".join(missing)
            )
        )
    log = [
        DraftEvent(e.seq, e.round, e.turn, e.club, DraftAction(e.action), e.player, e.from_club)
        for e in row.log
    ]
    return replay(order, rosters, protected, log, base, max_roster, unpicked)


def _draft_view(row: DraftRow) -> DraftView:
    order, rosters, base, _, _ = _setup(row)
    protected: dict[str, list[str]] = json.loads(row.protected_json)
    waiting = tuple(c for c in rosters if c not in protected)
    if waiting:
        return DraftView(
            row.id,
            row.season_id,
            tuple(order),
            base,
            protected,
            waiting,
            (),
            (),
            1,
            None,
            False,
            {c: [e.player_id for e in r] for c, r in rosters.items()},
            (),
        )
    d = _replayed(row)
    return DraftView(
        row.id,
        row.season_id,
        d.order,
        base,
        protected,
        (),
        tuple((p, d.listed_by(p)) for p in d.pool),
        tuple(d.log),
        d.round,
        d.on_the_clock,
        d.finished,
        {c: [e.player_id for e in r] for c, r in d.rosters().items()},
        tuple(e.player_id for e in d.released),
    )


def start_draft(
    db: Database,
    actor: Actor,
    season_id: int,
    base: int = 4,
    max_roster: int | None = None,
    unpicked: Unpicked = Unpicked.RETURN,
) -> DraftView:
    """Open the draft after a closed season: the clubs of next season's top division pick in the
    reverse order of the combined standing; every club of the season may list players. Clubs
    with no more players than the base protect them all at once."""
    with db.transaction() as session:
        season = _season(session, season_id)
        divisions = _division_rows(session, season_id)
        require(session, actor, Action.RUN_DRAFT, divisions[0].event_id)
        divisions = _lock_season(session, season_id)  # of two drafts started at once, one
        if season.final_json is None:
            raise Conflict(
                Msg(
                    "season %(season_id)s is not closed; close it before the draft",
                    season_id=season_id,
                )
            )
        earlier = session.scalar(select(DraftRow.id).where(DraftRow.season_id == season_id))
        if earlier is not None:
            raise Conflict(
                Msg(
                    "season %(season_id)s has its draft already (draft %(earlier)s)",
                    season_id=season_id,
                    earlier=earlier,
                )
            )
        data = json.loads(season.final_json)
        standing = combined_standing(*(data["final"][d.division] for d in divisions))
        order = draft_order(standing, data["next"][divisions[0].division])
        rosters: dict[str, list[dict[str, object]]] = {}
        for d in divisions:
            for t in session.scalars(select(TeamRow).where(TeamRow.event_id == d.event_id)):
                rosters[t.code] = [_entry_to_dict(e) for e in core_team(t).roster]
        protected = {c: [str(e["id"]) for e in es] for c, es in rosters.items() if len(es) <= base}
        setup = {
            "order": order,
            "rosters": rosters,
            "base": base,
            "max_roster": max_roster,
            "unpicked": unpicked.value,
        }
        row = DraftRow(
            season_id=season_id,
            setup_json=json.dumps(setup, ensure_ascii=False),
            protected_json=json.dumps(protected, ensure_ascii=False),
        )
        session.add(row)
        session.flush()
        return _draft_view(row)


def protect(
    db: Database, actor: Actor, draft_id: int, club: str, players: Sequence[str]
) -> DraftView:
    """A club declares its protected base (exactly ``base`` players of its roster), before the
    first pick."""
    with db.transaction() as session:
        row = _draft_row(session, draft_id)
        _require_draft(session, actor, row)
        if row.log:
            raise Conflict(Msg("the picking has begun; protected bases are fixed"))
        _order, rosters, base, _, _ = _setup(row)
        if club not in rosters:
            raise NotFound(Msg("club %(club)s is not in the draft", club=club))
        keep = [p.strip() for p in players]
        check_protected(club, [e.player_id for e in rosters[club]], keep, base)
        protected = json.loads(row.protected_json)
        protected[club] = keep
        row.protected_json = json.dumps(protected, ensure_ascii=False)
        session.flush()
        return _draft_view(row)


def _require_draft(session: Session, actor: Actor, row: DraftRow) -> None:
    """``actor`` may run the draft; then its season's locks are held (:func:`_lock_season`),
    so the draft's log and protected bases checked next are what the last writer stored."""
    divisions = _division_rows(session, row.season_id)
    require(session, actor, Action.RUN_DRAFT, divisions[0].event_id)
    _lock_season(session, row.season_id)


def _move(db: Database, actor: Actor, draft_id: int, club: str, player: str | None) -> DraftView:
    with db.transaction() as session:
        row = _draft_row(session, draft_id)
        _require_draft(session, actor, row)
        draft = _replayed(row)
        if player is None:
            draft.pass_turn(club)
        else:
            draft.pick(club, player)
        e = draft.log[-1]
        row.log.append(
            DraftLogRow(
                seq=e.seq,
                round=e.round,
                turn=e.turn,
                club=e.club,
                action=e.action.value,
                player=e.player,
                from_club=e.from_club,
            )
        )
        session.flush()
        return _draft_view(row)


def pick(db: Database, actor: Actor, draft_id: int, club: str, player: str) -> DraftView:
    """The club on the clock picks a listed player."""
    return _move(db, actor, draft_id, club, player)


def pass_turn(db: Database, actor: Actor, draft_id: int, club: str) -> DraftView:
    """The club on the clock passes."""
    return _move(db, actor, draft_id, club, None)


def show_draft(db: Database, draft_id: int) -> DraftView:
    """The draft's state, rebuilt from its log (an altered log is refused with the line)."""
    with db.transaction() as session:
        return _draft_view(_draft_row(session, draft_id))


@dataclass(frozen=True)
class DraftPage:
    """The organisers' page of a draft: the draft as its log stands, each club's roster as the
    season ended (for the protected bases), the season, and whether ``actor`` runs it."""

    draft: DraftView
    rosters: dict[str, tuple[RosterEntry, ...]]
    season: SeasonInfo
    may_run: bool


def draft_page(db: Database, actor: Actor, draft_id: int) -> DraftPage:
    """Read :class:`DraftPage` (``NotFound`` if there is no such draft)."""
    with db.transaction() as session:
        row = _draft_row(session, draft_id)
        _order, rosters, _base, _, _ = _setup(row)
        season = _season_info(session, _season(session, row.season_id))
        return DraftPage(
            _draft_view(row),
            {c: tuple(r) for c, r in rosters.items()},
            season,
            allowed_in(session, actor, Action.RUN_DRAFT, season.divisions[0].event_id),
        )
