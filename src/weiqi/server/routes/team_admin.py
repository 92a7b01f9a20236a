"""The organisers' and referees' pages of a team event (R-ORG-1, R-FMT-1): create one with its
team settings, enter teams and rosters (CSV import, all or nothing, or a form), pair a round,
reveal the sealed lineups, enter board results match by match, record a knockout's playoff."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter
from fastapi.responses import RedirectResponse
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
from weiqi.league.lineup import MissingLineup
from weiqi.league.match import BoardColors
from weiqi.league.settings import TeamEventSettings
from weiqi.league.standings import TeamRanking
from weiqi.league.team import TeamType
from weiqi.league.winner_stays_on import PlayerOrder
from weiqi.messages import Msg
from weiqi.server.errors import status_of
from weiqi.server.inputs import ScreenedRoute, requires
from weiqi.server.page_forms import (
    FormFields,
    ImportForm,
    PostedForm,
    broken_boards,
    field_problems,
    import_problems,
    import_rows,
    new_event_details,
    rank_label,
    require_page,
    save_round_start,
    systems_shown,
)
from weiqi.server.public_tables import gettext_for, handicap_text, team_game_href
from weiqi.server.security import AppClock, Db, LoggedIn, flash, server_clock
from weiqi.server.team_tables import color_text, match_score, result_text, stage_status
from weiqi.server.templating import html, locale_of, say, translate
from weiqi.services import pair_explanation, team_admin, team_coaches, teams, winner_stays_on
from weiqi.services.actor import Actor
from weiqi.services.events import Competition, create_event
from weiqi.services.permissions import Action, allowed
from weiqi.services.server_clock import ServerClock, as_utc
from weiqi.tournament.details import (
    DEFAULT_TIME_ZONE,
    TIME_ZONE_CHOICES,
    details_form,
    details_from_form,
    format_local,
    parse_local,
)
from weiqi.tournament.settings import (
    TEAM_SYSTEMS,
    GameStart,
    System,
)

router = APIRouter(route_class=ScreenedRoute, include_in_schema=False)

# R-FMT-1 as the form offers it (msgids; Chinese in the catalogue); a system's name is the
# core's (System.en).
TEAM_TYPE_NAMES = {
    TeamType.FIXED_BOARDS: N_("Fixed boards (分台定人制): order by rank and rating"),
    TeamType.FIXED_ORDER: N_("Fixed order (定台换人制): declared order, substitutes keep it"),
    TeamType.PER_ROUND: N_("Lineup each round (临场出人制)"),
    TeamType.ROTATION: N_("Everyone plays everyone (全队轮赛制)"),
    TeamType.MEMBERS_TOTAL: N_("Members' total (队员总分制)"),
}
# The same, short: the settings line of a page (Chinese: the rules' names).
TEAM_TYPE_SHORT = {
    TeamType.FIXED_BOARDS: N_("fixed boards"),
    TeamType.FIXED_ORDER: N_("fixed order with substitutes"),
    TeamType.PER_ROUND: N_("lineup each round"),
    TeamType.ROTATION: N_("team rotation"),
    TeamType.MEMBERS_TOTAL: N_("members' total"),
}
BOARD_COLOR_NAMES = {
    BoardColors.ALTERNATE: N_("Home team Black on odd boards"),
    BoardColors.NIGIRI: N_("Nigiri for board 1, then alternate"),
}
MISSING_NAMES = {
    MissingLineup.FORFEIT: N_("Every board lost by forfeit"),
    MissingLineup.PREVIOUS: N_("The previous lineup plays again"),
}
RANKING_NAMES = {
    TeamRanking.ROUND_ROBIN: N_("Match points, game points, board 1, board 2 …"),
    TeamRanking.SWISS_TOTAL_SCORE: N_("Total score first, then as a round robin"),
    TeamRanking.SWISS_POINTS: N_("Match points, SOS, game points, boards"),
}
ORDER_NAMES = {
    PlayerOrder.FIXED: N_("Every team's order fixed before the match"),
    PlayerOrder.CHOSEN: N_("The sending team chooses each player"),
}

# Fields and reasons the team settings and the core name in ``InvalidSetting``.
TEAM_SETTING_MSGIDS = (
    N_("boards"),
    N_("max_foreign"),
    N_("deadline_minutes"),
    N_("team_type"),
    N_("a team match needs at least one board"),
    N_("at least one"),
    N_("cannot be negative"),
    N_("a Swiss needs its number of rounds"),
    N_("a team round robin has one or two cycles"),
    N_("全队轮赛制 matches are played in a round robin"),
    N_("must not be empty"),
    N_("must have at most 200 characters"),
)


def _choices(request: Request, names: dict[Any, str]) -> list[tuple[str, str]]:
    return [(k.value, translate(request, v)) for k, v in names.items()]


# The team settings of the form, every one of either variant (the form shows them all, each
# with the systems that read it); once the event exists only teams.TEAM_EDITABLE may change (a
# league division's only teams.DIVISION_EDITABLE): the others are shown read-only with their
# reason.
TEAM_FIELDS = tuple(team_admin.DEFAULT_FORM)


def _settings_page(
    request: Request,
    name: str,
    values: dict[str, str],
    errors: dict[str, str],
    status: int = 200,
    event_id: int | None = None,
    locked: dict[str, str] | None = None,
) -> Response:
    context = {
        "event_id": event_id,
        "name": name,
        "values": values,
        "errors": errors,
        "time_zones": TIME_ZONE_CHOICES,
        "locked_fields": locked or {},
        "systems": _choices(request, {s: s.en for s in TEAM_SYSTEMS}),
        "team_types": _choices(request, TEAM_TYPE_NAMES),
        "board_colors": _choices(request, BOARD_COLOR_NAMES),
        "missing": _choices(request, MISSING_NAMES),
        "rankings": _choices(request, RANKING_NAMES),
        "orders": _choices(request, ORDER_NAMES),
        # which systems show a setting only some systems read (the core's one table)
        "reads": systems_shown(TEAM_SYSTEMS),
    }
    return html(request, "team_settings.html", context, status_code=status)


def _field_error(request: Request, err: InvalidSetting) -> dict[str, str]:
    return {err.field: say(request, err.reason)}


def new_team_event(request: Request, db: Db, user: LoggedIn) -> Response:
    require_page(db, user.actor(), Action.CREATE_EVENT)
    values = {**team_admin.DEFAULT_FORM, **new_event_details(request)}
    return _settings_page(request, "", values, {})


def create_team_event(request: Request, form: FormFields, db: Db, user: LoggedIn) -> Response:
    name = form.get("name", "")
    require_page(db, user.actor(), Action.CREATE_EVENT)
    try:
        settings = team_admin.settings_from_form(form)
        details = details_from_form(form)
        info = create_event(db, user.actor(), name, settings, details)
    except InvalidSetting as err:
        return _settings_page(request, name, form, _field_error(request, err), 422)
    flash(request, translate(request, "Event %(name)s created.", name=info.name))
    return RedirectResponse(f"/events/{info.id}/manage", status_code=303)


def _locked(request: Request, info: Competition[TeamEventSettings]) -> dict[str, str]:
    """The team settings an existing event's page shows read-only, each with why."""
    division = info.season_id is not None
    locked = teams.locked_fields(info.settings, info.rounds, division)
    return {f: translate(request, why) for f, why in locked.items() if f in TEAM_FIELDS}


def settings_page(request: Request, db: Db, user: LoggedIn, event_id: int) -> Response:
    """A team event's settings page: the name, the details and :data:`teams.TEAM_EDITABLE`
    editable, the other team settings shown with why they are fixed."""
    require_page(db, user.actor(), Action.EDIT_SETTINGS, event_id)
    info = teams.team_event_info(db, event_id)
    values = {**team_admin.settings_form(info.settings), **details_form(info.details)}
    locked = _locked(request, info)
    return _settings_page(request, info.name, values, {}, event_id=event_id, locked=locked)


def save_settings(
    request: Request, form: FormFields, db: Db, user: LoggedIn, event_id: int
) -> Response:
    """Save a team event's name, details and editable team settings; a bad field is shown
    beside itself, the typed input kept."""
    name = form.get("name", "")
    require_page(db, user.actor(), Action.EDIT_SETTINGS, event_id)
    info = teams.team_event_info(db, event_id)
    current = team_admin.settings_form(info.settings)
    locked = _locked(request, info)
    # the disabled fields are not sent: they stay as they are, the others as typed
    typed = {k: v for k, v in form.items() if k in TEAM_FIELDS and k not in locked}
    try:
        details = details_from_form(form, info.details.time_zone)
        settings = team_admin.settings_from_form({**current, **typed})
        teams.update_team_event(db, user.actor(), event_id, name, details, settings)
    except InvalidSetting as err:
        values = {**form, **{k: current[k] for k in locked}}
        errors = _field_error(request, err)
        return _settings_page(request, name, values, errors, 422, event_id=event_id, locked=locked)
    flash(request, translate(request, "Settings saved."))
    return RedirectResponse(f"/events/{event_id}/manage", status_code=303)


def settings_words(request: Request, s: TeamEventSettings) -> list[str]:
    """The settings in a line of short phrases (the dashboard's and the public page's head)."""
    words = [
        translate(request, s.system.en),
        translate(request, TEAM_TYPE_SHORT[s.team_type]),
        # a 擂台赛's lineup is its order of players, not boards
        translate(request, "%(n)s players a team", n=s.boards)
        if s.stage
        else translate(request, "%(n)s boards", n=s.boards),
        handicap_text(0, s.komi, gettext_for(locale_of(request))),  # as an individual event's
    ]
    if s.max_foreign is not None:
        words.append(translate(request, "at most %(n)s foreign players", n=s.max_foreign))
    if s.board_one_decides:
        words.append(translate(request, "board 1 decides a drawn match"))
    if s.online:
        words.append(translate(request, "Played online"))
    else:
        words.append(translate(request, "Played over the board"))
    if s.online and s.game_start is GameStart.ROUND_START:
        words.append(translate(request, "boards start at the round's start time"))
    return words


def _manage_page(
    request: Request,
    db: Db,
    actor: Actor,
    event_id: int,
    *,
    import_errors: list[tuple[int, str]] | None = None,
    import_text: str = "",
    team_errors: list[tuple[int, str]] | None = None,
    team_values: dict[str, str] | None = None,
    coach_error: str = "",
    status_code: int = 200,
) -> Response:
    info = teams.team_event_info(db, event_id)
    rounds = teams.list_rounds(db, event_id)
    cards = team_admin.team_cards(db, event_id)
    may_manage = allowed(db, actor, Action.MANAGE_PLAYERS, event_id)
    if not (may_manage or allowed(db, actor, Action.RECORD_RESULT, event_id)):
        raise PermissionDenied(actor.username, Action.MANAGE_PLAYERS.value)
    context = {
        "info": info,
        "words": settings_words(request, info.settings),
        "rounds": rounds,
        "teams": cards,
        "names": {t.code: t.name for t in cards},
        "may_manage": may_manage,
        "may_pair": allowed(db, actor, Action.PAIR_ROUND, event_id),
        "may_grant": allowed(db, actor, Action.GRANT_ROLE, event_id),
        "may_edit": allowed(db, actor, Action.EDIT_SETTINGS, event_id),
        "broken_boards": broken_boards(request, db, actor, event_id),
        "next_round": len(rounds) + 1,
        "pairing": teams.next_round(db, event_id),
        "import_errors": import_errors or [],
        "import_text": import_text,
        "team_errors": team_errors or [],
        "team_values": team_values or {},
        "coaches": team_coaches.list_coaches(db, event_id),
        "coach_error": coach_error,
        "rank_label": lambda code: rank_label(locale_of(request), code),
    }
    return html(request, "team_manage.html", context, status_code=status_code)


def manage(request: Request, db: Db, user: LoggedIn, event_id: int) -> Response:
    return _manage_page(request, db, user.actor(), event_id)


@router.post("/events/{event_id}/manage/teams/import")
@requires(Action.MANAGE_PLAYERS)
def import_teams(
    request: Request, form: PostedForm, db: Db, user: LoggedIn, event_id: int
) -> Response:
    actor = user.actor()

    def store(sent: ImportForm) -> int:
        home = sent.fields.get("home_nationality", "").strip() or None
        return teams.import_teams(db, actor, event_id, sent.content, sent.source, home)

    return import_rows(
        request, form, db, actor, event_id, "teams.csv", store,
        lambda **page: _manage_page(request, db, actor, event_id, **page),
        N_("%(count)s teams imported."), f"/events/{event_id}/manage#teams",
    )  # fmt: skip


@router.post("/events/{event_id}/manage/teams")
@requires(Action.MANAGE_PLAYERS)
def add_team(request: Request, form: FormFields, db: Db, user: LoggedIn, event_id: int) -> Response:
    values = {k: form.get(k, "") for k in ("name", "coach", "roster", "home_nationality")}
    actor = user.actor()
    require_page(db, actor, Action.MANAGE_PLAYERS, event_id)
    try:
        team_admin.add_team(
            db,
            actor,
            event_id,
            values["name"],
            values["coach"],
            values["roster"],
            values["home_nationality"].strip() or "CN",
        )
    except InputError as err:
        return _manage_page(
            request,
            db,
            actor,
            event_id,
            team_errors=import_problems(request, err),
            team_values=values,
            status_code=status_of(err),
        )
    flash(request, translate(request, "Team %(name)s entered.", name=values["name"].strip()))
    return RedirectResponse(f"/events/{event_id}/manage#teams", status_code=303)


@router.post("/events/{event_id}/manage/coaches")
@requires(Action.MANAGE_PLAYERS)
def assign_coach(
    request: Request, form: FormFields, db: Db, user: LoggedIn, event_id: int
) -> Response:
    """R-FMT-1: make an account the coach or captain of a team; it then submits that team's
    lineups (and no other team's)."""
    team, username = form.get("team", ""), form.get("username", "").strip()
    captain = form.get("role") == "captain"
    role = team_coaches.CoachRole.CAPTAIN if captain else team_coaches.CoachRole.COACH
    actor = user.actor()
    require_page(db, actor, Action.MANAGE_PLAYERS, event_id)
    try:
        team_coaches.assign_coach(db, actor, event_id, team, username, role)
    except NotFound:
        error = translate(
            request, "There is no account %(name)s or no team %(team)s.", name=username, team=team
        )
        return _manage_page(request, db, actor, event_id, coach_error=error, status_code=422)
    flash(
        request, translate(request, "%(name)s now speaks for %(team)s.", name=username, team=team)
    )
    return RedirectResponse(f"/events/{event_id}/manage#coaches", status_code=303)


def parse_start(text: str, zone_name: str = DEFAULT_TIME_ZONE) -> datetime | None:
    """A ``datetime-local`` value read in the event's time zone (as a UTC moment), or ``None``
    when empty.

    >>> parse_start("2026-05-01T09:30").isoformat(), parse_start("")
    ('2026-05-01T01:30:00+00:00', None)
    >>> parse_start("2026-05-01T09:30", "UTC").isoformat()
    '2026-05-01T09:30:00+00:00'
    """
    text = text.strip()
    if not text:
        return None
    try:
        datetime.fromisoformat(text)
    except ValueError:
        raise InvalidSetting("start", Msg("write the start as YYYY-MM-DDTHH:MM")) from None
    return parse_local(text, zone_name)


def _round_admin_page(
    request: Request,
    db: Db,
    actor: Actor,
    event_id: int,
    number: int,
    *,
    problems: dict[int, list[str]] | None = None,
    status_code: int = 200,
    search: str = "",
    values: dict[str, str] | None = None,
    errors: dict[str, str] | None = None,
) -> Response:
    info = teams.team_event_info(db, event_id)
    # the round's sheets are for those who enter results (the organisers too, as an
    # individual round's sheet); a playoff and the referee console are the referees'
    may_enter = allowed(db, actor, Action.ENTER_RESULT, event_id)
    may_record = allowed(db, actor, Action.RECORD_RESULT, event_id)
    may_pair = allowed(db, actor, Action.PAIR_ROUND, event_id)
    if not (may_enter or may_pair):
        raise PermissionDenied(actor.username, Action.ENTER_RESULT.value)
    view = teams.show_round(db, event_id, number)
    cards = team_admin.team_cards(db, event_id)
    locale = locale_of(request)

    def _(text: str) -> str:
        return translate(request, text)

    deadline = as_utc(view.deadline)
    shown = team_admin.matching_matches(cards, view, search)
    context = {
        "info": info,
        "round": view,
        "sealed_until": deadline if deadline and server_clock(request).now() < deadline else None,
        "names": {t.code: t.name for t in cards},
        "may_enter": may_enter,
        "may_record": may_record,
        "may_pair": may_pair,
        "may_lineup": allowed(db, actor, Action.SUBMIT_LINEUP, event_id),
        "knockout": info.settings.system is System.KNOCKOUT,
        "problems": problems or {},
        "result_text": lambda code: result_text(code, locale),
        "color_text": lambda color: color_text(color, _),
        "match_score": lambda m: match_score(m, _),
        "team_game_href": team_game_href,
        "search": search.strip(),
        "shown": shown,
        "shows_match": lambda number: shown is None or number in shown,
        "why": pair_explanation,
        "why_words": pair_explanation.TEAM_WORDS,
        "may_publish": allowed(db, actor, Action.PUBLISH_ROUND, event_id),
        "starts": format_local(view.starts_at, info.details.time_zone),
        "values": values or {},
        "errors": errors or {},
        **stage_context(db, actor, info, view, cards, locale),
    }
    return html(request, "team_round_admin.html", context, status_code=status_code)


def stage_context(
    db: Db,
    actor: Actor,
    info: Competition[TeamEventSettings],
    view: teams.TeamRoundView,
    cards: list[team_admin.TeamCard],
    locale: str,
) -> dict[str, Any]:
    """What the stage of a 擂台赛 (``team_stage.html``) shows on its round's page and its
    coaches' lineup page, once revealed: the stage (``None`` otherwise) and where it stands,
    whether ``actor`` may send the awaited team's next player, and every player as pages
    show him."""
    stage = None
    if info.settings.stage and view.revealed_at:
        stage = winner_stays_on.winner_stays_on(db, info.id)
    mine = team_coaches.lineup_teams(db, actor, info.id)
    may_send = (
        stage is not None
        and stage.awaiting is not None
        and (mine is None or stage.awaiting in mine)
        and allowed(db, actor, Action.SUBMIT_LINEUP, info.id)
    )
    shown = {(c.code, p.player): p.shown for c in cards for p in c.roster}
    names = {c.code: c.name for c in cards}
    status = stage_status(stage, names, shown, locale) if stage is not None else ""
    return {"stage": stage, "stage_status": status, "may_send": may_send, "shown_player": shown}


def round_start(
    request: Request, db: Db, actor: Actor, clock: ServerClock, event_id: int, number: int,
    typed: str,
) -> Response:  # fmt: skip
    """Set when a team round starts from its page (``teams.set_round_start``): a refusal
    comes back beside the field with what was typed kept."""
    return save_round_start(
        request, event_id, number, typed,
        lambda: teams.set_round_start(db, actor, event_id, number, typed, clock),
        lambda **page: _round_admin_page(request, db, actor, event_id, number, **page),
    )  # fmt: skip


def round_page(
    request: Request, db: Db, user: LoggedIn, event_id: int, number: int, search: str = ""
) -> Response:
    """A team round's organisers' page; ``search`` shows the matches whose team or seated
    player it matches."""
    return _round_admin_page(request, db, user.actor(), event_id, number, search=search)


@router.post("/events/{event_id}/manage/rounds/{number}/reveal")
@requires(Action.PAIR_ROUND)
def reveal(
    request: Request, db: Db, clock: AppClock, user: LoggedIn, event_id: int, number: int
) -> Response:
    teams.reveal_round(db, user.actor(), event_id, number, clock=clock)
    done = translate(request, "The lineups of round %(number)s are revealed.", number=number)
    flash(request, done)
    return RedirectResponse(f"/events/{event_id}/manage/rounds/{number}", status_code=303)


@router.post("/events/{event_id}/manage/rounds/{number}/matches/{match}/results")
@requires(Action.ENTER_RESULT)
def match_results(
    request: Request,
    form: FormFields,
    db: Db,
    user: LoggedIn,
    event_id: int,
    number: int,
    match: int,
) -> Response:
    actor = user.actor()
    view = teams.show_round(db, event_id, number)
    found = next((m for m in view.matches if m.number == match), None)
    if found is None:
        raise NotFound(Msg("round %(number)s has no match %(match)s", number=number, match=match))
    entries = []
    for b in found.boards:
        code = form.get(f"result_{b.board}_{b.sitting}", "").strip()
        if code and b.result is None:
            entries.append((b.board, b.sitting, code))
    if not entries:
        problems = {match: [translate(request, "Enter at least one result.")]}
        return _round_admin_page(
            request, db, actor, event_id, number, problems=problems, status_code=422
        )
    try:
        # one transaction for the whole match, rotation sittings included: all or nothing
        teams.record_results(
            db, actor, event_id, number, [(found.home, b, code, s) for b, s, code in entries]
        )
    except (InputError, Conflict, NotFound) as err:
        problems = {match: [say(request, err.reason)]}
        return _round_admin_page(
            request, db, actor, event_id, number, problems=problems, status_code=422
        )
    flash(request, translate(request, "%(count)s results recorded.", count=len(entries)))
    return RedirectResponse(
        f"/events/{event_id}/manage/rounds/{number}#match-{match}", status_code=303
    )


@router.post("/events/{event_id}/manage/stage/send")
@requires(Action.SUBMIT_LINEUP)
def stage_send(
    request: Request, form: FormFields, db: Db, user: LoggedIn, event_id: int
) -> Response:
    """The awaited team sends its next player to a 擂台赛 (chosen order): the game is seated
    once both are sent. A refusal comes back beside the choice."""
    team, player = form.get("team", ""), form.get("player", "")
    # from the round's page, or from the coach's lineup page (``back=lineup``)
    coach = form.get("back", "") == "lineup"
    try:
        winner_stays_on.send_player(db, user.actor(), event_id, team, player)
    except (InputError, Conflict) as err:
        values, errors = {"player": player}, {"player": say(request, err.reason)}
        if coach:
            from weiqi.server.routes.team_pages import lineup_form_page  # (it imports this)

            return lineup_form_page(request, db, user.actor(), event_id, 1, team, values=values,
                                    errors=errors, status_code=status_of(err))  # fmt: skip
        return _round_admin_page(request, db, user.actor(), event_id, 1, values=values,
                                 errors=errors, status_code=status_of(err))  # fmt: skip
    flash(request, translate(request, "The player is sent."))
    if coach:
        return RedirectResponse(
            f"/events/{event_id}/rounds/1/lineup?team={quote(team)}#stage", status_code=303
        )
    return RedirectResponse(f"/events/{event_id}/manage/rounds/1#stage", status_code=303)


@router.post("/events/{event_id}/manage/rounds/{number}/playoff")
@requires(Action.RECORD_RESULT)
def playoff(
    request: Request, form: FormFields, db: Db, user: LoggedIn, event_id: int, number: int
) -> Response:
    winner = form.get("winner", "")
    teams.record_playoff(db, user.actor(), event_id, number, winner)
    flash(request, translate(request, "The playoff is recorded."))
    return RedirectResponse(f"/events/{event_id}/manage/rounds/{number}", status_code=303)


# The roster player form's fields: its key, its label (a msgid) and the input's attributes.
_ROSTER_INPUTS = (
    ("name", N_("Name"), ' required maxlength="200"'),
    ("rank", N_("Rank"), ' required placeholder="5d / 2p / 3k / 5段"'),
    ("rating", N_("Rating"), ' inputmode="numeric"'),
    ("nationality", N_("Nationality"), ' maxlength="100"'),
    ("birth_date", N_("Birth date"), ' type="date"'),
)
DELETE_REFUSED = N_(
    "Round 1 is paired: the team is part of the draw and can no longer be deleted. Its name "
    "and players can still be corrected."
)


def _team_page(
    request: Request,
    db: Db,
    actor: Actor,
    event_id: int,
    team_id: int,
    *,
    values: dict[str, str] | None = None,
    errors: dict[str, str] | None = None,
    status_code: int = 200,
) -> Response:
    require_page(db, actor, Action.MANAGE_PLAYERS, event_id)
    card = team_admin.team_card(db, event_id, team_id)
    context = {
        "info": teams.team_event_info(db, event_id),
        "team": card,
        "values": values or {"name": card.name},
        "errors": errors or {},
        "may_delete": team_admin.may_delete_team(db, event_id),
        "delete_refused": translate(request, DELETE_REFUSED),
        "rank_label": lambda code: rank_label(locale_of(request), code),
    }
    return html(request, "team_edit.html", context, status_code=status_code)


@router.get("/events/{event_id}/manage/teams/{team_id:int}")
def team_page(request: Request, db: Db, user: LoggedIn, event_id: int, team_id: int) -> Response:
    """A team's page for its organisers: rename it, open a player, delete it before round 1."""
    return _team_page(request, db, user.actor(), event_id, team_id)


@router.post("/events/{event_id}/manage/teams/{team_id:int}")
@requires(Action.MANAGE_PLAYERS)
def rename_team(
    request: Request, form: FormFields, db: Db, user: LoggedIn, event_id: int, team_id: int
) -> Response:
    values = {"name": form.get("name", "")}
    actor = user.actor()
    try:
        name = team_admin.rename_team(db, actor, event_id, team_id, values["name"])
    except FieldsRejected as err:
        errors = field_problems(request, err)
        return _team_page(
            request,
            db,
            actor,
            event_id,
            team_id,
            values=values,
            errors=errors,
            status_code=status_of(err),
        )
    flash(request, translate(request, "%(name)s saved.", name=name))
    return RedirectResponse(f"/events/{event_id}/manage/teams/{team_id}", status_code=303)


@router.get("/events/{event_id}/manage/teams/{team_id:int}/delete")
def delete_team_page(
    request: Request, db: Db, user: LoggedIn, event_id: int, team_id: int
) -> Response:
    """The confirm step of deleting a team: what it removes, before anything is done."""
    actor = user.actor()
    require_page(db, actor, Action.MANAGE_PLAYERS, event_id)
    context = {
        "info": teams.team_event_info(db, event_id),
        "team": team_admin.team_card(db, event_id, team_id),
        "may_delete": team_admin.may_delete_team(db, event_id),
        "delete_refused": translate(request, DELETE_REFUSED),
    }
    return html(request, "team_delete.html", context)


@router.post("/events/{event_id}/manage/teams/{team_id:int}/delete")
@requires(Action.MANAGE_PLAYERS)
def delete_team(request: Request, db: Db, user: LoggedIn, event_id: int, team_id: int) -> Response:
    try:
        name = team_admin.delete_team(db, user.actor(), event_id, team_id)
    except Conflict as err:  # round 1 paired meanwhile (a second tab): the page says why
        flash(request, say(request, err.msg))
        return RedirectResponse(f"/events/{event_id}/manage/teams/{team_id}", status_code=303)
    flash(request, translate(request, "%(name)s deleted.", name=name))
    return RedirectResponse(f"/events/{event_id}/manage#teams", status_code=303)


def _roster_page(
    request: Request,
    db: Db,
    actor: Actor,
    event_id: int,
    team_id: int,
    player_id: int,
    *,
    values: dict[str, str] | None = None,
    errors: dict[str, str] | None = None,
    status_code: int = 200,
) -> Response:
    require_page(db, actor, Action.MANAGE_PLAYERS, event_id)
    card = team_admin.team_card(db, event_id, team_id)
    player = team_admin.roster_card(db, event_id, team_id, player_id)
    shown = {
        "name": player.name,
        "rank": rank_label(locale_of(request), player.rank),
        "rating": str(player.rating) if player.rating else "",
        "nationality": player.nationality,
        "birth_date": player.birth_date.isoformat() if player.birth_date else "",
        "foreign": "on" if player.foreign else "",
    }
    context = {
        "info": teams.team_event_info(db, event_id),
        "team": card,
        "player": player,
        "fields": [(f, translate(request, label), attrs) for f, label, attrs in _ROSTER_INPUTS],
        "values": values if values is not None else shown,
        "errors": errors or {},
    }
    return html(request, "team_player.html", context, status_code=status_code)


@router.get("/events/{event_id}/manage/teams/{team_id:int}/players/{player_id:int}")
def roster_player_page(
    request: Request, db: Db, user: LoggedIn, event_id: int, team_id: int, player_id: int
) -> Response:
    """A roster player's edit form (issue #13): name, rank, rating, nationality, 外援."""
    return _roster_page(request, db, user.actor(), event_id, team_id, player_id)


@router.post("/events/{event_id}/manage/teams/{team_id:int}/players/{player_id:int}")
@requires(Action.MANAGE_PLAYERS)
def edit_roster_player(
    request: Request,
    form: FormFields,
    db: Db,
    user: LoggedIn,
    event_id: int,
    team_id: int,
    player_id: int,
) -> Response:
    fields = (*team_admin.ROSTER_FORM_FIELDS, "birth_date", "foreign")
    values = {f: form.get(f, "") for f in fields}
    actor = user.actor()
    try:
        done = team_admin.edit_roster_player(
            db,
            actor,
            event_id,
            team_id,
            player_id,
            values["name"],
            values["rank"],
            values["rating"],
            values["nationality"],
            foreign=bool(values["foreign"]),
            birth_date=values["birth_date"],
        )
    except FieldsRejected as err:
        errors = field_problems(request, err)
        return _roster_page(
            request,
            db,
            actor,
            event_id,
            team_id,
            player_id,
            values=values,
            errors=errors,
            status_code=status_of(err),
        )
    flash(request, translate(request, "%(name)s saved.", name=done.name))
    return RedirectResponse(f"/events/{event_id}/manage/teams/{team_id}", status_code=303)
