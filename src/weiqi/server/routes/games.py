"""The game page of one board and the referee's round sheet (R-REF-7, R-END-4, R-PEN-1).

Every board has the same game page, whatever its event: an individual event's board at
``/events/{id}/rounds/{n}/boards/{b}``, a team match's at
``/events/{id}/rounds/{n}/matches/{m}/boards/{b}`` (``?sitting=`` for a rotation match's
later sittings) — one set of handlers, the board named by a path dependency.

Anyone sees a game: players, colours, result (Chinese and SGF notation), the result's history,
infractions and rulings. Referees get the forms to enter a result or Black's count, confirm it,
record a player's request for a recount, an infraction, a seat leave in byo-yomi
(Art. 22.7) or a ruling; the chief referee corrects
a confirmed result with a reason. Every form carries the record's length (``seq``) so a page
that is out of date is refused instead of overwriting another referee's work.
"""

# No ``from __future__ import annotations``: the handlers are defined in a function and FastAPI
# must see their ``Key`` dependency (a local) as an object, not a name to look up in globals.

from collections.abc import Callable, Mapping, Sequence
from typing import Annotated

from fastapi import APIRouter, Depends, Form, UploadFile
from fastapi.responses import RedirectResponse
from starlette.requests import Request
from starlette.responses import Response

from weiqi.errors import Conflict, InputError, InvalidSetting, NotFound, RowsRejected
from weiqi.i18n import N_
from weiqi.messages import Msg
from weiqi.rules.result import SHEET_CODES, Result, format_stones_zh
from weiqi.server.downloads import attachment
from weiqi.server.inputs import ScreenedRoute, requires
from weiqi.server.page_forms import PostedForm
from weiqi.server.public_tables import gettext_for, handicap_text
from weiqi.server.referee_forms import (
    INFRACTION_FIELDS,
    RULING_FIELDS,
    Refusal,
    choices,
    refusal,
)
from weiqi.server.routes.public import team_address
from weiqi.server.security import AppClock, CurrentActor, Db, flash
from weiqi.server.templating import html, locale_of, say, translate
from weiqi.services import games, referee_input
from weiqi.services.actor import Actor
from weiqi.services.events import event_details
from weiqi.services.games import BoardKey, GameView, TeamBoard
from weiqi.services.live import room_url
from weiqi.services.navigation import results_path
from weiqi.services.permissions import Action, allowed
from weiqi.services.public import require_round_visible
from weiqi.store.database import Database

router = APIRouter(route_class=ScreenedRoute, include_in_schema=False)

Seq = Annotated[int | None, Form()]

#: Where the boards of a round are: an individual event's, a team event's matches.
INDIVIDUAL = "/events/{event_id}/rounds/{number}"
TEAM = "/events/{event_id}/rounds/{number}/matches/{match}"


def individual_board(board: int) -> BoardKey:
    """The board of an individual event's round, from the path."""
    return board


def team_board(match: int, board: int, sitting: int = 0) -> BoardKey:
    """A team match's board, from the path (the sitting of a rotation match as a query)."""
    return TeamBoard(match, board, sitting)


def game_url(event_id: int, number: int, key: BoardKey, action: str = "") -> str:
    """The page of a board (``action``: one of its forms).

    >>> game_url(3, 2, 7)
    '/events/3/rounds/2/boards/7'
    >>> game_url(3, 2, TeamBoard(1, 4, 1), "/result")
    '/events/3/rounds/2/matches/1/boards/4/result?sitting=1'
    """
    return room_url(event_id, number, key, part=action)


def _may(db: Database, actor: Actor, event_id: int) -> dict[str, bool]:
    return {
        "enter": allowed(db, actor, Action.ENTER_RESULT, event_id),
        "confirm": allowed(db, actor, Action.CONFIRM_RESULT, event_id),
        "rule": allowed(db, actor, Action.RULE_INFRACTION, event_id),
        "correct": allowed(db, actor, Action.CORRECT_RESULT, event_id),
    }


def _visible(db: Database, actor: Actor, event_id: int, number: int, key: BoardKey) -> None:
    """An individual round's boards are seen once it is published (team boards once their
    lineups are revealed, which the board lookup itself checks)."""
    if not isinstance(key, TeamBoard):
        require_round_visible(db, actor, event_id, number)


def _game_page(
    request: Request,
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    key: BoardKey,
    refusal: Refusal | None = None,
    status_code: int = 200,
) -> Response:
    game = games.game_view(db, event_id, number, key)
    context = {
        "game": game,
        "urls": {
            "game": game_url(event_id, number, key),
            "play": room_url(event_id, number, key),
            "action": lambda action: game_url(event_id, number, key, action),
            "round": results_path(event_id, number, isinstance(key, TeamBoard)),
        },
        "stones": format_stones_zh,
        "may": _may(db, actor, event_id),
        "infractions": choices(request, referee_input.RECORDABLE),
        "rulings": choices(request, referee_input.RULINGS),
        "time_zone": event_details(db, event_id).time_zone,
        "refusal": refusal,
    }
    return html(request, "game.html", context, status_code=status_code)


def _refused(
    request: Request,
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    key: BoardKey,
    refusal: Refusal,
    conflict: bool,
) -> Response:
    """The game page again, as it is now, with the refusal on the form that was sent (409 for
    a board changed meanwhile, 422 for bad input); a board gone meanwhile (its round unpaired)
    sends the reader to the event's page with the message."""
    try:
        return _game_page(
            request, db, actor, event_id, number, key, refusal, 409 if conflict else 422
        )
    except NotFound:
        flash(request, " ".join(refusal.errors.values()))
        return RedirectResponse(f"/events/{event_id}", status_code=303)


def _refused_by(
    request: Request,
    db: Database,
    actor: Actor,
    event_id: int,
    number: int,
    key: BoardKey,
    form: str,
    err: Conflict | InputError | InvalidSetting,
    values: Mapping[str, str],
    fields: Mapping[str, str] | None = None,
) -> Response:
    """The game page again with the service's refusal ``err`` on the form ``form`` (beside
    its field, see :func:`referee_forms.refusal`): 409 when the board changed meanwhile, else
    422."""
    shown = refusal(request, form, err, values, fields)
    return _refused(request, db, actor, event_id, number, key, shown, isinstance(err, Conflict))


def _done(request: Request, event_id: int, number: int, key: BoardKey, message: str) -> Response:
    flash(request, message)
    return RedirectResponse(game_url(event_id, number, key), status_code=303)


def _entered_or_confirmed(
    request: Request, event_id: int, number: int, key: BoardKey, message: str, game: GameView
) -> Response:
    """After a result is entered or confirmed: a knockout game left without a winner says at
    once that a playoff decides it, and the page opens where its result is entered."""
    flash(request, message)
    url = game_url(event_id, number, key)
    if game.playoff_due:
        if game.played_again == "playoff":
            flash(request, translate(request, PLAYOFF_NOW))
            url += "#played-again"
        else:
            flash(request, translate(request, PLAYOFF_AFTER_CONFIRMING))
            url += "#playoff-due"
    return RedirectResponse(url, status_code=303)


#: What a referee is told at once of a knockout game left without a winner (R-PLAYOFF).
PLAYOFF_NOW = N_(
    "A knockout game needs a winner: a playoff decides this one. Enter the playoff's result "
    "below once it is played."
)
PLAYOFF_AFTER_CONFIRMING = N_(
    "A knockout game needs a winner: once this result is confirmed, a playoff decides the "
    "game and its result is entered on this page."
)

#: The service's field names, as the game page's forms name them.
_ENTRY_FIELDS = {"result": "entry", "black count": "entry"}
_CORRECTION_FIELDS = {"result": "result", "reason": "reason"}


def _add_game_routes(prefix: str, board: Callable[..., BoardKey]) -> None:
    """The game page of a board and its forms under ``prefix``, the board named by ``board``
    (a dependency reading the path): one set of handlers for every kind of event. A form the
    service refuses brings the page back with the problem on that form (:class:`Refusal`)."""
    Key = Annotated[BoardKey, Depends(board)]

    @router.get(prefix + "/boards/{board}")
    def game_page(
        request: Request, db: Db, actor: CurrentActor, event_id: int, number: int, key: Key
    ) -> Response:
        _visible(db, actor, event_id, number, key)
        return _game_page(request, db, actor, event_id, number, key)

    @router.post(prefix + "/boards/{board}/result")
    @requires(Action.ENTER_RESULT)
    def game_result(
        request: Request,
        db: Db,
        actor: CurrentActor,
        clock: AppClock,
        event_id: int,
        number: int,
        key: Key,
        entry: Annotated[str, Form()] = "",
        seq: Seq = None,
        form: Annotated[str, Form()] = "",
    ) -> Response:
        sent = "played-again" if form == "played-again" else "enter-result"
        try:
            game = games.enter_result(db, actor, event_id, number, key, entry, seq, clock=clock)
        except (Conflict, InputError, InvalidSetting) as err:
            return _refused_by(
                request, db, actor, event_id, number, key, sent, err, {"entry": entry},
                _ENTRY_FIELDS,
            )  # fmt: skip
        message = translate(request, "Result entered.")
        return _entered_or_confirmed(request, event_id, number, key, message, game)

    @router.post(prefix + "/boards/{board}/confirm")
    @requires(Action.CONFIRM_RESULT)
    def game_confirm(
        request: Request,
        db: Db,
        actor: CurrentActor,
        clock: AppClock,
        event_id: int,
        number: int,
        key: Key,
        seq: Seq = None,
    ) -> Response:
        try:
            game = games.confirm_result(db, actor, event_id, number, key, seq, clock=clock)
        except (Conflict, InputError, InvalidSetting) as err:
            return _refused_by(request, db, actor, event_id, number, key, "confirm-result", err, {})
        message = translate(request, "Result confirmed.")
        return _entered_or_confirmed(request, event_id, number, key, message, game)

    def _action(
        request: Request,
        db: Database,
        actor: Actor,
        event_id: int,
        number: int,
        key: BoardKey,
        sent: str,
        values: Mapping[str, str],
        fields: Mapping[str, str] | None,
        call: Callable[[], object],
        message: str,
    ) -> Response:
        """One of the other forms: ``call`` it, or the page again with why it was refused."""
        try:
            call()
        except (Conflict, InputError, InvalidSetting) as err:
            return _refused_by(request, db, actor, event_id, number, key, sent, err, values, fields)
        return _done(request, event_id, number, key, message)

    def add_player_step(step: str, service: Callable[..., GameView], done: str) -> None:
        """The form of a player's step on a result entered (``…/boards/{board}/{step}``):
        ``service`` takes it for the player of ``color``; ``done`` (a msgid) says it is
        taken. Acknowledging and asking for a recount differ in nothing else."""

        @router.post(prefix + "/boards/{board}/" + step)
        @requires(Action.ENTER_RESULT)
        def game_player_step(
            request: Request,
            db: Db,
            actor: CurrentActor,
            clock: AppClock,
            event_id: int,
            number: int,
            key: Key,
            color: Annotated[str, Form()] = "",
            seq: Seq = None,
        ) -> Response:
            return _action(
                request, db, actor, event_id, number, key, step, {}, None,
                lambda: service(db, actor, event_id, number, key, color, seq, clock=clock),
                translate(request, done),
            )  # fmt: skip

    add_player_step("acknowledge", games.acknowledge_result, N_("Acknowledged."))
    add_player_step("recount", games.request_recount, N_("Recount requested."))

    @router.post(prefix + "/boards/{board}/infractions")
    @requires(Action.RULE_INFRACTION)
    def game_infraction(
        request: Request,
        db: Db,
        actor: CurrentActor,
        clock: AppClock,
        event_id: int,
        number: int,
        key: Key,
        kind: Annotated[str, Form()] = "",
        offender: Annotated[str, Form()] = "",
        penalty: Annotated[str, Form()] = "",
        note: Annotated[str, Form()] = "",
        points: Annotated[str, Form()] = "",
        seq: Seq = None,
    ) -> Response:
        values = {"kind": kind, "offender": offender, "penalty": penalty, "points": points,
                  "note": note}  # fmt: skip
        return _action(
            request, db, actor, event_id, number, key, "record-infraction", values,
            INFRACTION_FIELDS,
            lambda: games.record_infraction(
                db, actor, event_id, number, key, kind, offender, penalty or None, note,
                points, seq, clock=clock,
            ),
            translate(request, "Infraction recorded."),
        )  # fmt: skip

    @router.post(prefix + "/boards/{board}/seat-leave")
    @requires(Action.RULE_INFRACTION)
    def game_seat_leave(
        request: Request,
        db: Db,
        actor: CurrentActor,
        clock: AppClock,
        event_id: int,
        number: int,
        key: Key,
        player: Annotated[str, Form()] = "",
        seq: Seq = None,
    ) -> Response:
        """A referee lets a player in byo-yomi leave the seat during the opponent's time, once
        per game (R-TIME-2 / Art. 22.7); a refusal of the rules comes back on the page (422)."""
        return _action(
            request, db, actor, event_id, number, key, "seat-leave", {}, None,
            lambda: games.grant_seat_leave(
                db, actor, event_id, number, key, player, seq, clock=clock
            ),
            translate(request, "Seat leave granted."),
        )  # fmt: skip

    @router.post(prefix + "/boards/{board}/rulings")
    @requires(Action.RULE_INFRACTION)
    def game_ruling(
        request: Request,
        db: Db,
        actor: CurrentActor,
        clock: AppClock,
        event_id: int,
        number: int,
        key: Key,
        kind: Annotated[str, Form()] = "",
        reason: Annotated[str, Form()] = "",
        loser: Annotated[str, Form()] = "",
        seq: Seq = None,
    ) -> Response:
        return _action(
            request, db, actor, event_id, number, key, "record-ruling",
            {"kind": kind, "loser": loser, "reason": reason},
            RULING_FIELDS,
            lambda: games.record_ruling(
                db, actor, event_id, number, key, kind, reason, loser or None, seq, clock=clock
            ),
            translate(request, "Ruling recorded."),
        )  # fmt: skip

    @router.post(prefix + "/boards/{board}/correction")
    @requires(Action.CORRECT_RESULT)
    def game_correction(
        request: Request,
        db: Db,
        actor: CurrentActor,
        clock: AppClock,
        event_id: int,
        number: int,
        key: Key,
        result: Annotated[str, Form()] = "",
        reason: Annotated[str, Form()] = "",
        seq: Seq = None,
    ) -> Response:
        """The chief referee's correction of a confirmed result: both of its fields are checked
        at once (a result that does not parse, a missing reason) before the board is."""
        values = {"result": result, "reason": reason}
        problems = games.correction_problems(result, reason)
        if problems:
            errors = {_CORRECTION_FIELDS[f]: say(request, why) for f, why in problems.items()}
            refusal = Refusal("correct-result", errors, values)
            return _refused(request, db, actor, event_id, number, key, refusal, False)
        return _action(
            request, db, actor, event_id, number, key, "correct-result", values,
            _CORRECTION_FIELDS,
            lambda: games.correct_result(
                db, actor, event_id, number, key, result, reason, seq, clock=clock
            ),
            translate(request, "Result corrected."),
        )  # fmt: skip

    @router.get(prefix + "/boards/{board}/sgf")
    def game_sgf(
        db: Db, actor: CurrentActor, clock: AppClock, event_id: int, number: int, key: Key
    ) -> Response:
        """The game's record as an SGF file."""
        _visible(db, actor, event_id, number, key)
        text = games.game_sgf(db, event_id, number, key, clock=clock)
        if isinstance(key, TeamBoard):
            where = f"match{key.match}-board{key.board}" + (
                f"-sitting{key.sitting}" if key.sitting else ""
            )
        else:
            where = f"board{key}"
        name = f"event{event_id}-round{number}-{where}.sgf"
        return attachment(text.encode(), name, "application/x-go-sgf; charset=utf-8")


_add_game_routes(INDIVIDUAL, individual_board)
_add_game_routes(TEAM, team_board)


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
    search: str = "",
) -> Response:
    sheet = games.round_sheet(db, event_id, number, search)
    context = {
        "boards": sheet.boards,
        "search": sheet.search,
        "total": sheet.total,
        "event_id": event_id,
        "event_name": sheet.event_name,
        "details": sheet.details,
        "time_control": sheet.time_control,
        "number": number,
        "may": _may(db, actor, event_id),
        "problems": problems or [],
        "by_board": by_board,
        "entered": entered or {},
        # the legend: each accepted code, what it means here, and its Chinese notation
        "codes": [(code, Result.parse(code).to_zh()) for code in SHEET_CODES],
    }
    return html(request, "round_sheet.html", context, status_code=422 if problems else 200)


@router.get(INDIVIDUAL + "/slips")
def round_slips(
    request: Request, db: Db, actor: CurrentActor, event_id: int, number: int
) -> Response:
    """One slip per board (players, colours, handicap or komi, boxes for the result and the
    signatures), to print and cut: the same boards as the round sheet, seen by the same people.
    A team round's sheets are its page's, a sheet a match to sign."""
    sheets = results_path(event_id, number, team=True)
    if (team := team_address(request, db, event_id, sheets)) is not None:
        return team
    require_round_visible(db, actor, event_id, number)
    sheet = games.round_sheet(db, event_id, number)
    _ = gettext_for(locale_of(request))
    context = {
        "boards": sheet.boards,
        "event_id": event_id,
        "event_name": sheet.event_name,
        "details": sheet.details,
        "time_control": sheet.time_control,
        "number": number,
        "terms": lambda g: handicap_text(g.handicap, g.komi, _),
    }
    return html(request, "round_slips.html", context)


@router.get(INDIVIDUAL + "/results")
def round_sheet(
    request: Request, db: Db, actor: CurrentActor, event_id: int, number: int, q: str = ""
) -> Response:
    """The round sheet (成绩录入); ``q`` finds the boards of a player (name, club, rank). A
    team round's is its page, a sheet a match."""
    sheets = results_path(event_id, number, team=True)
    if (team := team_address(request, db, event_id, sheets)) is not None:
        return team
    require_round_visible(db, actor, event_id, number)
    return _sheet(request, db, actor, event_id, number, search=q)


def _entered(request: Request, n: int) -> Response:
    flash(request, translate(request, "%(n)s results entered and confirmed.", n=n))
    return RedirectResponse(request.url.path.removesuffix("/csv"), status_code=303)


@router.post(INDIVIDUAL + "/results")
@requires(Action.ENTER_RESULT)
def round_sheet_post(
    request: Request,
    form: PostedForm,
    db: Db,
    actor: CurrentActor,
    clock: AppClock,
    event_id: int,
    number: int,
) -> Response:
    """Every filled row of the sheet, entered and confirmed; on a bad row nothing is stored and
    the sheet comes back with the rows as typed and each problem by board."""
    rows: list[tuple[int, int, str]] = []
    for key, value in form.multi_items():
        if key.startswith("result_") and isinstance(value, str) and value.strip():
            number_text = key.removeprefix("result_")
            # a hand-made form may name anything: only a board number is a row of the sheet
            if not (number_text.isdigit() and len(number_text) <= 6):
                problem = Msg(
                    "%(field)s: %(reason)s", field=key, reason=Msg("is not a board of this round")
                )
                return _sheet(request, db, actor, event_id, number, [(0, problem)])
            board = int(number_text)
            rows.append((board, board, value))  # the "line" of a sheet row is its board
    if not rows:  # the sheet again, with why: never a page without a way back
        return _sheet(request, db, actor, event_id, number, [(0, Msg("no result was entered"))])
    try:
        changed = games.enter_round_results(db, actor, event_id, number, rows, clock=clock)
    except RowsRejected as err:
        entered = {board: text for _, board, text in rows}
        return _sheet(request, db, actor, event_id, number, err.problems, True, entered)
    return _entered(request, changed)


@router.post(INDIVIDUAL + "/results/csv")
@requires(Action.ENTER_RESULT)
def round_sheet_csv(
    request: Request,
    db: Db,
    actor: CurrentActor,
    clock: AppClock,
    event_id: int,
    number: int,
    file: UploadFile,
) -> Response:
    """A ``board,result`` file: every row or none; problems named by their line."""
    raw = file.file.read()  # spooled already: read in the threadpool
    source = file.filename or "results.csv"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        problem = Msg(
            "%(field)s: %(reason)s", field=source, reason=Msg("the file is not UTF-8 text")
        )
        return _sheet(request, db, actor, event_id, number, [(0, problem)], False)
    try:
        rows = games.parse_results_csv(text, source)
        changed = games.enter_round_results(
            db, actor, event_id, number, rows, source=source, clock=clock
        )
    except RowsRejected as err:
        return _sheet(request, db, actor, event_id, number, err.problems, False)
    return _entered(request, changed)
