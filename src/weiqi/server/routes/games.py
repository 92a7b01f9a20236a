"""The game page of one board and the referee's round sheet (R-REF-7, R-END-4, R-PEN-1).

Anyone sees a game: players, colours, result (Chinese and SGF notation), the result's history,
infractions and rulings. Referees get the forms to enter a result or Black's count, confirm it,
record a player's request for a recount, an infraction, a seat leave in byo-yomi
(Art. 22.7) or a ruling; the chief referee corrects
a confirmed result with a reason. Every form carries the record's length (``seq``) so a page
that is out of date is refused instead of overwriting another referee's work.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from fastapi import APIRouter, Form, UploadFile
from fastapi.responses import RedirectResponse
from starlette.requests import Request
from starlette.responses import Response

from weiqi.errors import InputError, RowsRejected
from weiqi.messages import Msg
from weiqi.server.security import CurrentActor, Db, flash
from weiqi.server.templating import html, translate
from weiqi.services import games
from weiqi.services.actor import Actor
from weiqi.services.permissions import Action, allowed
from weiqi.store.database import Database

router = APIRouter(prefix="/events/{event_id}/rounds/{number}", include_in_schema=False)

Seq = Annotated[int | None, Form()]


def _game_url(event_id: int, number: int, board: int) -> str:
    return f"/events/{event_id}/rounds/{number}/boards/{board}"


def _may(db: Database, actor: Actor, event_id: int) -> dict[str, bool]:
    return {
        "enter": allowed(db, actor, Action.ENTER_RESULT, event_id),
        "confirm": allowed(db, actor, Action.CONFIRM_RESULT, event_id),
        "rule": allowed(db, actor, Action.RULE_INFRACTION, event_id),
        "correct": allowed(db, actor, Action.CORRECT_RESULT, event_id),
    }


@router.get("/boards/{board}")
def game_page(
    request: Request, db: Db, actor: CurrentActor, event_id: int, number: int, board: int
) -> Response:
    game = games.game_view(db, event_id, number, board)
    context = {
        "game": game,
        "may": _may(db, actor, event_id),
        "infraction_kinds": games.RECORDABLE,
        "ruling_kinds": games.RULINGS,
    }
    return html(request, "game.html", context)


def _done(request: Request, event_id: int, number: int, board: int, message: str) -> Response:
    flash(request, message)
    return RedirectResponse(_game_url(event_id, number, board), status_code=303)


@router.post("/boards/{board}/result")
def game_result(
    request: Request,
    db: Db,
    actor: CurrentActor,
    event_id: int,
    number: int,
    board: int,
    entry: Annotated[str, Form()],
    seq: Seq = None,
) -> Response:
    games.enter_result(db, actor, event_id, number, board, entry, seq)
    return _done(request, event_id, number, board, translate(request, "Result entered."))


@router.post("/boards/{board}/confirm")
def game_confirm(
    request: Request,
    db: Db,
    actor: CurrentActor,
    event_id: int,
    number: int,
    board: int,
    seq: Seq = None,
) -> Response:
    games.confirm_result(db, actor, event_id, number, board, seq)
    return _done(request, event_id, number, board, translate(request, "Result confirmed."))


@router.post("/boards/{board}/acknowledge")
def game_acknowledge(
    request: Request,
    db: Db,
    actor: CurrentActor,
    event_id: int,
    number: int,
    board: int,
    color: Annotated[str, Form()],
    seq: Seq = None,
) -> Response:
    games.acknowledge_result(db, actor, event_id, number, board, color, seq)
    return _done(request, event_id, number, board, translate(request, "Acknowledged."))


@router.post("/boards/{board}/recount")
def game_recount(
    request: Request,
    db: Db,
    actor: CurrentActor,
    event_id: int,
    number: int,
    board: int,
    color: Annotated[str, Form()],
    seq: Seq = None,
) -> Response:
    games.request_recount(db, actor, event_id, number, board, color, seq)
    return _done(request, event_id, number, board, translate(request, "Recount requested."))


@router.post("/boards/{board}/infractions")
def game_infraction(
    request: Request,
    db: Db,
    actor: CurrentActor,
    event_id: int,
    number: int,
    board: int,
    kind: Annotated[str, Form()],
    offender: Annotated[str, Form()],
    penalty: Annotated[str, Form()] = "",
    note: Annotated[str, Form()] = "",
    points: Annotated[str, Form()] = "",
    seq: Seq = None,
) -> Response:
    games.record_infraction(
        db, actor, event_id, number, board, kind, offender, penalty or None, note, points, seq
    )
    return _done(request, event_id, number, board, translate(request, "Infraction recorded."))


@router.post("/boards/{board}/seat-leave")
def game_seat_leave(
    request: Request,
    db: Db,
    actor: CurrentActor,
    event_id: int,
    number: int,
    board: int,
    player: Annotated[str, Form()],
    seq: Seq = None,
) -> Response:
    """A referee lets a player in byo-yomi leave the seat during the opponent's time, once per
    game (R-TIME-2 / Art. 22.7); a refusal of the rules is a 422 naming why."""
    games.grant_seat_leave(db, actor, event_id, number, board, player, seq)
    return _done(request, event_id, number, board, translate(request, "Seat leave granted."))


@router.post("/boards/{board}/rulings")
def game_ruling(
    request: Request,
    db: Db,
    actor: CurrentActor,
    event_id: int,
    number: int,
    board: int,
    kind: Annotated[str, Form()],
    reason: Annotated[str, Form()],
    loser: Annotated[str, Form()] = "",
    seq: Seq = None,
) -> Response:
    games.record_ruling(db, actor, event_id, number, board, kind, reason, loser or None, seq)
    return _done(request, event_id, number, board, translate(request, "Ruling recorded."))


@router.post("/boards/{board}/correction")
def game_correction(
    request: Request,
    db: Db,
    actor: CurrentActor,
    event_id: int,
    number: int,
    board: int,
    result: Annotated[str, Form()],
    reason: Annotated[str, Form()],
    seq: Seq = None,
) -> Response:
    games.correct_result(db, actor, event_id, number, board, result, reason, seq)
    return _done(request, event_id, number, board, translate(request, "Result corrected."))


@router.get("/boards/{board}/sgf")
def game_sgf(db: Db, event_id: int, number: int, board: int) -> Response:
    """The game's record as an SGF file."""
    text = games.game_sgf(db, event_id, number, board)
    name = f"event{event_id}-round{number}-board{board}.sgf"
    return Response(
        text.encode(),
        media_type="application/x-go-sgf; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


# -- the round sheet -------------------------------------------------------------------------


def _sheet(
    request: Request,
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    problems: Sequence[tuple[int, Msg | str]] | None = None,
    by_board: bool = True,
    entered: dict[int, str] | None = None,
) -> Response:
    boards = games.round_games(db, event_id, number)
    context = {
        "boards": boards,
        "event_id": event_id,
        "event_name": boards[0].event_name if boards else "",
        "number": number,
        "may": _may(db, actor, event_id),
        "problems": problems or [],
        "by_board": by_board,
        "entered": entered or {},
    }
    return html(request, "round_sheet.html", context, status_code=422 if problems else 200)


@router.get("/results")
def round_sheet(
    request: Request, db: Db, actor: CurrentActor, event_id: int, number: int
) -> Response:
    return _sheet(request, db, actor, event_id, number)


def _entered(request: Request, n: int) -> Response:
    flash(request, translate(request, "%(n)s results entered and confirmed.", n=n))
    return RedirectResponse(request.url.path.removesuffix("/csv"), status_code=303)


@router.post("/results")
async def round_sheet_post(
    request: Request, db: Db, actor: CurrentActor, event_id: int, number: int
) -> Response:
    """Every filled row of the sheet, entered and confirmed; on a bad row nothing is stored and
    the sheet comes back with the rows as typed and each problem by board."""
    form = await request.form()
    rows: list[tuple[int, int, str]] = []
    for key, value in form.multi_items():
        if key.startswith("result_") and isinstance(value, str) and value.strip():
            board = int(key.removeprefix("result_"))
            rows.append((board, board, value))  # the "line" of a sheet row is its board
    if not rows:
        raise InputError("results", Msg("no result was entered"))
    try:
        changed = games.enter_round_results(db, actor, event_id, number, rows)
    except RowsRejected as err:
        entered = {board: text for _, board, text in rows}
        return _sheet(request, db, actor, event_id, number, err.problems, True, entered)
    return _entered(request, changed)


@router.post("/results/csv")
async def round_sheet_csv(
    request: Request,
    db: Db,
    actor: CurrentActor,
    event_id: int,
    number: int,
    file: UploadFile,
) -> Response:
    """A ``board,result`` file: every row or none; problems named by their line."""
    raw = await file.read()
    source = file.filename or "results.csv"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(source, Msg("the file is not UTF-8 text")) from None
    try:
        rows = games.parse_results_csv(text, source)
        changed = games.enter_round_results(db, actor, event_id, number, rows, source=source)
    except RowsRejected as err:
        return _sheet(request, db, actor, event_id, number, err.problems, False)
    return _entered(request, changed)
