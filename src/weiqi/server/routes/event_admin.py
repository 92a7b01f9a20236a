"""The organisers' and chief referee's pages of an individual event (R-ORG-1): create an event
with its settings, the event dashboard (players, CSV import, withdrawals, rounds), a round's
pairing with its explanation, publishing and unpairing."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form
from fastapi.responses import RedirectResponse
from starlette.requests import Request
from starlette.responses import Response

from weiqi.errors import (
    Conflict,
    FieldsRejected,
    InputError,
    InvalidSetting,
    NotFound,
    WeiqiError,
)
from weiqi.i18n import N_
from weiqi.server.errors import status_of
from weiqi.server.inputs import ScreenedRoute, requires
from weiqi.server.page_forms import (
    FormFields,
    PostedForm,
    broken_boards,
    field_problems,
    import_rows,
    new_event_details,
    rank_label,
    require_page,
    save_round_start,
    systems_shown,
)
from weiqi.server.routes import team_admin
from weiqi.server.routes.team_admin import parse_start
from weiqi.server.security import AppClock, Db, LoggedIn, flash
from weiqi.server.templating import html, locale_of, say, translate
from weiqi.services import event_admin, pair_explanation, public, round_edits, teams
from weiqi.services.accounts import UserInfo
from weiqi.services.actor import Actor
from weiqi.services.events import create_event, event_details
from weiqi.services.permissions import Action, allowed
from weiqi.services.tournament import absences, set_absent, tournament_info
from weiqi.tournament.details import (
    TIME_ZONE_CHOICES,
    details_form,
    details_from_form,
    format_local,
)
from weiqi.tournament.settings import (
    INDIVIDUAL_SYSTEMS,
    TIEBREAK_CODES,
    System,
    default_tiebreak_table,
    format_komi,
)
from weiqi.tournament.standings import TIEBREAKS

router = APIRouter(route_class=ScreenedRoute, include_in_schema=False)


# Fields and reasons the core names in ``InvalidSetting`` (shown next to the field).
SETTING_MSGIDS = (
    N_("rounds"),
    N_("cycles"),
    N_("points"),
    N_("bye_points"),
    N_("late_entry_points"),
    N_("absent_points"),
    N_("tiebreaks"),
    N_("komi"),
    N_("handicap_max"),
    N_("handicap_reduction"),
    N_("elimination_losses"),
    N_("best_of"),
    N_("mcmahon_bar"),
    N_("mcmahon_floor"),
    N_("mcmahon_zero"),
    N_("grand_final_reset"),
    N_("player_order"),
    N_("system"),
    N_("must be between 1 and 100"),
    N_("a Swiss event needs a number of rounds"),
    N_("must be between 1 and 10"),
    N_("a double round robin has 2 cycles"),
    N_("need win > draw >= loss >= 0"),
    N_("must be between -50 and 50"),
    N_("must be between 0 and 9"),
    N_("must be 0 or more"),
    N_("a code appears twice"),
    N_("TOTAL ranks before points, so it must come first"),
    N_("Swiss with elimination needs K losses"),
    N_("double elimination is out after 2"),
    N_("a match is best of 3, 5 or 7 games"),
    N_("a McMahon event needs a bar rank"),
    N_("the floor must be below the bar"),
    N_("must be a whole number"),
    N_("must be A (total score) or B (SOS)"),
    N_("must be 'full' or 'achieved'"),
    N_("must be 'halves', 'fold' or 'lot'"),
    N_("must be 'even' or 'handicap'"),
    N_("must be 'fold' or 'slip'"),
    N_("must be 'lot' or 'playoff'"),
    N_("swiss_method"),
    N_("top_score"),
    N_("first_round"),
    N_("color_policy"),
    N_("pairing_method"),
    N_("tie_resolution"),
    N_("board_size"),
    N_("disconnect_alert"),
    N_("cycle"),
    N_("handicap_placement"),
    N_("play"),
    N_("game_start"),
    N_("online_colors"),
    N_("lag_gain"),
    N_("lag_cap"),
    N_("must be 'paired' or 'nigiri'"),
    N_("must be between 2 and 25"),
)


# A field of the player form, as its label says it.
_PLAYER_FIELDS = {
    "name": N_("Name"),
    "rank": N_("Rank"),
    "rating": N_("Rating"),
    "birth date": N_("Birth date"),
    "club": N_("Club"),
    "country": N_("Country"),
    "licence": N_("Licence"),
}


# A core field that is not a form field of its own: where its error is shown.
_ERROR_FIELD = {"points": "points_win", "forbidden_pairs": "avoid_same_club"}


def _actor(user: UserInfo) -> Actor:
    return user.actor()


def _field_error(request: Request, error: InvalidSetting) -> tuple[str, str]:
    field = _ERROR_FIELD.get(error.field, error.field)
    return field, say(request, error.reason)


def _settings_context(request: Request) -> dict[str, Any]:
    zh = locale_of(request) == "zh_CN"
    return {
        "time_zones": TIME_ZONE_CHOICES,
        "systems": [(s.value, translate(request, s.en)) for s in INDIVIDUAL_SYSTEMS],
        "tiebreak_choices": [
            (c, TIEBREAKS[c].zh if zh else TIEBREAKS[c].en) for c in TIEBREAK_CODES
        ],
        "default_tiebreaks": default_tiebreak_table(),
        # which systems show a setting only some systems read (the core's one table)
        "reads": systems_shown(INDIVIDUAL_SYSTEMS),
    }


def _settings_page(
    request: Request,
    *,
    event_id: int | None,
    name: str,
    values: dict[str, str],
    errors: dict[str, str],
    status_code: int = 200,
    locked: dict[str, str] | None = None,
) -> Response:
    context = {
        **_settings_context(request),
        "locked": bool(locked),
        "locked_fields": {k: translate(request, why) for k, why in (locked or {}).items()},
        "event_id": event_id,
        "name": name,
        "values": values,
        "errors": errors,
    }
    return html(request, "event_settings.html", context, status_code=status_code)


def _is_team(db: Db, event_id: int) -> bool:
    """A team event's pages share these paths; its handlers live in ``team_admin``."""
    return public.is_team_event(db, event_id)


@router.get("/events/new")
def new_event(request: Request, db: Db, user: LoggedIn, kind: str = "individual") -> Response:
    """The form of a new event; ``?kind=team`` a team event's."""
    if kind == "team":
        return team_admin.new_team_event(request, db, user)
    require_page(db, _actor(user), Action.CREATE_EVENT)
    values = event_admin.settings_form(event_admin.DEFAULT_SWISS)
    values.update(new_event_details(request))
    return _settings_page(request, event_id=None, name="", values=values, errors={})


@router.post("/events/new")
@requires(Action.CREATE_EVENT)
def create_event_sent(
    request: Request, form: FormFields, db: Db, user: LoggedIn, kind: str = "individual"
) -> Response:
    if kind == "team":
        return team_admin.create_team_event(request, form, db, user)
    name = form.get("name", "")
    require_page(db, _actor(user), Action.CREATE_EVENT)
    try:
        settings = event_admin.settings_from_form(form)
        details = details_from_form(form)
        info = create_event(db, _actor(user), name, settings, details)
    except InvalidSetting as err:
        errors = dict([_field_error(request, err)])
        return _settings_page(
            request, event_id=None, name=name, values=form, errors=errors, status_code=422
        )
    flash(request, translate(request, "Event %(name)s created.", name=info.name))
    return RedirectResponse(f"/events/{info.id}/manage", status_code=303)


@router.get("/events/{event_id}/settings")
def settings_page(request: Request, db: Db, user: LoggedIn, event_id: int) -> Response:
    if _is_team(db, event_id):
        return team_admin.settings_page(request, db, user, event_id)
    require_page(db, _actor(user), Action.EDIT_SETTINGS, event_id)
    info = tournament_info(db, event_id)
    values = {**event_admin.settings_form(info.settings), **details_form(info.details)}
    return _settings_page(
        request,
        event_id=event_id,
        name=info.name,
        values=values,
        errors={},
        locked=event_admin.locked_fields(info.settings) if info.rounds else None,
    )


@router.post("/events/{event_id}/settings")
@requires(Action.EDIT_SETTINGS)
def save_settings(
    request: Request, form: FormFields, db: Db, user: LoggedIn, event_id: int
) -> Response:
    if _is_team(db, event_id):
        return team_admin.save_settings(request, form, db, user, event_id)
    name = form.get("name", "")
    require_page(db, _actor(user), Action.EDIT_SETTINGS, event_id)
    info = tournament_info(db, event_id)
    locked = event_admin.locked_fields(info.settings) if info.rounds else None
    # a locked field is shown disabled, so the browser leaves it out: it keeps its value (the
    # service refuses any change of it that a form does send)
    shown = event_admin.settings_form(info.settings)
    for field in locked or {}:
        if field in shown:
            form.setdefault(field, shown[field])
    try:
        settings = event_admin.settings_from_form(form, info.settings)
        details = details_from_form(form, info.details.time_zone)
        event_admin.update_settings(db, _actor(user), event_id, name, settings, details)
    except InvalidSetting as err:
        errors = dict([_field_error(request, err)])
        return _settings_page(
            request,
            event_id=event_id,
            name=name,
            values=form,
            errors=errors,
            status_code=422,
            locked=locked,
        )
    flash(request, translate(request, "Settings saved."))
    return RedirectResponse(f"/events/{event_id}/manage", status_code=303)


def _manage_page(
    request: Request,
    db: Db,
    actor: Actor,
    event_id: int,
    *,
    import_errors: list[tuple[int, str]] | None = None,
    import_text: str = "",
    player_error: tuple[str, str, str] | None = None,
    player_values: dict[str, str] | None = None,
    status_code: int = 200,
    search: str = "",
) -> Response:
    board = event_admin.dashboard(db, actor, event_id, search)
    system = board.info.settings.system
    late = bool(board.rounds) and system.is_swiss
    rules = _withdraw_rules(system, bool(board.rounds))
    context = {
        "board": board,
        "numbers": {p.id: i for i, p in enumerate(board.players, start=1)},
        "system_name": translate(request, system.en),
        "may_manage": allowed(db, actor, Action.MANAGE_PLAYERS, event_id),
        "may_pair": allowed(db, actor, Action.PAIR_ROUND, event_id),
        "may_edit": allowed(db, actor, Action.EDIT_SETTINGS, event_id) and not board.rounds,
        "may_grant": allowed(db, actor, Action.GRANT_ROLE, event_id),
        "may_publish": allowed(db, actor, Action.PUBLISH_ROUND, event_id),
        "entries_open": not board.rounds or late,
        "late": late,
        "next_round": len(board.rounds) + 1,
        "withdraw_rules": [translate(request, r) for r in rules],
        "withdraw_question": lambda name: withdraw_question(request, name, rules),
        "import_errors": import_errors or [],
        "import_text": import_text,
        "player_error": player_error,
        "player_values": player_values or {},
        "broken_boards": broken_boards(request, db, actor, event_id),
        "rank_label": lambda code: rank_label(locale_of(request), code),
    }
    return html(request, "event_manage.html", context, status_code=status_code)


@router.get("/events/{event_id}/manage")
def manage(request: Request, db: Db, user: LoggedIn, event_id: int, q: str = "") -> Response:
    """The dashboard; ``q`` searches the player list (name, club, rank)."""
    if _is_team(db, event_id):
        return team_admin.manage(request, db, user, event_id)
    return _manage_page(request, db, _actor(user), event_id, search=q)


@router.post("/events/{event_id}/manage/players")
@requires(Action.MANAGE_PLAYERS)
def register(request: Request, form: FormFields, db: Db, user: LoggedIn, event_id: int) -> Response:
    values = {f: form.get(f, "") for f in event_admin.PLAYER_FORM_FIELDS}
    actor = _actor(user)
    require_page(db, actor, Action.MANAGE_PLAYERS, event_id)
    try:
        player = event_admin.register_player(db, actor, event_id, **values)
    except (InputError, InvalidSetting) as err:
        where = err.field
        label = _PLAYER_FIELDS.get(where, where)
        # shown beside its field; a reason of no field (the entrants' limit) above the form
        field = where.replace(" ", "_")
        field = field if field in event_admin.PLAYER_FORM_FIELDS else ""
        message = (field, translate(request, label), say(request, err.reason))
        return _manage_page(
            request,
            db,
            actor,
            event_id,
            player_error=message,
            player_values=values,
            status_code=status_of(err),
        )
    flash(request, translate(request, "%(name)s registered.", name=player.label))
    return RedirectResponse(f"/events/{event_id}/manage#players", status_code=303)


@router.post("/events/{event_id}/manage/players/import")
@requires(Action.MANAGE_PLAYERS)
def import_csv(
    request: Request, form: PostedForm, db: Db, user: LoggedIn, event_id: int
) -> Response:
    actor = _actor(user)
    return import_rows(
        request, form, db, actor, event_id, "players.csv",
        lambda sent: event_admin.import_players(db, actor, event_id, sent.content, sent.source),
        lambda **page: _manage_page(request, db, actor, event_id, **page),
        N_("%(count)s players imported."), f"/events/{event_id}/manage#players",
    )  # fmt: skip


def _withdraw_rules(system: System, started: bool) -> list[str]:
    """What a withdrawal means in this event (R-WD-1), as ``CONSEQUENCE_*`` msgids."""
    if not started:
        return [event_admin.CONSEQUENCE_BEFORE_START]
    if system.is_round_robin:
        return [event_admin.CONSEQUENCE_RR_VOID, event_admin.CONSEQUENCE_RR_STAND]
    if system.is_swiss:
        return [event_admin.CONSEQUENCE_SWISS]
    return [event_admin.CONSEQUENCE_FORFEITS]


def withdraw_question(request: Request, name: str, rules: list[str]) -> str:
    """The withdraw button's confirmation: whom, what it means here, that it can be undone."""
    return " ".join(
        [
            translate(request, "Withdraw %(name)s?", name=name),
            *(translate(request, r) for r in rules),
            translate(request, "Until the next round is paired, the player can be reinstated."),
        ]
    )


# The player form's fields: its key, its label (a msgid) and the input's attributes.
_PLAYER_INPUTS = (
    ("name", N_("Name"), ' required maxlength="200"'),
    ("rank", N_("Rank"), ' placeholder="5d / 2p / 3k / 5段"'),
    ("rating", N_("Rating"), ' inputmode="decimal"'),
    ("club", N_("Club"), ' maxlength="200"'),
    ("country", N_("Country"), ' maxlength="200"'),
    ("birth_date", N_("Birth date"), ' type="date"'),
    ("licence", N_("Licence"), ' maxlength="64"'),
)


def _player_values(request: Request, p: event_admin.PlayerView) -> dict[str, str]:
    """The edit form's fields showing ``p`` (the rank as the reader writes it)."""
    return {
        "name": p.name,
        "rank": rank_label(locale_of(request), p.rank),
        "rating": f"{p.rating:g}" if p.rating is not None else "",
        "club": p.club,
        "country": p.country,
        "birth_date": p.birth_date.isoformat() if p.birth_date else "",
        "licence": p.licence,
    }


def _player_page(
    request: Request,
    db: Db,
    actor: Actor,
    event_id: int,
    player_id: int,
    *,
    values: dict[str, str] | None = None,
    errors: dict[str, str] | None = None,
    status_code: int = 200,
) -> Response:
    board = event_admin.dashboard(db, actor, event_id)
    player = event_admin.player(db, actor, event_id, player_id)
    paired = len(board.rounds)
    rules = _withdraw_rules(board.info.settings.system, paired > 0)
    context = {
        "info": board.info,
        "player": player,
        "fields": [(f, translate(request, label), attrs) for f, label, attrs in _PLAYER_INPUTS],
        "values": values if values is not None else _player_values(request, player),
        "errors": errors or {},
        "may_delete": paired == 0,
        "may_reinstate": player.withdrawn_after is not None and player.withdrawn_after >= paired,
        "withdraw_question": withdraw_question(request, player.label, rules),
        "absences": (sat_out := absences(db, actor, event_id, player_id)),
        "absence_reason": say(request, sat_out.reason) if sat_out.reason else "",
        "absent_points": board.info.settings.absent_points,
        "paired": paired,
    }
    return html(request, "event_player.html", context, status_code=status_code)


@router.get("/events/{event_id}/manage/players/{player_id}")
def player_page(
    request: Request, db: Db, user: LoggedIn, event_id: int, player_id: int
) -> Response:
    """A player's edit form, with withdrawal, reinstatement and deletion."""
    actor = _actor(user)
    require_page(db, actor, Action.MANAGE_PLAYERS, event_id)
    return _player_page(request, db, actor, event_id, player_id)


@router.post("/events/{event_id}/manage/players/{player_id}")
@requires(Action.MANAGE_PLAYERS)
def edit_player(
    request: Request, form: FormFields, db: Db, user: LoggedIn, event_id: int, player_id: int
) -> Response:
    values = {f: form.get(f, "") for f in event_admin.PLAYER_FORM_FIELDS}
    actor = _actor(user)
    require_page(db, actor, Action.MANAGE_PLAYERS, event_id)
    try:
        done = event_admin.edit_player(db, actor, event_id, player_id, **values)
    except FieldsRejected as err:
        errors = field_problems(request, err)
        return _player_page(
            request,
            db,
            actor,
            event_id,
            player_id,
            values=values,
            errors=errors,
            status_code=status_of(err),
        )
    flash(request, translate(request, "%(name)s saved.", name=done.name))
    return RedirectResponse(f"/events/{event_id}/manage#players", status_code=303)


@router.post("/events/{event_id}/manage/players/{player_id}/delete")
@requires(Action.MANAGE_PLAYERS)
def delete_player(
    request: Request, db: Db, user: LoggedIn, event_id: int, player_id: int
) -> Response:
    actor = _actor(user)
    try:
        name = event_admin.delete_player(db, actor, event_id, player_id)
    except Conflict as err:  # round 1 paired meanwhile (a second tab): the page says why
        flash(request, say(request, err.msg))
        return RedirectResponse(f"/events/{event_id}/manage/players/{player_id}", status_code=303)
    flash(request, translate(request, "%(name)s deleted.", name=name))
    return RedirectResponse(f"/events/{event_id}/manage#players", status_code=303)


@router.post("/events/{event_id}/manage/players/{player_id}/absences")
@requires(Action.MANAGE_PLAYERS)
def save_absences(
    request: Request, form: FormFields, db: Db, user: LoggedIn, event_id: int, player_id: int
) -> Response:
    """The later rounds a player sits out (ticked boxes ``absent_N``), all at once."""
    rounds = {
        int(key.removeprefix("absent_"))
        for key in form
        if key.startswith("absent_") and key.removeprefix("absent_").isdigit() and len(key) < 20
    }
    actor = _actor(user)
    try:
        now = set_absent(db, actor, event_id, player_id, sorted(rounds), exactly=True)
    except (Conflict, InvalidSetting) as err:  # a round paired meanwhile: the page says why
        flash(request, say(request, err.msg))
        return RedirectResponse(f"/events/{event_id}/manage/players/{player_id}", status_code=303)
    listed = ", ".join(str(n) for n in sorted(now))
    flash(
        request,
        translate(request, "Rounds sat out: %(rounds)s", rounds=listed)
        if listed
        else translate(request, "No rounds sat out."),
    )
    return RedirectResponse(f"/events/{event_id}/manage/players/{player_id}", status_code=303)


@router.post("/events/{event_id}/manage/players/{player_id}/reinstate")
@requires(Action.MANAGE_PLAYERS)
def reinstate(request: Request, db: Db, user: LoggedIn, event_id: int, player_id: int) -> Response:
    actor = _actor(user)
    try:
        done = event_admin.reinstate(db, actor, event_id, player_id)
    except Conflict as err:  # a round paired since the withdrawal: the page says why
        flash(request, say(request, err.msg))
        return RedirectResponse(f"/events/{event_id}/manage/players/{player_id}", status_code=303)
    flash(
        request,
        translate(request, "%(name)s reinstated.", name=done.name)
        + " "
        + translate(request, done.consequence),
    )
    return RedirectResponse(f"/events/{event_id}/manage#players", status_code=303)


RR_WITHDRAWAL_RULE = N_(
    "In a round robin (Chinese Weiqi Competition Rules, article 28): with fewer than half of "
    "the games played, all of the player's results are void; with at least half, they stand "
    "and the remaining games are forfeits."
)


@router.get("/events/{event_id}/manage/players/{player_id}/withdraw")
def withdraw_page(
    request: Request, db: Db, user: LoggedIn, event_id: int, player_id: int
) -> Response:
    """The confirm step of a withdrawal (R-WD-1, 第28条): what it means for this player now,
    in the page's language, before anything is done — with or without scripts."""
    actor = _actor(user)
    require_page(db, actor, Action.MANAGE_PLAYERS, event_id)
    preview = event_admin.withdrawal_preview(db, actor, event_id, player_id)
    context = {
        "info": tournament_info(db, event_id),
        "preview": preview,
        "consequence": translate(request, preview.consequence),
        "rr_rule": translate(request, RR_WITHDRAWAL_RULE),
        "back": request.query_params.get("from") == "player",
    }
    return html(request, "event_withdraw.html", context)


@router.post("/events/{event_id}/manage/players/{player_id}/withdraw")
@requires(Action.MANAGE_PLAYERS)
def withdraw(request: Request, db: Db, user: LoggedIn, event_id: int, player_id: int) -> Response:
    try:
        done = event_admin.withdraw(db, _actor(user), event_id, player_id)
    except Conflict as err:  # withdrawn already (a second tab): the list says why
        flash(request, say(request, err.msg))
        return RedirectResponse(f"/events/{event_id}/manage#players", status_code=303)
    flash(
        request,
        translate(request, "%(name)s withdrawn.", name=done.name)
        + " "
        + translate(request, done.consequence),
    )
    return RedirectResponse(f"/events/{event_id}/manage#players", status_code=303)


@router.post("/events/{event_id}/manage/rounds")
@requires(Action.PAIR_ROUND)
def pair(
    request: Request, db: Db, user: LoggedIn, event_id: int, start: Annotated[str, Form()] = ""
) -> Response:
    """Pair the next round, starting at ``start`` (the event's local time; optional): a
    team event's start fixes its lineup deadline, an online event's games start then."""
    starts = parse_start(start, event_details(db, event_id).time_zone)
    try:
        if _is_team(db, event_id):
            number = teams.pair_round(db, _actor(user), event_id, start=starts).number
        else:
            number = event_admin.pair_next_round(db, _actor(user), event_id, start=starts).number
    except Conflict as err:  # paired meanwhile (a second tab), or not pairable: the page says why
        flash(request, say(request, err.msg))
        return RedirectResponse(f"/events/{event_id}/manage#rounds", status_code=303)
    flash(request, translate(request, "Round %(number)s paired.", number=number))
    return RedirectResponse(f"/events/{event_id}/manage/rounds/{number}", status_code=303)


@router.get("/events/{event_id}/manage/rounds/{number}")
def round_page(
    request: Request, db: Db, user: LoggedIn, event_id: int, number: int, q: str = ""
) -> Response:
    """The organisers' round page; ``q`` searches its boards (either player: name, club,
    rank), like the player list's, the standings' and the sheets' search."""
    if _is_team(db, event_id):
        return team_admin.round_page(request, db, user, event_id, number, q)
    return _round_page(request, db, _actor(user), event_id, number, search=q)


_EDIT_FIELDS = ("kind", "player", "other", "board")


def _round_page(
    request: Request,
    db: Db,
    actor: Actor,
    event_id: int,
    number: int,
    *,
    values: dict[str, str] | None = None,
    errors: dict[str, str] | None = None,
    preview: round_edits.EditPreview | None = None,
    status_code: int = 200,
    search: str = "",
) -> Response:
    """The round's page; with ``preview``, the second step of an edit by hand (what it breaks,
    the reason to confirm it); ``search`` shows only the boards it matches."""
    info = tournament_info(db, event_id)
    detail = event_admin.round_detail(db, actor, event_id, number, search)
    may_pair = allowed(db, actor, Action.PAIR_ROUND, event_id)
    may_edit = may_pair and detail.editable and not detail.published and detail.results == 0
    in_round = {p.black for p in detail.pairings} | {p.white for p in detail.pairings}
    in_round |= set(detail.byes)
    ids = round_edits.player_ids(db, event_id) if may_edit else {}
    context = {
        "info": info,
        "round": detail,
        "komi": format_komi,
        "may_pair": may_pair,
        "may_publish": allowed(db, actor, Action.PUBLISH_ROUND, event_id),
        "may_edit": may_edit,
        "edit_players": sorted((label, pid) for label, pid in ids.items() if label in in_round),
        "values": values or {},
        "errors": errors or {},
        "preview": preview,
        "say": lambda m: say(request, m),
        "whys": pair_explanation.board_whys(detail.explanations),
        # a refused edit by hand comes back on the round's page, at its address
        **(
            {"page_address": f"/events/{event_id}/manage/rounds/{number}"}
            if request.method == "POST"
            else {}
        ),
        "why": pair_explanation,
        "starts": format_local(detail.starts_at, info.details.time_zone),
    }
    return html(request, "event_round.html", context, status_code=status_code)


def _edit_errors(request: Request, err: WeiqiError) -> dict[str, str]:
    """An edit's refusal next to the field it names (the whole edit otherwise)."""
    if isinstance(err, InvalidSetting):
        field = err.field if err.field in (*_EDIT_FIELDS, "reason") else "edit"
        return {field: say(request, err.reason)}
    return {"edit": say(request, err.msg)}


@router.get("/events/{event_id}/manage/rounds/{number}/edit")
def preview_edit(
    request: Request,
    db: Db,
    user: LoggedIn,
    event_id: int,
    number: int,
    kind: str = "",
    player: str = "",
    other: str = "",
    board: str = "",
) -> Response:
    """The first step of an edit by hand: what it would make of the round and what it breaks."""
    actor = _actor(user)
    require_page(db, actor, Action.PAIR_ROUND, event_id)
    values = {"kind": kind, "player": player, "other": other, "board": board}
    try:
        edit = round_edits.parse_edit(kind, player, other, board)
        shown = round_edits.preview_edit(db, actor, event_id, number, edit)
    except (InvalidSetting, Conflict, NotFound) as err:
        errors = _edit_errors(request, err)
        return _round_page(
            request, db, actor, event_id, number, values=values, errors=errors, status_code=422
        )
    return _round_page(request, db, actor, event_id, number, values=values, preview=shown)


@router.post("/events/{event_id}/manage/rounds/{number}/edit")
@requires(Action.PAIR_ROUND)
def apply_edit(
    request: Request, form: FormFields, db: Db, user: LoggedIn, event_id: int, number: int
) -> Response:
    """The second step: the edit confirmed with its reason (refused without one)."""
    values = {f: form.get(f, "") for f in (*_EDIT_FIELDS, "reason")}
    actor = _actor(user)
    try:
        edit = round_edits.parse_edit(
            values["kind"], values["player"], values["other"], values["board"]
        )
    except InvalidSetting as err:
        return _round_page(
            request, db, actor, event_id, number, values=values,
            errors=_edit_errors(request, err), status_code=422,
        )  # fmt: skip
    try:
        round_edits.apply_edit(db, actor, event_id, number, edit, values["reason"])
    except (InvalidSetting, Conflict, NotFound) as err:
        errors = _edit_errors(request, err)
        try:
            shown = round_edits.preview_edit(db, actor, event_id, number, edit)
        except (Conflict, NotFound):
            shown = None
        return _round_page(
            request, db, actor, event_id, number, values=values, errors=errors,
            preview=shown, status_code=422,
        )  # fmt: skip
    flash(request, translate(request, "The pairing of round %(number)s is changed.", number=number))
    return RedirectResponse(f"/events/{event_id}/manage/rounds/{number}#pairing", status_code=303)


@router.post("/events/{event_id}/manage/rounds/{number}/publish")
@requires(Action.PUBLISH_ROUND)
def publish(
    request: Request, form: FormFields, db: Db, user: LoggedIn, event_id: int, number: int
) -> Response:
    show = form.get("published", "true") != "false"
    try:
        event_admin.publish_round(db, _actor(user), event_id, number, show)
    except (Conflict, NotFound) as err:  # unpaired meanwhile (a second tab)
        flash(request, say(request, err.msg))
        return RedirectResponse(f"/events/{event_id}/manage#rounds", status_code=303)
    if show:
        flash(request, translate(request, "Round %(number)s published.", number=number))
    else:
        flash(request, translate(request, "Round %(number)s hidden again.", number=number))
    return RedirectResponse(f"/events/{event_id}/manage/rounds/{number}", status_code=303)


@router.post("/events/{event_id}/manage/rounds/{number}/start")
@requires(Action.PUBLISH_ROUND)
def round_start(
    request: Request,
    form: FormFields,
    db: Db,
    user: LoggedIn,
    clock: AppClock,
    event_id: int,
    number: int,
) -> Response:
    """Set when the round starts (typed in the event's time zone; "now" is the server's):
    a refusal comes back beside the field with what was typed kept."""
    typed = form.get("start", "")
    actor = _actor(user)
    if _is_team(db, event_id):
        return team_admin.round_start(request, db, actor, clock, event_id, number, typed)
    return save_round_start(
        request, event_id, number, typed,
        lambda: event_admin.set_round_start(db, actor, event_id, number, typed, clock),
        lambda **page: _round_page(request, db, actor, event_id, number, **page),
    )  # fmt: skip


@router.post("/events/{event_id}/manage/schedule")
@requires(Action.PUBLISH_ROUND)
def publish_schedule(
    request: Request, form: FormFields, db: Db, user: LoggedIn, event_id: int
) -> Response:
    """Publish a round robin's whole schedule (轮次表) in advance, or hide it again."""
    show = form.get("published", "true") != "false"
    event_admin.publish_schedule(db, _actor(user), event_id, show)
    if show:
        flash(request, translate(request, "The schedule is published."))
    else:
        flash(request, translate(request, "The schedule is hidden again."))
    return RedirectResponse(f"/events/{event_id}/manage#schedule", status_code=303)


@router.post("/events/{event_id}/manage/rounds/{number}/unpair")
@requires(Action.PAIR_ROUND)
def unpair(request: Request, db: Db, user: LoggedIn, event_id: int, number: int) -> Response:
    try:
        event_admin.unpair_round(db, _actor(user), event_id, number)
    except Conflict as err:  # results entered or a round paired since: the round page says why
        flash(request, say(request, err.msg))
        return RedirectResponse(f"/events/{event_id}/manage/rounds/{number}", status_code=303)
    except NotFound as err:  # unpaired already (a second tab)
        flash(request, say(request, err.msg))
        return RedirectResponse(f"/events/{event_id}/manage#rounds", status_code=303)
    flash(request, translate(request, "Round %(number)s unpaired.", number=number))
    return RedirectResponse(f"/events/{event_id}/manage", status_code=303)
