"""The JSON API of the organisers' and chief referee's pages: the same services, therefore the
same permissions (R-ORG-1). Writes need the ``X-CSRF-Token`` header (see ``GET /api/session``).
"""

from __future__ import annotations

from datetime import date, datetime
from fractions import Fraction
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field
from starlette.responses import Response

from weiqi.i18n import json_args, render
from weiqi.messages import Msg
from weiqi.server.inputs import ScreenedRoute, requires
from weiqi.server.routes.api import _ERRORS, FromService
from weiqi.server.security import AppClock, CurrentActor, Db
from weiqi.services import event_admin, event_settings, round_edits, teams, tournament
from weiqi.services.event_admin import (
    Dashboard,
    ExplanationView,
    RoundDetail,
    RoundSummary,
)
from weiqi.services.events import EventKind
from weiqi.services.permissions import Action
from weiqi.services.public import is_team_event
from weiqi.services.read_models import EventSettingsRead, TeamRoundRead
from weiqi.services.round_edits import EditPreview, RoundEdit
from weiqi.services.tournament import PairingView
from weiqi.tournament.details import DEFAULT_TIME_ZONE, EventDetails
from weiqi.tournament.records import RoundTotals

router = APIRouter(
    route_class=ScreenedRoute,
    prefix="/api/events",
    tags=["event administration"],
    responses=_ERRORS,
)


class DetailsIn(BaseModel):
    """What the event announces besides its rules (``weiqi.tournament.details``); its time
    control is one of its settings (an earlier release's ``details.time_control`` is refused
    by name, not dropped)."""

    model_config = ConfigDict(extra="forbid")

    start_date: date | None = None
    end_date: date | None = None
    venue: str = ""
    time_zone: str = Field(
        DEFAULT_TIME_ZONE, description="an IANA time zone; every time the event shows is in it"
    )

    def value(self) -> EventDetails:
        return EventDetails(self.start_date, self.end_date, self.venue, self.time_zone)


class EventSettingsIn(BaseModel):
    name: str
    details: DetailsIn | None = Field(
        None, description="dates, venue, time zone; omitted: kept (or the defaults)"
    )
    settings: dict[str, Any] = Field(
        description="The settings of the event's kind, every one as the GET gives them (a team "
        "event's: ``weiqi.league.settings.TeamEventSettings``, its boards, team_type …). "
        "An individual event's EventSettings (``weiqi.tournament.settings``): system (round_robin, "
        "double_round_robin, knockout, double_elimination, swiss, swiss_knockout, mcmahon, "
        "match), rounds, tiebreaks (codes in order, e.g. ['SOS','SB']), komi ('15/4'), the "
        "games' board_size (19), cycle (ban, no_result, draw, replay) and handicap_placement "
        "(fixed, free), play (board, online), game_start (present, round_start), "
        "online_colors (paired, nigiri), the online games' lag allowance lag_gain (seconds "
        "a move, 1; 0: none) and lag_cap (seconds, 3), … — "
        "omitted fields take the rules' defaults (komi 3¾, points 2/1/0).",
        examples=[{"system": "swiss", "rounds": 5}],
    )


class NewEventIn(EventSettingsIn):
    kind: EventKind = Field(
        EventKind.INDIVIDUAL, description="individual (players meet players) or team"
    )


class PlayerIn(BaseModel):
    name: str
    rank: str = Field("", description="5d, 2p, 3k, 5段, 初段 …")
    rating: float | None = None
    club: str = ""
    country: str = ""
    birth_date: date | None = None
    licence: str = Field(
        "", description="an explicit ID (a federation number): tells apart two of one name"
    )

    def details(self) -> dict[str, str]:
        """The details besides the name, as the services take them (text, as typed in a form)."""
        return {
            "rank": self.rank,
            "rating": "" if self.rating is None else str(self.rating),
            "club": self.club,
            "country": self.country,
            "birth_date": self.birth_date.isoformat() if self.birth_date else "",
            "licence": self.licence,
        }


class PlayerOut(FromService):
    id: int
    name: str
    rank: str | None
    rating: float | None
    club: str
    country: str
    birth_date: date | None
    joined_round: int
    withdrawn_after: int | None = Field(description="0: before the start")  # R-WD-1
    warnings: int
    licence: str = ""
    label: str = Field(
        description="the name as shown: namesakes told apart, 张伟 (北京); the name if unique"
    )


class ImportIn(BaseModel):
    csv: str = Field(description="name (姓名) required; rank, rating, club, country, birth_date")


class ImportOut(BaseModel):
    imported: int


class RowProblem(BaseModel):
    line: int
    reason: str


class RowsRejectedOut(BaseModel):
    """A refused file (``server.errors``): the error's shape, and its rows by line."""

    error: str = "input_error"
    code: str
    args: dict[str, Any]
    message: str
    problems: list[RowProblem]


class WithdrawalOut(BaseModel):
    name: str
    after_round: int
    consequence: str = Field(
        description="what the withdrawal means for the player's games"
    )  # R-WD-1


class DashboardOut(BaseModel):
    event: EventSettingsRead
    players: list[PlayerOut] = Field(description="those the search ``q`` matches (all without)")
    rounds: list[RoundSummary]
    finished: bool

    @classmethod
    def of(cls, d: Dashboard) -> DashboardOut:
        return cls(
            event=event_settings.settings_read(d.info),
            players=[PlayerOut.of(p) for p in d.shown],
            rounds=list(d.rounds),
            finished=d.finished,
        )


class PairingOut(BaseModel):
    board: int
    black: str
    white: str
    handicap: int
    komi: str = Field(description="in stones, as a fraction: '15/4'")
    result: str | None
    confirmed: bool

    @classmethod
    def of(cls, p: PairingView, *, with_result: bool = True) -> PairingOut:
        """A board of a round; without its result (``with_result=False``) as the preview of
        an edit by hand shows it."""
        return cls(
            board=p.board,
            black=p.black,
            white=p.white,
            handicap=p.handicap,
            komi=str(Fraction(p.komi)),
            result=p.result if with_result else None,
            confirmed=p.confirmed if with_result else False,
        )


class MessageOut(BaseModel):
    """A message: its code (the English msgid), arguments, English and Chinese text."""

    code: str
    args: dict[str, Any]
    message: str
    message_zh: str

    @classmethod
    def of(cls, m: Msg) -> MessageOut:
        return cls(code=m.id, args=json_args(m), message=str(m), message_zh=render(m, "zh_CN"))


class EditRecordOut(BaseModel):
    change: MessageOut
    by: str
    at: datetime
    reason: str
    warnings: list[MessageOut]


class EditIn(BaseModel):
    """An edit by hand: ``kind`` swap (``player`` and ``other`` change places), pair
    (``player`` plays ``other``), bye (``player`` takes the bye), table (``player``'s game moves
    to ``board``). Players by id (``GET /api/events/{id}/players``)."""

    kind: str = Field(max_length=16)
    player: int
    other: int | None = None
    board: int | None = None

    def edit(self) -> RoundEdit:
        return round_edits.parse_edit(
            self.kind,
            str(self.player),
            "" if self.other is None else str(self.other),
            "" if self.board is None else str(self.board),
        )


class EditConfirmIn(EditIn):
    reason: str = Field(max_length=10_000)


class ProblemOut(BaseModel):
    kind: str
    refused: bool
    message: MessageOut


class EditCheckOut(BaseModel):
    """What an edit would make of the round: ``refused`` when it breaks a hard rule."""

    change: MessageOut
    refused: bool
    problems: list[ProblemOut]
    changed: list[int]
    pairings: list[PairingOut]
    byes: list[str]

    @classmethod
    def of(cls, p: EditPreview) -> EditCheckOut:
        return cls(
            change=MessageOut.of(p.description),
            refused=p.refused,
            problems=[
                ProblemOut(kind=x.kind, refused=x.refused, message=MessageOut.of(x.message))
                for x in p.problems
            ],
            changed=list(p.changed),
            pairings=[PairingOut.of(g, with_result=False) for g in p.pairings],
            byes=list(p.byes),
        )


class RoundOut(BaseModel):
    number: int
    published: bool
    pairings: list[PairingOut]
    byes: list[str]
    seed: int | None
    # the services' own values: one declaration of each shape (pydantic reads dataclasses)
    explanations: list[ExplanationView]
    totals: RoundTotals | None
    results: int
    edits: list[EditRecordOut] = []
    """The chief referee's edits by hand of the pairing, oldest first."""
    starts_at: datetime | None = None
    """When the round starts (UTC), once the organisers set it."""

    @classmethod
    def of(cls, r: RoundDetail) -> RoundOut:
        return cls(
            number=r.number,
            published=r.published,
            starts_at=r.starts_at,
            pairings=[PairingOut.of(p) for p in r.pairings],
            byes=list(r.byes),
            seed=r.seed,
            explanations=list(r.explanations),
            totals=r.totals,
            results=r.results,
            edits=[
                EditRecordOut(
                    change=MessageOut.of(e.description),
                    by=e.by,
                    at=e.at,
                    reason=e.reason,
                    warnings=[MessageOut.of(w) for w in e.warnings],
                )
                for e in r.edits
            ],
        )


class PublishIn(BaseModel):
    published: bool = True


class StartIn(BaseModel):
    # what time it is comes from the server's clock, never from a body ("now", "at")
    model_config = ConfigDict(extra="forbid")

    start: str = Field(
        description="when the round starts, in the event's time zone ('2026-12-05 09:30'); "
        "empty: no start time. Not later than now (the server's clock) is refused."
    )


@router.post("", status_code=201)
@requires(Action.CREATE_EVENT)
def post_event(db: Db, actor: CurrentActor, body: NewEventIn) -> EventSettingsRead:
    """Create an event of either kind with its settings and details (site administrators, and
    organisers of another event; the creator becomes organiser and chief referee of the new
    one). An individual event names its system; a setting left out takes its default."""
    details = body.details.value() if body.details else None
    return event_settings.create(db, actor, body.name, body.kind, body.settings, details)


@router.post("/tournaments", status_code=201, deprecated=True)
@requires(Action.CREATE_EVENT)
def post_tournament(db: Db, actor: CurrentActor, body: EventSettingsIn) -> EventSettingsRead:
    """Create an individual event: ``POST /api/events`` with ``kind`` individual."""
    details = body.details.value() if body.details else None
    return event_settings.create(db, actor, body.name, EventKind.INDIVIDUAL, body.settings, details)


@router.get("/{event_id}/settings")
def get_settings(db: Db, event_id: int) -> EventSettingsRead:
    """The event's system and settings, either kind (public, like the event's rules)."""
    return event_settings.read(db, event_id)


@router.put("/{event_id}/settings")
@requires(Action.EDIT_SETTINGS)
def put_settings(
    db: Db, actor: CurrentActor, event_id: int, body: EventSettingsIn
) -> EventSettingsRead:
    """Change the name, settings (every one, as the GET gives them) and details (organisers
    and the chief referee), either kind. A setting that cannot change now is refused with 422
    naming it and why (``locked`` of the GET): once round 1 is paired only an individual
    event's name, details, rounds (not below those paired), tie-breaks, shared places /
    playoff, top score, forfeits in SOS, late-entry and absence points may change; a team
    event's fixed settings (boards, team type, system …) never, its game rules and play mode
    until round 1 is paired."""
    details = body.details.value() if body.details else None
    return event_settings.change(db, actor, event_id, body.settings, body.name, details)


@router.get("/{event_id}/manage")
def get_dashboard(db: Db, actor: CurrentActor, event_id: int, q: str = "") -> DashboardOut:
    """Players (with ratings, clubs, birth dates) and rounds with their state (organisers and
    the chief referee); ``q`` searches the players by name, club or rank."""
    return DashboardOut.of(event_admin.dashboard(db, actor, event_id, q))


@router.post("/{event_id}/players", status_code=201)
@requires(Action.MANAGE_PLAYERS)
def post_player(db: Db, actor: CurrentActor, event_id: int, body: PlayerIn) -> PlayerOut:
    """Register one player (organisers and the chief referee; after round 1 only in a Swiss)."""
    player = event_admin.register_player(db, actor, event_id, body.name, **body.details())
    return PlayerOut.of(player)


@router.post(
    "/{event_id}/players/import",
    response_model=ImportOut,
    responses={422: {"model": RowsRejectedOut, "description": "Bad rows; nothing imported"}},
)
@requires(Action.MANAGE_PLAYERS)
def post_import(db: Db, actor: CurrentActor, event_id: int, body: ImportIn) -> ImportOut:
    """Import players from CSV text: every row or none; bad rows are listed by line, in the
    caller's language (``problems`` of the error)."""
    return ImportOut(imported=event_admin.import_players(db, actor, event_id, body.csv))


@router.post("/{event_id}/players/{player_id}/withdraw")
@requires(Action.MANAGE_PLAYERS)
def post_withdraw(db: Db, actor: CurrentActor, event_id: int, player_id: int) -> WithdrawalOut:
    # R-WD-1
    """Withdraw a player after the rounds paired so far; says what it means for the player's
    games."""
    done = event_admin.withdraw(db, actor, event_id, player_id)
    return WithdrawalOut(name=done.name, after_round=done.after_round, consequence=done.consequence)


class ReinstatementOut(BaseModel):
    name: str
    from_round: int = Field(description="the first round the player is paired in again")
    consequence: str = Field(description="what the reinstatement means for the rounds so far")


@router.put("/{event_id}/players/{player_id}")
@requires(Action.MANAGE_PLAYERS)
def put_player(
    db: Db, actor: CurrentActor, event_id: int, player_id: int, body: PlayerIn
) -> PlayerOut:
    """Change a player's details, at any time (organisers and the chief referee): results and
    game records stay with the player. A bad field is a 422 naming it."""
    player = event_admin.edit_player(db, actor, event_id, player_id, body.name, **body.details())
    return PlayerOut.of(player)


@router.delete("/{event_id}/players/{player_id}", status_code=204)
@requires(Action.MANAGE_PLAYERS)
def delete_player(db: Db, actor: CurrentActor, event_id: int, player_id: int) -> Response:
    """Delete an entry before round 1 is paired (409 afterwards: withdraw the player)."""
    event_admin.delete_player(db, actor, event_id, player_id)
    return Response(status_code=204)


@router.post("/{event_id}/players/{player_id}/reinstate")
@requires(Action.MANAGE_PLAYERS)
def post_reinstate(db: Db, actor: CurrentActor, event_id: int, player_id: int) -> ReinstatementOut:
    """Undo a withdrawal while no round has been paired since (409 otherwise)."""
    done = event_admin.reinstate(db, actor, event_id, player_id)
    return ReinstatementOut(
        name=done.name, from_round=done.from_round, consequence=done.consequence
    )


class AbsencesIn(BaseModel):
    rounds: list[int] = Field(
        description="every later round the player sits out (not a withdrawal)", max_length=100
    )


class AbsencesOut(BaseModel):
    absent: list[int] = Field(description="the rounds the player sits out, paired ones too")
    open: list[int] = Field(description="the later rounds that may still be set")


@router.get("/{event_id}/players/{player_id}/absences")
@requires(Action.MANAGE_PLAYERS)
def get_absences(db: Db, actor: CurrentActor, event_id: int, player_id: int) -> AbsencesOut:
    """The rounds a player sits out without withdrawing."""
    found = tournament.absences(db, actor, event_id, player_id)
    return AbsencesOut(absent=sorted(found.absent), open=list(found.open))


@router.put("/{event_id}/players/{player_id}/absences")
@requires(Action.MANAGE_PLAYERS)
def put_absences(
    db: Db, actor: CurrentActor, event_id: int, player_id: int, body: AbsencesIn
) -> AbsencesOut:
    """Set every later round a player sits out: not paired in them, scored the event's
    absent-round points, back the round after (409 in a round robin or a bracket, or for a
    round already paired)."""
    now = tournament.set_absent(db, actor, event_id, player_id, body.rounds, exactly=True)
    found = tournament.absences(db, actor, event_id, player_id)
    return AbsencesOut(absent=sorted(now), open=list(found.open))


class PairIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    start: datetime | None = Field(
        None, description="The round's start (a team event's fixes its lineup deadline)"
    )


@router.post("/{event_id}/rounds", status_code=201, response_model=RoundOut | TeamRoundRead)
@requires(Action.PAIR_ROUND)
def post_round(
    db: Db, actor: CurrentActor, event_id: int, body: PairIn | None = None
) -> RoundOut | TeamRoundRead:
    """Pair the next round (the chief referee). An individual event's stays hidden from the
    public until published; the answer explains each pair and gives the round's totals. A
    team event's matches are public at once, their boards once the lineups are revealed; the
    answer is the round (``weiqi round show --json``)."""
    start = body.start if body is not None else None
    if is_team_event(db, event_id):
        return teams.round_read(teams.pair_round(db, actor, event_id, start=start))
    return RoundOut.of(event_admin.pair_next_round(db, actor, event_id, start=start))


@router.get("/{event_id}/rounds/{number}/pairing")
def get_pairing(db: Db, actor: CurrentActor, event_id: int, number: int) -> RoundOut:
    """A round with the explanation of its pairing: everybody once it is published, before that
    the chief referee and the organisers."""
    return RoundOut.of(event_admin.round_detail(db, actor, event_id, number))


@router.post("/{event_id}/rounds/{number}/publish")
@requires(Action.PUBLISH_ROUND)
def post_publish(
    db: Db, actor: CurrentActor, event_id: int, number: int, body: PublishIn
) -> RoundOut:
    """Publish a round to the public, or hide it again (organisers and the chief referee)."""
    return RoundOut.of(event_admin.publish_round(db, actor, event_id, number, body.published))


@router.put("/{event_id}/rounds/{number}/start", response_model=RoundOut | TeamRoundRead)
@requires(Action.PUBLISH_ROUND)
def put_start(
    db: Db, actor: CurrentActor, clock: AppClock, event_id: int, number: int, body: StartIn
) -> RoundOut | TeamRoundRead:
    """Set when the round starts (organisers and the chief referee): an online event whose
    games start at the round's start time has the server start them then. A team round whose
    lineups are still sealed moves its lineup deadline with it. 422 (field ``start``) for a
    time that cannot be read or is not later than now; 409 once a game of the round has
    begun."""
    if is_team_event(db, event_id):
        return teams.round_read(
            teams.set_round_start(db, actor, event_id, number, body.start, clock)
        )
    return RoundOut.of(event_admin.set_round_start(db, actor, event_id, number, body.start, clock))


@router.delete("/{event_id}/rounds/{number}", status_code=204)
@requires(Action.PAIR_ROUND)
def delete_round(db: Db, actor: CurrentActor, event_id: int, number: int) -> Response:
    """Unpair the latest round while no result is entered (the chief referee)."""
    event_admin.unpair_round(db, actor, event_id, number)
    return Response(status_code=204)


@router.post("/{event_id}/rounds/{number}/edits/check")
@requires(Action.PAIR_ROUND)
def post_edit_check(
    db: Db, actor: CurrentActor, event_id: int, number: int, body: EditIn
) -> EditCheckOut:
    """What an edit by hand of an unpublished round would break (the chief referee; nothing
    is changed): a rematch (refused by the Swiss rules), a second bye, a colour rule, a score
    gap, a same-club game."""
    return EditCheckOut.of(round_edits.preview_edit(db, actor, event_id, number, body.edit()))


@router.post("/{event_id}/rounds/{number}/edits", status_code=201)
@requires(Action.PAIR_ROUND)
def post_edit(
    db: Db, actor: CurrentActor, event_id: int, number: int, body: EditConfirmIn
) -> RoundOut:
    """Make an edit by hand, confirmed with a reason (422 without one; 409 for a rematch in a
    Swiss, a published round or one with results). The reason is kept with who and when; the
    round's explanation is recomputed."""
    round_edits.apply_edit(db, actor, event_id, number, body.edit(), body.reason)
    return RoundOut.of(event_admin.round_detail(db, actor, event_id, number))
