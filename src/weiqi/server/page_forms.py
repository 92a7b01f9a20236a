"""What the organisers' form pages share, for individual and team events alike: the permission
a page needs, a form's text fields, the CSV import form (an upload in UTF-8 or GB18030, or
pasted text) and its refused rows, a round's start, a rank as the reader writes it, and the
broken boards an event's manage page warns of, and which systems show a setting."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends
from fastapi.responses import RedirectResponse
from starlette.datastructures import FormData, UploadFile
from starlette.requests import Request
from starlette.responses import Response

from weiqi.errors import (
    Conflict,
    FieldsRejected,
    InputError,
    InvalidSetting,
    PermissionDenied,
    RowsRejected,
)
from weiqi.i18n import N_
from weiqi.server.errors import status_of
from weiqi.server.security import Db, flash
from weiqi.server.templating import locale_of, say, translate
from weiqi.services import games
from weiqi.services.actor import Actor
from weiqi.services.permissions import Action, allowed
from weiqi.tournament.details import DEFAULT_TIME_ZONE, EventDetails, details_form
from weiqi.tournament.ranks import Rank
from weiqi.tournament.settings import SYSTEM_SETTINGS, System, systems_reading


def require_page(db: Db, actor: Actor, action: Action, event_id: int | None = None) -> None:
    """A page for one action: 403 for whoever may not take it."""
    if not allowed(db, actor, action, event_id):
        raise PermissionDenied(actor.username, action.value)


def broken_boards(request: Request, db: Db, actor: Actor, event_id: int) -> list[str]:
    """The boards left out because their seal does not hold, as an event's manage page lists
    them (``broken_boards.html``): for the chief referee to see, for nobody else (empty)."""
    if not allowed(db, actor, Action.CORRECT_RESULT, event_id):
        return []
    return [say(request, c.game) for c in games.broken_boards(db, actor, event_id)]


async def posted_form(request: Request) -> FormData:
    """The posted form, read (asynchronously) before its route runs: a route that calls the
    services (synchronous: they wait for the database) is synchronous itself, so FastAPI runs
    it in its threadpool — written ``async``, it held the event loop, and every live room of
    the worker with it, for as long as the services took (an import of 1,000 players)."""
    return await request.form()


#: A route's posted form (:func:`posted_form`), files included.
PostedForm = Annotated[FormData, Depends(posted_form)]


async def form_fields(form: PostedForm) -> dict[str, str]:
    """The text fields of the posted form (:data:`PostedForm`, read once)."""
    return {k: v for k, v in form.items() if isinstance(v, str)}


#: A route's posted text fields (:func:`form_fields`).
FormFields = Annotated[dict[str, str], Depends(form_fields)]


def decode_csv(raw: bytes) -> str | None:
    r"""The text of an uploaded CSV file: UTF-8 (with or without BOM), else GB18030 — what a
    Chinese Excel saves as "CSV"; ``None`` if it is neither.

    >>> decode_csv("姓名\n李明\n".encode("gb18030")), decode_csv(b"\xef\xbb\xbfname\n")
    ('姓名\n李明\n', 'name\n')
    """
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    return None


NOT_TEXT = N_("the file is neither UTF-8 nor GB18030 text")


@dataclass(frozen=True)
class ImportForm:
    """An import form (players or teams) as sent: the CSV ``content`` from the uploaded file or
    else the pasted text, the ``source`` that names it in errors, what was ``pasted`` (given back
    on a refusal), the other ``fields``, and the ``problem`` (a msgid) when there is no text."""

    content: str
    source: str
    pasted: str
    fields: dict[str, str]
    problem: str | None


def read_import_form(form: FormData, source: str) -> ImportForm:
    """Read an import form: an upload (UTF-8 or GB18030, :func:`decode_csv`) or pasted text."""
    upload, text = form.get("file"), form.get("text")
    pasted = text if isinstance(text, str) else ""
    fields = {k: v for k, v in form.items() if isinstance(v, str)}
    content, problem = pasted, None
    if isinstance(upload, UploadFile) and upload.filename:
        decoded = decode_csv(upload.file.read())  # spooled already: read in the threadpool
        if decoded is None:
            return ImportForm("", upload.filename, pasted, fields, NOT_TEXT)
        content, source = decoded, upload.filename
    if not content.strip():
        problem = N_("Choose a CSV file or paste its text.")
    return ImportForm(content, source, pasted, fields, problem)


def import_problems(request: Request, err: InputError) -> list[tuple[int, str]]:
    """A refused import's problems by line, in the reader's language (0: the whole file)."""
    if isinstance(err, RowsRejected):
        return [(n, say(request, why)) for n, why in err.problems]
    return [(0, say(request, err.reason))]


def field_problems(request: Request, err: FieldsRejected) -> dict[str, str]:
    """A refused form's problems by field (its form key), in the reader's language: what a
    page shows beside each field."""
    return {field: say(request, why) for field, why in err.problems.items()}


def import_rows(
    request: Request,
    form: FormData,
    db: Db,
    actor: Actor,
    event_id: int,
    source: str,
    store: Callable[[ImportForm], int],
    page: Callable[..., Response],
    done: str,
    back: str,
) -> Response:
    """An event's import form (players or teams) posted: ``store`` its rows (all, or none)
    and go ``back`` saying ``done`` (a msgid with ``%(count)s``); or the event's ``page``
    again (its keywords: ``import_errors``, ``import_text``, ``status_code``) with the
    problems and the pasted text, to mend."""
    sent = read_import_form(form, source)
    require_page(db, actor, Action.MANAGE_PLAYERS, event_id)
    if sent.problem is not None:
        problems = [(0, translate(request, sent.problem))]
        return page(import_errors=problems, status_code=422)
    try:
        count = store(sent)
    except InputError as err:
        return page(
            import_errors=import_problems(request, err),
            import_text=sent.pasted,
            status_code=status_of(err),
        )
    flash(request, translate(request, done, count=count))
    return RedirectResponse(back, status_code=303)


def save_round_start(
    request: Request,
    event_id: int,
    number: int,
    typed: str,
    save: Callable[[], object],
    page: Callable[..., Response],
) -> Response:
    """A round's start posted from its page (individual or team event): ``save`` it and go
    back to the page saying so; or the round's ``page`` again (its keywords: ``values``,
    ``errors``, ``status_code``) with the refusal beside the field and what was ``typed``."""
    try:
        save()
    except (InvalidSetting, Conflict) as err:
        return page(
            values={"start": typed},
            errors={"start": say(request, err.reason)},
            status_code=status_of(err),
        )
    flash(request, translate(request, "The start of round %(number)s is saved.", number=number))
    return RedirectResponse(f"/events/{event_id}/manage/rounds/{number}", status_code=303)


def systems_shown(among: tuple[System, ...]) -> dict[str, str]:
    """Each setting only some systems read (``SYSTEM_SETTINGS``) with those of ``among`` (a
    kind's systems) that read it, as a settings form's ``data-systems`` lists them: the form
    shows the setting with those systems only (``static/settings-systems.js``).

    >>> from weiqi.tournament.settings import TEAM_SYSTEMS
    >>> systems_shown(TEAM_SYSTEMS)["cycles"]
    'round_robin'
    """
    return {
        name: " ".join(s.value for s in systems_reading(name, among)) for name in SYSTEM_SETTINGS
    }


def new_event_details(request: Request) -> dict[str, str]:
    """The details fields of a new event's form (individual or team): empty, but for the
    time zone."""
    # a Chinese page's event is in China's time; otherwise page.js fills the browser's
    zone = DEFAULT_TIME_ZONE if locale_of(request) == "zh_CN" else ""
    return {**details_form(EventDetails()), "time_zone": zone}


def rank_label(locale: str, code: str | None) -> str:
    """A rank as the page's reader writes it (5段 / 5d)."""
    if not code:
        return ""
    return Rank.parse(code).zh if locale == "zh_CN" else code
