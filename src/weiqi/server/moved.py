"""Where an address that moved now is: a bookmark, a printed sheet or an old client still
arrives (308, so a client repeats its request there, method and body kept).

Team events were once under ``/team-events/…`` (pages and API); then their rounds and
standings were under ``/events/{id}/teams/…``. Every event's rounds and standings are now at
one address whatever its kind (``/events/{id}/rounds/{n}``, ``/events/{id}/standings``, and
the same under ``/api``); what only a team event has stays under ``/events/{id}/teams``.
"""

from __future__ import annotations

#: Parts of a team event's address that now sit beside every event's (its management was
#: always there: an old ``/team-events/{id}/manage`` leads to it).
_BESIDE = ("rounds", "standings", "manage")

#: The old team API's batch of board results is the round's results, as an individual event's.
_RENAMED = {"results/batch": "results"}


def current_address(path: str, query: str = "") -> str:
    """Where an old address ``path`` (``query`` kept) is now; a current one is returned as is.

    >>> current_address("/team-events/new")
    '/events/new?kind=team'
    >>> current_address("/team-events/3", "q=x")
    '/events/3/teams?q=x'
    >>> current_address("/team-events/3/manage/rounds/1")
    '/events/3/manage/rounds/1'
    >>> current_address("/team-events/3/rounds/1/lineup", "team=A")
    '/events/3/rounds/1/lineup?team=A'
    >>> current_address("/events/3/teams/standings/projector")
    '/events/3/standings/projector'
    >>> current_address("/api/team-events")
    '/api/events/teams'
    >>> current_address("/api/team-events/3/records", "board=1")
    '/api/events/3/teams/records?board=1'
    >>> current_address("/api/events/3/teams/rounds/2/results/batch")
    '/api/events/3/rounds/2/results'
    >>> current_address("/api/events/3/teams/rounds")
    '/api/events/3/rounds'
    """
    api = path.startswith("/api/")
    rest = path.removeprefix("/api")
    if rest.startswith("/team-events"):
        head, _, tail = rest.removeprefix("/team-events").strip("/").partition("/")
        if head == "new" and not api:
            rest, query = "/events/new", "&".join(q for q in ("kind=team", query) if q)
        elif not head:
            rest = "/events/teams"
        else:
            rest = f"/events/{head}/teams" + (f"/{tail}" if tail else "")
    parts = rest.split("/")  # "", "events", id, "teams", part, …
    if len(parts) > 4 and parts[1] == "events" and parts[3] == "teams" and parts[4] in _BESIDE:
        rest = "/".join(parts[:3] + parts[4:])
        for old, new in _RENAMED.items():
            if api and rest.endswith("/" + old):
                rest = rest.removesuffix(old) + new
    return ("/api" if api else "") + rest + (f"?{query}" if query else "")
