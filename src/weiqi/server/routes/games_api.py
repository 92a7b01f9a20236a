"""The JSON API of games and round results: what the game page and the round sheet do, through
the same services and therefore with the same permissions (R-ORG-1, R-REF-7, R-PEN-1).

The boards of a team match have the same endpoints under
``/api/events/{id}/rounds/{n}/matches/{m}/boards/{b}`` (``?sitting=`` for a rotation
match's later sittings).

Writes may send ``expected_seq`` (the ``seq`` of the game as last read): a game changed since
then answers 409 and nothing changes.
"""

# No ``from __future__ import annotations``: the handlers are defined in a function and FastAPI
# must see their ``Key`` dependency (a local) as an object, not a name to look up in globals.

from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends
from pydantic import AliasChoices, BaseModel, ConfigDict, Field
from starlette.responses import Response

from weiqi.errors import FieldsRejected
from weiqi.i18n import json_args, render
from weiqi.messages import Msg
from weiqi.server.inputs import ScreenedRoute, requires
from weiqi.server.routes.api import _ERRORS, FromService
from weiqi.server.routes.games import individual_board, team_board
from weiqi.server.security import AppClock, CurrentActor, Db
from weiqi.services import games, teams
from weiqi.services.games import BoardKey, TeamBoard
from weiqi.services.permissions import Action
from weiqi.services.public import is_team_event, require_round_visible
from weiqi.services.read_models import TeamRoundRead

router = APIRouter(route_class=ScreenedRoute, tags=["games"], responses=_ERRORS)

#: Where the boards of a round are: an individual event's, a team event's matches.
INDIVIDUAL = "/api/events/{event_id}/rounds/{number}"
TEAM = "/api/events/{event_id}/rounds/{number}/matches/{match}"


class HistoryOut(BaseModel):
    seq: int
    at: datetime
    who: str
    previous: str | None
    result: str | None = Field(description="SGF-style code; null while a recount is open")
    result_zh: str | None
    reason: str
    reason_zh: str
    reason_code: str = Field(description="the reason's message id (English, with %(name)s)")
    reason_args: dict[str, Any] = Field(description="the values the message id names")


class InfractionOut(FromService):
    seq: int
    at: datetime
    offender: str = Field(description="B or W")
    player: str
    kind: str
    requirement: str
    penalty: str
    ruled_by: str
    note: str


class RulingOut(FromService):
    seq: int
    at: datetime
    kind: str
    reason: str
    loser: str | None
    ruled_by: str


class SeatLeaveOut(FromService):
    seq: int
    at: datetime
    move_number: int
    player_color: str = Field(description="B or W")
    player: str
    granted_by: str


class GameOut(BaseModel):
    event_id: int
    round: int
    board: int
    black: str
    white: str
    handicap: int
    komi: float = Field(description="in stones")
    result: str | None = Field(description="B+R, W+1.5 (points), 0, BL, Void, Replay …")
    result_zh: str | None = Field(description="黑胜3/4子 …")
    confirmed: bool
    phase: str
    black_count: float | None
    warnings: dict[str, int]
    history: list[HistoryOut]
    infractions: list[InfractionOut]
    rulings: list[RulingOut]
    seat_leaves: list[SeatLeaveOut] = Field(
        default_factory=list,
        description="permissions to leave the seat in byo-yomi",  # R-TIME-2, Art. 22.7
    )
    seq: int = Field(description="events in the game's record; send back as expected_seq")
    acknowledged: list[str] = Field(description="players (B, W) who acknowledged the result")
    played_again: str | None = Field(
        default=None,
        # R-REF-3, R-PLAYOFF
        description="replay / playoff: the confirmed result calls for the game to be played "
        "again; POST its result to .../result",
    )
    playoff_due: bool = Field(
        default=False,
        description="a knockout game without a winner (a draw, no result): a playoff decides "
        "it; POST the playoff's result to .../result once it is played",
    )
    match: int | None = Field(default=None, description="a team board's match in its round")
    sitting: int = Field(default=0, description="a rotation match's sitting (0: the first)")
    black_team: str | None = Field(default=None, description="a team board's team of Black")
    white_team: str | None = Field(default=None, description="a team board's team of White")

    @classmethod
    def of(cls, g: games.GameView) -> "GameOut":
        return cls(
            event_id=g.event_id,
            round=g.round,
            board=g.board,
            black=g.black,
            white=g.white,
            handicap=g.handicap,
            komi=float(g.komi),
            result=g.result,
            result_zh=g.result_zh,
            confirmed=g.confirmed,
            played_again=g.played_again,
            playoff_due=g.playoff_due,
            phase=g.phase,
            black_count=float(g.black_count) if g.black_count is not None else None,
            warnings={"B": g.warnings[0], "W": g.warnings[1]},
            history=[
                HistoryOut(
                    seq=h.seq,
                    at=h.at,
                    who=h.who,
                    previous=h.previous,
                    result=h.result,
                    result_zh=h.result_zh,
                    reason=str(h.reason),
                    reason_zh=render(h.reason, "zh_CN"),
                    reason_code=h.reason.id,
                    reason_args=json_args(h.reason),
                )
                for h in g.history
            ],
            infractions=[InfractionOut.of(i) for i in g.infractions],
            rulings=[RulingOut.of(r) for r in g.rulings],
            seat_leaves=[SeatLeaveOut.of(v) for v in g.seat_leaves],
            seq=g.seq,
            acknowledged=list(g.acknowledged),
            match=g.match,
            sitting=g.sitting,
            black_team=g.black_team,
            white_team=g.white_team,
        )


class Guard(BaseModel):
    expected_seq: int | None = Field(
        default=None, description="refuse with 409 if the game changed since this seq"
    )


class ResultIn(Guard):
    result: str = Field(
        description="a result code (B+R, W+1.5, 0, BL, B+F, Void, Replay) or "
        "Black's count in stones (185, 184.5)"
    )


class RecountIn(Guard):
    color: str = Field(description="the player: B or W")


class InfractionIn(Guard):
    kind: str = Field(description="double_move, take_back, clock_before_move, phone_ringing, …")
    offender: str = Field(description="B or W")
    penalty: str | None = Field(
        default=None,
        description="warning, loss or both_lose where the rules let the referee choose",
    )
    note: str = ""
    points: str = Field(default="", description="GTP vertices of the stones (capture errors)")


class SeatLeaveIn(Guard):
    player: str = Field(description="the player in byo-yomi who may leave: B or W")


class RulingIn(Guard):
    kind: str = Field(description="draw, replay, both_lose, no_result, forfeit, time_loss, loss")
    reason: str
    loser: str | None = Field(default=None, description="B or W for forfeit, time_loss, loss")


class CorrectionIn(Guard):
    result: str
    reason: str


class RoundRowIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    board: int
    result: str = Field(description="Result code as seated: B+R, W+1.5, 0, BL …")
    team: str | None = Field(None, description="A team event's: either team of the match")
    sitting: int = Field(0, description="A 全队轮赛制 match's sitting, from 0")


class RoundResultsIn(BaseModel):
    """A round's sheet: ``rows`` or ``csv``, every row or none. A team event's rows name the
    team (``results``, its earlier name, is read as ``rows``)."""

    model_config = ConfigDict(extra="forbid")

    rows: list[RoundRowIn] = Field(
        default_factory=list, validation_alias=AliasChoices("rows", "results")
    )
    csv: str | None = Field(
        default=None,
        description="instead of rows: CSV with board,result (a team event's: team,board,result"
        "[,sitting])",
    )

    def checked_rows(self, team_event: bool) -> list[tuple[str, int, str, int]]:
        """The rows as ``(team, board, result, sitting)``, checked against the event's kind:
        ``FieldsRejected`` naming each row whose ``team`` is missing (a team event) or given
        (an individual event), or that names a sitting in an individual event."""
        why = Msg("is required") if team_event else Msg("applies to team events only")
        wrong: dict[str, Msg] = {}
        for i, r in enumerate(self.rows):
            if (r.team is None) == team_event:
                wrong[f"rows.{i}.team"] = why
            if r.sitting and not team_event:
                wrong[f"rows.{i}.sitting"] = Msg("applies to team events only")
        if wrong:
            raise FieldsRejected(wrong)
        return [(r.team or "", r.board, r.result, r.sitting) for r in self.rows]


class RoundResultsOut(BaseModel):
    changed: int
    boards: list[GameOut]


def _add_game_routes(prefix: str, board: Callable[..., BoardKey]) -> None:
    """The endpoints of a board under ``prefix``, the board named by ``board`` (a dependency
    reading the path): the same for every kind of event."""
    Key = Annotated[BoardKey, Depends(board)]

    @router.get(prefix + "/boards/{board}")
    def get_game(db: Db, actor: CurrentActor, event_id: int, number: int, key: Key) -> GameOut:
        """A board: players, result, its history, infractions and rulings (public once the
        round is published)."""
        if not isinstance(key, TeamBoard):
            require_round_visible(db, actor, event_id, number)
        return GameOut.of(games.game_view(db, event_id, number, key))

    @router.get(prefix + "/boards/{board}/sgf", response_class=Response)
    def get_game_sgf(
        db: Db, actor: CurrentActor, clock: AppClock, event_id: int, number: int, key: Key
    ) -> Response:
        """The game's record as SGF (penalties and rulings as comments, the result in RE)."""
        if not isinstance(key, TeamBoard):
            require_round_visible(db, actor, event_id, number)
        text = games.game_sgf(db, event_id, number, key, clock=clock)
        return Response(text.encode(), media_type="application/x-go-sgf; charset=utf-8")

    @router.post(prefix + "/boards/{board}/result")
    @requires(Action.ENTER_RESULT)
    def post_result(
        db: Db,
        actor: CurrentActor,
        clock: AppClock,
        event_id: int,
        number: int,
        key: Key,
        body: ResultIn,
    ) -> GameOut:
        """Enter a result or Black's count (organisers, referees, the chief referee); not final
        until confirmed."""
        return GameOut.of(
            games.enter_result(
                db, actor, event_id, number, key, body.result, body.expected_seq, clock=clock
            )
        )

    @router.post(prefix + "/boards/{board}/confirm")
    @requires(Action.CONFIRM_RESULT)
    def post_confirm(
        db: Db,
        actor: CurrentActor,
        clock: AppClock,
        event_id: int,
        number: int,
        key: Key,
        body: Guard,
    ) -> GameOut:
        # R-REF-7 (the description of the API names no requirement IDs)
        """Confirm the result both players signed (referees): final from now on."""
        return GameOut.of(
            games.confirm_result(db, actor, event_id, number, key, body.expected_seq, clock=clock)
        )

    @router.post(prefix + "/boards/{board}/acknowledge")
    @requires(Action.ENTER_RESULT)
    def post_acknowledge(
        db: Db,
        actor: CurrentActor,
        clock: AppClock,
        event_id: int,
        number: int,
        key: Key,
        body: RecountIn,
    ) -> GameOut:
        # R-END-4
        """Record that a player (``color``) acknowledges the result entered; with both
        players' acknowledgements the referee's confirmation is the third signature."""
        return GameOut.of(
            games.acknowledge_result(
                db, actor, event_id, number, key, body.color, body.expected_seq, clock=clock
            )
        )

    @router.post(prefix + "/boards/{board}/recount")
    @requires(Action.ENTER_RESULT)
    def post_recount(
        db: Db,
        actor: CurrentActor,
        clock: AppClock,
        event_id: int,
        number: int,
        key: Key,
        body: RecountIn,
    ) -> GameOut:
        # R-REF-7
        """Record a player's request for a recount before confirmation."""
        return GameOut.of(
            games.request_recount(
                db, actor, event_id, number, key, body.color, body.expected_seq, clock=clock
            )
        )

    @router.post(prefix + "/boards/{board}/infractions")
    @requires(Action.RULE_INFRACTION)
    def post_infraction(
        db: Db,
        actor: CurrentActor,
        clock: AppClock,
        event_id: int,
        number: int,
        key: Key,
        body: InfractionIn,
    ) -> GameOut:
        # R-PEN-1
        """Record an infraction (referees); the penalty follows the rules."""
        return GameOut.of(
            games.record_infraction(
                db,
                actor,
                event_id,
                number,
                key,
                body.kind,
                body.offender,
                body.penalty,
                body.note,
                body.points,
                body.expected_seq,
                clock=clock,
            )
        )

    @router.post(prefix + "/boards/{board}/seat-leave")
    @requires(Action.RULE_INFRACTION)
    def post_seat_leave(
        db: Db,
        actor: CurrentActor,
        clock: AppClock,
        event_id: int,
        number: int,
        key: Key,
        body: SeatLeaveIn,
    ) -> GameOut:
        # R-TIME-2, Art. 22.7
        """Let a player in byo-yomi leave the seat during the opponent's time, once per game
        (referees); the clock is not touched. Refused with 422 when the
        player is not in byo-yomi, is to move, already had leave, or the game is not in play."""
        return GameOut.of(
            games.grant_seat_leave(
                db, actor, event_id, number, key, body.player, body.expected_seq, clock=clock
            )
        )

    @router.post(prefix + "/boards/{board}/rulings")
    @requires(Action.RULE_INFRACTION)
    def post_ruling(
        db: Db,
        actor: CurrentActor,
        clock: AppClock,
        event_id: int,
        number: int,
        key: Key,
        body: RulingIn,
    ) -> GameOut:
        """Record a ruling that ends the game (referees; draw, replay, both lose, no result: the
        chief referee)."""
        return GameOut.of(
            games.record_ruling(
                db,
                actor,
                event_id,
                number,
                key,
                body.kind,
                body.reason,
                body.loser,
                body.expected_seq,
                clock=clock,
            )
        )

    @router.post(prefix + "/boards/{board}/correction")
    @requires(Action.CORRECT_RESULT)
    def post_correction(
        db: Db,
        actor: CurrentActor,
        clock: AppClock,
        event_id: int,
        number: int,
        key: Key,
        body: CorrectionIn,
    ) -> GameOut:
        # R-REF-7
        """Correct a confirmed result (the chief referee only), with a reason."""
        return GameOut.of(
            games.correct_result(
                db,
                actor,
                event_id,
                number,
                key,
                body.result,
                body.reason,
                body.expected_seq,
                clock=clock,
            )
        )


_add_game_routes(INDIVIDUAL, individual_board)
_add_game_routes(TEAM, team_board)


@router.get(INDIVIDUAL + "/results")
def get_round_results(db: Db, actor: CurrentActor, event_id: int, number: int) -> list[GameOut]:
    """Every board of the round with its result (public once the round is published)."""
    require_round_visible(db, actor, event_id, number)
    return [GameOut.of(g) for g in games.round_games(db, event_id, number)]


@router.post(INDIVIDUAL + "/results", response_model=RoundResultsOut | TeamRoundRead)
@requires(Action.ENTER_RESULT)
def post_round_results(
    db: Db, actor: CurrentActor, clock: AppClock, event_id: int, number: int, body: RoundResultsIn
) -> RoundResultsOut | TeamRoundRead:
    """Enter and confirm a round's results from the signed sheets: ``rows`` or ``csv``, every
    row or none (422 names the lines). A team event's rows name the team of each board, and
    the answer is its round (``weiqi round show --json``)."""
    if is_team_event(db, event_id):
        if body.csv is not None:
            teams.record_results_csv(db, actor, event_id, number, body.csv)
        else:
            teams.record_results(db, actor, event_id, number, body.checked_rows(team_event=True))
        return teams.round_read(teams.show_round(db, event_id, number))
    if body.csv is not None:
        rows = games.parse_results_csv(body.csv)
    else:  # an individual sheet's rows: (line, board, result)
        checked = body.checked_rows(team_event=False)
        rows = [(i, board, result) for i, (_, board, result, _) in enumerate(checked, start=1)]
    changed = games.enter_round_results(db, actor, event_id, number, rows, clock=clock)
    return RoundResultsOut(
        changed=changed, boards=[GameOut.of(g) for g in games.round_games(db, event_id, number)]
    )
