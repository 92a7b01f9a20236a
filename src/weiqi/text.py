"""Text a user gives us to store — names and notes — checked in one place, and the size limits.

Every service that stores a name (an event, a player and the player's club or country, a team,
a roster entry, a user's display name, a league) passes it through :func:`clean_name`; a
referee's note or reason goes through :func:`clean_note`; an uploaded or pasted CSV file
through :func:`check_upload`. Each returns the text as stored (NFC, stripped) or raises
:class:`~weiqi.errors.InvalidSetting` (``InputError`` for a file) naming the field, so that the
page shows the reason next to it and the API answers 422 with the field in ``args``.

Refused in names: control characters (a newline, NUL), every format character (``Cf``: the
zero-width space U+200B, joiners U+200C/U+200D, the word joiner U+2060, the byte-order mark
U+FEFF, the bidi overrides and isolates U+202A–U+202E and U+2066–U+2069 …), lone surrogates
(not text at all: no database can store them) and line or paragraph separators. They are
invisible, or reorder what is shown around them, so two names that look alike would differ. Notes
may have several lines (newlines and tabs) but no other of these.

>>> clean_name("name", "  Li\\u0301 Wei ")  # NFC: i + combining acute → í
'Lí Wei'
>>> clean_name("name", "Li\\u200bWei")
Traceback (most recent call last):
...
weiqi.errors.InvalidSetting: name: must not contain invisible characters (U+200B)
>>> clean_name("club", "", required=False)
''
>>> clean_note("note", "first line\\nsecond line")
'first line\\nsecond line'
"""

from __future__ import annotations

import unicodedata

from weiqi.errors import InputError, InvalidSetting
from weiqi.messages import Msg

# -- the limits, in one place -------------------------------------------------------------------

MAX_NAME_LENGTH = 200
"""Characters of a name (event, player, club, team, display name): the columns' length."""

MAX_NOTE_LENGTH = 10_000
"""Characters of a note or reason in a game record (a page of text; every append rewrites the
record, so a megabyte of note would be rewritten with every later event)."""

MAX_UPLOAD_BYTES = 2 * 1024 * 1024
"""Bytes of an uploaded or pasted CSV file (players, teams, results): some 40,000 rows, far
more than any event has, and a request that holds the write lock for seconds, not minutes."""

MAX_REQUEST_BYTES = MAX_UPLOAD_BYTES + 1024 * 1024
"""Bytes of any request body (a form, an upload, JSON): 3 MB, the largest upload and room for a
form's multipart fields or a JSON body's quoting around it. ``server/body_limit.py`` refuses a
request that says it is larger (``Content-Length``) before reading a byte of it, and stops reading
a chunked one as soon as it passes the limit: 413, and nothing is stored. A client that escapes
every non-ASCII character of a CSV in JSON (``\\u674e``, 6 bytes for 3) should send UTF-8."""

MAX_ENTRANTS = 10_000
"""Players (or teams) in one event: the big events issue #15 pairs and ranks through the command
line (a 10,000-player Swiss round ≤ 10 s, its standings ≤ 1 s; ``bench/cli_events.py``), and
no more, so that a single import cannot make the pairing and standings pages choke."""

MAX_ID = 2**63 - 1
"""The largest id or count a database integer column holds (64-bit signed)."""

_PLAYERS = Msg("players")  # the field of the entrant limit (a msgid, so that it is translated)


def _codepoint(c: str) -> str:
    return f"U+{ord(c):04X}"


def _check_characters(field: str, text: str, allow: str) -> None:
    for c in text:
        category = unicodedata.category(c)
        if category == "Cs":
            raise InvalidSetting(
                field, Msg("contains a character that is not text (%(code)s)", code=_codepoint(c))
            )
        if category == "Cf":
            raise InvalidSetting(
                field, Msg("must not contain invisible characters (%(code)s)", code=_codepoint(c))
            )
        if category in ("Cc", "Zl", "Zp") and c not in allow:
            if allow:
                raise InvalidSetting(
                    field, Msg("must not contain control characters (%(code)s)", code=_codepoint(c))
                )
            raise InvalidSetting(field, Msg("must be one line without control characters"))


def _normalise(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def clean_name(
    field: str, text: str, *, required: bool = True, max_length: int = MAX_NAME_LENGTH
) -> str:
    """``text`` as a name is stored: NFC, stripped, one line, nothing invisible, at most
    ``max_length`` characters; ``InvalidSetting(field, …)`` otherwise. ``field`` is a msgid
    (``N_("name")``), shown translated.

    >>> clean_name("name", "\\u202eevil")
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: name: must not contain invisible characters (U+202E)
    >>> clean_name("name", "x" * 201)
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: name: must have at most 200 characters
    """
    _check_characters(field, text, allow="")
    name = _normalise(text).strip()
    if not name and required:
        raise InvalidSetting(field, Msg("must not be empty"))
    if len(name) > max_length:
        raise InvalidSetting(field, Msg("must have at most %(limit)s characters", limit=max_length))
    return name


def clean_note(field: str, text: str, *, max_length: int = MAX_NOTE_LENGTH) -> str:
    """``text`` as a note or reason is stored: NFC, stripped, lines and tabs allowed, nothing
    invisible, at most ``max_length`` characters (``InvalidSetting(field, …)`` otherwise).

    >>> clean_note("reason", "a\\x00b")
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: reason: must not contain control characters (U+0000)
    """
    _check_characters(field, text, allow="\n\r\t")
    note = _normalise(text).strip()
    if len(note) > max_length:
        raise InvalidSetting(field, Msg("must have at most %(limit)s characters", limit=max_length))
    return note


def stated_reason(text: str, refusal: Msg) -> str:
    """``text`` as a reason is stored (:func:`clean_note`, field ``reason``) where a reason
    must be given: ``InvalidSetting("reason", refusal)`` when there is none.

    >>> stated_reason("  the count was wrong ", Msg("a correction states its reason"))
    'the count was wrong'
    >>> stated_reason(" ", Msg("a correction states its reason"))
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: reason: a correction states its reason
    """
    reason = clean_note("reason", text)
    if not reason:
        raise InvalidSetting("reason", refusal)
    return reason


def check_upload(source: str, text: str, *, max_bytes: int = MAX_UPLOAD_BYTES) -> str:
    """``text`` (a whole CSV file) if it is at most ``max_bytes`` of UTF-8 and contains no lone
    surrogate (which no database stores); else ``InputError(source, …)``. The cells are checked
    one by one by whoever reads them (names through :func:`clean_name`: a NUL is named by its
    line).

    >>> check_upload("players.csv", "name\\nLi\\n")
    'name\\nLi\\n'
    >>> check_upload("players.csv", "x" * 2000, max_bytes=1024)
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: players.csv: the file is larger than 1 kB
    """
    # Cheap first: a string holds at least one byte a character.
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise InputError(
            source, Msg("the file is larger than %(limit)s kB", limit=max_bytes // 1024)
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(source, Msg("the file is not UTF-8 text")) from None
    return text


def check_entrants(count: int, *, limit: int = MAX_ENTRANTS) -> None:
    """``InvalidSetting("players", …)`` when an event would have more than ``limit`` entrants.

    >>> check_entrants(10_001)
    Traceback (most recent call last):
    ...
    weiqi.errors.InvalidSetting: players: an event has at most 10000 entrants
    """
    if count > limit:
        raise InvalidSetting(
            _PLAYERS.id, Msg("an event has at most %(limit)s entrants", limit=limit)
        )


def in_id_range(value: int) -> bool:
    """Whether a database integer column can hold ``value`` as an id (1 … 2**63 − 1).

    >>> in_id_range(1), in_id_range(0), in_id_range(2**70)
    (True, False, False)
    """
    return 1 <= value <= MAX_ID
