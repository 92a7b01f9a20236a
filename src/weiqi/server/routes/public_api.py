"""The public reads of an event as JSON: the same services as the public pages, no login.

Values are exact where the pages are exact: a komi is a fraction in text (``"15/4"``), a result
is our lossless code (``B+1.5``, ``W+R``, ``BL``) with its Chinese and English notation beside.
"""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, Field

from weiqi.server.inputs import ScreenedRoute
from weiqi.server.page_cache import cached_page
from weiqi.server.public_tables import TIEBREAK_NAMES
from weiqi.server.routes.api import ErrorOut
from weiqi.server.security import Db
from weiqi.services import public, teams
from weiqi.services.public import is_team_event
from weiqi.services.read_models import (
    EventRead,
    ResultRead,
    RoundRead,
    StandingsRead,
    TeamRoundRead,
    TeamStandingRead,
    result_read,
)
from weiqi.tournament.standings import TIEBREAKS, Value

router = APIRouter(
    route_class=ScreenedRoute,
    prefix="/api/events",
    tags=["public"],
    responses={404: {"model": ErrorOut, "description": "No such event, round or player"}},
)


class PlayerOut(BaseModel):
    id: int
    name: str
    rank: str | None = Field(description="5d, 2p, 3k")
    club: str
    withdrawn_after: int | None = Field(description="the last round played by a withdrawn player")
    label: str = Field(
        description="the name as shown: namesakes told apart, 张伟 (北京); the name if unique"
    )
    country: str = ""

    @classmethod
    def of(cls, p: public.PlayerRef) -> PlayerOut:
        return cls(
            id=p.id,
            name=p.name,
            rank=p.rank.code if p.rank else None,
            club=p.club,
            withdrawn_after=p.withdrawn_after,
            label=p.label or p.name,
            country=p.country,
        )


class TieBreakOut(BaseModel):
    code: str
    zh: str
    en: str


def _tiebreaks(codes: tuple[str, ...]) -> list[TieBreakOut]:
    return [TieBreakOut(code=c, zh=TIEBREAKS[c].zh, en=TIEBREAK_NAMES[c]) for c in codes]


def _number(value: Value) -> float:
    return float(value)


@router.get("/{event_id}/overview")
@cached_page
def event_overview(db: Db, event_id: int) -> EventRead:
    """The event's system, settings and tie-breaks, and its public rounds: the object ``weiqi
    event show --json`` prints (one read model, ``services.read_models``)."""
    return public.event_read(db, event_id)


@router.get("/{event_id}/rounds", response_model=list[RoundRead] | list[TeamRoundRead])
@cached_page
def event_rounds(db: Db, event_id: int) -> list[RoundRead] | list[TeamRoundRead]:
    """Every public round, as ``GET …/rounds/{n}`` answers each: an individual event's boards;
    a team event's matches (every paired round), boards and lineups only of revealed ones."""
    if is_team_event(db, event_id):
        return [teams.round_read(r) for r in teams.list_rounds(db, event_id)]
    shown = public.event_read(db, event_id).rounds
    return [public.round_read(db, event_id, r.number) for r in shown]


@router.get("/{event_id}/rounds/{number}", response_model=RoundRead | TeamRoundRead)
@cached_page
def event_round(db: Db, event_id: int, number: int, q: str = "") -> RoundRead | TeamRoundRead:
    """A public round: its boards with results as far as recorded, and its byes; ``q``: the
    boards of the players it matches (name, club, rank). The same object as ``weiqi round
    show --json`` prints (one read model, ``services.read_models``). A team event's round is
    its matches; their boards and lineups once the lineups are revealed."""
    if is_team_event(db, event_id):
        return teams.round_read(teams.show_round(db, event_id, number))
    return public.round_read(db, event_id, number, q)


@router.get("/{event_id}/standings", response_model=StandingsRead | list[TeamStandingRead])
@cached_page
def event_standings(db: Db, event_id: int, q: str = "") -> StandingsRead | list[TeamStandingRead]:
    # R-RANK-RR, R-RANK-SWISS; a team event's: R-RANK-TEAM
    """Places, points and tie-breaks over the public rounds; ``q``: the rows of the players it
    matches (name, club, rank), with their places in the field. Its ``rows`` are what
    ``weiqi standings --json`` prints (one read model, ``services.read_models``). A team
    event's are its table, a row a team (match points, game points, board by board)."""
    if is_team_event(db, event_id):
        return teams.standings(db, event_id)
    return public.standings_read(db, event_id, q)


class CellOut(BaseModel):
    round: int
    opponent: int | None = Field(description="the opponent's row number")
    color: str | None = Field(description="B or W")
    outcome: str | None = Field(description="W, D, L, N (no result); null while outstanding")
    forfeit: bool
    bye: bool
    void: bool
    text: str = Field(description="12b+, 3w=, 7+! …")


class CrossRowOut(BaseModel):
    row: int
    place: int | None
    shared: bool
    player: PlayerOut
    points: int
    tiebreaks: dict[str, float]
    cells: list[CellOut]


class CrosstableOut(BaseModel):
    rounds: int
    tiebreaks: list[TieBreakOut]
    rows: list[CrossRowOut]


@router.get("/{event_id}/crosstable")
@cached_page
def event_crosstable(db: Db, event_id: int) -> CrosstableOut:
    """Each player's rounds, rows in the order of the standings."""
    t = public.crosstable(db, event_id)
    return CrosstableOut(
        rounds=t.rounds,
        tiebreaks=_tiebreaks(t.codes),
        rows=[
            CrossRowOut(
                row=r.row,
                place=r.place,
                shared=r.shared,
                player=PlayerOut.of(r.player),
                points=r.points,
                tiebreaks={c: _number(v) for c, v in zip(t.codes, r.tiebreaks, strict=False)},
                cells=[
                    CellOut(
                        round=c.round,
                        opponent=c.opponent,
                        color=c.color.value if c.color else None,
                        outcome=c.outcome,
                        forfeit=c.forfeit,
                        bye=c.bye,
                        void=c.void,
                        text=c.text("bye"),
                    )
                    for c in r.cells
                ],
            )
            for r in t.rows
        ],
    )


class PlayerGameOut(BaseModel):
    round: int
    board: int | None
    color: str | None
    opponent: PlayerOut | None = Field(description="null for a bye or a round not played")
    bye: bool
    result: ResultRead | None
    outcome: str | None
    points: int | None
    running: int = Field(description="the player's points after this round")
    void: bool


class PlayerCardOut(BaseModel):
    player: PlayerOut
    place: int | None
    shared: bool
    points: int
    games: list[PlayerGameOut]


class PlayerListOut(BaseModel):
    total: int = Field(description="every player of the event")
    players: list[PlayerOut] = Field(description="those ``q`` matches, in the order of entry")


@router.get("/{event_id}/players")
@cached_page
def event_players(db: Db, event_id: int, q: str = "") -> PlayerListOut:
    """The event's players with club, rank and country (namesakes told apart by ``label``);
    ``q`` searches them by name, club or rank."""
    data = public.player_list(db, event_id, q)
    return PlayerListOut(total=data.total, players=[PlayerOut.of(p) for p in data.players])


@router.get("/{event_id}/players/{player_id}")
@cached_page
def event_player(db: Db, event_id: int, player_id: int) -> PlayerCardOut:
    """One player's games: colours, results, points and the running score."""
    card = public.player_card(db, event_id, player_id)
    return PlayerCardOut(
        player=PlayerOut.of(card.player),
        place=card.place,
        shared=card.shared,
        points=card.points,
        games=[
            PlayerGameOut(
                round=g.round,
                board=g.board,
                color=g.color.value if g.color else None,
                opponent=PlayerOut.of(g.opponent) if g.opponent else None,
                bye=g.opponent is None and g.outcome == "W",
                result=result_read(g.result),
                outcome=g.outcome,
                points=g.points,
                running=g.running,
                void=g.void,
            )
            for g in card.games
        ],
    )
