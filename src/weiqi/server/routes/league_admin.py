"""The organisers' pages of a league (issue #13; until then the command line's alone): create a
season with its divisions (one teams-and-rosters CSV each, uploaded or pasted) and its dated
calendar; follow the divisions' progress and close the season (final orders, promotion and
relegation); open the transfer draft (摘牌) and run it — each club's protected base, then the
picks and passes as the clubs call them. Every page reads one read model of
``services.league`` and every form calls the service the ``weiqi league`` / ``weiqi draft``
command calls; the services check the permissions (a season is created by whoever may create
events; the chief referee closes it; the league's organisers run the draft)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import RedirectResponse
from starlette.datastructures import FormData, UploadFile
from starlette.requests import Request
from starlette.responses import Response

from weiqi.errors import (
    Conflict,
    FieldsRejected,
    InputError,
    InvalidSetting,
    NotFound,
    PermissionDenied,
)
from weiqi.i18n import N_
from weiqi.league.draft import Unpicked
from weiqi.league.lineup import MissingLineup
from weiqi.server.errors import status_of
from weiqi.server.inputs import ScreenedRoute
from weiqi.server.page_forms import (
    NOT_TEXT,
    FormFields,
    PostedForm,
    decode_csv,
    field_problems,
    rank_label,
    require_page,
)
from weiqi.server.security import Db, LoggedIn, flash
from weiqi.server.team_tables import draft_table
from weiqi.server.templating import html, locale_of, say, translate
from weiqi.services import league
from weiqi.services.actor import Actor
from weiqi.services.permissions import Action

router = APIRouter(route_class=ScreenedRoute, include_in_schema=False)

#: How many divisions the new-season form offers (甲 乙 丙 丁); empty ones are left out.
DIVISION_SLOTS = 4
DIVISION_LABELS = ("甲", "乙", "丙", "丁")
MISSING_NAMES = {
    MissingLineup.PREVIOUS: N_("The previous lineup plays again"),
    MissingLineup.FORFEIT: N_("Every board lost by forfeit"),
}
#: The settings' own names for the fields of the form (``InvalidSetting.field``).
_FIELD_OF = {"promoted/relegated": "promoted"}
_FORM_FIELDS = frozenset({"name", *league.SEASON_FORM_DEFAULTS})


def _new_season_page(
    request: Request,
    values: dict[str, str],
    errors: dict[str, str],
    problems: list[str],
    status_code: int = 200,
) -> Response:
    context = {
        "values": values,
        "errors": errors,
        "problems": problems,
        "slots": range(1, DIVISION_SLOTS + 1),
        "missing": [(k.value, translate(request, v)) for k, v in MISSING_NAMES.items()],
    }
    return html(request, "league_new.html", context, status_code=status_code)


@router.get("/leagues/new")
def new_season(request: Request, db: Db, user: LoggedIn) -> Response:
    """The new-season form, with 围甲's settings and the divisions 甲 乙 丙 丁 to fill in."""
    require_page(db, user.actor(), Action.CREATE_EVENT)
    values = dict(league.SEASON_FORM_DEFAULTS)
    values.update({f"label_{i}": label for i, label in enumerate(DIVISION_LABELS, start=1)})
    return _new_season_page(request, values, {}, [])


@router.post("/leagues/new")
def create_season(request: Request, form: PostedForm, db: Db, user: LoggedIn) -> Response:
    actor = user.actor()
    require_page(db, actor, Action.CREATE_EVENT)
    values = {k: v for k, v in form.items() if isinstance(v, str)}
    errors: dict[str, str] = {}
    problems: list[str] = []
    divisions: list[tuple[str, str]] = []
    for i in range(1, DIVISION_SLOTS + 1):
        label = values.get(f"label_{i}", "").strip()
        text = values.get(f"text_{i}", "")
        upload = form.get(f"file_{i}")
        if isinstance(upload, UploadFile) and upload.filename:
            decoded = decode_csv(upload.file.read())  # spooled already
            if decoded is None:
                errors[f"file_{i}"] = translate(request, NOT_TEXT)
                continue
            text = decoded
        if not text.strip():
            continue  # a division left empty is not in the season
        if not label:
            errors[f"label_{i}"] = translate(request, "Name the division.")
            continue
        divisions.append((label, text))
    try:
        parsed = league.season_form(values)
    except FieldsRejected as err:
        errors.update(field_problems(request, err))
        parsed = None
    except InvalidSetting as err:
        _invalid(request, err, errors, problems)
        parsed = None
    if not divisions and not any(k.startswith(("label_", "file_")) for k in errors):
        problems.append(translate(request, "Paste or upload the clubs of at least one division."))
    if errors or problems or parsed is None:
        return _new_season_page(request, values, errors, problems, 422)
    try:
        info = league.create_season(
            db, actor, values.get("name", ""), divisions, parsed.settings, parsed.start,
            parsed.days, parsed.home_nationality,
        )  # fmt: skip
    except InvalidSetting as err:
        _invalid(request, err, errors, problems)
        return _new_season_page(request, values, errors, problems, 422)
    except InputError as err:  # a division's CSV: its name and every refused line
        problems.append(say(request, err.msg))
        return _new_season_page(request, values, errors, problems, 422)
    flash(request, translate(request, "Season %(name)s created.", name=info.name))
    return RedirectResponse(f"/leagues/{info.id}/manage", status_code=303)


def _invalid(
    request: Request, err: InvalidSetting, errors: dict[str, str], problems: list[str]
) -> None:
    """A refused setting beside its field if the form has one, else above the form."""
    field = _FIELD_OF.get(err.field, err.field)
    if field in _FORM_FIELDS:
        errors[field] = say(request, err.reason)
    else:
        problems.append(say(request, err.msg))


# -- a season -------------------------------------------------------------------------------


def _season_page(
    request: Request,
    db: Db,
    actor: Actor,
    season_id: int,
    *,
    problem: str = "",
    status_code: int = 200,
) -> Response:
    page = league.season_page(db, actor, season_id)
    if not (page.may_close or page.may_draft):
        raise PermissionDenied(actor.username, Action.RUN_DRAFT.value)
    return html(
        request,
        "league_manage.html",
        {"page": page, "season": page.season, "problem": problem},
        status_code=status_code,
    )


@router.get("/leagues/{season_id}/manage")
def manage_season(request: Request, db: Db, user: LoggedIn, season_id: int) -> Response:
    """A season's divisions and their progress, closing it, and its draft."""
    return _season_page(request, db, user.actor(), season_id)


@router.post("/leagues/{season_id}/close")
def close_season(request: Request, db: Db, user: LoggedIn, season_id: int) -> Response:
    actor = user.actor()
    try:
        league.close_season(db, actor, season_id)
    except Conflict as err:  # a match not finished, a shared place on a line, already closed
        return _season_page(
            request, db, actor, season_id, problem=say(request, err.msg), status_code=409
        )
    flash(request, translate(request, "The season is closed."))
    return RedirectResponse(f"/leagues/{season_id}/manage#season-end", status_code=303)


@router.post("/leagues/{season_id}/draft")
def start_draft(
    request: Request, form: FormFields, db: Db, user: LoggedIn, season_id: int
) -> Response:
    actor = user.actor()
    try:
        base = _whole(form.get("base", ""), "base", 4)
        max_roster = _whole(form.get("max_roster", ""), "max_roster", None)
        unpicked = Unpicked.RELEASE if form.get("release") else Unpicked.RETURN
        view = league.start_draft(db, actor, season_id, base or 4, max_roster, unpicked)
    except (Conflict, InvalidSetting, InputError) as err:
        status = status_of(err)
        return _season_page(
            request, db, actor, season_id, problem=say(request, err.msg), status_code=status
        )
    flash(request, translate(request, "The draft is open."))
    return RedirectResponse(f"/drafts/{view.id}/manage", status_code=303)


def _whole(text: str, field: str, default: int | None) -> int | None:
    """A whole number ≥ 1 typed in ``field``, or ``default`` when empty.

    >>> _whole(" 3 ", "base", 4), _whole("", "max_roster", None)
    (3, None)
    >>> _whole("x", "base", 4)
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: base: must be at least 1
    """
    text = text.strip()
    if not text:
        return default
    if not text.isdigit() or int(text) < 1:
        raise InvalidSetting(field, N_("must be at least 1"))
    return int(text)


# -- a draft --------------------------------------------------------------------------------


def _draft_page(
    request: Request,
    db: Db,
    actor: Actor,
    draft_id: int,
    *,
    problem: str = "",
    status_code: int = 200,
) -> Response:
    page = league.draft_page(db, actor, draft_id)
    if not page.may_run:
        raise PermissionDenied(actor.username, Action.RUN_DRAFT.value)
    locale = locale_of(request)
    names = {e.player_id: e.name for r in page.rosters.values() for e in r}
    context: dict[str, Any] = {
        "page": page,
        "draft": page.draft,
        "season": page.season,
        "table": draft_table(page.draft.log, locale),
        "names": names,
        "problem": problem,
        "rank_label": lambda code: rank_label(locale, code),
    }
    return html(request, "draft_manage.html", context, status_code=status_code)


@router.get("/drafts/{draft_id}/manage")
def manage_draft(request: Request, db: Db, user: LoggedIn, draft_id: int) -> Response:
    """The draft as its organisers run it: protected bases first, then picks and passes."""
    return _draft_page(request, db, user.actor(), draft_id)


def _draft_move(
    request: Request, form: FormData, db: Db, user: LoggedIn, draft_id: int, kind: str
) -> Response:
    club = str(form.get("club", ""))
    actor = user.actor()
    try:
        if kind == "protect":
            players = [str(p) for p in form.getlist("player")]
            league.protect(db, actor, draft_id, club, players)
            done = translate(request, "%(club)s protects %(n)s players.", club=club, n=len(players))
        elif kind == "pick":
            player = str(form.get("player", ""))
            e = league.pick(db, actor, draft_id, club, player).log[-1]
            done = translate(
                request, "%(club)s picks %(player)s (from %(from_club)s).",
                club=e.club, player=e.player, from_club=e.from_club,
            )  # fmt: skip
        else:
            league.pass_turn(db, actor, draft_id, club)
            done = translate(request, "%(club)s passes.", club=club)
    except (Conflict, InputError, InvalidSetting, NotFound) as err:
        status = status_of(err)
        return _draft_page(
            request, db, actor, draft_id, problem=say(request, err.msg), status_code=status
        )
    flash(request, done)
    return RedirectResponse(f"/drafts/{draft_id}/manage", status_code=303)


@router.post("/drafts/{draft_id}/protect")
def protect(request: Request, form: PostedForm, db: Db, user: LoggedIn, draft_id: int) -> Response:
    return _draft_move(request, form, db, user, draft_id, "protect")


@router.post("/drafts/{draft_id}/pick")
def pick(request: Request, form: PostedForm, db: Db, user: LoggedIn, draft_id: int) -> Response:
    return _draft_move(request, form, db, user, draft_id, "pick")


@router.post("/drafts/{draft_id}/pass")
def pass_turn(
    request: Request, form: PostedForm, db: Db, user: LoggedIn, draft_id: int
) -> Response:
    return _draft_move(request, form, db, user, draft_id, "pass")
