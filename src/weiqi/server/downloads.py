"""A file the browser saves rather than shows: one answer for every download (the CSV of a
table, a game's SGF, an OpenGotha file, an EGF results table).

>>> r = attachment(b"a,b\\n", "standings.csv", "text/csv; charset=utf-8")
>>> r.headers["content-disposition"], r.media_type
('attachment; filename="standings.csv"', 'text/csv; charset=utf-8')
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.responses import Response


def attachment(
    data: bytes, filename: str, media_type: str, headers: Mapping[str, str] | None = None
) -> Response:
    """``data`` to be saved as ``filename`` (``headers``: more of them, e.g. ``Vary``)."""
    return Response(
        data,
        media_type=media_type,
        headers={"Content-Disposition": f'attachment; filename="{filename}"', **(headers or {})},
    )
