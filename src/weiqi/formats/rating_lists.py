"""Rating lists read as values: the European Go Database's and the French federation's (issue #14).

Three layouts, each read by a pure function from text to a :class:`RatingList`:

* **EGD** (:func:`read_egd`): the "allworld" list the European Go Database publishes
  (``allworld_lp.html``, also zipped, and the ``.txt`` saves of it). Inside the page's
  ``<pre>``, one player a line::

       PIN     Name                          Country Club Grade P&D    GoR    NT Last
     10537560  Aaij Rene                             NL  Gron    4d   --   2398    87  T170507A

  PIN (eight digits), surname and given name (a space inside a name written ``_``: ``Abd_el_Fatah
  Reda``, ``Aarle Barbara_van``), country (``XX``: none), club (``xxx``/``xxxx``: none), the grade
  the player declared at their last event (``20k``…``1k``, ``1d``…``9d``, ``1p``…``9p``), the
  suggested promotion or demotion (``--``: none), the GoR, the number of events and the last one.
  The columns are found by their order, not their place, so a wider GoR or PIN reads the same.
  The page's date is its ``(25 May 2017)`` line. Placeholders (``(undefined) Man_Hai``,
  ``Anonymous#0023``) are no players to match and are skipped.
* **FFG** (:func:`read_ffg`): the French rating list (*échelle*, ``ech_ffg_V3.txt``, Latin-1),
  after a ``#Echelle au 11/01/2021 07:09:39`` line::

    AAIJ René                               243 e ------- xxxx NL
    ABAD Jahin                            -3000 - 2000205 38GJ FR

  SURNAME and given name (``_`` for a space), the FFG rating (100 a stone, 0 the boundary
  between 1k and 1d; ``-9999``: not rated), the licence status (``-`` ``L`` ``C`` ``e`` ``X``),
  the licence number (``-------``: none), the club (``xxxx``: none) and the country. The rating
  is given on the EGF's scale, as OpenGotha keeps it (FFG + 2050: 243 is 2293), and the rank is
  the one of that rating (the list has no grade): 243 is 3d, -500 is 5k.
* **FFG tournament file** (:func:`read_tou`, ``.tou``, what OpenGotha writes for the FFG): after
  ``;key=value`` headers, one player a line with number, name (25 characters, ``_`` for a
  space), grade, licence, club and the results; it gives rank, licence and club (no rating, no
  country).

Real lists have thousands of lines and a few odd ones: a line that looks like a player's (it
starts with a PIN; it has the échelle's columns) but cannot be read is skipped and counted
(:attr:`RatingList.skipped`, the first line numbers in :attr:`RatingList.skipped_lines`), never
the end of the list; other lines (HTML, notes, headers) are not players and are passed over. A
file in which no player line can be read is refused: it is not a list of that layout.

>>> egd = '''(25 May 2017)
... <pre>
...  13250710  Chen Yaoye                            CN  xxxx    9p   --   2938     3  W131221A
...  10349537  Dai Junfu                             FR  75EG    8d   --   2765    60  T161001O
...  15774869  Abilio-branco Eric                    FR  92Le   12k   --    904     1  G100403A
...  12686564  Anonymous#0023 Anonymous              NL  Leid   20k   --    133     6  E020315B
... '''
>>> listed = read_egd(egd)
>>> listed.date, len(listed.players), listed.skipped
('25 May 2017', 3, 1)
>>> chen = listed.players[0]
>>> chen.surname, chen.given_name, chen.rank, chen.rating, chen.club, chen.country, chen.egf_pin
('Chen', 'Yaoye', Rank('9p'), 2938.0, '', 'CN', '13250710')
>>> ffg = read_ffg('''#Echelle au 11/01/2021 07:09:39
... DAI Junfu                               704 L 0043005 91Or FR
... ABAT Alexis                           -9999 - 9179004 30NJ FR
... ''')
>>> [(p.surname, p.rank, p.rating, p.ffg_licence, p.club) for p in ffg.players]
[('DAI', Rank('8d'), 2754.0, '0043005', '91Or'), ('ABAT', None, None, '9179004', '30NJ')]
"""

from __future__ import annotations

import io
import math
import re
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

from weiqi.errors import InputError
from weiqi.formats.egf import decode, parse_rank, parse_round
from weiqi.formats.romanize import latin_text
from weiqi.i18n import N_
from weiqi.messages import Msg
from weiqi.tournament.ranks import Rank

ListFormat = Literal["egd", "ffg", "tou"]
FORMATS: tuple[ListFormat, ...] = ("egd", "ffg", "tou")

MAX_LIST_BYTES = 32 * 1024 * 1024
"""A whole EGD list is about 10 MB as a page (60,000 players); three times that is no list."""
MAX_NAME = 100
"""Characters of a surname or a given name; a longer one is an odd line."""
SKIPPED_SHOWN = 20
"""Line numbers of skipped lines kept for the report (the count is always whole)."""
FFG_TO_EGF = 2050
"""The FFG's 0 (the boundary between 1k and 1d) on the EGF's GoR scale (OpenGotha's shift)."""
FFG_NOT_RATED = -9999
_MAX_RATING = 10_000  # as weiqi.formats.players_csv.MAX_RATING: no list has more

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_EGD_PLACEHOLDERS = ("(undefined)", "anonymous")


@dataclass(frozen=True)
class RatedPlayer:
    """One entry of a rating list: what it says of a player, ``""``/``None`` where it says
    nothing. ``rating`` is on the EGF's GoR scale (2100 is 1d, 100 a stone), whatever the list;
    ``rating_origin`` is the list it came from (``EGF``, ``FFG``), as OpenGotha records it."""

    surname: str
    given_name: str
    rank: Rank | None
    rating: float | None
    club: str
    country: str
    egf_pin: str = ""
    ffg_licence: str = ""
    rating_origin: str = ""

    @property
    def name(self) -> str:
        """Surname and given name, as the lists write them.

        >>> RatedPlayer("Chen", "Yaoye", None, None, "", "CN").name
        'Chen Yaoye'
        """
        return f"{self.surname} {self.given_name}".strip()


@dataclass(frozen=True)
class RatingList:
    """A list read: its layout, its date as it gives it (``""`` when it gives none), the
    players in file order, and how many player lines could not be read (and where)."""

    source: ListFormat
    date: str
    players: tuple[RatedPlayer, ...]
    skipped: int = 0
    skipped_lines: tuple[int, ...] = ()


# --- the three layouts ---------------------------------------------------------------------


def read_egd(text: str, source: str = "allworld_lp.html") -> RatingList:
    """The EGD "allworld" list in ``text`` (the page or its text; see the module).

    >>> read_egd(" 1234  Li Wei  CN  Bj  3d  --  2300  4\\n 99 x\\n").skipped_lines
    (2,)
    """
    date = ""
    for line in text.splitlines()[:200]:
        inner = line.strip()
        if inner.startswith("(") and inner.endswith(")") and any(c.isdigit() for c in inner):
            date = inner[1:-1].strip()
            break
    return _read(text, "egd", date, _egd_line, source)


def read_ffg(text: str, source: str = "ech_ffg_V3.txt") -> RatingList:
    """The FFG *échelle* in ``text`` (see the module)."""
    date = ""
    for line in text.splitlines()[:20]:
        if line.startswith("#") and "Echelle au " in line:
            date = line.split("Echelle au ", 1)[1].strip()
            break
    return _read(text, "ffg", date, _ffg_line, source)


def read_tou(text: str, source: str = "tournament.tou") -> RatingList:
    """The players of an FFG tournament file (``.tou``) in ``text``: rank, licence, club.

    >>> tou = read_tou(''';name=Juvisy
    ... ;date=26/10/2019
    ... ;Num Nom Prenom               Niv Licence Club
    ...    1 Minieri Davide            3D 1800014 75Ju    2+w0    3+b0
    ...    2 Tu Linh_Vu                4K 1600067 92An    1-b0   0=
    ... ''')
    >>> tou.date, [(p.surname, p.given_name, p.rank, p.ffg_licence) for p in tou.players]
    ('26/10/2019', [('Minieri', 'Davide', Rank('3d'), '1800014'), ('Tu', 'Linh Vu', Rank('4k'), \
'1600067')])
    """
    date = ""
    for line in text.splitlines()[:50]:
        if line.lower().startswith(";date="):
            date = line.split("=", 1)[1].strip()
            break
    return _read(text, "tou", date, _tou_line, source)


READERS: dict[ListFormat, Callable[[str, str], RatingList]] = {
    "egd": read_egd,
    "ffg": read_ffg,
    "tou": read_tou,
}


def read_rating_list(data: bytes, fmt: ListFormat, source: str = "rating list") -> RatingList:
    """A list from a file's bytes: UTF-8, else Latin-9 (the FFG's files); a ZIP archive (the
    EGD publishes ``allworld_lp.zip``) gives its one list. Over :data:`MAX_LIST_BYTES` (packed
    or unpacked) it is refused whole.

    >>> read_rating_list(b"x" * 10, "egd", "list.txt")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: list.txt: no player line in the EGD list's layout (...)
    >>> read_rating_list(b"", "pdf", "list.txt")
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: list.txt: 'pdf' is not one of egd, ffg, tou
    """
    if fmt not in READERS:
        raise InputError(
            source, Msg("%(value)s is not one of %(names)s", value=repr(fmt), names="egd, ffg, tou")
        )
    _check_size(source, len(data))
    if data.startswith(b"PK\x03\x04"):
        data = _unzip(source, data)
    return READERS[fmt](decode(data), source)


# --- name keys for matching ----------------------------------------------------------------


def name_key(*parts: str) -> str:
    """The parts of a name run together in lower-case ASCII letters and digits: what two
    spellings of one name share, whatever their case, accents, spaces, hyphens and underscores
    (Chinese characters are read in pinyin).

    >>> name_key("ABILIO-BRANCO", "Éric") == name_key("Abilio-branco", "Eric") == "abiliobrancoeric"
    True
    >>> name_key("Chang", "Che-Hao") == name_key("Chang Chehao"), name_key("张", "伟")
    (True, 'zhangwei')
    """
    text = "".join(parts)
    if not text.isascii():
        text = latin_text(text, ascii=True)
    return "".join(c for c in text.casefold() if c.isalnum())


# --- lines ---------------------------------------------------------------------------------

_Line = RatedPlayer | Literal["odd"] | None
"""A line read: an entry, ``"odd"`` (a player line that cannot be read) or ``None`` (no player
line at all)."""


def _read(
    text: str, fmt: ListFormat, date: str, parse: Callable[[str], _Line], source: str
) -> RatingList:
    _check_size(source, len(text))
    players: list[RatedPlayer] = []
    skipped: list[int] = []
    count = 0
    for number, line in enumerate(text.splitlines(), start=1):
        got = parse(line)
        if got is None:
            continue
        if got == "odd":
            count += 1
            if len(skipped) < SKIPPED_SHOWN:
                skipped.append(number)
            continue
        players.append(got)
    if not players:
        raise InputError(source, Msg(_EMPTY[fmt]))
    return RatingList(fmt, date, tuple(players), count, tuple(skipped))


_EMPTY: dict[ListFormat, str] = {
    "egd": N_("no player line in the EGD list's layout (PIN, name, country, club, grade, GoR)"),
    "ffg": N_(
        "no player line in the FFG list's layout (name, rating, status, licence, club, country)"
    ),
    "tou": N_(
        "no player line in the FFG tournament file's layout (number, name, grade, licence, club)"
    ),
}


def _egd_line(line: str) -> _Line:
    words = line.split()
    if not words or not (words[0].isdigit() and words[0].isascii()):
        return None
    if _CONTROL.search(line):
        return "odd"
    # country club grade P&D GoR NT [last appearance], after the PIN and at least a surname
    tail = 6 if words[-1].isdigit() else 7
    if len(words) < 2 + tail:
        return "odd"
    pin, names = words[0], words[1 : len(words) - tail]
    country, club, grade, _promotion, gor = words[len(words) - tail : len(words) - tail + 5]
    rating = _int(gor)
    if rating is None or len(country) != 2 or not country.isalpha() or len(club) > 8:
        return "odd"
    surname, given = _names(names[0], names[1:])
    if not surname or surname.casefold().startswith(_EGD_PLACEHOLDERS):
        return "odd"
    if len(surname) > MAX_NAME or len(given) > MAX_NAME:
        return "odd"
    return RatedPlayer(
        surname,
        given,
        _rank(grade),
        float(rating),
        _none_if(club, "x"),
        "" if country.upper() == "XX" else country.upper(),
        egf_pin=pin,
        rating_origin="EGF",
    )


def _ffg_line(line: str) -> _Line:
    if not line.strip() or line.startswith("#"):
        return None
    words = line.rsplit(None, 5)
    if len(words) != 6:
        return "odd"
    names, rating_text, status, licence, club, country = words
    rating = _int(rating_text)
    if (
        rating is None
        or len(status) != 1
        or len(licence) != 7
        or not (licence == "-------" or licence.isalnum())
        or len(country) != 2
        or not country.isalpha()
    ):
        return "odd"  # not the échelle's columns
    if _CONTROL.search(line) or len(club) > 8:
        return "odd"
    first, *rest = names.split()
    surname, given = _names(first, rest)
    if not surname or len(surname) > MAX_NAME or len(given) > MAX_NAME:
        return "odd"
    gor = None if rating == FFG_NOT_RATED else rating + FFG_TO_EGF
    return RatedPlayer(
        surname,
        given,
        None if gor is None else rank_of_rating(gor),
        None if gor is None else float(gor),
        _none_if(club, "x"),
        "" if country.upper() == "XX" else country.upper(),
        ffg_licence="" if licence == "-------" else licence,
        rating_origin="FFG" if gor is not None else "",
    )


def _tou_line(line: str) -> _Line:
    if not line.strip() or line.lstrip().startswith(";"):
        return None
    words = line.split()
    start = 1 if words[0].isdigit() else 0
    at = next(
        (
            i
            for i in range(start + 1, len(words))
            if words[i][-1:].lower() in ("k", "d", "p") and parse_rank(words[i])
        ),
        None,
    )
    if at is None or _CONTROL.search(line):
        return "odd"
    rest = words[at + 1 :]
    licence = club = ""
    if rest and len(rest[0]) == 7 and rest[0].isalnum() and parse_round(rest[0]) is None:
        licence, rest = rest[0], rest[1:]
    if rest and parse_round(rest[0]) is None:
        club, rest = rest[0], rest[1:]
    if len(club) > 8 or any(parse_round(w) is None for w in rest):
        return "odd"  # after the club, results only (2+w0, 0=)
    surname, given = _names(words[start], words[start + 1 : at])
    if not surname or len(surname) > MAX_NAME or len(given) > MAX_NAME:
        return "odd"
    return RatedPlayer(
        surname, given, _rank(words[at]), None, _none_if(club, "x"), "", ffg_licence=licence
    )


# --- fields --------------------------------------------------------------------------------


def rank_of_rating(gor: float) -> Rank:
    """The rank of a GoR, the EGD's way: 1d from 2050 up to 2150, 100 a rank, 30k and 9d at the
    ends.

    >>> [rank_of_rating(r) for r in (2100, 2049, 1950, 2293, 2754, 3100, -900, -2000)]
    [Rank('1d'), Rank('1k'), Rank('1k'), Rank('3d'), Rank('8d'), Rank('9d'), Rank('30k'), \
Rank('30k')]
    """
    step = max(-30, min(8, math.floor((gor - FFG_TO_EGF) / 100)))
    return Rank.from_strength(step + 1)  # step -1 is 1k (strength 0), step 0 is 1d


def _rank(grade: str) -> Rank | None:
    code = parse_rank(grade)
    return Rank.parse(code) if code and code[-1] in "kdp" and grade[-1:].isalpha() else None


def _int(text: str) -> int | None:
    digits = text[1:] if text[:1] == "-" else text
    if not (digits.isdigit() and digits.isascii() and len(digits) <= 6):
        return None
    value = int(text)
    return value if abs(value) <= _MAX_RATING else None


def _names(surname: str, given: Iterable[str]) -> tuple[str, str]:
    return surname.replace("_", " ").strip(), " ".join(given).replace("_", " ").strip()


def _none_if(text: str, filler: str) -> str:
    """``""`` for a placeholder made of ``filler`` only (``xxxx``, ``XX``)."""
    return "" if text and set(text.lower()) == {filler} else text


def _check_size(source: str, size: int) -> None:
    if size > MAX_LIST_BYTES:
        raise InputError(
            source,
            Msg("the file is larger than %(limit)s MB", limit=MAX_LIST_BYTES // (1024 * 1024)),
        )


def _unzip(source: str, data: bytes) -> bytes:
    """The one list of a ZIP archive, its unpacked size checked before it is unpacked."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [m for m in archive.infolist() if not m.is_dir()]
            if len(members) != 1:
                raise InputError(
                    source,
                    Msg("a ZIP archive must hold one list; this one holds %(n)s files",
                        n=len(members)),
                )  # fmt: skip
            _check_size(source, members[0].file_size)
            with archive.open(members[0]) as member:
                unpacked = member.read(MAX_LIST_BYTES + 1)
    except (zipfile.BadZipFile, NotImplementedError, EOFError):
        raise InputError(source, Msg("is not a ZIP archive that can be read")) from None
    _check_size(source, len(unpacked))
    return unpacked
