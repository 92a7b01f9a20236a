"""What the team-event pages need beyond ``services.teams``: the settings form, creating an
event whose creator runs it, a team entered from a form, and the teams with their rosters.

>>> from weiqi.store.database import Database
>>> db = Database("sqlite://"); db.upgrade()
>>> s = settings_from_form({"system": "round_robin", "team_type": "per_round", "boards": "3",
...                         "max_foreign": "1", "deadline_minutes": "30"})
>>> s.boards, s.max_foreign, s.team_type.zh
(3, 1, '临场出人制')
>>> from weiqi.services.events import create_event
>>> ev = create_event(db, Actor.local(), "市团体赛", s)
>>> add_team(db, Actor.local(), ev.id, "黑龙", "李教练", "李一,5d\\n李二,4d\\n李三,3d,,KR")
1
>>> [(p.name, p.rank, p.foreign) for p in team_cards(db, ev.id)[0].roster][2]
('李三', '3d', True)
"""

from __future__ import annotations

import csv
import dataclasses
import io
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from weiqi.errors import (
    Conflict,
    Duplicate,
    FieldsRejected,
    InputError,
    InvalidSetting,
    NotFound,
)
from weiqi.formats.players_csv import parse_birth_date
from weiqi.formats.team_csv import parse_roster_rating, parse_team_csv
from weiqi.i18n import N_
from weiqi.league.settings import TeamEventSettings, team_settings_from_dict
from weiqi.messages import Msg
from weiqi.services import teams
from weiqi.services.actor import Actor
from weiqi.services.event_admin import check_fields
from weiqi.services.events import event_rounds
from weiqi.services.permissions import Action, require
from weiqi.services.player_names import matches_fields, search_terms
from weiqi.store.database import Database
from weiqi.store.locks import lock_event
from weiqi.store.teams import TeamCoachRow, TeamRow
from weiqi.store.tournament import PlayerRow
from weiqi.text import clean_name
from weiqi.tournament.ranks import Rank
from weiqi.tournament.settings import settings_from_text, settings_text


def settings_from_form(form: Mapping[str, str]) -> TeamEventSettings:
    """The team settings a form sends, each field read by the type the settings declare
    (``settings_from_text``): an empty field takes the default, ``board_one_decides`` is a
    box; a bad value raises ``InvalidSetting`` naming its field.

    >>> settings_from_form({"boards": "3", "komi": "3½", "cycle": "draw"}).ruleset.komi
    Fraction(7, 2)
    """
    data = settings_from_text(TeamEventSettings, form, checkboxes=("board_one_decides",))
    return team_settings_from_dict(data)


def settings_form(s: TeamEventSettings) -> dict[str, str]:
    """The form fields showing the team settings ``s`` (inverse of :func:`settings_from_form`).

    >>> settings_form(TeamEventSettings(boards=3, max_foreign=1))["boards"]
    '3'
    >>> settings_from_form(settings_form(TeamEventSettings(boards=3))).boards
    3
    """
    return settings_text(s)


DEFAULT_FORM = settings_form(TeamEventSettings())
"""What the form shows first: the team settings' defaults."""


def _roster_csv(team: str, coach: str, roster: str) -> str:
    """The teams CSV of one team typed as ``name,rank[,rating[,nationality[,birth date]]]``
    lines."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["team", "name", "rank", "rating", "nationality", "birth_date", "coach"])
    for line in roster.splitlines():
        cells = next(csv.reader([line])) if line.strip() else []
        cells = [c.strip() for c in cells][:5]
        cells += [""] * (5 - len(cells))
        writer.writerow([team, *cells, coach])
    return out.getvalue()


def add_team(
    db: Database,
    actor: Actor,
    event_id: int,
    name: str,
    coach: str,
    roster: str,
    home_nationality: str = "CN",
) -> int:
    """Enter one team from the form: its name, coach, and its roster one player a line
    (``name,rank[,rating[,nationality[,birth date]]]``, the birth date YYYY-MM-DD telling two
    namesakes of the team apart; a player of another nationality than
    ``home_nationality`` is foreign). Bad lines raise ``RowsRejected`` numbered from 1."""
    name = name.strip()
    if not name:
        raise InputError("team", Msg("the team name is empty"))
    name = clean_name("team", name)
    coach = clean_name("coach", coach, required=False)
    lines = [line for line in roster.splitlines() if line.strip()]
    if not lines:
        raise InputError("roster", Msg("no players"))
    text = _roster_csv(name, coach.strip(), "\n".join(lines))
    # the header is line 1 of the generated file; the form's lines count from 1
    parsed = parse_team_csv(text, "roster", home_nationality or None, lines_before=1)
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        lock_event(session, event_id)  # no round paired, no code taken: until commit
        row = teams.event_row(session, event_id)
        if event_rounds(session, event_id):
            raise Conflict(Msg("the event has started; teams enter before round 1 is paired"))
        teams.add_teams(session, event_id, parsed, teams.settings_of(row).boards)
    return len(parsed)


@dataclass(frozen=True)
class RosterCard:
    player: str
    name: str
    rank: str
    rating: int | None
    nationality: str
    foreign: bool
    id: int = 0
    """The roster row's id: the address of the player's edit page."""
    label: str = ""
    """The name as every page shows it: for namesakes with what tells them apart
    (``张伟 (黑龙)``)."""
    birth_date: date | None = None

    @property
    def shown(self) -> str:
        """The label, or the name where no label was worked out."""
        return self.label or self.name


@dataclass(frozen=True)
class TeamCard:
    code: str
    name: str
    club: str
    coach: str
    captain: str
    roster: tuple[RosterCard, ...]
    id: int = 0
    """The team row's id: the address of the team's page."""


def team_cards(db: Database, event_id: int) -> list[TeamCard]:
    """The teams of an event with their rosters, in the order they entered."""
    with db.transaction() as session:
        teams.event_row(session, event_id)
        shown = teams.roster_labels(session, event_id)
        return [_team_card(t, shown) for t in teams.event_teams(session, event_id)]


def matching_matches(
    cards: list[TeamCard], view: teams.TeamRoundView, search: str
) -> frozenset[int] | None:
    """The matches of a team round that the organisers' search ``search`` finds (``None``: no
    search, every match): a match whose team (name, club) or a player seated for it (name,
    rank) matches every word — the same matching as every list's player search.

    >>> li = RosterCard("黑龙1", "李明", "5d", None, "CN", False)
    >>> card = TeamCard("黑龙", "黑龙", "天津", "", "", (li,))
    >>> board = teams.BoardView(1, 0, "黑龙1", "王芳", "B", None)
    >>> one = teams.MatchView(1, "黑龙", "白虎", {}, (board,))
    >>> view = teams.TeamRoundView(1, None, None, None, None, None,
    ...                        (one, teams.MatchView(2, "青龙", "朱雀", {}, ())))
    >>> matching_matches([card], view, "李明 5段"), matching_matches([card], view, "天津")
    (frozenset({1}), frozenset({1}))
    >>> matching_matches([card], view, "朱雀"), matching_matches([card], view, " ")
    (frozenset({2}), None)
    """
    terms = search_terms(search)
    if not terms:
        return None
    by_code = {c.code: c for c in cards}
    players = {(c.code, p.player): p for c in cards for p in c.roster}

    def side(code: str, player: str | None) -> bool:
        card = by_code.get(code)
        entry = players.get((code, player or ""))
        texts: tuple[str, ...] = (code, card.name if card else "", card.club if card else "")
        texts += (player or "",)
        if entry is not None:
            texts += (entry.name, entry.shown, entry.nationality)
        return matches_fields(terms, texts, entry.rank if entry else None)

    found = set()
    for m in view.matches:
        sides: list[tuple[str, str | None]] = [(m.home, None), (m.away, None)]
        sides += [(m.home, b.home_player) for b in m.boards if b.home_player]
        sides += [(m.away, b.away_player) for b in m.boards if b.away_player]
        if any(side(code, player) for code, player in sides):
            found.add(m.number)
    return frozenset(found)


@dataclass(frozen=True)
class TeamSearch:
    """The teams a search of the public team list leaves, and how many players of how many."""

    text: str
    teams: tuple[TeamCard, ...]
    players: int
    total: int


def search_teams(cards: list[TeamCard], search: str) -> TeamSearch:
    """The teams and players of the public team list that ``search`` finds — the same matching
    as every list's player search: a team whose code, name, club or coach matches every word
    shows its whole roster; otherwise a team shows the players that match (label, name,
    nationality, rank — with the team's words: ``黑龙 5段``). No words: everything.

    >>> zhang = RosterCard("张伟", "张伟", "5d", None, "CN", False, label="张伟 (黑龙)")
    >>> li = RosterCard("李明", "李明", "3d", None, "KR", True)
    >>> cards = [TeamCard("黑龙", "黑龙", "天津", "王教练", "", (zhang, li))]
    >>> [len(t.roster) for t in search_teams(cards, "天津").teams]
    [2]
    >>> found = search_teams(cards, "黑龙 5段")
    >>> [p.shown for t in found.teams for p in t.roster], found.players, found.total
    (['张伟 (黑龙)'], 1, 2)
    >>> search_teams(cards, "白虎").teams, search_teams(cards, " ").players
    ((), 2)
    """
    terms = search_terms(search)
    total = sum(len(c.roster) for c in cards)
    if not terms:
        return TeamSearch("", tuple(cards), total, total)
    found: list[TeamCard] = []
    for c in cards:
        own = (c.code, c.name, c.club, c.coach)
        if matches_fields(terms, own, None):
            found.append(c)
            continue
        roster = tuple(
            p
            for p in c.roster
            if matches_fields(terms, (*own, p.shown, p.name, p.nationality), p.rank)
        )
        if roster:
            found.append(dataclasses.replace(c, roster=roster))
    shown = sum(len(c.roster) for c in found)
    return TeamSearch(search.strip(), tuple(found), shown, total)


def search_round(
    cards: list[TeamCard], view: teams.TeamRoundView, search: str
) -> tuple[teams.TeamRoundView, int]:
    """``view`` with only the matches ``search`` finds (:func:`matching_matches`), and how
    many matches the round has."""
    numbers = matching_matches(cards, view, search)
    total = len(view.matches)
    if numbers is None:
        return view, total
    kept = tuple(m for m in view.matches if m.number in numbers)
    return dataclasses.replace(view, matches=kept), total


# The fields of a roster player's edit form, in the form's order (what the team CSV sets).
ROSTER_FORM_FIELDS = ("name", "rank", "rating", "nationality")


def _card(r: PlayerRow, shown: Mapping[int, str]) -> RosterCard:
    return RosterCard(
        r.code,
        r.name,
        r.rank or "",
        int(r.rating or 0),
        r.country,
        r.foreign,
        r.id,
        shown.get(r.id, r.name),
        r.birth_date,
    )


def _team_card(t: TeamRow, shown: Mapping[int, str]) -> TeamCard:
    roster = tuple(_card(r, shown) for r in t.roster)
    return TeamCard(t.code, t.name, t.club or "", t.coach or "", t.captain or "", roster, t.id)


def _team(session: Session, event_id: int, team_id: int) -> TeamRow:
    teams.event_row(session, event_id)
    row = session.get(TeamRow, team_id)
    if row is None or row.event_id != event_id:
        raise NotFound(
            Msg("no team %(code)s in event %(event_id)s", code=team_id, event_id=event_id)
        )
    return row


def _roster_row(session: Session, event_id: int, team_id: int, player_id: int) -> PlayerRow:
    team = _team(session, event_id, team_id)
    row = session.get(PlayerRow, player_id)
    if row is None or row.team_id != team.id:
        raise NotFound(
            Msg("no player %(player)s in team %(team)s", player=player_id, team=team.name)
        )
    return row


def team_card(db: Database, event_id: int, team_id: int) -> TeamCard:
    """One team of an event with its roster (``NotFound`` for a team of another event)."""
    with db.transaction() as session:
        row = _team(session, event_id, team_id)
        return _team_card(row, teams.roster_labels(session, event_id))


def roster_card(db: Database, event_id: int, team_id: int, player_id: int) -> RosterCard:
    """One player of a team's roster as the edit form shows it."""
    with db.transaction() as session:
        row = _roster_row(session, event_id, team_id, player_id)
        return _card(row, teams.roster_labels(session, event_id))


def may_delete_team(db: Database, event_id: int) -> bool:
    """Whether the event's teams can still be deleted: no round is paired yet."""
    with db.transaction() as session:
        teams.event_row(session, event_id)
        return not event_rounds(session, event_id)


def check_roster_fields(
    name: str, rank: str, rating: str = "", nationality: str = ""
) -> tuple[str, str, int, str]:
    """The fields of a roster player's form as they are stored, checked as a team CSV row is
    (``weiqi.formats.team_csv``), or ``FieldsRejected`` with every bad field at once.

    >>> check_roster_fields("李明", "5段", "2400", "CN")
    ('李明', '5d', 2400, 'CN')
    >>> try:
    ...     check_roster_fields("", "12d", "-3")
    ... except FieldsRejected as err:
    ...     list(err.problems)
    ['name', 'rank', 'rating']
    """
    values = check_fields(
        (
            ("name", name, lambda t: clean_name(N_("name"), t)),
            ("rank", rank, lambda t: Rank.parse(t.strip()).code),
            ("rating", rating, parse_roster_rating),
            (
                "nationality",
                nationality,
                lambda t: clean_name(N_("nationality"), t, required=False),
            ),
        )
    )
    return values["name"], values["rank"], values["rating"], values["nationality"]


def edit_roster_player(
    db: Database,
    actor: Actor,
    event_id: int,
    team_id: int,
    player_id: int,
    name: str,
    rank: str,
    rating: str = "",
    nationality: str = "",
    foreign: bool | None = None,
    birth_date: str | None = None,
) -> RosterCard:
    """Change a roster player's details, at any time (issue #13). Lineups and games point at
    the roster row, never the name: a renamed player keeps every board played, and the new name
    shows on them. The player's code (their id in lineups and files) stays. ``foreign``
    ``None`` keeps the 外援 mark; ``birth_date`` (YYYY-MM-DD, ``""`` for none) ``None`` keeps it.

    A player of another team may have the same name (namesakes, shown ``张伟 (黑龙)``), and so
    may one of the same team born on another day; the same name and birth date twice in one
    team is ``Duplicate`` (409) on ``name``. ``FieldsRejected`` lists every bad field.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> from weiqi.services.events import create_event
    >>> ev = create_event(db, Actor.local(), "团体赛", TeamEventSettings(boards=1))
    >>> add_team(db, Actor.local(), ev.id, "黑龙", "", "李一,5d\\n李二,4d")
    1
    >>> t = team_cards(db, ev.id)[0]
    >>> edit_roster_player(db, Actor.local(), ev.id, t.id, t.roster[0].id, "李明", "6段").rank
    '6d'
    """
    problems: dict[str, Msg] = {}
    try:
        clean, code, points, land = check_roster_fields(name, rank, rating, nationality)
    except FieldsRejected as err:
        problems.update(err.problems)
    born: date | None = None
    if birth_date is not None:
        try:
            born = parse_birth_date(birth_date.strip())
        except InputError as err:
            problems["birth_date"] = err.reason
    if problems:
        raise FieldsRejected(problems)
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        lock_event(session, event_id)  # the name checked stays free until commit
        row = _roster_row(session, event_id, team_id, player_id)
        if birth_date is None:
            born = row.birth_date
        clash = session.scalar(
            select(PlayerRow.id).where(
                PlayerRow.team_id == row.team_id,
                PlayerRow.name == clean,
                PlayerRow.id != row.id,
                PlayerRow.birth_date.is_(None) if born is None else PlayerRow.birth_date == born,
            )
        )
        if clash is not None:
            raise Duplicate(
                "name",
                Msg(
                    "another player of the team is already called %(name)s; a namesake needs "
                    "another birth date",
                    name=clean,
                ),
            )
        row.name, row.rank, row.rating, row.country = clean, code, points, land
        row.birth_date = born
        if foreign is not None:
            row.foreign = foreign
        session.flush()
        return _card(row, teams.roster_labels(session, event_id))


def find_team(db: Database, event_id: int, typed: str) -> TeamCard:
    """The team of the event that ``typed`` names: its code (its id on the command line) or
    its name as the pages show it; ``NotFound`` otherwise.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> from weiqi.services.events import create_event
    >>> ev = create_event(db, Actor.local(), "团体赛", TeamEventSettings(boards=1))
    >>> add_team(db, Actor.local(), ev.id, "黑龙", "", "李一,5d")
    1
    >>> find_team(db, ev.id, " 黑龙 ").code
    '黑龙'
    """
    text = typed.strip()
    cards = team_cards(db, event_id)
    found = next((c for c in cards if c.code == text), None)
    found = found or next((c for c in cards if c.name == text), None)
    if found is None:
        raise NotFound(
            Msg("no team %(code)s in event %(event_id)s", code=repr(text), event_id=event_id)
        )
    return found


def find_player(
    db: Database, event_id: int, typed: str, team: str | None = None
) -> tuple[TeamCard, RosterCard]:
    """The roster player ``typed`` names — a code, a label as the pages show it (``张伟
    (黑龙)``) or a name only one player has — among the event's players, or ``team``'s
    (a code or a name). A name two players share is ``InputError`` listing their labels.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> from weiqi.services.events import create_event
    >>> ev = create_event(db, Actor.local(), "团体赛", TeamEventSettings(boards=1))
    >>> for t in ("黑龙", "白虎"):
    ...     _ = add_team(db, Actor.local(), ev.id, t, "", "张伟,5d")
    >>> find_player(db, ev.id, "张伟 (白虎)")[1].shown
    '张伟 (白虎)'
    >>> find_player(db, ev.id, "张伟", "黑龙")[0].name
    '黑龙'
    >>> find_player(db, ev.id, "张伟")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: player: 张伟 is the name of 2 players: 张伟 (黑龙), 张伟 (白虎); ...
    """
    with db.transaction() as session:
        teams.event_row(session, event_id)
        shown = teams.roster_labels(session, event_id)
        rows = teams.event_teams(session, event_id)
        if team is not None:
            card = find_team(db, event_id, team)
            rows = [t for t in rows if t.id == card.id]
        roster = [r for t in rows for r in t.roster]
        found = teams.find_roster_player(roster, shown, typed)
        owner = next(t for t in rows if t.id == found.team_id)
        return _team_card(owner, shown), _card(found, shown)


def rename_team(db: Database, actor: Actor, event_id: int, team_id: int, name: str) -> str:
    """Change a team's display name, at any time; its code (its id in lineups, files and on
    the command line) stays. Another team of the event with that name is ``Duplicate`` (409)
    on ``name``. Returns the new name."""
    try:
        clean = clean_name(N_("name"), name)
    except (InvalidSetting, InputError) as err:
        raise FieldsRejected({"name": err.reason}) from None
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        lock_event(session, event_id)
        row = _team(session, event_id, team_id)
        clash = session.scalar(
            select(TeamRow.id).where(
                TeamRow.event_id == event_id, TeamRow.name == clean, TeamRow.id != row.id
            )
        )
        if clash is not None:
            raise Duplicate(
                "name", Msg("another team of the event is already called %(name)s", name=clean)
            )
        row.name = clean
        return clean


def delete_team(db: Database, actor: Actor, event_id: int, team_id: int) -> str:
    """Delete a team entered by mistake, with its roster and its coaches' links, before round 1
    is paired; returns its name. Once a round is paired the team is part of the draw: it stays,
    and its name and players can still be corrected (a team that stops playing sends no lineup
    and loses its boards by forfeit).

    >>> db = Database("sqlite://"); db.upgrade()
    >>> from weiqi.services.events import create_event
    >>> ev = create_event(db, Actor.local(), "团体赛", TeamEventSettings(boards=1))
    >>> add_team(db, Actor.local(), ev.id, "黑龙", "", "李一,5d")
    1
    >>> delete_team(db, Actor.local(), ev.id, team_cards(db, ev.id)[0].id), team_cards(db, ev.id)
    ('黑龙', [])
    """
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        lock_event(session, event_id)  # no round paired between the check and the delete
        row = _team(session, event_id, team_id)
        if event_rounds(session, event_id):
            raise Conflict(
                Msg(
                    "%(name)s can no longer be deleted: round 1 is paired and the team is part "
                    "of the draw. Keep the team and correct its name or players instead; a team "
                    "that stops playing sends no lineup and loses its boards by forfeit.",
                    name=row.name,
                )
            )
        name = row.name
        session.execute(delete(TeamCoachRow).where(TeamCoachRow.team_id == row.id))
        session.delete(row)  # the roster goes with it (cascade)
        return name


def team_names(db: Database, event_id: int) -> dict[str, str]:
    """The teams' display names by code: what a page shows for a team's code.

    >>> db = Database("sqlite://"); db.upgrade()
    >>> from weiqi.services.events import create_event
    >>> ev = create_event(db, Actor.local(), "团体赛", TeamEventSettings(boards=1))
    >>> add_team(db, Actor.local(), ev.id, "黑龙", "", "李一,5d")
    1
    >>> team_names(db, ev.id)
    {'黑龙': '黑龙'}
    """
    return {t.code: t.name for t in team_cards(db, event_id)}
