"""Players of an individual event from CSV: all or nothing, bad rows reported by line.

Columns (a header row, any order, English or Chinese names): ``name`` (姓名) is required;
``rank`` (段位: ``5d``, ``2p``, ``3k``, ``初段``…), ``rating`` (等级分), ``club`` (俱乐部),
``country`` (国家), ``region`` (地区), ``birth_date`` (出生日期, YYYY-MM-DD), ``licence`` (证号:
an explicit ID, such as a federation number) are optional. Other columns are kept as extra
fields. Two rows may share a name when the club, the birth date or the licence tells them apart
(two 张伟 from different clubs); the same player twice is refused.

>>> rows = parse_players_csv('''name,rank,rating,club,country,birth_date,email
... Li Wei,5d,2400,Beijing,CN,1990-02-03,li@example.org
... Wang Fang,3k,,Shanghai,CN,,
... ''')
>>> [(r.name, str(r.rank), r.rating) for r in rows]
[('Li Wei', '5d', 2400.0), ('Wang Fang', '3k', None)]
>>> rows[0].extra
(('email', 'li@example.org'),)
>>> try:
...     parse_players_csv("name,rank\\nA,5d\\nB,12d\\nA,1k\\n")
... except RowsRejected as err:
...     [(line, str(why)) for line, why in err.problems]
[(3, 'rank 12d: level must be 1..9'), (4, 'A already on line 2')]
>>> [(r.name, r.club) for r in parse_players_csv("姓名,俱乐部\\n张伟,北京\\n张伟,上海\\n")]
[('张伟', '北京'), ('张伟', '上海')]
"""

from __future__ import annotations

import csv
import io
import math
import unicodedata
from dataclasses import dataclass
from datetime import date

from weiqi.errors import InputError, InvalidSetting, RowsRejected
from weiqi.messages import Msg
from weiqi.text import MAX_NOTE_LENGTH, check_upload, clean_name
from weiqi.tournament.ranks import Rank

_ALIASES = {
    "name": ("name", "姓名", "棋手"),
    "rank": ("rank", "段位"),
    "rating": ("rating", "等级分"),
    "club": ("club", "俱乐部"),
    "country": ("country", "nationality", "国家", "国籍"),
    "region": ("region", "地区"),
    "birth_date": ("birth_date", "birthdate", "出生日期"),
    "licence": ("licence", "license", "licence_id", "id", "证号", "注册号"),
}


MAX_LICENCE = 64
"""The longest licence (an ID such as a federation number) kept."""

MAX_RATING = 10_000
"""Larger than any rating list's top (EGF, Chinese 等级分, Elo); beyond it is a typo or junk
(``inf``, ``1e999``) that would otherwise sort first and break JSON output."""


@dataclass(frozen=True)
class PlayerLine:
    line: int
    name: str
    rank: Rank | None
    rating: float | None
    club: str
    country: str
    region: str
    birth_date: date | None
    extra: tuple[tuple[str, str], ...]
    licence: str = ""


def parse_players_csv(text: str, source: str = "players.csv") -> list[PlayerLine]:
    """Every row, or ``RowsRejected`` naming each bad line (nothing is half-read)."""
    text = check_upload(source, text)
    # NFC once for the whole file: every cell is then stored as clean_name would store it.
    text = unicodedata.normalize("NFC", text.lstrip("\ufeff"))
    # strict: an unclosed quote is an error, not a name that swallows the rest of the file.
    reader = csv.reader(io.StringIO(text), strict=True)
    try:
        header = next(reader)
    except StopIteration:
        raise InputError(source, Msg("the file is empty")) from None
    except csv.Error as err:
        raise InputError(
            Msg("%(source)s, line %(line_num)s", source=source, line_num=reader.line_num),
            Msg("not CSV (%(err)s)", err=err),
        ) from None
    columns: dict[str, int] = {}
    extra: list[tuple[str, int]] = []
    for i, raw in enumerate(header):
        key = raw.strip().lower()
        for canonical, names in _ALIASES.items():
            if key in names:
                if canonical in columns:
                    # a header problem is a problem of line 1, like any row's of its line
                    why = Msg("column %(raw)s appears twice", raw=repr(raw))
                    raise RowsRejected(source, [(1, why)])
                columns[canonical] = i
                break
        else:
            if key:
                extra.append((raw.strip(), i))
    if "name" not in columns:
        raise RowsRejected(source, [(1, Msg("a 'name' column is required"))])
    rows: list[PlayerLine] = []
    problems: list[tuple[int, Msg]] = []
    seen: dict[tuple[str, str, date | None, str], int] = {}
    records = enumerate(reader, start=2)
    while True:
        try:
            line, record = next(records)
        except StopIteration:
            break
        except csv.Error as err:
            problems.append((reader.line_num, Msg("not CSV (%(err)s)", err=err)))
            break
        if not any(cell.strip() for cell in record):
            continue

        def cell(name: str, record: list[str] = record) -> str:
            i = columns.get(name)
            return record[i].strip() if i is not None and i < len(record) else ""

        try:
            name = cell("name")
            if not name:
                raise InputError("", Msg("the name is empty"))
            for key in ("name", "club", "country", "region"):
                clean_name(key, cell(key), required=False)
            clean_name("licence", cell("licence"), required=False, max_length=MAX_LICENCE)
            for label, i in extra:
                if i < len(record):
                    clean_name(label, record[i], required=False, max_length=MAX_NOTE_LENGTH)
            surplus = [c for c in record[len(header) :] if c.strip()]
            if surplus:
                raise InputError(
                    "",
                    Msg(
                        "%(record)s cells but the header names %(header)s columns",
                        record=len(record),
                        header=len(header),
                    ),
                )
            rank = Rank.parse(cell("rank")) if cell("rank") else None
            rating = parse_rating(cell("rating"))
            born = parse_birth_date(cell("birth_date"))
            # the same player twice; a namesake differs in club, birth date or licence
            identity = (name, cell("club"), born, cell("licence"))
            if identity in seen:
                raise InputError(
                    "", Msg("%(name)s already on line %(seen)s", name=name, seen=seen[identity])
                )
        except (InputError, InvalidSetting) as err:
            problems.append((line, err.msg))
            continue
        seen[identity] = line
        rows.append(
            PlayerLine(
                line=line,
                name=name,
                rank=rank,
                rating=rating,
                club=cell("club"),
                country=cell("country"),
                region=cell("region"),
                birth_date=born,
                extra=tuple(
                    (label, record[i].strip() if i < len(record) else "") for label, i in extra
                ),
                licence=cell("licence"),
            )
        )
    if problems:
        raise RowsRejected(source, problems)
    return rows


def parse_rating(text: str) -> float | None:
    """A rating cell: empty is ``None``; a number within ``MAX_RATING``, else ``InputError``.

    >>> parse_rating("2400"), parse_rating("")
    (2400.0, None)
    """
    if not text:
        return None
    try:
        rating = float(text)
    except ValueError:
        raise InputError("", Msg("rating %(text)s is not a number", text=repr(text))) from None
    if not math.isfinite(rating) or abs(rating) > MAX_RATING:
        raise InputError(
            "",
            Msg(
                "rating %(text)s is out of range (at most %(MAX_RATING)s)",
                text=repr(text),
                MAX_RATING=MAX_RATING,
            ),
        )
    return rating


def parse_birth_date(text: str) -> date | None:
    """A birth date cell, YYYY-MM-DD (empty is ``None``), else ``InputError``.

    >>> parse_birth_date("1990-02-03")
    datetime.date(1990, 2, 3)
    """
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise InputError(
            "", Msg("birth date %(text)s is not YYYY-MM-DD", text=repr(text))
        ) from None
