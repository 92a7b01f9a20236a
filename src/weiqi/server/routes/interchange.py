"""Events in and out of other programs' files on the organisers' pages: an OpenGotha file
becomes a new event (``/import/opengotha``); an event is downloaded as an OpenGotha file or
as its EGF results table (``/events/{id}/export/…``). The same services as ``weiqi import`` and
``weiqi export``; what a file holds that cannot be mapped is listed after the import.

| address | does |
|---|---|
| ``GET /import/opengotha`` | the upload form |
| ``POST /import/opengotha`` | a new event from the file, then its organisers' page |
| ``GET /events/{id}/export/opengotha.xml`` | the event as an OpenGotha file |
| ``GET /events/{id}/export/results.h9`` | the EGF results table (``?round=N``: after round N) |
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import RedirectResponse
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import Response

from weiqi.errors import InputError
from weiqi.i18n import N_
from weiqi.server.downloads import attachment
from weiqi.server.inputs import ScreenedRoute, requires
from weiqi.server.page_forms import PostedForm, require_page
from weiqi.server.security import Db, LoggedIn, flash
from weiqi.server.templating import html, say, translate
from weiqi.services import interchange
from weiqi.services.permissions import Action

router = APIRouter(route_class=ScreenedRoute, include_in_schema=False)

NO_FILE = N_("Choose an OpenGotha file (.xml).")


def _page(request: Request, *, error: str = "", name: str = "", status_code: int = 200) -> Response:
    context = {"error": error, "name": name}
    return html(request, "event_import.html", context, status_code=status_code)


@router.get("/import/opengotha")
def import_page(request: Request, db: Db, user: LoggedIn) -> Response:
    require_page(db, user.actor(), Action.CREATE_EVENT)
    return _page(request)


@router.post("/import/opengotha")
@requires(Action.CREATE_EVENT)
def import_file(request: Request, form: PostedForm, db: Db, user: LoggedIn) -> Response:
    upload, name = form.get("file"), form.get("name")
    title = name.strip() if isinstance(name, str) else ""
    if not isinstance(upload, UploadFile) or not upload.filename:
        return _page(request, error=translate(request, NO_FILE), name=title, status_code=422)
    try:
        report = interchange.import_opengotha(
            db, user.actor(), upload.file.read(), name=title or None
        )
    except InputError as err:
        what = f"{upload.filename}: {say(request, err.msg)}"
        return _page(request, error=what, name=title, status_code=422)
    flash(
        request,
        translate(
            request,
            "Imported from %(file)s: %(players)s players, %(rounds)s rounds, %(games)s games.",
            file=upload.filename,
            players=report.players,
            rounds=report.rounds,
            games=report.games,
        )
        + "".join(" " + say(request, note) for note in report.notes),
    )
    return RedirectResponse(f"/events/{report.event_id}/manage", status_code=303)


@router.get("/events/{event_id}/export/opengotha.xml")
def export_opengotha(request: Request, db: Db, user: LoggedIn, event_id: int) -> Response:
    data = interchange.export_opengotha(db, user.actor(), event_id)
    return attachment(data, f"event-{event_id}.xml", "application/xml")


@router.get("/events/{event_id}/export/results.h9")
def export_egf(
    request: Request,
    db: Db,
    user: LoggedIn,
    event_id: int,
    round: Annotated[int | None, Query(ge=1, le=100)] = None,
) -> Response:
    data = interchange.export_egf(db, user.actor(), event_id, round)
    return attachment(data, f"event-{event_id}.h9", "text/plain; charset=iso-8859-15")
