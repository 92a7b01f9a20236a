"""The EGF tournament results table (``.h9``), read and written as values (issue #14).

The European Go Federation rates events from a plain text table (A. Cieply's "Tournament table
format", the format the EGD parser reads; OpenGotha and pairgoth export it):

* comment lines start with ``;``; the header fields are comments of the form ``; KEY[value]``:
  ``CL`` class (A, B, C, D…), ``EV`` event, ``PC`` ``country,place``, ``DT`` ``start,end``,
  ``HA`` handicap rule (``h1``: rank difference minus 1), ``KM`` komi, ``TM`` adjusted time in
  minutes (older files ``TA``), ``CM`` comment (OpenGotha: the overtime system);
* the column line ``; Pl Name Rk Co Club <criteria…>`` names the score columns (OpenGotha writes
  each name right-aligned in five characters, cut to five, so ``  MMS  SOSSOSOS`` is MMS, SOS,
  SOSOS and ``Ratin`` is its Rating);
* one line a player: place, surname, given name (spaces inside a name written ``_``), rank,
  country, club, the score columns, then one result a round, the same number for every player,
  and optionally ``|`` and the player's EGF PIN.

A result is ``<opponent's line><+ - = ?>[/<w b ?>[<handicap>]]``: ``2+/w0`` won with white
against line 2, no handicap; ``11-/b5`` lost with black taking 5 stones; ``35=`` a jigo, colour
not given. ``?`` (outcome or colour) is OpenGotha's "not known". Without a game the opponent is
``0``: ``0+`` a free win, ``0-`` a free round without points (absent, not paired), ``0=`` a free
round with half a point. A forfeit (game won or lost by default) is OpenGotha's ``!`` in place of
the ``/`` (``2+!w0``); other programs append a ``!`` (``2+/w0!``); both are read, the first is
written.

What OpenGotha writes that the format leaves open, and how this module keeps it:

* A player tied with the line above has an empty place; opponents still refer to lines (the
  ``n``-th line is ``n``). :attr:`EgfPlayer.place` is the place shared by the tie, the line is the
  player's index in :attr:`EgfResults.players` plus one.
* Fewer than four score columns are padded with ``0`` columns to four (the extra ``0`` after
  MMS SOS SOSOS): the reader drops them, the writer adds them back (``pad_scores``).
* ``XX`` is "no country" and ``xxxx`` "no club": read as empty strings, written back.
* The file is ISO-8859-15 (Latin-9), and a character it cannot encode becomes ``?`` — which is why
  its Chinese names read ``? ??`` and a half point (``½`` is not in Latin-9) reads ``12?``. The
  reader takes ``12?`` as 12½ in the columns whose fractions can only be halves (every OpenGotha
  criterion but SODOS), and refuses it where it cannot know (SODOS: ¼, ½ or ¾). :func:`encode`
  never writes ``?``: it romanizes (Chinese in pinyin, see :mod:`weiqi.formats.romanize`) or
  refuses.
* Scores are written as integers or decimals (``12.5``); ``12½`` and ``12,5`` are read too.

There is no separate ``.h4`` layout to write: the EGF table format has a single layout (the
short form without colour and handicap, ``12+``, is a variant of the same table and is read;
OpenGotha writes only ``.h9``).

>>> text = '''; CL[A]
... ; EV[Demo]
... ;
... ; Pl Name                            Rk Co Club  MMS  SOSSOSOS
...    1 Li Boyuan                       2D FR 75Op   33  127  493 0    2+/w0    3+!b1
...    2 le_Galiard Jean-Francois        9K FR 92Le   31  120  482 0    1-/b0    0=
...      Vannier Luc                     4K XX xxxx   31  120  482 0    0-       1-!w1
... '''
>>> results = read_h9(text)
>>> results.field("EV"), results.criteria
('Demo', ('MMS', 'SOS', 'SOSOS'))
>>> li, galiard, luc = results.players
>>> li.surname, li.given_name, li.rank, li.criteria, li.rounds[1]
('Li', 'Boyuan', '2d', (33, 127, 493), EgfRound(opponent_place=3, outcome='+', color='b', \
handicap=1, forfeit=True, handicap_given=True))
>>> galiard.surname, luc.place, luc.country, luc.club
('le Galiard', 2, '', '')
>>> [line.rstrip() for line in write_h9(results).splitlines()] == text.splitlines()
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from weiqi.errors import InputError, RowsRejected
from weiqi.messages import Msg
from weiqi.text import check_upload

Outcome = Literal["+", "-", "=", "?"]
Color = Literal["w", "b", "?", ""]
Score = Fraction | int

MAX_H9_BYTES = 8 * 1024 * 1024
"""Larger than any real table (5,000 players of 15 rounds take about 1 MB)."""
MAX_ROUNDS = 100
MAX_PROBLEMS = 50
"""Bad lines reported at once; a file with more is not an EGF table at all."""

ENCODING = "iso-8859-15"
"""What OpenGotha writes (Latin-9: Latin-1 with Š š Ž ž Œ œ Ÿ € in place of ¦ ¨ ´ ¸ ¼ ½ ¾ ¤)."""

NO_COUNTRY = "XX"
NO_CLUB = "xxxx"
PAD_SCORES = 4
"""OpenGotha pads the score columns to four with ``0`` columns."""

_OUTCOMES = "+-=?"
_COLORS = "wb?"
_QUARTER_CRITERIA = frozenset({"SODOS"})
"""OpenGotha criteria counted in quarter points (its ``coef`` 4): a ``?`` there is ¼, ½ or ¾."""
_FRACTIONS = {"½": Fraction(1, 2), "¼": Fraction(1, 4), "¾": Fraction(3, 4)}


@dataclass(frozen=True)
class EgfRound:
    """One player's round: the opponent's line (0: no game), the outcome for this player, the
    colour this player had (``""`` not written, ``?`` not known) and the handicap stones.

    ``handicap_given`` is false when the file gave no number (``23+/w``, ``12+``): the EGF reads
    that as "handicap from the grades"; :attr:`handicap` is then 0.

    >>> EgfRound(2, "+", "w", 0).text()
    '2+/w0'
    >>> EgfRound(0, "=", "", 0).text(), EgfRound(5, "-", "b", 3, forfeit=True).text()
    ('0=', '5-!b3')
    >>> parse_round("11-/b5"), parse_round("12x")
    (EgfRound(opponent_place=11, outcome='-', color='b', handicap=5, forfeit=False, \
handicap_given=True), None)
    """

    opponent_place: int
    outcome: Outcome
    color: Color
    handicap: int
    forfeit: bool = False
    handicap_given: bool = True

    @property
    def played(self) -> bool:
        """Whether there was an opponent (a forfeit counts: it was paired)."""
        return self.opponent_place > 0

    def text(self) -> str:
        """The result as the table writes it (without padding)."""
        if not self.played:
            return f"0{self.outcome}"
        if not self.color and not self.forfeit and not self.handicap_given:
            return f"{self.opponent_place}{self.outcome}"
        stones = str(self.handicap) if self.handicap_given else ""
        mark = "!" if self.forfeit else "/"
        return f"{self.opponent_place}{self.outcome}{mark}{self.color}{stones}"


@dataclass(frozen=True)
class EgfPlayer:
    """One line of the table. ``place`` is the place shown (shared by tied players); ``rank`` is
    lower case (``3d``, ``10k``, ``1p``); ``country`` and ``club`` are ``""`` when unknown;
    ``criteria`` are the score columns in the order of :attr:`EgfResults.criteria`; ``extra``
    holds columns between the scores and the results that are not OpenGotha's ``0`` padding."""

    place: int
    surname: str
    given_name: str
    rank: str
    country: str
    club: str
    criteria: tuple[Score, ...]
    rounds: tuple[EgfRound, ...]
    pin: str = ""
    extra: tuple[str, ...] = ()


@dataclass(frozen=True)
class EgfResults:
    """A whole table: ``header`` the ``; KEY[value]`` fields in file order, ``comments`` the other
    comment lines (``Generated by OpenGotha 3.49``), ``criteria`` the score columns' names."""

    header: tuple[tuple[str, str], ...]
    criteria: tuple[str, ...]
    players: tuple[EgfPlayer, ...]
    comments: tuple[str, ...] = field(default=())

    def field(self, key: str) -> str | None:
        """The first header field ``key`` (``EV``, ``DT``…), or ``None``."""
        return next((value for k, value in self.header if k == key), None)

    @property
    def rounds(self) -> int:
        """The number of rounds (the same for every player)."""
        return len(self.players[0].rounds) if self.players else 0


# --- reading -------------------------------------------------------------------------------


def decode(data: bytes) -> str:
    """The text of a results file: UTF-8 when it is (pairgoth can write it), else Latin-9, what
    OpenGotha writes (it differs from Latin-1 in eight letters, among them Š š Ž ž of Czech and
    Slovene names; Latin-1's ``½ ¼ ¾`` there are never in a name).

    >>> decode("Léo".encode("utf-8")), decode("Léo Šimon".encode("iso-8859-15"))
    ('Léo', 'Léo Šimon')
    >>> decode(b"\\xef\\xbb\\xbf; CL[A]")
    '; CL[A]'
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode(ENCODING)
    return text.removeprefix("\ufeff")


def parse_round(token: str) -> EgfRound | None:
    """One result token, or ``None`` when it is not one (see the module's grammar)."""
    forfeit = token.endswith("!") and len(token) > 1 and token[-2] not in "/!"
    rest = token[:-1] if forfeit else token
    digits = len(rest) - len(rest.lstrip("0123456789"))
    if digits == 0 or digits > 5 or len(rest) == digits or rest[digits] not in _OUTCOMES:
        return None
    opponent = int(rest[:digits])
    outcome: Outcome = rest[digits]  # type: ignore[assignment]  # checked in _OUTCOMES
    tail = rest[digits + 1 :]
    if tail[:1] in ("/", "!"):
        forfeit = forfeit or tail[0] == "!"
        tail = tail[1:]
    elif tail and tail[0].lower() not in _COLORS and not tail.isdigit():
        return None
    color: Color = ""
    if tail[:1].lower() in ("w", "b", "?") and tail[:1]:
        color = tail[0].lower()  # type: ignore[assignment]  # one of _COLORS
        tail = tail[1:]
    if tail and not (tail.isdigit() and tail.isascii() and len(tail) <= 2):
        return None
    if opponent == 0:
        if outcome == "?" or color or forfeit:
            return None
        return EgfRound(0, outcome, "", 0, handicap_given=False)
    return EgfRound(opponent, outcome, color, int(tail or 0), forfeit, bool(tail))


def parse_rank(token: str) -> str | None:
    """``3D`` → ``3d``, ``10K`` → ``10k``, ``5`` → ``5k`` (a bare number is a kyu grade in old
    tables), ``1P`` → ``1p``; ``None`` when it is no grade (30k…1k, 1d…9d, 1p…9p).

    >>> [parse_rank(t) for t in ("3D", "10K", "5", "1p", "9d", "31k", "Li")]
    ['3d', '10k', '5k', '1p', '9d', None, None]
    """
    text = token.lower()
    scale = text[-1:] if text[-1:] in ("k", "d", "p") else "k"
    number = text[:-1] if text[-1:] in ("k", "d", "p") else text
    if not (number.isdigit() and number.isascii() and len(number) <= 2):
        return None
    level = int(number)
    if not 1 <= level <= (30 if scale == "k" else 9):
        return None
    return f"{level}{scale}"


def read_h9(text: str, source: str = "results.h9") -> EgfResults:
    """The table in ``text`` (see :func:`decode` for bytes). Every bad line is reported at once
    by line number (``RowsRejected``); a file over ``MAX_H9_BYTES`` is refused whole.

    >>> table = "; Pl Name Rk Co Club MMS\\n 1 Li Wei 3d CN Bj 2 2+\\n 2 Wang Fang 3k CN Bj 1 1x\\n"
    >>> read_h9(table)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    weiqi.errors.RowsRejected: results.h9, line 3: round 1: 1x is not a result (such as 2+/w0, ...)
    """
    check_upload(source, text, max_bytes=MAX_H9_BYTES)
    header: list[tuple[str, str]] = []
    comments: list[str] = []
    criteria: tuple[str, ...] | None = None
    rows: list[tuple[int, _Row]] = []
    problems: list[tuple[int, Msg]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith(";"):
            body = line[1:].strip()
            key_value = _header_field(body)
            if key_value is not None:
                header.append(key_value)
            elif criteria is None and _is_column_line(body):
                criteria = _column_names(body)
            elif body and body != ".":
                comments.append(body)
            continue
        try:
            rows.append((number, _split_row(line.split(";", 1)[0])))
        except InputError as err:
            problems.append((number, err.reason))
        if len(problems) >= MAX_PROBLEMS:
            break
    names = criteria or ()
    players = _players(rows, names, problems) if not problems else []
    if problems:
        raise RowsRejected(source, problems)
    if criteria is None:
        width = len(players[0].criteria) if players else 0
        names = ("",) * width
    return EgfResults(tuple(header), names, tuple(players), tuple(comments))


@dataclass(frozen=True)
class _Row:
    """A player line cut into its fields, before the columns are counted."""

    place: int | None
    surname: str
    given_name: str
    rank: str
    country: str
    club: str
    columns: tuple[str, ...]
    pin: str


def _header_field(body: str) -> tuple[str, str] | None:
    key, bracket, rest = body.partition("[")
    key = key.strip()
    if not bracket or not rest.endswith("]") or len(key) != 2 or not key.isalpha():
        return None
    if not key.isascii() or not key.isupper():
        return None
    return key, rest[:-1]


def _is_column_line(body: str) -> bool:
    words = body.split()
    return len(words) >= 2 and words[0].lower() == "pl" and words[1].lower() == "name"


def _column_names(body: str) -> tuple[str, ...]:
    """The score columns of the column line: after ``Club`` (or the fifth word)."""
    at = body.find("Club")
    rest = body[at + len("Club") :] if at >= 0 else " ".join(body.split()[5:])
    chunks = [rest[i : i + 5] for i in range(0, len(rest), 5)]
    fixed = (
        bool(rest)
        and len(rest) % 5 == 0
        and all(c.strip() and " " not in c.strip() and c == c.rstrip() for c in chunks)
    )
    names = [c.strip() for c in chunks] if fixed else rest.split()
    # Some programs label the result columns ("1.", "2.", …): those are not scores.
    return tuple(n for n in names if not (n.endswith(".") and n[:-1].isdigit()))


def _split_row(line: str) -> _Row:
    main, bar, trailer = line.partition("|")
    pin = trailer.split()[0] if bar and trailer.split() else ""
    words = main.split()
    if not words:
        raise InputError("", Msg("an empty player line"))
    place: int | None = None
    if words[0].isdigit() and words[0].isascii():
        place = int(words.pop(0))
        if place < 1:
            raise InputError("", Msg("place %(place)s is not 1 or more", place=place))
    # A grade with its letter first (``3d``); a bare number (old tables' kyu) only if none.
    grade_at = next(
        (i for i in range(1, len(words)) if words[i][-1:].isalpha() and parse_rank(words[i])),
        next((i for i in range(1, len(words)) if parse_rank(words[i]) is not None), None),
    )
    if not words or grade_at is None:
        raise InputError("", Msg("no grade after the name (3d, 10k, 1p)"))
    if len(words) < grade_at + 3:
        raise InputError("", Msg("no country and club after the grade"))
    rank = parse_rank(words[grade_at]) or ""
    surname = _unblank(words[0])
    given = " ".join(_unblank(w) for w in words[1:grade_at])
    country = words[grade_at + 1]
    club = words[grade_at + 2]
    return _Row(
        place,
        surname,
        given,
        rank,
        "" if country == NO_COUNTRY else country,
        "" if club == NO_CLUB else club,
        tuple(words[grade_at + 3 :]),
        pin,
    )


def _unblank(word: str) -> str:
    return word.replace("_", " ")


def _trailing_results(columns: Sequence[str]) -> int:
    count = 0
    for token in reversed(columns):
        if parse_round(token) is None:
            break
        count += 1
    return count


def _players(
    rows: Sequence[tuple[int, _Row]], names: tuple[str, ...], problems: list[tuple[int, Msg]]
) -> list[EgfPlayer]:
    """The rows with their columns split into scores, extra columns and rounds."""
    scores = len(names)
    # The number of rounds is what most lines have: a line with fewer is a bad result, a line
    # with more has a result-like extra column (``0=`` written as padding by some programs).
    counts = Counter(min(_trailing_results(r.columns), len(r.columns) - scores) for _, r in rows)
    rounds = counts.most_common(1)[0][0] if counts else 0
    rounds = max(rounds, 0)
    if rounds > MAX_ROUNDS:
        problems.append(
            (rows[0][0], Msg("more than %(limit)s rounds", limit=MAX_ROUNDS)),
        )
        return []
    players: list[EgfPlayer] = []
    previous_place = 0
    for index, (number, row) in enumerate(rows, start=1):
        got = _trailing_results(row.columns)
        if got < rounds and len(row.columns) >= rounds:
            bad = row.columns[len(row.columns) - got - 1]
            problems.append(
                (
                    number,
                    Msg(
                        "round %(round)s: %(text)s is not a result (such as 2+/w0, 5-/b2, 0=)",
                        round=rounds - got,
                        text=bad,
                    ),
                )
            )
            continue
        if len(row.columns) < scores + rounds:
            problems.append(
                (
                    number,
                    Msg(
                        "%(found)s columns after the club, %(expected)s expected "
                        "(%(scores)s scores and %(rounds)s rounds)",
                        found=len(row.columns),
                        expected=scores + rounds,
                        scores=scores,
                        rounds=rounds,
                    ),
                )
            )
            continue
        try:
            values = tuple(
                _score(text, name) for text, name in zip(row.columns[:scores], names, strict=True)
            )
        except InputError as err:
            problems.append((number, err.reason))
            continue
        extra = row.columns[scores : len(row.columns) - rounds]
        # Drop the ``0`` columns that pad the scores to four (what write_h9 adds back).
        while extra and extra[-1] == "0" and scores + len(extra) <= PAD_SCORES:
            extra = extra[:-1]
        place = row.place if row.place is not None else previous_place
        if place == 0:
            problems.append((number, Msg("the first player line has no place")))
            continue
        if place < previous_place or place > index:
            problems.append(
                (
                    number,
                    Msg(
                        "place %(place)s after place %(previous)s on line %(index)s of the table",
                        place=place,
                        previous=previous_place,
                        index=index,
                    ),
                )
            )
            continue
        previous_place = place
        results = tuple(
            parse_round(t) or EgfRound(0, "-", "", 0) for t in row.columns[-rounds:] if rounds
        )
        players.append(
            EgfPlayer(
                place,
                row.surname,
                row.given_name,
                row.rank,
                row.country,
                row.club,
                values,
                results,
                row.pin,
                tuple(extra),
            )
        )
        if len(problems) >= MAX_PROBLEMS:
            return players
    if not problems:
        _check_opponents(players, [number for number, _ in rows], problems)
    return players


def _check_opponents(
    players: Sequence[EgfPlayer], lines: Sequence[int], problems: list[tuple[int, Msg]]
) -> None:
    """Each game is on both players' lines: A's round r names B and B's names A."""
    for index, player in enumerate(players, start=1):
        for r, game in enumerate(player.rounds, start=1):
            if not game.played:
                continue
            opponent = game.opponent_place
            if opponent > len(players) or opponent == index:
                problems.append(
                    (
                        lines[index - 1],
                        Msg(
                            "round %(round)s: no opponent on line %(opponent)s of the table",
                            round=r,
                            opponent=opponent,
                        ),
                    )
                )
            elif players[opponent - 1].rounds[r - 1].opponent_place != index:
                problems.append(
                    (
                        lines[index - 1],
                        Msg(
                            "round %(round)s: the player on line %(opponent)s of the table "
                            "does not name this one",
                            round=r,
                            opponent=opponent,
                        ),
                    )
                )
            if len(problems) >= MAX_PROBLEMS:
                return


def _score(text: str, criterion: str) -> Score:
    """A score column: ``12``, ``-3``, ``12.5``, ``12,5``, ``12½``, OpenGotha's ``12?``."""
    body, fraction = text, Fraction(0)
    if body[-1:] in _FRACTIONS:
        body, fraction = body[:-1], _FRACTIONS[body[-1]]
    elif body.endswith("?"):
        if criterion.upper() in _QUARTER_CRITERIA:
            raise InputError(
                "",
                Msg(
                    "%(criterion)s %(text)s: OpenGotha wrote ? for a fraction it could not "
                    "encode (a quarter, a half or three quarters)",
                    criterion=criterion,
                    text=text,
                ),
            )
        body, fraction = body[:-1], Fraction(1, 2)
    body = body.replace(",", ".")
    negative = body.startswith("-")
    digits = body[1:] if negative else body
    whole, dot, decimals = digits.partition(".")
    valid = (
        (whole or dot or fraction)
        and (not whole or (whole.isdigit() and whole.isascii()))
        and (not dot or (decimals.isdigit() and decimals.isascii() and not fraction))
        and len(digits) <= 12
    )
    if not valid:
        raise InputError(
            "",
            Msg("%(criterion)s %(text)s is not a number", criterion=criterion or "?", text=text),
        )
    value = Fraction(int(whole or 0)) + fraction
    if dot:
        value += Fraction(int(decimals), 10 ** len(decimals))
    value = -value if negative else value
    return int(value) if value.denominator == 1 else value


# --- writing -------------------------------------------------------------------------------


def write_h9(results: EgfResults, *, pad_scores: int = PAD_SCORES) -> str:
    """The table as OpenGotha lays it out (an OpenGotha file read and written comes back the
    same, byte for byte up to its ``?``): header fields, comments, ``;``, the column line, one
    line a player. Names longer than OpenGotha's 30 characters are written whole.

    A value that would break the table (a ``]`` or line break in a header field, an empty
    surname, a score that is no decimal) is ``InputError`` naming it.
    """
    lines = [f"; {key}[{_header_value(key, value)}]" for key, value in results.header]
    lines += [f"; {_one_line('comment', c)}" for c in results.comments]
    if any(results.criteria) or results.header or results.comments:
        lines.append(";")
    if any(results.criteria):
        names = "".join(f"{name[:5]:>5}" for name in results.criteria)
        lines.append(f"; Pl Name                            Rk Co Club{names}")
    previous = 0
    for player in results.players:
        lines.append(_player_line(player, previous, len(results.criteria), pad_scores))
        previous = player.place
    return "\n".join(lines) + "\n"


def encode(text: str) -> bytes:
    """``text`` in Latin-9, the file's encoding; a character Latin-9 lacks is romanized
    (:func:`weiqi.formats.romanize.latin_text`: 张伟 → Zhang Wei, Łukasz → Lukasz), never written
    as ``?``; one it cannot romanize either is ``InputError`` naming its line.

    >>> encode("   1 Zhang Wei  3D CN Bj\\n")
    b'   1 Zhang Wei  3D CN Bj\\n'
    >>> encode("; EV[北京围棋赛]\\n").decode(ENCODING)
    '; EV[Beijing Wei Qi Sai]\\n'
    >>> encode("   1 Ким Ли\\n")
    Traceback (most recent call last):
    ...
    weiqi.errors.InputError: line 1: К cannot be written in an EGF results file (Latin-9)
    """
    from weiqi.formats.romanize import latin_text

    out: list[bytes] = []
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        try:
            out.append(line.encode(ENCODING))
        except UnicodeEncodeError:
            latin = latin_text(line)
            for char in latin:
                try:
                    char.encode(ENCODING)
                except UnicodeEncodeError:
                    raise InputError(
                        Msg("line %(line)s", line=number),
                        Msg(
                            "%(char)s cannot be written in an EGF results file (Latin-9)",
                            char=char,
                        ),
                    ) from None
            out.append(latin.encode(ENCODING))
    return b"".join(out)


def _header_value(key: str, value: str) -> str:
    if "]" in value:
        raise InputError(key, Msg("a header field cannot contain ]"))
    return _one_line(key, value)


def _one_line(where: str, value: str) -> str:
    if "\n" in value or "\r" in value:
        raise InputError(where, Msg("a line break inside one line of the table"))
    return value


def _blank(where: str, text: str) -> str:
    """A field without spaces (OpenGotha's ``_``), on one line, with no ``;`` or ``|``."""
    word = "_".join(_one_line(where, text).split())
    if ";" in word or "|" in word:
        raise InputError(where, Msg("%(text)s: ; and | cannot be written in the table", text=word))
    return word


def _player_line(player: EgfPlayer, previous: int, scores: int, pad_scores: int) -> str:
    who = f"{player.surname} {player.given_name}".strip()
    surname = _blank(who, player.surname)
    if not surname:
        raise InputError(who, Msg("the surname is empty"))
    if parse_rank(player.rank) is None:
        raise InputError(who, Msg("rank %(rank)s is no EGF grade", rank=player.rank))
    if len(player.criteria) != scores:
        raise InputError(
            who,
            Msg(
                "%(found)s scores for %(expected)s columns",
                found=len(player.criteria),
                expected=scores,
            ),
        )
    place = "" if player.place == previous else str(player.place)
    name = f"{surname} {_blank(who, player.given_name)}"
    line = f"{place:>4} {name:<30} {player.rank.upper():>3}"
    line += (
        f" {_blank(who, player.country) or NO_COUNTRY:>2} {_blank(who, player.club) or NO_CLUB:>4}"
    )
    for value in player.criteria:
        line += f" {_score_text(who, value):>4}"
    line += "".join(f" {_blank(who, e)}" for e in player.extra)
    line += " 0" * max(0, pad_scores - scores - len(player.extra))
    for game in player.rounds:
        text = game.text()
        if not game.played:
            text = f"{text:<5}"  # OpenGotha: "   0-   "
        line += f" {text:>8}"
    if player.pin:
        line += f" |{_blank(who, player.pin)}"
    return line


def _score_text(who: str, value: Score) -> str:
    fraction = Fraction(value)
    if fraction.denominator == 1:
        return str(fraction.numerator)
    denominator = fraction.denominator
    twos = fives = 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    if denominator != 1:
        raise InputError(who, Msg("score %(value)s is no decimal number", value=str(fraction)))
    places = max(twos, fives)
    scaled = abs(fraction) * 10**places
    whole, decimals = divmod(int(scaled), 10**places)
    sign = "-" if fraction < 0 else ""
    return f"{sign}{whole}.{decimals:0{places}d}"
