"""What the team-event pages need beyond ``services.teams``: the settings form, creating an
event whose creator runs it, a team entered from a form, and the teams with their rosters.

>>> from weiqi.store.database import Database
>>> db = Database("sqlite://"); db.upgrade()
>>> s = settings_from_form({"system": "round_robin", "team_type": "per_round", "boards": "3",
...                         "max_foreign": "1", "deadline_minutes": "30"})
>>> s.boards, s.max_foreign, s.team_type.zh
(3, 1, '临场出人制')
>>> ev = teams.create_team_event(db, Actor.local(), "市团体赛", s)
>>> add_team(db, Actor.local(), ev.id, "黑龙", "李教练", "李一,5d\\n李二,4d\\n李三,3d,,KR")
1
>>> [(p.name, p.rank, p.foreign) for p in team_cards(db, ev.id)[0].roster][2]
('李三', '3d', True)
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TypeVar

from weiqi.errors import Conflict, InputError, InvalidSetting, RowsRejected
from weiqi.formats.team_csv import parse_team_csv
from weiqi.league.lineup import MissingLineup
from weiqi.league.match import BoardColors
from weiqi.league.standings import TeamRanking
from weiqi.league.team import TeamType
from weiqi.league.winner_stays_on import PlayerOrder
from weiqi.messages import Msg
from weiqi.services import teams
from weiqi.services.actor import Actor
from weiqi.services.permissions import Action, require
from weiqi.services.player_names import matches_fields, search_terms
from weiqi.store.database import Database
from weiqi.store.locks import lock_event
from weiqi.text import clean_name

E = TypeVar("E", bound=Enum)

DEFAULT_FORM: dict[str, str] = {
    "system": teams.TeamSystem.ROUND_ROBIN.value,
    "team_type": TeamType.PER_ROUND.value,
    "boards": "4",
    "board_colors": BoardColors.ALTERNATE.value,
    "max_foreign": "",
    "deadline_minutes": "30",
    "missing": MissingLineup.FORFEIT.value,
    "rounds": "",
    "cycles": "1",
    "ranking": TeamRanking.ROUND_ROBIN.value,
    "player_order": PlayerOrder.FIXED.value,
}


def _int(form: Mapping[str, str], field: str, default: int | None) -> int | None:
    text = form.get(field, "").strip()
    if not text:
        return default
    try:
        return int(text)
    except ValueError:
        raise InvalidSetting(field, Msg("must be a whole number")) from None


def _enum(form: Mapping[str, str], field: str, kind: type[E], default: E) -> E:
    text = form.get(field, "").strip()
    if not text:
        return default
    try:
        return kind(text)
    except ValueError:
        raise InvalidSetting(field, Msg("unknown value %(text)s", text=repr(text))) from None


def settings_from_form(form: Mapping[str, str]) -> teams.TeamEventSettings:
    """The team settings a form sends (empty fields take the defaults); a bad value raises
    ``InvalidSetting`` naming its field."""
    system = _enum(form, "system", teams.TeamSystem, teams.TeamSystem.ROUND_ROBIN)
    boards = _int(form, "boards", 4)
    deadline = _int(form, "deadline_minutes", 30)
    cycles = _int(form, "cycles", 1)
    assert boards is not None and deadline is not None and cycles is not None
    substitutes = form.get("substitutes", "")
    return teams.TeamEventSettings(
        system=system,
        team_type=_enum(form, "team_type", TeamType, TeamType.PER_ROUND),
        boards=boards,
        board_colors=_enum(form, "board_colors", BoardColors, BoardColors.ALTERNATE),
        max_foreign=_int(form, "max_foreign", None),
        substitutes={"yes": True, "no": False}.get(substitutes),
        missing=_enum(form, "missing", MissingLineup, MissingLineup.FORFEIT),
        board_one_decides=bool(form.get("board_one_decides")),
        deadline_minutes=deadline,
        rounds=_int(form, "rounds", None),
        cycles=cycles,
        ranking=_enum(form, "ranking", TeamRanking, TeamRanking.ROUND_ROBIN),
        seed=_int(form, "seed", 0) or 0,
        player_order=_enum(form, "player_order", PlayerOrder, PlayerOrder.FIXED),
    )


def settings_form(s: teams.TeamEventSettings) -> dict[str, str]:
    """The form fields showing the team settings ``s`` (inverse of :func:`settings_from_form`).

    >>> settings_form(teams.TeamEventSettings(boards=3, max_foreign=1))["boards"]
    '3'
    >>> settings_from_form(settings_form(teams.TeamEventSettings(boards=3))).boards
    3
    """
    return {
        "system": s.system.value,
        "team_type": s.team_type.value,
        "boards": str(s.boards),
        "board_colors": s.board_colors.value,
        "max_foreign": "" if s.max_foreign is None else str(s.max_foreign),
        "substitutes": {True: "yes", False: "no", None: ""}[s.substitutes],
        "missing": s.missing.value,
        "board_one_decides": "on" if s.board_one_decides else "",
        "deadline_minutes": str(s.deadline_minutes),
        "rounds": "" if s.rounds is None else str(s.rounds),
        "cycles": str(s.cycles),
        "ranking": s.ranking.value,
        "seed": str(s.seed),
        "player_order": s.player_order.value,
    }


def _roster_csv(team: str, coach: str, roster: str) -> str:
    """The teams CSV of one team typed as ``name,rank[,rating[,nationality]]`` lines."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["team", "name", "rank", "rating", "nationality", "coach"])
    for line in roster.splitlines():
        cells = next(csv.reader([line])) if line.strip() else []
        cells = [c.strip() for c in cells][:4]
        cells += [""] * (4 - len(cells))
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
    (``name,rank[,rating[,nationality]]``; a player of another nationality than
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
    try:
        parsed = parse_team_csv(text, "roster", home_nationality or None)
    except RowsRejected as err:
        # the header is line 1 of the generated file; the form's lines count from 1
        raise RowsRejected("roster", [(max(n - 1, 1), why) for n, why in err.problems]) from None
    with db.transaction() as session:
        require(session, actor, Action.MANAGE_PLAYERS, event_id)
        lock_event(session, event_id)  # no round paired, no code taken: until commit
        row = teams.event_row(session, event_id)
        if teams.event_rounds(session, event_id):
            raise Conflict(Msg("the event has started; teams enter before round 1 is paired"))
        teams.add_teams(session, event_id, parsed, row.boards)
    return len(parsed)


@dataclass(frozen=True)
class RosterCard:
    player: str
    name: str
    rank: str
    rating: int | None
    nationality: str
    foreign: bool


@dataclass(frozen=True)
class TeamCard:
    code: str
    name: str
    club: str
    coach: str
    captain: str
    roster: tuple[RosterCard, ...]


def team_cards(db: Database, event_id: int) -> list[TeamCard]:
    """The teams of an event with their rosters, in the order they entered."""
    with db.transaction() as session:
        teams.event_row(session, event_id)
        return [
            TeamCard(
                t.code,
                t.name,
                t.club or "",
                t.coach or "",
                t.captain or "",
                tuple(
                    RosterCard(
                        r.player_code,
                        r.name,
                        r.rank,
                        r.rating,
                        r.nationality or "",
                        r.foreign,
                    )
                    for r in t.roster
                ),
            )
            for t in teams.event_teams(session, event_id)
        ]


def matching_matches(
    cards: list[TeamCard], view: teams.RoundView, search: str
) -> frozenset[int] | None:
    """The matches of a team round that the organisers' search ``search`` finds (``None``: no
    search, every match): a match whose team (name, club) or a player seated for it (name,
    rank) matches every word — the same matching as every list's player search.

    >>> li = RosterCard("黑龙1", "李明", "5d", None, "CN", False)
    >>> card = TeamCard("黑龙", "黑龙", "天津", "", "", (li,))
    >>> board = teams.BoardView(1, 0, "李明", "王芳", "B", None)
    >>> one = teams.MatchView(1, "黑龙", "白虎", {}, (board,))
    >>> view = teams.RoundView(1, None, None, None, None, None,
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
    ranks = {(c.code, p.name): p.rank for c in cards for p in c.roster}

    def side(code: str, player: str | None) -> bool:
        card = by_code.get(code)
        texts = (code, card.name if card else "", card.club if card else "", player or "")
        return matches_fields(terms, texts, ranks.get((code, player or "")))

    found = set()
    for m in view.matches:
        sides: list[tuple[str, str | None]] = [(m.home, None), (m.away, None)]
        sides += [(m.home, b.home_player) for b in m.boards if b.home_player]
        sides += [(m.away, b.away_player) for b in m.boards if b.away_player]
        if any(side(code, player) for code, player in sides):
            found.add(m.number)
    return frozenset(found)
